/**
 * One flush as data (src/overlay/paint-frame.ts): what the content script sends the extension's frame survives the
 * trip (packed, structured-cloned as postMessage does, unpacked) and draws exactly what the same flush draws in the
 * page; anything that is not a frame packFrame made is refused whole.
 */
import { expect } from 'chai';
import type { AtlasSurface, BlitContext } from '../../src/overlay/atlas';
import type { MeterStyle, PixelBuffer } from '../../src/overlay/meter-raster';
import {
  FRAME_LIMITS, FramePacker, FramePainter, FrameUnpacker, packFrame, unpackFrame, type PackedFrame, type PaintContext, type PaintFrame,
  type PaintMeter,
} from '../../src/overlay/paint-frame';
import { DEFAULT_SETTINGS } from '../../src/overlay/settings';
import { SPARKLINE_BUCKETS } from '../../src/overlay/sparkline';
import { FakeContext } from './overlay-helpers';

const STYLE: MeterStyle = { meterStyle: 'sparkline', msRamp: DEFAULT_SETTINGS.msRamp, inflationRamp: DEFAULT_SETTINGS.inflationRamp, colorBlind: false };
const BACKING = { width: 2560, height: 1800 };

function ring(seed: number): Float32Array {
  const r = new Float32Array(SPARKLINE_BUCKETS);
  for (let i = 0; i < r.length; i++) r[i] = ((i * 7 + seed) % 13) / 4;
  return r;
}

function frame(o: Partial<PaintFrame> = {}): PaintFrame {
  const meters: PaintMeter[] = [
    { id: 7, x: 10.5, y: 20, layoutMs: 1.25, authored: 3, rendered: 40, spark: ring(1), sparkOldest: 35, sparkBucket: 1234 },
    { id: 0, x: 300, y: 44, layoutMs: 0, authored: 1, rendered: 1, spark: null, sparkOldest: 0 },
    { id: 9, x: 500, y: 90.25, layoutMs: 7, authored: 12, rendered: 12, spark: ring(2), sparkOldest: 40, sparkBucket: 99 },
  ];
  return {
    vp: { width: 1280, height: 900, dpr: 2 },
    outlines: [{ x: 1, y: 2, width: 300, height: 200 }, { x: 10, y: 20, width: 30, height: 40 }],
    covers: [[], [{ x: 0, y: 0, width: 15, height: 15 }]],
    accent: [{ x: 5, y: 5, width: 50, height: 50 }],
    pin: { x: 7, y: 8, width: 90, height: 60 },
    meters,
    labels: [{ text: '<page>', at: { x: 300, y: 44 } }],
    captions: [{ lines: ['Big  1.2 ms · 3 → 40'], at: { x: 10.5, y: 20 }, bounds: { x: 1, y: 2, width: 300, height: 200 }, pinned: true }],
    modeCaption: 'Layout Cost: Components',
    legend: ['Layout Cost', [{ text: '', swatch: true, color: 'rgb(1,2,3)' }, { text: ' layout ms' }]],
    style: STYLE,
    ...o,
  };
}

/** What postMessage does to a packed frame. */
const trip = (f: PaintFrame): unknown => structuredClone(packFrame(f, BACKING));

class Surface implements AtlasSurface {
  readonly pixels: PixelBuffer;
  readonly source = {};
  constructor(w: number, h: number) {
    this.pixels = { data: new Uint8ClampedArray(w * h * 4), width: w, height: h };
  }
  upload(): void {}
}

class Ctx extends FakeContext implements BlitContext {
  imageSmoothingEnabled = true;
  drawImage(...a: unknown[]): void {
    this.calls.push({ op: 'drawImage', args: a.slice(1) });
  }
}

