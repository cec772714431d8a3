/**
 * Frames: every frame runs its own hook, agent and overlay. Enabling in the
 * top frame turns the whole tab on; each same-origin iframe with React
 * tracks and draws its own components, in its own closed-shadow host, and
 * their meters show up where the iframe sits in the page.
 */
import { expect } from 'chai';
import type { Frame, Page } from 'puppeteer-core';
import { launch, lc, waitFor, type Harness } from './harness';

describe('frames (e2e)', function () {
  this.timeout(120_000);
  let h: Harness;
  let page: Page;
  before(async () => {
    h = await launch();
    page = await h.newPage('panel-frames.html');
  });
  after(async () => h?.close());

  const reactFrames = (): Frame[] => page.frames().filter((f) => /r19-dev\.html/.test(f.url()));

  it('one toggle in the top frame turns on every frame; each iframe tracks and draws its own components', async () => {
    await waitFor(() => reactFrames().length === 2, { what: 'two React iframes' });
    for (const f of reactFrames()) await waitFor(() => f.evaluate(() => (window as any).__fixtureReady === true));
    expect((await lc.state(page)).react.renderers).to.equal(0);
    await lc.enable(page);
    for (const f of reactFrames()) {
      await waitFor(async () => (await lc.state(f)).mode === 'components', { what: `mode in ${f.url()}` });
      const snap = (await waitFor(async () => {
        const s = (await lc.snapshot(f)) as any;
        return s.components.some((c: any) => c.drawn) ? s : null;
      }, { what: `drawn meters in ${f.url()}`, timeout: 15_000 })) as any;
      expect(snap.components.length).to.be.greaterThan(3);
      // The host lives in the iframe's own document; the top document gets its own (empty) one.
      expect(await f.evaluate(() => document.querySelectorAll('layout-cost-overlay').length)).to.equal(1);
    }
    expect(await page.evaluate(() => document.querySelectorAll('layout-cost-overlay').length)).to.equal(1);
    // Off from an iframe's API turns the whole tab off.
    await lc.disable(reactFrames()[0]);
    await waitFor(async () => (await lc.state(page)).mode === 'off' && (await lc.state(reactFrames()[1])).mode === 'off', { what: 'all off' });
    for (const f of reactFrames()) expect(await f.evaluate(() => document.querySelectorAll('layout-cost-overlay').length)).to.equal(0);
  });
});
