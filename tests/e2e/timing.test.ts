/**
 * Layout timing end to end: frame totals against Chrome's own trace,
 * attribution of frame and forced cost, rAF semantics, hostile pages, and
 * off means off. Figures are printed (`[timing]` lines) for docs/TIMING.md.
 */
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { launch, lc, waitFor, type Harness } from './harness';
import { markWindow, styleLayoutWithin, traced } from './timing-trace';

interface Comp {
  id: number;
  name: string;
  parentId: number | null;
  styleMs: number;
  layoutMs: number;
  forcedMs: number;
}
interface Snap {
  frames: { count: number; styleMsTotal: number; layoutMsTotal: number; forcedMsTotal: number };
  page: { styleMs: number; layoutMs: number; forcedMs: number };
  components: Comp[];
}

const snap = async (page: Page): Promise<Snap> => (await lc.snapshot(page)) as Snap;
const log = (...args: unknown[]): void => console.log('    [timing]', ...args);

/** The snapshot once no frame has been measured for a while: the page is quiet. */
async function settled(page: Page): Promise<Snap> {
  let last = -1;
  const s = await waitFor(async () => {
    const s = await snap(page);
    const quiet = s.frames.count === last;
    last = s.frames.count;
    return quiet ? s : null;
  }, { interval: 300, timeout: 15_000, what: 'a quiet page' });
  return s as Snap;
}

async function openFixture(h: Harness, file: string): Promise<Page> {
  const page = await h.newPage(file);
  await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: 'fixture' });
  return page;
}

async function enableAndFind(page: Page, name: string): Promise<void> {
  await lc.enable(page);
  await waitFor(async () => (await snap(page)).components.some((c) => c.name === name), { what: `component ${name}` });
}

/** Runs the fixture's `__work` until `frames` more frames were measured, then stops it. */
async function runWork(page: Page, frames: number): Promise<void> {
  const start = (await snap(page)).frames.count;
  await page.evaluate(() => (window as any).__work.start());
  try {
    await waitFor(async () => (await snap(page)).frames.count >= start + frames, { timeout: 60_000, what: `${frames} frames` });
  } finally {
    await page.evaluate(() => (window as any).__work.stop());
  }
}

describe('layout timing (e2e)', function () {
  this.timeout(180_000);
  let h: Harness;
  before(async () => {
    h = await launch();
  });
  after(async () => h?.close());

  describe('on steady layout work (timing-load)', () => {
    let page: Page;
    before(async () => {
      page = await openFixture(h, 'timing-load-r19.html');
      await enableAndFind(page, 'Heavy');
      await runWork(page, 20); // warm up: JIT, first layouts
      await settled(page);
    });
    after(async () => page?.close());

    it('frame style+layout totals agree with the trace\'s UpdateLayoutTree + Layout within 10 %', async () => {
      let s0: Snap | null = null;
      let s1: Snap | null = null;
      const events = await traced(page, async () => {
        s0 = await settled(page);
        await page.evaluate(() => performance.mark('lc-accuracy-start'));
        await runWork(page, 150);
        s1 = await settled(page);
        await page.evaluate(() => performance.mark('lc-accuracy-end'));
      });
      const a = s0 as unknown as Snap, b = s1 as unknown as Snap;
      const truth = styleLayoutWithin(events, markWindow(events, 'lc-accuracy-start', 'lc-accuracy-end'));
      const style = b.frames.styleMsTotal - a.frames.styleMsTotal;
      const layout = b.frames.layoutMsTotal - a.frames.layoutMsTotal;
      const forced = b.frames.forcedMsTotal - a.frames.forcedMsTotal;
      const frames = b.frames.count - a.frames.count;
      const ours = style + layout;
      const theirs = truth.styleMs + truth.layoutMs;
      log(`accuracy: ${frames} frames; ours style ${style.toFixed(1)} + layout ${layout.toFixed(1)} = ${ours.toFixed(1)} ms`
        + ` (forced ${forced.toFixed(1)}); trace UpdateLayoutTree ${truth.styleMs.toFixed(1)} (${truth.styleEvents})`
        + ` + Layout ${truth.layoutMs.toFixed(1)} (${truth.layoutEvents}) = ${theirs.toFixed(1)} ms;`
        + ` error ${((ours / theirs - 1) * 100).toFixed(1)} %`);
      expect(frames).to.be.at.least(150);
      expect(theirs).to.be.greaterThan(frames * 0.5, 'the fixture does real layout work every frame');
      expect(Math.abs(ours - theirs) / theirs).to.be.below(0.10);
    });
  });
});
