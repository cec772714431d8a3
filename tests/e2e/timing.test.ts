/**
 * Layout timing end to end: frame totals against Chrome's own trace,
 * attribution of frame and forced cost, the outside measurement, stacks, and
 * off means off. Figures are printed (`[timing]` lines) for docs/TIMING.md.
 * rAF semantics and hostile pages: timing-raf.test.ts.
 */
import os from 'node:os';
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { median } from '../../bench/lib/stats';
import { WRITER_RECORDS } from '../../src/inject/agent/pipeline/mutations';
import { STACK_INTERVAL_MS } from '../../src/inject/agent/timing/stacks';
import { DEFAULT_SETTINGS } from '../../src/overlay/settings';
import { launch, lc, openPanel, waitFor, type Harness } from './harness';
import {
  byName, enableAndFind, log, markWindow, one, openFixture, runWork, settled, snap, styleLayoutWithin, traced, type Comp, type Snap,
} from './timing-helpers';

/**
 * With DevTools open its front end is a renderer too, and the disabled-by-default timeline category records its every
 * task: 565 000 events in one recording's trace against 51 000 without that category (8 s of the suite's serial lane
 * parsing and filtering them). The flushes, the marks and our track's TimeStamp spans are all in these two.
 */
const OPEN_CATEGORIES = ['devtools.timeline', 'blink.user_timing'];

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

    it('frame layout agrees with the trace\'s Layout within 10 %; style + layout within 10 % on a quiet machine, 20 % on a loaded one', async () => {
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
      // 1–3 % here when the machine is quiet. Beside a CPU hog the layout half stays within 2 % while our style window
      // reads 25–35 % more than the trace's UpdateLayoutTree (the total 9–13 %): layout is held tight, the total
      // loosely. The budget itself (5 %) is bench/accuracy.ts's, per frame.
      expect(Math.abs(layout - truth.layoutMs) / truth.layoutMs).to.be.below(0.10);
      // Quiet: the last minute's load average under one busy core of two.
      const quiet = os.loadavg()[0] < 1;
      log(`machine ${quiet ? 'quiet' : 'loaded'} (load ${os.loadavg()[0].toFixed(2)}): total within ${quiet ? 10 : 20} %`);
      expect(Math.abs(ours - theirs) / theirs).to.be.below(quiet ? 0.10 : 0.20);
    });

    it('measuring adds no Layout: the trace shows no more Layout events per frame with the overlay on', async () => {
      const layoutsPerTick = async (on: boolean): Promise<number> => {
        if (on) await enableAndFind(page, 'Heavy');
        else {
          await lc.disable(page);
          await waitFor(async () => (await lc.state(page)).mode === 'off', { what: 'off' });
        }
        let ticks = 0;
        let probes = 0;
        const tag = on ? 'on' : 'off';
        const probesMade = async (): Promise<number> => (on ? Number((await lc.internals(page)).probes) : 0);
        const events = await traced(page, async () => {
          probes = -(await probesMade());
          await page.evaluate((t) => performance.mark(`lc-layouts-${t}-start`), tag);
          const t0 = await page.evaluate(() => (window as any).__work.ticks as number);
          await page.evaluate(() => (window as any).__work.start());
          await waitFor(() => page.evaluate((from) => (window as any).__work.ticks >= from + 60, t0), { timeout: 60_000 });
          await page.evaluate(() => (window as any).__work.stop());
          ticks = (await page.evaluate(() => (window as any).__work.ticks as number)) - t0;
          // Let the last tick's commit reach its frame before closing the window.
          await waitFor(() => page.evaluate(() => new Promise<boolean>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))));
          await page.evaluate((t) => performance.mark(`lc-layouts-${t}-end`), tag);
          probes += await probesMade();
        });
        const got = styleLayoutWithin(events, markWindow(events, `lc-layouts-${tag}-start`, `lc-layouts-${tag}-end`));
        // The attribution's probes (docs/TIMING.md §2) lay out twice each, on purpose and budgeted: not the measuring.
        log(`overlay ${tag}: ${got.layoutEvents} Layout / ${ticks} ticks (${probes} probes of ours: ${2 * probes} of them),`
          + ` ${got.styleEvents} UpdateLayoutTree`);
        return (got.layoutEvents - 2 * probes) / ticks;
      };
      const off = await layoutsPerTick(false);
      const on = await layoutsPerTick(true);
      expect(off).to.be.greaterThan(0.9, 'the fixture lays out every frame');
      expect(on).to.be.at.most(off + 0.05);
    });

    it('the Performance panel track, only with DevTools open, and a recording exported as a trace: both add up to Chrome\'s UpdateLayoutTree + Layout and name Heavy', async () => {
      const trackSpans = async (frames: number): Promise<number> => {
        const events = await traced(page, async () => {
          await page.evaluate(() => performance.mark('lc-track-start'));
          await runWork(page, frames);
          await page.evaluate(() => performance.mark('lc-track-end'));
        }, OPEN_CATEGORIES);
        const w = markWindow(events, 'lc-track-start', 'lc-track-end');
        return events.filter((e) => e.name === 'TimeStamp' && e.pid === w.pid && e.ts >= w.from && e.ts <= w.to
          && (e.args as any)?.data?.trackGroup === 'Layout Cost').length;
      };
      // The agent says whether it writes the track (internals().track); the trace is what holds it to that.
      const writing = async (): Promise<number> => (await lc.internals(page)).track as number;
      // DevTools closed (the Performance panel cannot record): nothing is written.
      expect(await writing()).to.equal(0);
      expect(await trackSpans(10), 'no track without DevTools open').to.equal(0);
      // DevTools open, as when a developer records in the Performance panel: our track goes into the same trace.
      const devtools = await page.openDevTools();
      const w = await h.worker();
      try {
        // The worker tells the page that DevTools opened (beside a CPU hog that took longer than a fixed 500 ms once).
        await waitFor(async () => (await writing()) === 1, { timeout: 30_000, what: 'the track once DevTools is open' });
        // Beside a CPU hog a busier moment of the machine can inflate most frames of one recording (once, in a CI run,
        // the median frame read 11.6 % and 37.8 % over; 1.2–2.5 % in every other run): when the medians miss, the
        // recording is made once more and the second one is held to everything. An error of ours misses twice.
        if (!(await recordAndCheck(false))) await recordAndCheck(true);
        // The setting turns it off: nothing written.
        await w.evaluate((st) => chrome.storage.local.set({ settings: st }), { ...DEFAULT_SETTINGS, performanceTrack: false });
        await waitFor(async () => (await writing()) === 0, { what: 'the track turned off' });
        expect(await trackSpans(10), 'no track with the setting off').to.equal(0);
      } finally {
        await w.evaluate((st) => chrome.storage.local.set({ settings: st }), { ...DEFAULT_SETTINGS });
        await devtools.close();
      }
    });

    /** One recording against the trace; false (nothing asserted yet) when a first attempt's medians miss. */
    async function recordAndCheck(final: boolean): Promise<boolean> {
      let ref = 0;
      let trace: { traceEvents: { name: string; cat?: string; ph: string; ts?: number; dur?: number; tid: number; args?: any }[] } | null = null;
      let recording: any = null;
      // DevTools is open (the caller's): the same trace holds our Performance panel track.
      const events = await traced(page, async () => {
        ref = await page.evaluate(() => performance.mark('lc-rec-ref').startTime);
        await page.evaluate(() => (window as any).__LAYOUT_COST__.startRecording());
        await runWork(page, 60);
        await settled(page);
        recording = await page.evaluate(() => (window as any).__LAYOUT_COST__.stopRecording());
        trace = await page.evaluate(() => (window as any).__LAYOUT_COST__.exportTrace());
      }, OPEN_CATEGORIES);
      const mark = events.find((e) => e.name === 'lc-rec-ref' && e.cat.includes('user_timing'))!;
      const shift = mark.ts - ref * 1000; // page clock (µs) → trace clock
      const frames = trace!.traceEvents.filter((e) => e.ph === 'X' && e.cat === 'layout-cost,frame');
      const comps = trace!.traceEvents.filter((e) => e.ph === 'X' && e.cat === 'layout-cost');
      expect(recording.kind).to.equal('layout-cost-recording');
      expect(recording.frames.length).to.equal(frames.length);
      expect(frames.length).to.be.at.least(55);
      // Per frame, the component events add up to the frame.
      for (const f of frames.slice(0, 20)) {
        const inFrame = comps.filter((c) => c.args.frame === f.args.frame).reduce((t, c) => t + (c.dur ?? 0), 0);
        expect(Math.abs(inFrame - (f.dur ?? 0))).to.be.at.most(2 + 0.01 * (f.dur ?? 0));
      }
      // Against the trace over the recorded frames' own windows, shifted onto its clock.
      const first = frames[0], last = frames[frames.length - 1];
      const from = (first.ts ?? 0) + shift - 2000, to = (last.ts ?? 0) + (last.dur ?? 0) + shift + 2000;
      // The page's own flushes, picked once: the per-frame windows below look among these only.
      const flushes = events.filter((e) => e.ph === 'X' && (e.name === 'UpdateLayoutTree' || e.name === 'Layout')
        && e.pid === mark.pid && e.tid === mark.tid);
      const truth = styleLayoutWithin(flushes, { pid: mark.pid, tid: mark.tid, from, to });
      // Frame by frame: each recorded frame's layout against the trace's Layout events inside that frame's window.
      const layoutRatios: number[] = [];
      const totalRatios: number[] = [];
      for (const f of frames) {
        const at = (f.ts ?? 0) + shift;
        const t = styleLayoutWithin(flushes, { pid: mark.pid, tid: mark.tid, from: at - 100, to: at + (f.dur ?? 0) });
        if (t.layoutMs >= 0.5) layoutRatios.push((f.args?.layoutMs ?? 0) / t.layoutMs);
        if (t.styleMs + t.layoutMs >= 0.5) totalRatios.push((f.dur ?? 0) / 1000 / (t.styleMs + t.layoutMs));
      }
      const ours = frames.reduce((t, f) => t + (f.dur ?? 0), 0) / 1000;
      const oursLayout = frames.reduce((t, f) => t + (f.args?.layoutMs ?? 0), 0);
      const theirs = truth.styleMs + truth.layoutMs;
      const heavy = comps.filter((c) => c.name === 'Heavy').reduce((t, c) => t + (c.dur ?? 0), 0) / 1000;
      log(`recording: ${frames.length} frames, ${comps.length} component events; ours ${ours.toFixed(1)} ms (layout`
        + ` ${oursLayout.toFixed(1)}), trace ${theirs.toFixed(1)} ms (Layout ${truth.layoutMs.toFixed(1)} in`
        + ` ${truth.layoutEvents}); Heavy ${heavy.toFixed(1)} ms; per frame, ours / trace: layout median`
        + ` ${median(layoutRatios).toFixed(3)} over ${layoutRatios.length}, total ${median(totalRatios).toFixed(3)} over ${totalRatios.length}`);
      // Here DevTools is open (for the track), and beside a CPU hog the OS preempts the renderer between two of our clock
      // reads in some frames, outside the trace's events: summed, ours read 5–14 % over the trace's Layout in runs beside
      // `yes`, 22 % and 29 % in two others. So the upper side is held frame by frame, where a preemption moves only the
      // frames it lands in: the median frame within 10 % (layout: 1.3–2.3 % over in those runs) and 25 % (style +
      // layout, whose style window also holds getAnimations' own work: 2–12.5 % over). Style counted as layout is far
      // outside the first (≈ 1.4 on this fixture). Summed, nothing may be missing: a missed frame or a frame's layout
      // left out reads under the trace.
      if (!final && (Math.abs(median(layoutRatios) - 1) >= 0.10 || Math.abs(median(totalRatios) - 1) >= 0.25)) {
        log('recording: the medians missed; once more');
        return false;
      }
      expect(layoutRatios.length).to.be.at.least(40);
      expect(Math.abs(median(layoutRatios) - 1)).to.be.below(0.10);
      expect(Math.abs(median(totalRatios) - 1)).to.be.below(0.25);
      expect(truth.layoutMs - oursLayout).to.be.below(0.20 * truth.layoutMs);
      expect(theirs - ours).to.be.below(0.25 * theirs);
      expect(heavy).to.be.greaterThan(0.5 * ours);
      // Lined up: each recorded frame, shifted, starts where the trace has that frame's flush (within 1 ms): its style
      // recalculation, or its layout when style was clean.
      // Frames in which nothing was dirty (a rAF of the page's that changed nothing) flushed nothing: no event to meet.
      const busy = frames.filter((f) => (f.dur ?? 0) > 500);
      let near = 0;
      for (const f of busy) if (flushes.some((e) => Math.abs(e.ts - ((f.ts ?? 0) + shift)) < 1000)) near++;
      expect(busy.length).to.be.at.least(40);
      expect(near / busy.length).to.be.greaterThan(0.9);
      // The same run's trace holds our Performance panel track: its layout spans over the recorded frames name Heavy
      // and add up to the trace's Layout. The spans are our frame-end layout figures; with DevTools open beside a CPU
      // hog they drift further than the 10 % the accuracy test holds (13 % seen, and 28.8 % once on 2026-11-26): within
      // 40 % here — what this holds is that the track carries those figures, not twice them or none.
      const spans = events.filter((e) => e.name === 'TimeStamp' && e.pid === mark.pid && e.ts >= from && e.ts <= to)
        .map((e) => (e.args as any)?.data as { message: string; track: string; trackGroup: string; start: number; end: number })
        .filter((d) => d?.trackGroup === 'Layout Cost' && d.track === 'Layout (by component)');
      const spanMs = spans.reduce((t, d) => t + (d.end - d.start) / 1000, 0);
      const heavySpans = spans.filter((d) => d.message === 'Heavy').reduce((t, d) => t + (d.end - d.start) / 1000, 0);
      log(`track: ${spans.length} layout spans, ${spanMs.toFixed(1)} ms of which Heavy ${heavySpans.toFixed(1)}; the trace's Layout ${truth.layoutMs.toFixed(1)} ms`);
      expect(heavySpans).to.be.greaterThan(0.5 * spanMs);
      expect(Math.abs(spanMs - truth.layoutMs) / truth.layoutMs).to.be.below(0.4);
      return true;
    }

    it('an expensive component carries most of its parent\'s cost and outranks its cheap siblings', async () => {
      await runWork(page, 60);
      const s = await snap(page);
      const heavy = one(s, 'Heavy');
      const panel = one(s, 'Panel');
      const lights = byName(s, 'Light');
      const fmt = (c: Comp): string => `${c.name} ${(c.styleMs + c.layoutMs).toFixed(2)}`;
      log(`attribution (EMA style+layout ms): ${[panel, heavy, ...lights].map(fmt).join(', ')}; <page> ${(s.page.styleMs + s.page.layoutMs).toFixed(2)}`);
      expect(lights).to.have.length(3);
      expect(heavy.parentId).to.equal(panel.id);
      expect(heavy.layoutMs).to.be.greaterThan(0.5);
      expect(heavy.layoutMs).to.be.greaterThan(0.5 * panel.layoutMs);
      expect(heavy.styleMs + heavy.layoutMs).to.be.greaterThan(0.5 * (panel.styleMs + panel.layoutMs));
      for (const l of lights) expect(heavy.layoutMs).to.be.greaterThan(5 * l.layoutMs);
    });
  });

  it('React 17 (updates flagged only where props changed): the expensive component still carries its parent', async () => {
    const page = await openFixture(h, 'timing-load-r17.html');
    try {
      await enableAndFind(page, 'Heavy');
      await runWork(page, 60);
      const s = await snap(page);
      const heavy = one(s, 'Heavy');
      const panel = one(s, 'Panel');
      log(`React 17 attribution: Panel ${panel.layoutMs.toFixed(2)}, Heavy ${heavy.layoutMs.toFixed(2)} layout ms (EMA)`);
      expect(heavy.layoutMs).to.be.greaterThan(0.5 * panel.layoutMs);
      for (const l of byName(s, 'Light')) expect(heavy.layoutMs).to.be.greaterThan(5 * l.layoutMs);
    } finally {
      await page.close();
    }
  });

  describe('forced reflows (timing-forced)', () => {
    let page: Page;
    before(async () => {
      page = await openFixture(h, 'timing-forced-r19.html');
      await enableAndFind(page, 'Measurer');
    });
    after(async () => page?.close());

    it('write-then-read in useLayoutEffect: its forced ms dominate, a quiet sibling stays near zero', async () => {
      // Quiet's stalls counted over these frames only (its EMA is over them).
      await page.evaluate(() => { (window as any).__quietStallMs = 0; });
      await runWork(page, 60);
      const s = await snap(page);
      const m = one(s, 'Measurer');
      const q = one(s, 'Quiet');
      const row = one(s, 'Row');
      const stallMs = await page.evaluate(() => (window as any).__quietStallMs as number);
      log(`forced EMA ms: Measurer ${m.forcedMs.toFixed(3)}, Quiet ${q.forcedMs.toFixed(3)}, Row (inclusive) ${row.forcedMs.toFixed(3)};`
        + ` frames forced total ${s.frames.forcedMsTotal.toFixed(1)} ms; Quiet's reads stalled ${stallMs.toFixed(2)} ms in these frames`);
      expect(m.forcedMs).to.be.greaterThan(0.3);
      // A descheduled clean read looks like a flush to any wall-clock timing (beside a CPU hog it happens): Quiet may
      // carry what the page itself saw its reads stall (an EMA never exceeds the sum of what it averaged), no more.
      expect(q.forcedMs).to.be.below(0.05 * m.forcedMs + stallMs);
      expect(row.forcedMs).to.be.at.least(m.forcedMs);
      expect(s.frames.forcedMsTotal).to.be.greaterThan(0);
    });

    it('sampled stacks of its forced reflows reach the panel, with the page\'s frames and none of ours', async () => {
      const s = await snap(page);
      const m = one(s, 'Measurer');
      const { panel, devtools } = await openPanel(h, page);
      try {
        await lc.pin(page, m.id);
        await page.evaluate(() => (window as any).__work.start());
        const stacks = await waitFor(() => panel.evaluate(() => {
          const t = (globalThis as any).__panelState?.table;
          return t?.pinned?.stacks?.length ? (t.pinned.stacks as { ms: number; stack: string }[]) : null;
        }), { timeout: 20_000, what: 'a stack in the pinned detail' });
        log(`stack (${stacks![0].ms.toFixed(2)} ms): ${stacks![0].stack.split('\n').slice(0, 2).join(' | ')}`);
        expect(stacks![0].ms).to.be.greaterThan(0.1);
        expect(stacks![0].stack).to.include('timing-forced-r19.js');
        expect(stacks![0].stack).to.not.include('chrome-extension://');
      } finally {
        await page.evaluate(() => (window as any).__work.stop());
        await lc.pin(page, null);
        await devtools.close();
      }
    });

    it('a forced reflow on DOM no component owns goes to <page>', async () => {
      const before = await settled(page);
      // Quiet may carry a little noise from earlier frames (a preempted clean read, beside a CPU hog): the claim is
      // that the page's forced reflow does not land on it.
      const quietBefore = one(before, 'Quiet').forcedMs;
      await page.evaluate(() => (window as any).__pageForce(40));
      const s = await waitFor(async () => {
        const x = await snap(page);
        return x.frames.forcedMsTotal > before.frames.forcedMsTotal + 0.5 ? x : null;
      }, { what: 'the forced reflow to be reported' });
      log(`<page> forced EMA ${s!.page.forcedMs.toFixed(3)} ms after 40 write/read pairs`);
      expect(s!.page.forcedMs).to.be.greaterThan(0);
      expect(one(s!, 'Quiet').forcedMs).to.be.below(quietBefore + 0.05);
    });

    it('forced reflows in page scripts agree with Chrome\'s Long Animation Frames (the outside measurement)', async () => {
      await settled(page);
      const before = await waitFor(async () => (await lc.state(page)).outside, { what: 'outside measurement' });
      await page.evaluate(() => (window as any).__pageForceSoon(80));
      // The 80 ms task is one long frame, most of it forced layout.
      const after = await waitFor(async () => {
        const o = (await lc.state(page)).outside;
        return o && o.forcedMs > before!.forcedMs + 20 ? o : null;
      }, { what: 'Chrome to report the long frame\'s forced layout' });
      const chrome = after!.forcedMs - before!.forcedMs;
      const ours = after!.measuredMs - before!.measuredMs;
      log(`outside: Chrome forcedStyleAndLayoutDuration ${chrome.toFixed(1)} ms, timed by the wrappers ${ours.toFixed(1)} ms`
        + ` (${((ours / chrome - 1) * 100).toFixed(1)} %) in ${await page.evaluate(() => (window as any).__pageForcePairs)} write/read pairs`);
      expect(chrome).to.be.greaterThan(20);
      expect(Math.abs(ours - chrome) / chrome).to.be.below(0.2);
    });

    it('a tight loop of clean geometry reads is not mistaken for forced reflows', async () => {
      await settled(page);
      const forced0 = (await snap(page)).frames.forcedMsTotal;
      await page.evaluate(() => (window as any).__cleanReadsSoon(100));
      const r = await waitFor(() => page.evaluate(() => (window as any).__cleanReads as { reads: number; stallMs: number }),
        { what: 'the clean-read loop' });
      const s = await settled(page);
      const ours = s.frames.forcedMsTotal - forced0;
      log(`clean reads: ${r!.reads} in 100 ms counted as ${ours.toFixed(2)} ms forced; the page's own timing of the same`
        + ` calls saw ${r!.stallMs.toFixed(2)} ms of stalls (preemption, GC) above 0.15 ms`);
      expect(r!.reads).to.be.greaterThan(1000);
      // Wall-clock timing cannot tell a descheduled clean read from a flush; beyond those stalls nothing is counted
      // (the one-tick readings a clean read often shows, and two-tick ones in a burst, are not).
      expect(ours).to.be.at.most(r!.stallMs + 0.5);
    });

    it('off means off: every wrapper and observer is gone, rAF is a bare pass-through again', async () => {
      const on = await page.evaluate(() => ({
        changed: (window as any).__changedSinceLoad() as string[],
        observers: (window as any).__liveObservers() as Record<string, number>,
        tap: (window as any).__LAYOUT_COST__.internals().rafTapped,
      }));
      log(`while on: ${on.changed.length} members wrapped; observers ${JSON.stringify(on.observers)}`);
      // The test can fail: the wrappers and observers are really there while on.
      expect(on.changed).to.include.members(['Element.getBoundingClientRect', 'HTMLElement.offsetHeight', 'Element.scrollTop',
        'window.getComputedStyle', 'window.scrollY', 'Document.elementFromPoint', 'CSSStyleDeclaration.getPropertyValue']);
      expect(on.observers.MutationObserver).to.be.at.least(1);
      expect(on.observers.PerformanceObserver).to.be.at.least(1);
      expect(on.tap).to.equal(true);

      await lc.disable(page);
      await waitFor(async () => (await lc.state(page)).mode === 'off', { what: 'off' });
      const off = await waitFor(() => page.evaluate(() => {
        const internals = (window as any).__LAYOUT_COST__.internals();
        const r = {
          changed: (window as any).__changedSinceLoad() as string[],
          observers: (window as any).__liveObservers() as Record<string, number>,
          tap: internals.rafTapped as boolean,
          rafIsPassThrough: window.requestAnimationFrame === (window as any).__wrappedRaf,
          gbcrNative: Element.prototype.getBoundingClientRect === (window as any).__nativeGbcr,
          stats: internals,
          outside: (window as any).__LAYOUT_COST__.state().outside,
        };
        return r.tap ? null : r;
      }), { what: 'the frame loop to hand back rAF' });
      // Only the boot's attachShadow tap stays (it is always on, like the hook: it remembers shadow roots while off).
      // It goes in when React first reads the hook (this page's React did, after its first script took its list of
      // members) or on enable at the latest: after an enable it is there whatever the agent says.
      expect(off!.changed).to.deep.equal(['Element.attachShadow']);
      expect(off!.gbcrNative).to.equal(true);
      expect(off!.observers).to.deep.equal({ MutationObserver: 0, PerformanceObserver: 0, ResizeObserver: 0, IntersectionObserver: 0 });
      expect(off!.rafIsPassThrough).to.equal(true);
      expect(off!.outside).to.equal(null);
      if (off!.stats) expect(off!.stats).to.include({ running: 0, entries: 0, ring: 0 });
      // A page callback still runs exactly once after the handover.
      const runs = await page.evaluate(() => new Promise<number>((resolve) => {
        let n = 0;
        requestAnimationFrame(() => n++);
        setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(() => resolve(n))), 50);
      }));
      expect(runs).to.equal(1);
      await enableAndFind(page, 'Measurer'); // back on for any later test
    });
  });

  it('page code that writes 3 000 cells and then reads: the writes are the read\'s, their records let go unread (a few hundred per sampled stack)', async () => {
    const page = await openFixture(h, 'self-timed.html');
    try {
      // Board's name is minified in this fixture: its one component.
      await lc.enable(page);
      await waitFor(async () => (await snap(page)).components.length > 0, { what: 'Board' });
      const internals = async (): Promise<{ watched: number; records: number }> => {
        const i = await lc.internals(page);
        return { watched: i.foreignWatched as number, records: i.foreignRecords as number };
      };
      // Not reading: each frame's 3 000 width writes reach frame end, where they are Board's causes; a discovery frame
      // found that page code writes in Board, which is watched from then on. (The test can fail: the records are read.)
      const before = await waitFor(async () => {
        const i = await internals();
        return i.watched >= 1 && i.records >= 6000 ? i : null;
      }, { timeout: 20_000, what: 'Board watched for page code\'s writes' });
      // Reading right after the writes (the fixture's self-timing): the read pays for them. Their records are made
      // (Board is still watched) and let go, but for the first WRITER_RECORDS when the read's stack is sampled.
      await page.evaluate(() => { (window as any).__selfTime = true; });
      await new Promise((r) => setTimeout(r, 300));
      const r0 = (await internals()).records;
      const n0 = await page.evaluate(() => (window as any).__selfTimes.length as number);
      const t0 = Date.now();
      // At least 1.5 s and 5 frames with a read, however slow the machine.
      await new Promise((r) => setTimeout(r, 1500));
      await waitFor(async () => (await page.evaluate(() => (window as any).__selfTimes.length as number)) - n0 >= 5,
        { timeout: 30_000, what: 'five frames with a read' });
      const after = await internals();
      const reads = await page.evaluate(() => (window as any).__selfTimes.length as number) - n0;
      const ms = Date.now() - t0;
      await page.evaluate(() => { (window as any).__selfTime = false; });
      const cap = (Math.ceil(ms / STACK_INTERVAL_MS) + 1) * WRITER_RECORDS;
      log(`self-timed: ${before.records} records read while the page did not read; then ${after.records - r0} in ${reads} `
        + `frames with a read (${ms} ms; at most ${cap}); Board watched: ${after.watched}`);
      expect(reads).to.be.at.least(5);
      expect(after.watched).to.be.at.least(1);
      expect(after.records - r0).to.be.at.most(cap);
      expect(after.records - r0).to.be.below(3000 * reads);
    } finally {
      await page.close();
    }
  });
});
