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

  it('runs the hook before the first inline script, and has the API by the time the page has loaded', async () => {
    const seen = await page.evaluate(() => [(window as any).__hookAtFirstInline, (window as any).__apiAtFirstInline, (window as any).__apiAtDCL, (window as any).__apiAtLoad]);
    console.log(`      [foundation] typeof hook / API at the first inline script, API at DOMContentLoaded, at load: ${seen.join(' / ')}`);
    // The API comes with page.js at document_end (docs/ARCHITECTURE.md): not yet at the first inline script.
    expect(seen[0]).to.equal('object');
    expect(seen[1]).to.equal('undefined');
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

  it('connects on a page that replaced postMessage, message listeners and MessageChannel before page.js ran', async () => {
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
    // Runs before our MAIN-world scripts (as no page script can): captures the
    // page-side end of the private channel — the partner of the port that goes out
    // with the handshake — to speak to the content script as a hostile MAIN world would.
    await p.evaluateOnNewDocument(() => {
      const MC = window.MessageChannel;
      const channels: MessageChannel[] = [];
      (window as any).MessageChannel = function () {
        const c = new MC();
        channels.push(c);
        return c;
      };
      const post = window.postMessage;
      (window as any).postMessage = function (this: Window, msg: any, origin: string, transfer?: Transferable[]) {
        if (msg && msg.type === 'handshake' && msg.source === 'layout-cost:page' && transfer?.length) {
          (window as any).__stolen ??= channels.find((c) => c.port2 === transfer[0])?.port1;
        }
        return (post as (m: unknown, o: string, t: Transferable[]) => void).call(this, msg, origin, transfer ?? []);
      };
    });
    await p.goto(h.url('basic-r19.html'));
    await waitFor(() => p.evaluate(() => !!(window as any).__stolen && (window as any).__fixtureReady));
    const sent = await p.evaluate(() => {
      const port = (window as any).__stolen as MessagePort;
      const junk: unknown[] = [
        { junk: 1 }, 'string', null, 42,
        { source: 'layout-cost:page', v: 2, type: 'status', payload: {} },
        { source: 'layout-cost:page', v: 1, type: 'nope', payload: {} },
        { source: 'layout-cost:page', v: 1, type: 'records', payload: { buffer: 'x', count: 1, strings: [], stringBase: 0, dropped: 0 } },
        { source: 'layout-cost:page', v: 1, type: 'records', payload: { buffer: new ArrayBuffer(8), count: 9, strings: [], stringBase: 0, dropped: 0 } },
        { source: 'layout-cost:page', v: 1, type: 'api', payload: { reqId: 1, call: 'eval', mode: null, id: null } },
        { source: 'layout-cost:page', v: 1, type: 'status', payload: { renderers: 1, roots: 1, agent: 'yes' } },
      ];
      for (const j of junk) port.postMessage(j);
      return junk.length;
    });
    await waitFor(async () => (await lc.state(p)).droppedMessages >= sent, { what: 'drops counted' });
    // Still alive: enabling works and the components arrive.
    await lc.enable(p);
    await waitFor(async () => ((await lc.snapshot(p)) as any).components.length > 3, { what: 'components after junk' });
    await lc.disable(p);
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

