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

  it('runs the MAIN-world script before the first inline script', async () => {
    const seen = await page.evaluate(() => [(window as any).__hookAtFirstInline, (window as any).__apiAtFirstInline]);
    expect(seen).to.deep.equal(['object', 'object']);
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
});
