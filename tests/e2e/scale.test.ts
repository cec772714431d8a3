/**
 * Scale: a React tree of 50 000 components. Enabling must not lose
 * components (the ring hands records over before it fills), must not freeze
 * the page, and the overlay must cap what it draws.
 */
import { expect } from 'chai';
import { launch, lc, waitFor, type Harness } from './harness';

describe('scale (e2e)', function () {
  this.timeout(180_000);
  let h: Harness;
  before(async () => {
    h = await launch();
  });
  after(async () => h?.close());

  it('50 000 components: all tracked, nothing dropped, drawing capped, no freeze', async () => {
    const page = await h.newPage('big.html');
    await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { timeout: 30_000 });
    // The reference, measured in this run: the page's own longest frame, which holds React's mount of the same 50 000
    // components and their first style and layout (the browser's long-animation-frame entries). React 19 mounts in a
    // task after the script that set __fixtureReady: the leaves are waited for, then the frame after them, and the
    // entries read over half a second (one read as the script's own 267 ms, before the mount's entry came).
    await waitFor(() => page.evaluate(() => document.querySelectorAll('.leaf').length === 50_000), { timeout: 30_000, what: 'the mount' });
    const mountMs = await page.evaluate(() => new Promise<number>((done) => {
      let max = 0;
      const po = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) max = Math.max(max, e.duration);
      });
      po.observe({ type: 'long-animation-frame', buffered: true });
      // No long frame at all: 0, which the check below fails (no reference, no ratio).
      requestAnimationFrame(() => setTimeout(() => { po.disconnect(); done(max); }, 500));
    }));
    expect(mountMs, 'the page\'s mount as a long animation frame').to.be.greaterThan(0);
    /** Enables and waits for every component: the longest gap of the page's 50 ms heartbeat meanwhile. */
    const enableGap = async (): Promise<number> => {
      await page.evaluate(() => { (window as any).__maxGapMs = 0; });
      await lc.enable(page);
      // Poll the agent's own table (cheap) rather than snapshot() (50 000 components of JSON each time).
      await waitFor(() => page.evaluate(() => {
        const st = (window as any).__LAYOUT_COST__.internals();
        return st && st.entries >= 50_101 && st.pendingRecounts === 0 && st.ring === 0;
      }), { timeout: 60_000, interval: 250, what: '50 101 components tracked' });
      return page.evaluate(() => (window as any).__maxGapMs as number);
    };
    let gap = await enableGap();
    // Beside a CPU hog and two other browsers one gap read 3 463 ms against a mount of 2 995 (another run's, earlier
    // the same day: 1 764 against 4 261): a miss is measured again, off and on, twice at most; a freeze misses three times.
    for (let i = 0; i < 2 && gap >= mountMs; i++) {
      process.stdout.write(`    [scale] gap ${gap.toFixed(0)} ms against a mount of ${mountMs.toFixed(0)}: enabled once more\n`);
      await lc.disable(page);
      await waitFor(async () => (await lc.state(page)).mode === 'off', { what: 'off' });
      gap = await enableGap();
    }
    const snap = await waitFor(async () => {
      const s = (await lc.snapshot(page)) as any;
      return s.components.length >= 50_101 && s.components.every((c: any) => c.name !== 'Section' || c.rendered === 501) ? s : null;
    }, { timeout: 30_000, interval: 1000, what: '50 101 components with counts in the snapshot' });
    expect(snap.droppedEvents).to.equal(0);
    const app = snap.components.find((c: any) => c.name === 'App');
    expect(app.authored).to.equal(1 + 100 * 501);
    const drawn = snap.components.filter((c: any) => c.drawn).length;
    expect(drawn).to.be.at.most(500);
    process.stdout.write(`    [scale] longest main-thread gap while enabling: ${gap.toFixed(0)} ms; the page's mount: ${mountMs.toFixed(0)} ms\n`);
    // A ratio, not a time (issue 62): enabling may not hold the page as long as the page's own mount of the same tree.
    // Quiet, 269–291 ms against a mount of 1 807–1 841 ms (0.15); beside two CPU hogs 370–428 against 1 625–1 903; in a
    // clean-clone run beside one, with two other browsers, 1 764 against 4 261 (0.41: preemption lengthens a gap of the
    // heartbeat more than the mount's frame) (2026-11-30).
    expect(gap / mountMs, `page froze while enabling (${gap.toFixed(0)} ms against its mount's ${mountMs.toFixed(0)})`).to.be.below(1);

    // A recording of this page stays under its cap (lowered here so that frames must go), and says what it dropped.
    await page.evaluate(() => (window as any).__LAYOUT_COST__.startRecording({ maxRows: 2000 }));
    await page.evaluate(() => new Promise<void>((done) => {
      // Imperative text changes in every section's first leaves, one batch a frame for 20 frames.
      let n = 0;
      const step = (): void => {
        const sections = document.querySelectorAll('.section');
        for (const sec of Array.from(sections)) {
          for (let i = 0; i < 3; i++) (sec.children[i] as HTMLElement).textContent = String((n + i) % 10);
        }
        if (++n < 20) requestAnimationFrame(step);
        else setTimeout(done, 300);
      };
      requestAnimationFrame(step);
    }));
    const rec = await page.evaluate(() => (window as any).__LAYOUT_COST__.stopRecording());
    const rows = rec.frames.reduce((t: number, f: any) => t + f.components.length + 1, 0);
    const bytes = JSON.stringify(rec).length;
    process.stdout.write(`    [scale] recording: ${rec.frames.length} frames kept, ${rec.droppedFrames} dropped, ${rows} rows,`
      + ` ${(bytes / 1024).toFixed(0)} KB; at most ${Math.max(...rec.frames.map((f: any) => f.components.length))} components a frame\n`);
    expect(rec.limits.maxRows).to.equal(2000);
    expect(rows).to.be.at.most(2000);
    expect(rec.droppedFrames).to.be.greaterThan(0);
    expect(rec.frames.every((f: any) => f.components.length <= 200)).to.equal(true);
    await page.close();
  });
});
