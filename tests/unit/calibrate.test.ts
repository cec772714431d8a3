/**
 * The calibration pass's pure parts (src/cli/calibrate.ts): the trace's stream split into events, the page's log
 * checked, and the figures from the trace. The pass in a real browser against Chrome's trace of each change alone is
 * bench/attribution.ts (docs/PERFORMANCE.md, "Attribution").
 */
import { expect } from 'chai';
import {
  ANIM_PREFIX, CALIBRATE_SCRIPT, calibrationFromTrace, calibrationLogValidator, EventSplitter, MARK_PREFIX, MAX_PASS_MS, type CalibrationLog,
  type TraceEvent,
} from '../../src/cli/calibrate';
import { applyCalibration, calibrationFactors } from '../../src/cli/calibrated';
import type { Calibration } from '../../src/cli/calibrate';
import type { Recording } from '../../src/protocol/recording';
import { PASS_MS } from '../../src/protocol/layout-pass';

const P = 1, T = 1;
const mark = (name: string, ts: number): TraceEvent => ({ name, cat: 'blink.user_timing', ph: 'R', ts, pid: P, tid: T });
const x = (name: string, ts: number, dur: number): TraceEvent => ({ name, cat: 'devtools.timeline', ph: 'X', ts, dur, pid: P, tid: T });
const inv = (name: string, ts: number): TraceEvent => ({ name, cat: 'disabled-by-default-devtools.timeline.invalidationTracking', ph: 'I', ts, pid: P, tid: T });
const log = (over: Partial<CalibrationLog>): CalibrationLog => ({
  batches: 1, measured: 1, skipped: {}, windows: [], pres: [], anims: [], broken: null, ...over,
});

