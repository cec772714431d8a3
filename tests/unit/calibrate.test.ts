/**
 * The calibration pass's pure parts (src/cli/calibrate.ts): the trace's stream split into events, the page's log
 * checked, and the figures from the trace. The pass in a real browser against Chrome's trace of each change alone is
 * bench/attribution.ts (docs/PERFORMANCE.md, "Attribution").
 */
import { expect } from 'chai';
import {
  ANIM_PREFIX, CALIBRATE_SCRIPT, calibrationFromTrace, calibrationLogValidator, EventSplitter, MARK_PREFIX, type CalibrationLog,
  type TraceEvent,
} from '../../src/cli/calibrate';

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
    expect(cal.components.get(5)).to.include({ layoutMs: 3, styleMs: 1, windows: 1, layoutCauses: 1 });
    expect(cal.components.get(6)).to.include({ layoutMs: 1, styleMs: 0 });
    expect(cal.components.get(7)).to.include({ layoutMs: 1 });
    expect(cal.lostWindows).to.equal(0);
  });

  it('counts a window only when invalidation tracking saw its change invalidate something, when the trace has it', () => {
    const events = [
      mark(`${MARK_PREFIX}1:0`, 100), inv('LayoutInvalidationTracking', 105), x('Layout', 200, 3000), mark(`${MARK_PREFIX}1:0:end`, 3300),
      mark(`${MARK_PREFIX}1:1`, 3400), x('Layout', 3500, 500), mark(`${MARK_PREFIX}1:1:end`, 4100),
    ];
    const cal = calibrationFromTrace(events, log({ windows: [[1, 0, [5]], [1, 1, [6]]] }));
    expect(cal.components.get(5)!.layoutMs).to.equal(3);
    expect(cal.components.get(6)!.layoutMs).to.equal(0);
    expect(cal.components.get(6)!.layoutCauses).to.equal(0);
  });

  it('gives what a batch\'s "before" window does not explain to the animations pending then', () => {
    const events = [
      mark(`${MARK_PREFIX}1:pre`, 0), x('Layout', 10, 5000), mark(`${MARK_PREFIX}1:pre:end`, 5100),
      mark(`${MARK_PREFIX}1:0`, 5200), x('Layout', 5300, 1000), mark(`${MARK_PREFIX}1:0:end`, 6400),
    ];
    const cal = calibrationFromTrace(events, log({ windows: [[1, 0, [5]]], pres: [[1, [9]]] }));
    expect(cal.components.get(5)!.layoutMs).to.equal(1);
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
