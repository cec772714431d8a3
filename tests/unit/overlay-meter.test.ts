import { expect } from 'chai';
import {
  bodyRect, countFraction, emitBars, emitSparkline, emitStrip, GREY, msFraction, sparkFraction, sparkHeight, SPARK_FLOOR_MS,
} from '../../src/overlay/meter';
import { Level } from '../../src/overlay/ramps';
import { DEFAULT_SETTINGS } from '../../src/overlay/settings';

const MS = DEFAULT_SETTINGS.msRamp;
const INF = DEFAULT_SETTINGS.inflationRamp;
type R = [number, number, number, number, number];
const collect = (): { rects: R[]; sink: (x: number, y: number, w: number, h: number, c: number) => void } => {
  const rects: R[] = [];
  return { rects, sink: (x, y, w, h, c) => rects.push([x, y, w, h, c]) };
};

describe('overlay meter: the two bars', () => {
  it('maps layout ms linearly from 0 to 33 ms, clamped', () => {
    expect(msFraction(0)).to.equal(0);
    expect(msFraction(16.5)).to.equal(0.5);
    expect(msFraction(33)).to.equal(1);
    expect(msFraction(100)).to.equal(1);
    expect(msFraction(-1)).to.equal(0);
  });

  it('maps element counts on log10 from 1 to 10 000, clamped', () => {
    expect(countFraction(0)).to.equal(0);
    expect(countFraction(9)).to.be.closeTo(1 / Math.log10(10001), 1e-9);
    expect(countFraction(99)).to.be.closeTo(2 / Math.log10(10001), 1e-9);
    expect(countFraction(10_000)).to.equal(1);
    expect(countFraction(1e6)).to.equal(1);
  });

  it('lays out a 28 px body inside the 32 × 14 box, on device pixels', () => {
    expect(bodyRect(100, 50, 1)).to.deep.equal({ x: 102, y: 52, width: 28, height: 10 });
    expect(bodyRect(100, 50, 2)).to.deep.equal({ x: 204, y: 104, width: 56, height: 20 });
  });

  it('draws the top bar with the ms ramp color and the width of its fraction', () => {
    const { rects, sink } = collect();
    emitBars(0, 0, 1, 13.2, 0, 0, MS, INF, sink);
    expect(rects).to.deep.equal([[2, 2, 11, 4, Level.Orange]]);
  });

  it('draws a full red top bar above 33 ms and none at 0 ms', () => {
    const a = collect();
    emitBars(0, 0, 1, 50, 0, 0, MS, INF, a.sink);
    expect(a.rects).to.deep.equal([[2, 2, 28, 4, Level.Red]]);
    const b = collect();
    emitBars(0, 0, 1, 0, 0, 0, MS, INF, b.sink);
    expect(b.rects).to.deep.equal([]);
  });

  it('draws grey up to authored and an inflation-colored tail up to rendered', () => {
    const { rects, sink } = collect();
    emitBars(0, 0, 1, 0, 9, 99, MS, INF, sink); // 11× → orange
    const w1 = Math.round(28 * countFraction(9)), w2 = Math.round(28 * countFraction(99));
    expect(rects).to.deep.equal([[2, 8, w1, 4, GREY], [2 + w1, 8, w2 - w1, 4, Level.Orange]]);
  });

  it('draws no tail when rendered equals authored', () => {
    const { rects, sink } = collect();
    emitBars(0, 0, 1, 0, 40, 40, MS, INF, sink);
    expect(rects).to.have.length(1);
    expect(rects[0][4]).to.equal(GREY);
  });
});

