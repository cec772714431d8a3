/**
 * Honest states and the pinned view's deeper parts on real pages: no React,
 * minified names, sampled forced-reflow stacks, and "Reveal in Elements"
 * selecting the component's first host node in the real Elements panel.
 */
import { expect } from 'chai';
import type { Frame, Page } from 'puppeteer-core';
import { launch, lc, openPanel, waitFor, type Harness } from './harness';
import { panelState, rowSel, snapshot, waitForRows } from './panel-helpers';

describe('DevTools panel states (e2e)', function () {
  this.timeout(120_000);
  let h: Harness;
  let page: Page;
  let devtools: Page;
  let panel: Frame;

  before(async () => {
    h = await launch();
    page = await h.newPage('plain.html');
    ({ devtools, panel } = await openPanel(h, page));
  });
  after(async () => h?.close());

  const notice = (id: string) => panel.$eval(`[data-notice="${id}"]`, (n) => n.textContent).catch(() => null);

  it('says "No React, Vue or Preact on this page" on a page without React', async () => {
    await waitFor(async () => (await notice('no-react')) !== null, { what: 'no-react notice' });
    expect(await notice('no-react')).to.equal('No React, Vue or Preact on this page');
    expect(await notice('react-off')).to.equal(null);
  });

  it('says names look minified when they do (measured from the names), not because React is a production build', async () => {
    // Production React, a minified bundle, readable names (displayName everywhere): no notice.
    await page.goto(h.url('counts-r19.html'), { waitUntil: 'load' });
    await waitFor(async () => (await notice('react-off')) !== null, { what: 'react-off' });
    await lc.enable(page);
    await waitFor(async () => ((await lc.snapshot(page)) as any).components.length > 0, { what: 'components' });
    // A types pass (once a second) has looked at the names.
    await waitFor(() => page.evaluate(() => (window as any).__LAYOUT_COST__.internals().typePasses > 0), { what: 'a types pass' });
    expect(await notice('minified')).to.equal(null);
    expect((await lc.state(page)).minified).to.equal(false);
    await lc.disable(page);
    // A minified app without source maps (basic's names are mangled): the notice, and what it could not do.
    await page.goto(h.url('basic-r19.html'), { waitUntil: 'load' });
    await lc.enable(page);
    await waitFor(async () => /^Names look minified/.test((await notice('minified')) ?? ''), { what: 'minified notice' });
    expect(await notice('no-react')).to.equal(null);
    await lc.disable(page);
  });

  it('shows sampled forced-reflow stacks and forced ms for the pinned component', async () => {
    await page.goto(h.url('timing-forced-r19.html'), { waitUntil: 'load' });
    await lc.enable(page);
    await page.evaluate(() => (window as any).__work.start());
    try {
      const measurer = await waitFor(async () => (await snapshot(page)).components.find((c) => c.name === 'Measurer'), { what: 'Measurer' });
      await panel.$eval('#filter', (i) => { (i as HTMLInputElement).value = 'Measurer'; i.dispatchEvent(new Event('input')); });
      await waitForRows(panel, (r) => r.some((x) => x.id === measurer.id), 'Measurer row');
      // Panel → worker → content → page and back, beside a CPU hog: give the round trip more than the default. The
      // table re-renders twice a second under a busy page, and a mouse click can meet a row being replaced: click
      // again (as a user would) if the pin has not arrived after a few seconds.
      let clicked = 0;
      await waitFor(async () => {
        if ((await lc.state(page)).pinned === measurer.id) return true;
        if (Date.now() - clicked > 4000) {
          clicked = Date.now();
          await panel.click(rowSel(measurer.id)).catch(() => undefined);
        }
        return false;
      }, { what: 'pinned Measurer', timeout: 20_000 });
      await waitFor(() => panel.$$eval('.stacks details', (d) => d.length > 0), { what: 'a sampled stack', timeout: 15_000 });
      const first = await panel.$eval('.stacks details pre', (p) => p.textContent ?? '');
      const lines = first.split('\n');
      expect(lines.every((l) => l.length <= 200)).to.equal(true);
      // Frames of the page only (the agent's own wrapper frames are cut), the top one where the reflow was forced:
      // Measurer's `offsetHeight` read right after its width write, looked up in the fixture's bundle.
      expect(lines.every((l) => /^at /.test(l)), first).to.equal(true);
      expect(first).to.not.include('chrome-extension://');
      const top = /^at (?:.* \()?(http:\/\/127\.0\.0\.1:\d+\/build\/fixtures\/timing-forced-r19\.js):(\d+):(\d+)\)?$/.exec(lines[0]);
      expect(top, `top frame: ${lines[0]}`).to.not.equal(null);
      const source = (await (await fetch(top![1])).text()).split('\n')[Number(top![2]) - 1] ?? '';
      const col = Number(top![3]) - 1;
      expect(source.slice(col, col + 12), `what ${lines[0]} points at`).to.equal('offsetHeight');
      expect(source.slice(Math.max(0, col - 80), col), 'Measurer\'s width write just before it').to.match(/\*\s*101\)\s*%\s*400/);
      const forced = await panel.$eval('.m-forced .mv', (n) => Number(n.textContent));
      expect(forced).to.be.greaterThan(0);
    } finally {
      // Even when a check fails: the next test needs the table unfiltered.
      await page.evaluate(() => (window as any).__work.stop());
      await panel.$eval('#filter', (i) => { (i as HTMLInputElement).value = ''; i.dispatchEvent(new Event('input')); });
    }
  });

  it('"Reveal in Elements" selects the component’s first host node', async () => {
    await page.goto(h.url('basic-r19-dev.html'), { waitUntil: 'load' });
    await lc.enable(page);
    const list = await waitFor(async () => (await snapshot(page)).components.find((c) => c.name === 'List'), { what: 'List' });
    await waitFor(() => panel.$(rowSel(list.id)), { what: 'List row' });
    await panel.click(rowSel(list.id));
    await waitFor(() => panel.$eval('#pinned-name', (n) => n.textContent === 'List'), { what: 'List pinned' });
    const selectedNode = () => devtools.evaluate(async () => {
      // @ts-expect-error DevTools-internal module paths, resolved inside the DevTools frontend
      const UI = await import('./ui/legacy/legacy.js');
      // @ts-expect-error as above
      const SDK = await import('./core/sdk/sdk.js');
      const node = UI.Context.Context.instance().flavor(SDK.DOMModel.DOMNode);
      return node ? `${node.nodeName()}#${node.getAttribute('id') ?? ''}` : null;
    });
    // After a navigation DevTools selects its default node (BODY) on its own once the new document arrives; a
    // reveal that lands before that is overwritten by it. Let DevTools settle first, as a user's click would.
    await waitFor(selectedNode, { what: 'DevTools default selection', timeout: 5_000 }).catch(() => null);
    await panel.click('#reveal');
    const selected = await waitFor(async () => {
      const s = await selectedNode();
      return s === 'UL#list' ? s : null;
    }, { what: 'UL#list selected in Elements', timeout: 5_000 }).catch(() => selectedNode());
    expect(selected).to.equal('UL#list');
    expect(await panelState<number | null>(panel, 's.pinnedId')).to.equal(list.id);
  });

  it('says "Measurement degraded" with the reason when the page replaces requestAnimationFrame', async () => {
    await page.goto(h.url('basic-r19-dev.html'), { waitUntil: 'load' });
    await lc.enable(page);
    await waitFor(async () => (await lc.state(page)).agent === true, { what: 'agent' });
    expect(await notice('degraded')).to.equal(null);
    await page.evaluate(() => {
      window.requestAnimationFrame = (cb: FrameRequestCallback) => window.setTimeout(() => cb(performance.now()), 16);
      (window as any).__setItems(['x', 'y']);
    });
    await waitFor(async () => /^Measurement degraded: .*requestAnimationFrame/.test((await notice('degraded')) ?? ''), { what: 'degraded notice' });
  });

  it('self-healing (issue 67): while a built-in throws for our calls the status line says so; once it is back, the line goes', async () => {
    await page.goto(h.url('hostile-patched.html'), { waitUntil: 'load' });
    await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: 'fixture' });
    await lc.enable(page);
    await waitFor(async () => (await lc.state(page)).agent === true, { what: 'agent' });
    await waitFor(async () => (await notice('degraded')) === null, { what: 'no notice before' });
    await page.evaluate(() => {
      (window as any).__patches.pushThrow();
      (window as any).__setItems(['x', 'y']);
    });
    await waitFor(async () => /^Measurement degraded: .*Array\.prototype\.push/.test((await notice('degraded')) ?? ''), { what: 'the degraded line' });
    await page.evaluate(() => (window as any).__restore());
    await waitFor(async () => (await notice('degraded')) === null, { what: 'the line gone once converged' });
  });
});