describe('calibration pass', () => {
  it('is a script that parses', () => {
    expect(() => new Function(CALIBRATE_SCRIPT)).not.to.throw();
  });

  it('splits the trace stream into its events across chunks, strings with braces and escapes included', () => {
    const events = [{ name: 'Layout', args: { s: 'a}"{\\' }, ts: 1 }, { name: 'x', args: { a: [1, { b: 2 }] }, ts: 2 }, { name: 'y', ts: 3 }];
    const text = JSON.stringify({ traceEvents: events, metadata: { k: { n: 1 } } });
    for (const size of [1, 3, 7, 1000]) {
      const got: unknown[] = [];
      const split = new EventSplitter((t) => got.push(JSON.parse(t)));
      for (let i = 0; i < text.length; i += size) split.push(text.slice(i, i + size));
      expect(got, `chunks of ${size}`).to.deep.equal(events);
    }
  });

  it('takes each window\'s style and layout for its component, and splits a window of several evenly', () => {
    const events = [
      mark(`${MARK_PREFIX}1:0`, 100), x('UpdateLayoutTree', 110, 1000), x('Layout', 1200, 3000), mark(`${MARK_PREFIX}1:0:end`, 4300),
      mark(`${MARK_PREFIX}1:1`, 4400), x('Layout', 4500, 2000), mark(`${MARK_PREFIX}1:1:end`, 6600),
    ];
    const cal = calibrationFromTrace(events, log({ windows: [[1, 0, [5]], [1, 1, [6, 7]]] }));
    // Each window that lays out weighs a frame's pass once more (PASS_MS when the page's was not measured), split as its ms are.
    expect(cal.components.get(5)).to.include({ layoutMs: 3 + PASS_MS, styleMs: 1, windows: 1, layoutCauses: 1 });
    expect(cal.components.get(6)).to.include({ layoutMs: (2 + PASS_MS) / 2, styleMs: 0 });
    expect(cal.components.get(7)).to.include({ layoutMs: (2 + PASS_MS) / 2 });
    expect(cal.lostWindows).to.equal(0);
  });

  it('counts a window only when invalidation tracking saw its change invalidate something, when the trace has it', () => {
    const events = [
      mark(`${MARK_PREFIX}1:0`, 100), inv('LayoutInvalidationTracking', 105), x('Layout', 200, 3000), mark(`${MARK_PREFIX}1:0:end`, 3300),
      mark(`${MARK_PREFIX}1:1`, 3400), x('Layout', 3500, 500), mark(`${MARK_PREFIX}1:1:end`, 4100),
    ];
    const cal = calibrationFromTrace(events, log({ windows: [[1, 0, [5]], [1, 1, [6]]] }));
    expect(cal.components.get(5)!.layoutMs).to.equal(3 + PASS_MS);
    expect(cal.components.get(6)!.layoutMs).to.equal(0);
    expect(cal.components.get(6)!.layoutCauses).to.equal(0);
  });

  it('gives what a batch\'s "before" window does not explain to the animations pending then', () => {
    const events = [
      mark(`${MARK_PREFIX}1:pre`, 0), x('Layout', 10, 5000), mark(`${MARK_PREFIX}1:pre:end`, 5100),
      mark(`${MARK_PREFIX}1:0`, 5200), x('Layout', 5300, 1000), mark(`${MARK_PREFIX}1:0:end`, 6400),
    ];
    const cal = calibrationFromTrace(events, log({ windows: [[1, 0, [5]]], pres: [[1, [9]]] }));
    expect(cal.components.get(5)!.layoutMs).to.equal(1 + PASS_MS);
    // The replay's own ms (not its pass) are what the "before" window is explained by.
    expect(cal.components.get(9)!.layoutMs).to.equal(4);
    expect(cal.components.get(9)!.animationMs).to.equal(4);
  });

  it('gives a frame\'s own layout outside every window to the animations listed before it; forced layouts to nobody', () => {
    const events = [
      mark(`${ANIM_PREFIX}0`, 0), x('Layout', 1000, 2000),
      x('FunctionCall', 10_000, 5000), x('Layout', 11_000, 1000),
      x('Layout', 200_000, 700),
    ];
    const cal = calibrationFromTrace(events, log({ anims: [[3, 4]] }));
    expect(cal.components.get(3)!.layoutMs).to.equal(1);
    expect(cal.components.get(4)!.layoutMs).to.equal(1);
    expect(cal.unexplainedMs).to.be.closeTo(0.7, 1e-9);
  });

  it('weighs each replay with the pass cost measured on the page: frame less replay, the median of its rounds', () => {
    // Rounds of `measurePass`: a frame's layout of a one-line change against its replay's, 0.19–0.21 ms apart but one (the median of six: 0.205).
    const events: TraceEvent[] = [];
    const rounds = [[500, 300], [520, 310], [480, 290], [2500, 300], [510, 300], [490, 300]];
    rounds.forEach(([frame, replay], i) => {
      const t = 100_000 * (i + 1);
      events.push(mark(`${MARK_PREFIX}pass:frame:${i}`, t), x('Layout', t + 100, frame), mark(`${MARK_PREFIX}pass:frame:${i}:end`, t + 20_000));
      events.push(mark(`${MARK_PREFIX}pass:replay:${i}`, t + 30_000), x('Layout', t + 30_100, replay), mark(`${MARK_PREFIX}pass:replay:${i}:end`, t + 40_000));
    });
    events.push(mark(`${MARK_PREFIX}1:0`, 900_000), x('Layout', 900_100, 1000), mark(`${MARK_PREFIX}1:0:end`, 902_000));
    const cal = calibrationFromTrace(events, log({ windows: [[1, 0, [5]]] }));
    expect(cal.passRounds).to.equal(6);
    expect(cal.passMs).to.be.closeTo(0.205, 1e-9);
    expect(cal.components.get(5)!.layoutMs).to.be.closeTo(1.205, 1e-9);
    // The measurement's own frames are neither unexplained nor anybody's.
    expect(cal.unexplainedMs).to.equal(0);
  });

  it('keeps the probes\' pass cost when too few rounds read, and bounds a measured one', () => {
    const few = [mark(`${MARK_PREFIX}pass:frame:0`, 0), x('Layout', 10, 900), mark(`${MARK_PREFIX}pass:frame:0:end`, 1000),
      mark(`${MARK_PREFIX}pass:replay:0`, 2000), x('Layout', 2010, 100), mark(`${MARK_PREFIX}pass:replay:0:end`, 3000)];
    expect(calibrationFromTrace(few, log({})).passMs).to.equal(PASS_MS);
    const busy: TraceEvent[] = [];
    for (let i = 0; i < 6; i++) {
      const t = 100_000 * i;
      busy.push(mark(`${MARK_PREFIX}pass:frame:${i}`, t), x('Layout', t + 10, 9000), mark(`${MARK_PREFIX}pass:frame:${i}:end`, t + 10_000));
      busy.push(mark(`${MARK_PREFIX}pass:replay:${i}`, t + 20_000), x('Layout', t + 20_010, 100), mark(`${MARK_PREFIX}pass:replay:${i}:end`, t + 21_000));
    }
    expect(calibrationFromTrace(busy, log({})).passMs).to.equal(MAX_PASS_MS);
  });

  it('counts a window whose marks the trace lost, and guesses nothing for it', () => {
    const cal = calibrationFromTrace([mark(`${MARK_PREFIX}1:0`, 0)], log({ windows: [[1, 0, [5]], [2, 0, [5]]] }));
    expect(cal.lostWindows).to.equal(2);
    expect(cal.components.size).to.equal(0);
  });

  it('reads only a log of the shape the script writes', () => {
    expect(calibrationLogValidator(log({ windows: [[1, 0, [5]]] }))).to.not.equal(null);
    expect(calibrationLogValidator(null)).to.equal(null);
    expect(calibrationLogValidator({ ...log({}), windows: [[1, 0, 5]] })).to.equal(null);
    expect(calibrationLogValidator({ ...log({}), windows: [[1, 0, []]] })).to.equal(null);
    expect(calibrationLogValidator({ ...log({}), batches: -1 })).to.equal(null);
    expect(calibrationLogValidator({ ...log({}), pres: 'x' })).to.equal(null);
    const long = calibrationLogValidator({ ...log({}), broken: 'x'.repeat(5000), skipped: { ['k'.repeat(500)]: 2, bad: 'x' } })!;
    expect(long.broken!.length).to.equal(200);
    expect(Object.keys(long.skipped)).to.deep.equal(['k'.repeat(80)]);
  });
});