describe('overlay meter: the sparkline', () => {
  const ring = (vals: [number, number][]): Float32Array => {
    const r = new Float32Array(60);
    for (const [i, v] of vals) r[i] = v;
    return r;
  };

  it('scales column heights logarithmically from 0 to 33 ms, clamped', () => {
    expect(sparkFraction(0)).to.equal(0);
    expect(sparkFraction(33)).to.equal(1);
    expect(sparkFraction(1000)).to.equal(1);
    expect(sparkFraction(1)).to.be.greaterThan(0.15).and.lessThan(0.25);
  });

  it('draws nothing for a quiet component', () => {
    const { rects, sink } = collect();
    emitSparkline(0, 0, 1, new Float32Array(60), 0, MS, sink);
    expect(rects).to.deep.equal([]);
  });

  it('puts the newest bucket at the right edge, in its ramp color, bottom-aligned', () => {
    const { rects, sink } = collect();
    emitSparkline(0, 0, 1, ring([[9, 20]]), 10, MS, sink); // oldest = 10 → bucket 9 is the newest
    expect(rects).to.have.length(1);
    const [x, y, w, h, c] = rects[0];
    expect(x + w).to.equal(30);
    expect(y + h).to.equal(10); // the 2 px element strip sits under it
    expect(h).to.equal(Math.round(8 * sparkFraction(20)));
    expect(c).to.equal(Level.Red);
  });

  it('gives the oldest bucket the left edge', () => {
    const { rects, sink } = collect();
    emitSparkline(0, 0, 1, ring([[10, 5]]), 10, MS, sink);
    expect(rects[0][0]).to.equal(2);
    expect(rects[0][4]).to.equal(Level.Yellow);
  });

  it('keeps the max of the buckets a device column covers', () => {
    const { rects, sink } = collect();
    // 60 buckets into 28 columns: buckets 0 and 1 share column 0.
    emitSparkline(0, 0, 1, ring([[0, 1], [1, 30]]), 0, MS, sink);
    expect(rects[0][3]).to.equal(Math.round(8 * sparkFraction(30)));
  });

  it('shows anything at or above the floor as at least one device pixel, and drops noise below it', () => {
    const a = collect();
    emitSparkline(0, 0, 1, ring([[59, SPARK_FLOOR_MS]]), 0, MS, a.sink);
    expect(a.rects[0][3]).to.equal(1);
    const b = collect();
    emitSparkline(0, 0, 1, ring([[59, SPARK_FLOOR_MS / 2]]), 0, MS, b.sink);
    expect(b.rects).to.deep.equal([]);
  });

  it('draws the element strip under it: grey to authored, inflation tail to rendered', () => {
    const { rects, sink } = collect();
    emitStrip(0, 0, 1, 9, 99, INF, sink);
    const w1 = Math.round(28 * countFraction(9)), w2 = Math.round(28 * countFraction(99));
    expect(rects).to.deep.equal([[2, 10, w1, 2, GREY], [2 + w1, 10, w2 - w1, 2, Level.Orange]]);
    const hi = collect();
    emitStrip(0, 0, 2, 9, 9, INF, hi.sink);
    expect(hi.rects).to.deep.equal([[4, 20, Math.round(56 * countFraction(9)), 4, GREY]]);
  });

  it('gives every column exactly the log-scale height of its value (the precomputed boundaries change no pixel)', () => {
    // Values on both sides of every boundary (found by the same formula, stepped by a hair) and a spread between.
    for (const dpr of [1, 1.25, 2, 3]) {
      const height = Math.round((12 - 2) * dpr) - Math.round(2 * dpr); // the sparkline's part of the body, device px
      const values = [0, SPARK_FLOOR_MS / 2, SPARK_FLOOR_MS, 33, 50, Infinity, NaN];
      for (let i = 0; i < 400; i++) values.push(Math.expm1((i / 400) * Math.log1p(34)));
      for (let k = 1; k <= height; k++) {
        const edge = Math.expm1(((k - 0.5) / height) * Math.log1p(33));
        values.push(edge, edge * (1 + 1e-7), edge * (1 - 1e-7), edge * (1 + 1e-6), edge * (1 - 1e-6));
      }
      for (const v of values.map(Math.fround)) { // what a Float32Array ring holds
        const { rects, sink } = collect();
        emitSparkline(0, 0, dpr, ring([[59, v]]), 0, MS, sink);
        const got = rects.length === 0 ? 0 : rects[0][3];
        expect(got, `value ${v} at ${dpr}×`).to.equal(sparkHeight(v, height));
        expect(sparkHeight(v, height), `value ${v}`).to.equal(v >= SPARK_FLOOR_MS ? Math.max(1, Math.round(height * sparkFraction(v))) : 0);
      }
    }
  });

  it('reads a ring whatever its oldest index (wrapped, or beyond the ring)', () => {
    const a = collect(), b = collect();
    emitSparkline(0, 0, 1, ring([[9, 20]]), 10, MS, a.sink);
    emitSparkline(0, 0, 1, ring([[9, 20]]), 70, MS, b.sink);
    expect(b.rects).to.deep.equal(a.rects);
  });

  it('merges equal adjacent columns into one rect', () => {
    const { rects, sink } = collect();
    const r = new Float32Array(60).fill(4);
    emitSparkline(0, 0, 2, r, 0, MS, sink);
    expect(rects).to.have.length(1);
    expect(rects[0][2]).to.equal(56);
  });
});