describe('overlay paint frame', () => {
  it('survives packing and a structured clone: the meters, their sparklines and everything else', () => {
    const f = frame();
    const got = unpackFrame(trip(f));
    expect(got).to.not.equal(null);
    expect(got!.backing).to.deep.equal(BACKING);
    const { meters, ...rest } = got!.frame;
    const { meters: sent, ...sentRest } = f;
    expect(rest).to.deep.equal(sentRest);
    expect(meters.length).to.equal(3);
    meters.forEach((m, i) => {
      const s = sent[i];
      // The sparkline style does not draw the EMA, so it does not travel (bars: below).
      expect([m.id, m.x, m.y, m.layoutMs, m.authored, m.rendered, m.sparkOldest, m.sparkBucket])
        .to.deep.equal([s.id, s.x, s.y, 0, s.authored, s.rendered, s.sparkOldest, s.sparkBucket]);
      expect(m.spark === null ? null : Array.from(m.spark)).to.deep.equal(s.spark === null ? null : Array.from(s.spark));
    });
    expect('sparkBucket' in meters[1]).to.equal(false);
    const bars = unpackFrame(structuredClone(packFrame(frame({ style: { ...STYLE, meterStyle: 'bars' } }), BACKING)))!;
    expect(bars.frame.meters.map((m) => m.layoutMs)).to.deep.equal(sent.map((m) => m.layoutMs));
  });

  it('packs the meters and rects in typed arrays, sparklines only for meters that have one', () => {
    const p = packFrame(frame(), BACKING);
    expect(p.nums).to.be.instanceOf(Float64Array);
    expect(p.nums.length).to.equal(3 * 8);
    expect(Array.from(p.ids)).to.deep.equal([7, 0, 9]);
    expect(p.sparks.length).to.equal(2 * SPARKLINE_BUCKETS);
    // 2 outlines, 1 accent, 2 cover counts, 1 cover.
    expect(Array.from(p.rects!)).to.deep.equal([2, 1, 1, 2, 300, 200, 10, 20, 30, 40, 5, 5, 50, 50, 0, 1, 0, 0, 15, 15]);
    for (const k of ['meters', 'outlines', 'accent', 'covers']) expect(p).to.not.have.property(k);
  });

  it('sends each sparkline whole once, then only the buckets from the last one sent; the frame\'s copy stays the ring', () => {
    // A store-like ring: indexed by bucket number modulo 60, advanced as buckets pass, the newest one's max growing.
    const live = { spark: new Float32Array(SPARKLINE_BUCKETS), sparkBucket: 1000 };
    const advance = (to: number): void => {
      for (let b = live.sparkBucket + 1; b <= to; b++) live.spark[b % SPARKLINE_BUCKETS] = 0;
      live.sparkBucket = to;
    };
    live.spark.forEach((_, i) => { live.spark[i] = i / 10; });
    const meter = (): PaintMeter => ({
      id: 42, x: 1, y: 2, layoutMs: 3, authored: 1, rendered: 2, spark: live.spark,
      sparkOldest: (live.sparkBucket + 1) % SPARKLINE_BUCKETS, sparkBucket: live.sparkBucket, ring: live,
    });
    const packer = new FramePacker();
    const unpacker = new FrameUnpacker();
    const step = (): { values: number; ring: number[] } => {
      const p = packer.pack(frame({ meters: [meter()] }), BACKING)!;
      expect(p).to.not.equal(null);
      const got = unpacker.unpack(structuredClone(p))!;
      expect(got.stale).to.equal(false);
      const m = got.frame.meters[0];
      expect(m.sparkBucket).to.equal(live.sparkBucket);
      expect(m.sparkOldest).to.equal((live.sparkBucket + 1) % SPARKLINE_BUCKETS);
      return { values: p.sparks.length, ring: Array.from(m.spark!) };
    };
    const first = step();
    expect(first.values).to.equal(SPARKLINE_BUCKETS);
    expect(first.ring).to.deep.equal(Array.from(live.spark));
    live.spark[1000 % SPARKLINE_BUCKETS] = 9; // the newest bucket's maximum grew
    let next = step();
    expect(next.values).to.equal(1);
    expect(next.ring).to.deep.equal(Array.from(live.spark));
    advance(1003);
    live.spark[1003 % SPARKLINE_BUCKETS] = 4;
    next = step();
    expect(next.values).to.equal(4); // 1000 (could have grown), 1001, 1002 (zeroed), 1003
    expect(next.ring).to.deep.equal(Array.from(live.spark));
    advance(1003 + SPARKLINE_BUCKETS + 5); // a long quiet spell: whole again
    next = step();
    expect(next.values).to.equal(SPARKLINE_BUCKETS);
    expect(next.ring).to.deep.equal(Array.from(live.spark));
    // A new ring for the same component (its cost state made again): whole.
    live.spark = new Float32Array(SPARKLINE_BUCKETS).fill(2);
    next = step();
    expect(next.values).to.equal(SPARKLINE_BUCKETS);
    expect(next.ring).to.deep.equal(Array.from(live.spark));
  });

  it('sends only what changed, and nothing for a flush like the last; the frame still draws all of it', () => {
    const packer = new FramePacker();
    const unpacker = new FrameUnpacker();
    const f = frame();
    const whole = packer.pack(f, BACKING)!;
    expect(whole.full).to.equal(true);
    expect(Array.from(whole.slots)).to.deep.equal([0, 1, 2]);
    expect(unpacker.unpack(structuredClone(whole))!.stale).to.equal(false);
    // The same plan (the same outline arrays), the same numbers and text: nothing to send.
    expect(packer.pack({ ...f, meters: f.meters.map((m) => ({ ...m })) }, BACKING)).to.equal(null);
    // Only the mode caption went: no meter, no rects, no sparkline values, and the frame draws the meters it has.
    const same = packer.pack({ ...f, meters: f.meters.map((m) => ({ ...m })), modeCaption: null }, BACKING)!;
    expect([same.full, same.slots.length, same.ids.length, same.nums.length, same.sparks.length, same.rects]).to.deep.equal([false, 0, 0, 0, 0, null]);
    const got = unpacker.unpack(structuredClone(same))!;
    expect(got.stale).to.equal(false);
    expect(got.frame.meters.map((m) => [m.id, m.x, m.y])).to.deep.equal(f.meters.map((m) => [m.id, m.x, m.y]));
    expect(got.frame.outlines).to.deep.equal(f.outlines);
    // One meter moved, one fewer meter: one slot and the new count.
    const moved = packer.pack({ ...f, meters: [f.meters[0], { ...f.meters[1], y: 60 }] }, BACKING)!;
    expect([moved.count, Array.from(moved.slots)]).to.deep.equal([2, [1]]);
    const after = unpacker.unpack(structuredClone(moved))!;
    expect(after.frame.meters.map((m) => [m.id, m.y])).to.deep.equal([[7, 20], [0, 60]]);
    // The sparkline style does not draw the EMA: a new layoutMs alone is not sent; in bars it is.
    expect(packer.pack({ ...f, meters: [f.meters[0], { ...f.meters[1], y: 60, layoutMs: 5 }] }, BACKING)).to.equal(null);
    const bars = packer.pack({ ...f, style: { ...STYLE, meterStyle: 'bars' }, meters: [f.meters[0], { ...f.meters[1], y: 60, layoutMs: 5 }] }, BACKING)!;
    expect(bars.full).to.equal(true);
  });

  it('says a flush is stale when it does not join what the frame has (a frame that lost it, or never had it)', () => {
    const live = { spark: ring(3), sparkBucket: 500 };
    const meter: PaintMeter = { id: 5, x: 1, y: 2, layoutMs: 3, authored: 1, rendered: 2, spark: live.spark, sparkOldest: 21, sparkBucket: 500, ring: live };
    const packer = new FramePacker();
    new FrameUnpacker().unpack(structuredClone(packer.pack(frame({ meters: [meter] }), BACKING)!));
    live.sparkBucket = 501;
    const delta = structuredClone(packer.pack(frame({ meters: [{ ...meter, sparkOldest: 22, sparkBucket: 501 }] }), BACKING)!);
    const fresh = new FrameUnpacker();
    expect(unpackFrame(delta)!.stale).to.equal(true);
    expect(fresh.unpack(delta)!.stale).to.equal(true);
    // Whole again (the content script reset its packer): drawn.
    packer.reset();
    const whole = structuredClone(packer.pack(frame({ meters: [{ ...meter, sparkOldest: 22, sparkBucket: 501 }] }), BACKING)!);
    expect(fresh.unpack(whole)!.stale).to.equal(false);
  });

  it('draws in the frame exactly what the same flush draws in the page', () => {
    const f = frame();
    const page = new Ctx();
    const there = new Ctx();
    const pageLegend = new FramePainter((w, h) => new Surface(w, h)).paint(page as unknown as PaintContext, BACKING.width, BACKING.height, f);
    const got = unpackFrame(trip(f))!;
    const frameLegend = new FramePainter((w, h) => new Surface(w, h)).paint(there as unknown as PaintContext, got.backing.width, got.backing.height, got.frame);
    expect(there.calls).to.deep.equal(page.calls);
    expect(page.calls.filter((c) => c.op === 'drawImage').length).to.equal(3);
    expect(frameLegend).to.deep.equal(pageLegend);
    expect(pageLegend).to.not.equal(null);
    expect(new FramePainter((w, h) => new Surface(w, h)).paint(new Ctx() as unknown as PaintContext, 10, 10, frame({ legend: null }))).to.equal(null);
  });

  it('refuses whatever is not a frame it made, whole', () => {
    const good = trip(frame()) as PackedFrame;
    const bad: [string, (p: PackedFrame) => unknown][] = [
      ['not an object', () => 'paint'],
      ['null', () => null],
      ['no backing', (p) => ({ ...p, backing: undefined })],
      ['a backing too large', (p) => ({ ...p, backing: { width: 40000, height: 10 } })],
      ['a fractional backing', (p) => ({ ...p, backing: { width: 10.5, height: 10 } })],
      ['numbers as a plain array', (p) => ({ ...p, nums: Array.from(p.nums) })],
      ['ids as a plain array', (p) => ({ ...p, ids: Array.from(p.ids) })],
      ['more ids than slots', (p) => ({ ...p, ids: new Int32Array(4) })],
      ['a slot past the count', (p) => ({ ...p, count: 2 })],
      ['slots out of order', (p) => ({ ...p, slots: Int32Array.from([0, 2, 1]) })],
      ['no full flag', (p) => ({ ...p, full: 1 })],
      ['a fractional count of meters', (p) => ({ ...p, count: 2.5 })],
      ['a count past the ring', (p) => { const n = p.nums.slice(); n[7] = SPARKLINE_BUCKETS + 1; return { ...p, nums: n }; }],
      ['a fractional count', (p) => { const n = p.nums.slice(); n[7] = 1.5; return { ...p, nums: n }; }],
      ['an oldest bucket that is not the newest\'s next', (p) => { const n = p.nums.slice(); n[5] = 3; return { ...p, nums: n }; }],
      ['a fractional bucket', (p) => { const n = p.nums.slice(); n[6] = 1234.5; return { ...p, nums: n }; }],
      ['a part of a ring without a bucket', (p) => {
        // The meter without a sparkline (the second) given three values and no bucket to place them by.
        const n = p.nums.slice();
        n[8 + 7] = 3;
        const v = new Float32Array(p.sparks.length + 3);
        v.set(p.sparks.subarray(0, SPARKLINE_BUCKETS));
        v.set(p.sparks.subarray(SPARKLINE_BUCKETS), SPARKLINE_BUCKETS + 3);
        return { ...p, nums: n, sparks: v };
      }],
      ['a spark value left over', (p) => { const v = new Float32Array(p.sparks.length + 1); v.set(p.sparks); return { ...p, sparks: v }; }],
      ['a partial meter', (p) => ({ ...p, nums: p.nums.slice(0, 20) })],
      ['too many meters', (p) => ({ ...p, count: FRAME_LIMITS.meters + 1 })],
      ['a NaN position', (p) => { const n = p.nums.slice(); n[0] = NaN; return { ...p, nums: n }; }],
      ['an infinite count', (p) => { const n = p.nums.slice(); n[3] = Infinity; return { ...p, nums: n }; }],
      ['an oldest bucket out of the ring', (p) => { const n = p.nums.slice(); n[5] = SPARKLINE_BUCKETS; return { ...p, nums: n }; }],
      ['a sparkline that is not there', (p) => ({ ...p, sparks: p.sparks.slice(0, SPARKLINE_BUCKETS) })],
      ['a zero pixel ratio', (p) => ({ ...p, vp: { ...p.vp, dpr: 0 } })],
      ['rects as a plain array', (p) => ({ ...p, rects: Array.from(p.rects!) })],
      ['a NaN outline', (p) => { const r = p.rects!.slice(); r[2] = NaN; return { ...p, rects: r }; }],
      ['a fractional outline count', (p) => { const r = p.rects!.slice(); r[0] = 1.5; return { ...p, rects: r }; }],
      ['more outlines than sent', (p) => { const r = p.rects!.slice(); r[0] = 3; return { ...p, rects: r }; }],
      ['a cover count past the end', (p) => { const r = p.rects!.slice(); r[2 + 4 * 2 + 4 * 1 + 1] = 2; return { ...p, rects: r }; }],
      ['a negative cover count', (p) => { const r = p.rects!.slice(); r[2 + 4 * 2 + 4 * 1] = -1; return { ...p, rects: r }; }],
      ['a trailing number', (p) => { const r = new Float64Array(p.rects!.length + 1); r.set(p.rects!); return { ...p, rects: r }; }],
      ['a pin with a string', (p) => ({ ...p, pin: { x: '1', y: 2, width: 3, height: 4 } })],
      ['a label too long', (p) => ({ ...p, labels: [{ text: 'x'.repeat(FRAME_LIMITS.chars + 1), at: { x: 0, y: 0 } }] })],
      ['a caption without lines', (p) => ({ ...p, captions: [{ at: { x: 0, y: 0 }, bounds: null, pinned: true }] })],
      ['a legend segment that is not text', (p) => ({ ...p, legend: [[{ text: 1 }]] })],
      ['a color that is not a string', (p) => ({ ...p, legend: [[{ text: 'a', color: 5 }]] })],
      ['a mode caption that is a number', (p) => ({ ...p, modeCaption: 3 })],
      ['an unknown meter style', (p) => ({ ...p, style: { ...p.style, meterStyle: 'pie' } })],
      ['a ramp of two', (p) => ({ ...p, style: { ...p.style, msRamp: [1, 2] } })],
    ];
    expect(unpackFrame(good)).to.not.equal(null);
    for (const [what, make] of bad) expect(unpackFrame(make(structuredClone(good))), what).to.equal(null);
  });
});
