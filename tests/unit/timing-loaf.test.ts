/**
 * The Long Animation Frames cross-check (src/inject/agent/timing/loaf.ts) and the
 * span ring it reads, on entries shaped like Chromium 156's.
 */
import { expect } from 'chai';
import { emptyTotals, foldEntry, FOREIGN_RAF_MIN_MS, FOREIGN_RAF_ROW_GAP_MS, type LoafEntry } from '../../src/inject/agent/timing/loaf';
import { SpanRing } from '../../src/inject/agent/timing/span-ring';

describe('timing: span ring', () => {
  it('sums the spans that start within a window and forgets the oldest past capacity', () => {
    const r = new SpanRing(4);
    for (let i = 0; i < 6; i++) r.push(i * 10, 1 + i);
    expect(r.sumWithin(0, 100)).to.equal(3 + 4 + 5 + 6);
    expect(r.sumWithin(25, 40)).to.equal(4 + 5);
    r.clear();
    expect(r.sumWithin(0, 100)).to.equal(0);
    expect(() => new SpanRing(3)).to.throw(RangeError);
  });

  it('joins a span that starts within the merge gap of the last one\'s end: a thrashing loop is one entry', () => {
    const r = new SpanRing(4, 0.25);
    // 1 000 back-to-back 0.2 ms flushes, 0.05 ms apart, in one task from t = 100: one entry holds them all.
    for (let i = 0; i < 1000; i++) r.push(100 + i * 0.25, 0.2);
    r.push(400, 3); // a later task: its own entry
    expect(r.sumWithin(100, 350)).to.be.closeTo(200, 1e-6);
    expect(r.sumWithin(399, 500)).to.equal(3);
    // Without the merge the ring keeps only the last four.
    const plain = new SpanRing(4);
    for (let i = 0; i < 1000; i++) plain.push(100 + i * 0.25, 0.2);
    expect(plain.sumWithin(100, 350)).to.be.closeTo(0.8, 1e-6);
  });
});

describe('timing: Long Animation Frames cross-check', () => {
  const timer = (start: number, forced: number, url = 'http://127.0.0.1/app.js') => ({
    invokerType: 'user-callback', sourceURL: url, startTime: start, duration: 70, forcedStyleAndLayoutDuration: forced,
  });

  it('compares Chrome\'s forced style/layout with ours inside the same scripts', () => {
    const forced = new SpanRing(16);
    const ticks = new SpanRing(16);
    forced.push(105, 30); // inside the timer script
    forced.push(140, 10); // inside too
    forced.push(300, 50); // another frame
    const t = emptyTotals();
    foldEntry(t, { startTime: 100, duration: 80, scripts: [timer(102, 38)] }, forced, ticks);
    expect(t).to.include({ longFrames: 1, forcedMs: 38, measuredMs: 40, foreignRafFrames: 0, foreignRafRow: 0 });
  });

  it('skips extension scripts (Chrome never lists ours; another extension\'s are not the page\'s)', () => {
    const t = emptyTotals();
    foldEntry(t, { startTime: 0, duration: 60, scripts: [timer(1, 20, 'chrome-extension://abc/agent.js')] },
      new SpanRing(4), new SpanRing(4));
    expect(t.forcedMs).to.equal(0);
    expect(t.longFrames).to.equal(1);
  });

  it('flags rAF-phase time that is neither our frame loop nor a listed script', () => {
    const ticks = new SpanRing(4);
    const entry = (scripts: LoafEntry['scripts'] = []): LoafEntry => ({ startTime: 0, duration: 80, renderStart: 2, styleAndLayoutStart: 75, scripts });
    // Our tick covers the rAF phase: nothing foreign.
    ticks.push(3, 71);
    let t = emptyTotals();
    foldEntry(t, entry(), new SpanRing(4), ticks, 0);
    expect(t.foreignRafFrames).to.equal(0);
    // A listed page script explains it too (a scroll handler in the rendering steps).
    t = emptyTotals();
    foldEntry(t, entry([{ ...timer(3, 0), duration: 71 }]), new SpanRing(4), new SpanRing(4), 0);
    expect(t.foreignRafFrames).to.equal(0);
    // Unexplained rAF-phase time: a native requestAnimationFrame kept by the page.
    t = emptyTotals();
    foldEntry(t, entry(), new SpanRing(4), new SpanRing(4), 0);
    expect(t.foreignRafFrames).to.equal(1);
    // Short unexplained time is noise, and nothing is judged before our first tick.
    t = emptyTotals();
    foldEntry(t, { startTime: 0, duration: 60, renderStart: 2, styleAndLayoutStart: 2 + FOREIGN_RAF_MIN_MS - 1 }, new SpanRing(4), new SpanRing(4), 0);
    foldEntry(t, entry(), new SpanRing(4), new SpanRing(4), 5);
    expect(t.foreignRafFrames).to.equal(0);
  });

  it('counts such frames in a row: adjacent, with no clean long frame between', () => {
    const none = new SpanRing(4);
    // A long frame of 80 ms from `at`, its rAF phase unexplained (foreign) or covered by a listed script (clean).
    const frame = (at: number, foreign: boolean): LoafEntry => ({
      startTime: at, duration: 80, renderStart: at + 2, styleAndLayoutStart: at + 75,
      scripts: foreign ? [] : [{ ...timer(at + 3, 0), duration: 71 }],
    });
    const fold = (t: ReturnType<typeof emptyTotals>, at: number, foreign: boolean): void => foldEntry(t, frame(at, foreign), none, none, 0);
    // Back to back, as a kept native rAF that works 70 ms a frame runs: three in a row.
    let t = emptyTotals();
    for (const at of [0, 90, 180]) fold(t, at, true);
    expect(t).to.include({ foreignRafFrames: 3, foreignRafRow: 3 });
    // Two apart in time (a descheduled thread now and then): each a row of one.
    t = emptyTotals();
    fold(t, 0, true);
    fold(t, 80 + FOREIGN_RAF_ROW_GAP_MS + 1, true);
    expect(t).to.include({ foreignRafFrames: 2, foreignRafRow: 1 });
    // A clean long frame between breaks the row, however close.
    t = emptyTotals();
    for (const [at, foreign] of [[0, true], [85, true], [170, false], [255, true], [340, true]] as const) fold(t, at, foreign);
    expect(t).to.include({ foreignRafFrames: 4, foreignRafRow: 2 });
    // The longest row is kept once the row ends.
    fold(t, 425, true);
    fold(t, 2000, true);
    expect(t).to.include({ foreignRafFrames: 6, foreignRafRow: 3 });
  });

  it('survives entries with missing or hostile fields', () => {
    const t = emptyTotals();
    foldEntry(t, { startTime: 0, duration: 60, scripts: [{}, { forcedStyleAndLayoutDuration: NaN }, { forcedStyleAndLayoutDuration: -5 }] },
      new SpanRing(4), new SpanRing(4));
    expect(t).to.include({ longFrames: 1, forcedMs: 0, measuredMs: 0, foreignRafFrames: 0, foreignRafRow: 0 });
  });
});
