/**
 * Foundation: the real built extension in real headless Chromium.
 */
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { launch, lc, openPanel, waitFor, type Harness } from './harness';

describe('foundation (e2e)', function () {
  this.timeout(90_000);
  let h: Harness;
  let page: Page;

  before(async () => {
    h = await launch();
    page = await h.newPage('basic-r19.html');
    await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: 'fixture' });
  });
  after(async () => h?.close());

  it('the browsers we launch preload no omnibox popup (QUIET_FLAGS: about 3 s of CPU a launch on two cores)', async () => {
    // Chromium 156 preloads its omnibox popups as WebUI pages at every launch, headless too (docs/PERFORMANCE.md,
    // "Twenty-eighth session"). A Chromium that renames the feature brings them back, and this says so.
    const cdp = await h.browser.target().createCDPSession();
    try {
      const { targetInfos } = await cdp.send('Target.getTargets');
      expect(targetInfos.map((t) => t.url).filter((u) => u.startsWith('chrome://omnibox-popup')), 'omnibox popup targets').to.deep.equal([]);
      expect(targetInfos.some((t) => t.url.includes('basic-r19.html')), 'the list holds the page (it lists targets at all)').to.equal(true);
    } finally {
      await cdp.detach().catch(() => undefined);
    }
  });

  it('runs the hook before the first inline script, and has the API by the time the page has loaded', async () => {
    const seen = await page.evaluate(() => [(window as any).__hookAtFirstInline, (window as any).__apiAtFirstInline, (window as any).__apiAtDCL, (window as any).__apiAtLoad]);
    console.log(`      [foundation] typeof hook / API at the first inline script, API at DOMContentLoaded, at load: ${seen.join(' / ')}`);
    // The boot script defines the API at document_start (docs/ARCHITECTURE.md): there before any page script.
    expect(seen[0]).to.equal('object');
    expect(seen[1]).to.equal('object');
    expect(seen[3]).to.equal('object');
  });

  it('exposes the automation API with the documented shape', async () => {
    const shape = await page.evaluate(() => {
      const api = (window as any).__LAYOUT_COST__;
      return {
        version: typeof api.version,
        fns: ['enable', 'disable', 'state', 'snapshot', 'pin'].map((k) => typeof api[k]),
        state: api.state(),
      };
    });
    expect(shape.version).to.equal('string');
    expect(shape.fns).to.deep.equal(['function', 'function', 'function', 'function', 'function']);
    expect(shape.state).to.include({ enabled: false, mode: 'off', pinned: null });
    expect(shape.state.react.renderers).to.equal(1);
    expect(shape.state.react.roots).to.equal(1);
  });

  it('owner(node) names the component React\'s fibers say rendered each element, and 0 for anything else', async () => {
    await lc.enable(page, 'components');
    await waitFor(async () => (await lc.snapshot(page)).components.length > 0, { what: 'components' });
    const snap = await lc.snapshot(page);
    const names = new Map((snap.components as { id: number; name: string }[]).map((c) => [c.id, c.name]));
    const rows = await page.evaluate(() => {
      const api = (window as any).__LAYOUT_COST__;
      const out: [string | null, number][] = [];
      for (const el of Array.from(document.body.querySelectorAll('*'))) {
        const key = Object.keys(el).find((k) => k.startsWith('__reactFiber$'));
        if (!key) continue;
        // The truth: the nearest function, class, forwardRef or memo fiber above the element's own.
        let f = (el as any)[key].return;
        while (f && ![0, 1, 11, 14, 15].includes(f.tag)) f = f.return;
        const t = f ? (f.tag === 14 ? f.type.type : f.type) : null;
        out.push([t ? (t.displayName ?? (t.name || 'Anonymous')) : null, api.owner(el)]);
      }
      const thrower = new Proxy({}, { get() { throw new Error('no'); } });
      out.push(['-', api.owner({})], ['-', api.owner(null)], ['-', api.owner(thrower)], ['-', api.owner(document.createElement('div'))]);
      return out;
    });
    const elements = rows.slice(0, -4);
    expect(elements.length).to.be.greaterThan(5);
    for (const [truth, id] of elements) expect(names.get(id) ?? null, `owner ${id}`).to.equal(truth);
    expect(rows.slice(-4).map((r) => r[1])).to.deep.equal([0, 0, 0, 0]);
    await lc.disable(page);
    await waitFor(async () => (await lc.state(page)).mode === 'off', { what: 'off' });
  });

  it('delivers page → content → worker → panel and back', async () => {
    const { panel, devtools } = await openPanel(h, page);
    // page → … → panel: enabling through the page API shows up in the panel.
    await lc.enable(page, 'heatmap');
    await waitFor(() => panel.evaluate(() => (globalThis as any).__panelState?.mode === 'heatmap'), { what: 'panel sees heatmap' });
    await waitFor(() => panel.evaluate(() => (globalThis as any).__panelState?.status?.renderers === 1), { what: 'panel status' });
    // panel → … → page: the panel's mode switch reaches the page.
    await panel.select('#mode', 'inspect');
    await waitFor(async () => (await lc.state(page)).mode === 'inspect', { what: 'page sees inspect' });
    await lc.disable(page);
    await waitFor(async () => (await lc.state(page)).mode === 'off', { what: 'off' });
    await devtools.close();
  });

  it('hosts the overlay in one closed shadow root that takes no pointer events', async () => {
    const before = await page.evaluate(() => document.querySelectorAll('*').length);
    await lc.enable(page);
    await waitFor(() => page.evaluate(() => document.querySelector('layout-cost-overlay') !== null), { what: 'host' });
    const info = await page.evaluate(() => {
      const host = document.querySelector('layout-cost-overlay') as HTMLElement;
      const cs = getComputedStyle(host);
      return {
        count: document.querySelectorAll('*').length,
        shadowRoot: host.shadowRoot, // closed: not reachable
        pointerEvents: cs.pointerEvents, position: cs.position, contain: cs.contain,
        hit: document.elementFromPoint(20, 20)?.tagName,
      };
    });
    expect(info.count).to.equal(before + 1);
    expect(info.shadowRoot).to.equal(null);
    expect(info.pointerEvents).to.equal('none');
    expect(info.position).to.equal('fixed');
    expect(info.contain).to.equal('strict');
    expect(info.hit).to.not.equal('LAYOUT-COST-OVERLAY');
    await lc.disable(page);
    await waitFor(() => page.evaluate(() => document.querySelector('layout-cost-overlay') === null), { what: 'host removed' });
  });

  it('connects on a page that replaced postMessage, message listeners, MessageChannel and MessagePort', async () => {
    const p = await h.browser.newPage();
    await p.goto(h.url('hostile-globals.html'), { waitUntil: 'load' });
    await waitFor(() => p.evaluate(() => (window as any).__fixtureReady === true), { what: 'fixture' });
    await lc.enable(p);
    const snap = await waitFor(async () => {
      const s = (await lc.snapshot(p)) as { components: unknown[] };
      return s.components.length > 3 ? s : null;
    }, { what: 'components on the hostile page' });
    expect(snap.components.length).to.be.greaterThan(3);
    const st = await lc.state(p);
    expect(st.mode).to.equal('components');
    expect(st.droppedMessages).to.equal(0);
    // The page's wrappers were never used by the extension (React's scheduler may use MessageChannel itself).
    const stillThrows = await p.evaluate(() => { try { window.postMessage('x', '*'); return false; } catch { return true; } });
    expect(stillThrows).to.equal(true);
    await lc.disable(p);
    await p.close();
  });

  it('drops and counts malformed and wrong-version messages, and keeps working', async () => {
    const p = await h.browser.newPage();
    // Runs before our MAIN-world scripts (as no page script can): it learns the offer's type (which carries the secret)
    // as the boot registers its listener, registers a capture listener of its own for it first and so takes the content
    // script's end of the private channel before the boot script can, to speak to the content script as a hostile
    // MAIN world would (a page itself cannot: hostile-page.test.ts).
    await p.evaluateOnNewDocument(() => {
      const got: unknown[] = [];
      (window as any).__fromContent = got;
      const add = EventTarget.prototype.addEventListener;
      EventTarget.prototype.addEventListener = function (this: EventTarget, type: string, ...rest: unknown[]) {
        if (this === window && type.startsWith('layout-cost:offer:')) {
          add.call(window, type, (ev: Event) => {
            const e = ev as MessageEvent;
            // Taken as the MAIN boot takes it (an offer nobody cancels is closed by the content script).
            e.stopImmediatePropagation();
            e.preventDefault();
            const port = e.ports[0];
            port.onmessage = (m) => got.push(m.data);
            (window as any).__stolen = port;
          }, true);
        }
        return (add as (...a: unknown[]) => void).call(this, type, ...rest);
      } as typeof add;
    });
    await p.goto(h.url('basic-r19.html'), { waitUntil: 'load' });
    // The channel is made when wanted: the wake the MAIN boot would send on the page's first API call.
    await p.evaluate(() => window.dispatchEvent(new Event('layout-cost:wake')));
    await waitFor(() => p.evaluate(() => !!(window as any).__stolen && (window as any).__fixtureReady));
    const sent = await p.evaluate(() => {
      const port = (window as any).__stolen as MessagePort;
      const junk: unknown[] = [
        { junk: 1 }, 'string', null, 42,
        { source: 'layout-cost:page', v: 2, type: 'status', payload: {} },
        { source: 'layout-cost:page', v: 1, type: 'nope', payload: {} },
        { source: 'layout-cost:page', v: 1, type: 'records', payload: { buffer: 'x', count: 1, strings: [], stringBase: 0, dropped: 0 } },
        { source: 'layout-cost:page', v: 1, type: 'records', payload: { buffer: new ArrayBuffer(8), count: 9, strings: [], stringBase: 0, dropped: 0 } },
        { source: 'layout-cost:page', v: 1, type: 'api', payload: { reqId: 1, call: 'eval', args: [] } },
        { source: 'layout-cost:page', v: 1, type: 'status', payload: { renderers: 1, roots: 1, agent: 'yes' } },
      ];
      for (const j of junk) port.postMessage(j);
      return junk.length;
    });
    // The content script tells the MAIN world its drop count in its `state` messages.
    const dropped = (): Promise<number> => p.evaluate(() => Math.max(0, ...((window as any).__fromContent as any[])
      .filter((m) => m?.type === 'state').map((m) => m.payload.dropped as number)));
    await waitFor(async () => (await dropped()) >= sent, { what: 'drops counted' });
    // Still alive: a valid call after the junk is answered.
    await p.evaluate(() => (window as any).__stolen.postMessage(
      { source: 'layout-cost:page', v: 1, type: 'api', payload: { reqId: 7, call: 'snapshot', args: [] } }));
    await waitFor(() => p.evaluate(() => ((window as any).__fromContent as any[])
      .some((m) => m?.type === 'apiResult' && m.payload.reqId === 7 && Array.isArray(m.payload.result.result?.components))),
    { what: 'a snapshot answered after the junk' });
    await p.close();
  });

  it('the service worker drops and counts malformed messages from a port', async () => {
    const worker = await h.worker();
    const before = await worker.evaluate(() => (globalThis as any).__layoutCostBackground.drops.count as number);
    const p = await h.browser.newPage();
    await p.goto(`chrome-extension://${h.extensionId}/devtools.html`);
    await p.evaluate(() => {
      const port = chrome.runtime.connect({ name: 'layout-cost-panel' });
      port.postMessage({ junk: true });
      port.postMessage({ source: 'layout-cost:panel', v: 99, type: 'hello', payload: { tabId: 1 } });
      port.postMessage({ source: 'layout-cost:panel', v: 1, type: 'setMode', payload: { mode: 'turbo' } });
    });
    await waitFor(async () => (await worker.evaluate(() => (globalThis as any).__layoutCostBackground.drops.count as number)) >= before + 3,
      { what: 'worker drops' });
    await p.close();
  });
});