describe('calibrated figures (audit --calibrate)', () => {
  const comp = (id: number, selfLayoutMs: number, layoutMs: number, selfStyleMs = 0, styleMs = 0) => ({
    id, selfLayoutMs, layoutMs, selfStyleMs, styleMs, selfForcedMs: 0, forcedMs: 0, forcedCount: 0,
  });
  // App (1) › Cell (2), App › Box (3): the overlay gave Cell 2 ms and Box 2 ms of its own layout each frame.
  const rec = {
    kind: 'layout-cost-recording', version: 1, url: 'x', startedAt: 0, stoppedAt: 1, timeOrigin: 0, droppedFrames: 0,
    limits: { maxRows: 1, maxFrameComponents: 1 },
    components: { 1: { name: 'App', parentId: null, depth: 0, key: null }, 2: { name: 'Cell', parentId: 1, depth: 1, key: null },
      3: { name: 'Box', parentId: 1, depth: 1, key: null } },
    frames: [0, 1].map((i) => ({ frame: i, time: i, styleMs: 0, layoutMs: 4, forcedMs: 0, componentsLeftOut: 0, mounts: [], unmounts: [], stacks: [],
      components: [comp(1, 0, 4), comp(2, 2, 2), comp(3, 2, 2)] })),
  } as unknown as Recording;
  const names: Record<number, string> = { 1: 'App', 2: 'Cell', 3: 'Box' };
  const parents: Record<number, number | null> = { 1: null, 2: 1, 3: 1 };
  // The pass (its own page's ids: 12 is a Cell, 13 a Box): Chrome's ms put Cell at 3 of 4.
  const cal = (cell: number, box: number): Calibration => ({
    components: new Map([[12, { layoutMs: cell, styleMs: 0, windows: 1, layoutCauses: 1, styleCauses: 0, animationMs: 0 }],
      [13, { layoutMs: box, styleMs: 0, windows: 1, layoutCauses: 1, styleCauses: 0, animationMs: 0 }]]),
    unexplainedMs: 0, batches: 1, measured: 1, skipped: {}, broken: null, lostWindows: 0, passMs: 0, passRounds: 0,
  });
  const calName = (id: number) => ({ 12: 'Cell', 13: 'Box' } as Record<number, string>)[id] ?? null;

  it('scales each type\'s own figures to its share in the pass, and moves its ancestors\' inclusive figures with them', () => {
    const report = calibrationFactors(rec, (id) => names[id] ?? null, cal(30, 10), calName);
    const cell = report.types.find((t) => t.name === 'Cell')!;
    expect(cell.layoutShare).to.equal(0.75);
    expect(cell.overlayLayoutShare).to.equal(0.5);
    expect(cell.layoutFactor).to.equal(1.5);
    expect(report.types.find((t) => t.name === 'Box')!.layoutFactor).to.equal(0.5);
    const out = applyCalibration(rec, report, (id) => names[id] ?? null, (id) => parents[id] ?? null);
    const f = out.frames[0].components;
    expect(f.find((c) => c.id === 2)).to.include({ selfLayoutMs: 3, layoutMs: 3 });
    expect(f.find((c) => c.id === 3)).to.include({ selfLayoutMs: 1, layoutMs: 1 });
    // App's subtree: 3 + 1, as before; the frame's total is the page's.
    expect(f.find((c) => c.id === 1)).to.include({ layoutMs: 4, selfLayoutMs: 0 });
    expect(out.frames[0].layoutMs).to.equal(4);
    // The recording given is unchanged.
    expect(rec.frames[0].components[1].selfLayoutMs).to.equal(2);
  });

  it('gives 0 to a type the pass saw cause nothing, and leaves a type only one side saw as it was', () => {
    const report = calibrationFactors(rec, (id) => names[id] ?? null, cal(10, 0), (id) => (id === 12 ? 'Cell' : id === 13 ? 'Box' : null));
    expect(report.types.find((t) => t.name === 'Box')!.layoutFactor).to.equal(0);
    const onlyCell = calibrationFactors(rec, (id) => names[id] ?? null, cal(10, 5), (id) => (id === 12 ? 'Cell' : null));
    expect(onlyCell.types.map((t) => t.name)).to.deep.equal(['Cell']);
    const out = applyCalibration(rec, onlyCell, (id) => names[id] ?? null, (id) => parents[id] ?? null);
    expect(out.frames[0].components.find((c) => c.id === 3)).to.include({ selfLayoutMs: 2 });
  });
});
