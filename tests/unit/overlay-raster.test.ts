/**
 * Meters as pixels: rasterMeter writes exact colors at exact device pixels,
 * and the atlas re-rasterises only what changed and blits one image per meter.
 */
import { expect } from 'chai';
import { contentKey, MeterAtlas, type AtlasMeter, type AtlasSurface, type BlitContext } from '../../src/overlay/atlas';
import { countFraction } from '../../src/overlay/meter';
import {
  BORDER_RGBA, BOX_RGBA, meterSize, rasterMeter, STRIPE_SHADE, type MeterData, type MeterStyle, type PixelBuffer,
} from '../../src/overlay/meter-raster';
import { AUTHORED_RGB, LEVEL_RGB } from '../../src/overlay/ramps';
import { DEFAULT_SETTINGS } from '../../src/overlay/settings';
import { FakeContext } from './overlay-helpers';

const BARS: MeterStyle = { meterStyle: 'bars', msRamp: DEFAULT_SETTINGS.msRamp, inflationRamp: DEFAULT_SETTINGS.inflationRamp, colorBlind: false };
const SPARK: MeterStyle = { ...BARS, meterStyle: 'sparkline' };
const data = (o: Partial<MeterData> = {}): MeterData => ({ layoutMs: 20, authored: 9, rendered: 99, spark: null, sparkOldest: 0, ...o });

function buffer(w: number, h: number): PixelBuffer {
  return { data: new Uint8ClampedArray(w * h * 4), width: w, height: h };
}
function px(b: PixelBuffer, x: number, y: number): number[] {
  const o = (y * b.width + x) * 4;
  return Array.from(b.data.slice(o, o + 4));
}
const rgb = (c: readonly number[]): number[] => [...c, 255];

describe('overlay meter raster', () => {
  it('is 32 × 14 CSS px in whole device pixels', () => {
    expect(meterSize(1)).to.deep.equal({ width: 32, height: 14 });
    expect(meterSize(2)).to.deep.equal({ width: 64, height: 28 });
    expect(meterSize(1.25)).to.deep.equal({ width: 40, height: 18 });
  });

  it('draws the translucent box, the opaque 1 px border and transparent rounded corners', () => {
    const b = buffer(32, 14);
    rasterMeter(b, 0, 0, 1, data({ layoutMs: 0, authored: 0, rendered: 0 }), BARS);
    expect(px(b, 0, 0)).to.deep.equal([0, 0, 0, 0]);
    expect(px(b, 0, 7)).to.deep.equal([...BORDER_RGBA]);
    expect(px(b, 31, 7)).to.deep.equal([...BORDER_RGBA]);
    expect(px(b, 16, 0)).to.deep.equal([...BORDER_RGBA]);
    expect(px(b, 16, 13)).to.deep.equal([...BORDER_RGBA]);
    expect(px(b, 1, 7)).to.deep.equal([...BOX_RGBA]);
    expect(px(b, 16, 7)).to.deep.equal([...BOX_RGBA]);
  });

  it('bars: the ms bar in its ramp color, grey authored, the inflation tail in its ramp color', () => {
    const b = buffer(32, 14);
    rasterMeter(b, 0, 0, 1, data(), BARS);
    expect(px(b, 2, 3)).to.deep.equal(rgb(LEVEL_RGB[3])); // 20 ms: red
    const a = Math.round(28 * countFraction(9)), r = Math.round(28 * countFraction(99));
    expect(px(b, 2, 9)).to.deep.equal(rgb(AUTHORED_RGB));
    expect(px(b, 2 + a, 9)).to.deep.equal(rgb(LEVEL_RGB[2])); // 11×: orange
    expect(px(b, 2 + r, 9)).to.deep.equal([...BOX_RGBA]);
    expect(px(b, 2, 7)).to.deep.equal([...BOX_RGBA]); // the gutter
  });

  it('sparkline: columns in ramp colors over a 2 px element strip', () => {
    const ring = new Float32Array(60);
    ring[59] = 10;
    const b = buffer(32, 14);
    rasterMeter(b, 0, 0, 1, data({ spark: ring, sparkOldest: 0, authored: 10, rendered: 10 }), SPARK);
    expect(px(b, 29, 9)).to.deep.equal(rgb(LEVEL_RGB[2])); // newest column, 10 ms: orange
    expect(px(b, 28, 9)).to.deep.equal([...BOX_RGBA]);
    expect(px(b, 5, 10)).to.deep.equal(rgb(AUTHORED_RGB)); // strip: no tail at 1×
  });

  it('stripes orange and red for the color-blind setting, never grey or yellow', () => {
    const b = buffer(32, 14);
    rasterMeter(b, 0, 0, 1, data(), { ...BARS, colorBlind: true });
    const row = Array.from({ length: 10 }, (_, i) => px(b, 2 + i, 3)[0]);
    expect(row).to.include(LEVEL_RGB[3][0]);
    expect(row).to.include(Math.round(LEVEL_RGB[3][0] * STRIPE_SHADE));
    expect(row.filter((v) => v !== LEVEL_RGB[3][0])).to.have.length.within(2, 5);
    expect(px(b, 2, 9)).to.deep.equal(rgb(AUTHORED_RGB));
    const y = buffer(32, 14);
    rasterMeter(y, 0, 0, 1, data({ layoutMs: 5, authored: 10, rendered: 10 }), { ...BARS, colorBlind: true });
    expect(new Set(Array.from({ length: 4 }, (_, i) => px(y, 2 + i, 3).join())).size).to.equal(1); // 5 ms: 4 px of plain yellow
  });

  it('stays inside its slot and overwrites what was there', () => {
    const b = buffer(96, 14);
    b.data.fill(7);
    rasterMeter(b, 32, 0, 1, data(), BARS);
    expect(px(b, 31, 7)).to.deep.equal([7, 7, 7, 7]);
    expect(px(b, 64, 7)).to.deep.equal([7, 7, 7, 7]);
    expect(px(b, 32, 0)).to.deep.equal([0, 0, 0, 0]);
  });
});

class FakeSurface implements AtlasSurface {
  readonly pixels: PixelBuffer;
  readonly source = { atlas: true };
  uploads: [number, number, number, number][] = [];
  constructor(w: number, h: number) {
    this.pixels = buffer(w, h);
  }
  upload(x: number, y: number, w: number, h: number): void {
    this.uploads.push([x, y, w, h]);
  }
}

class BlitFake extends FakeContext implements BlitContext {
  imageSmoothingEnabled = true;
  blits: number[][] = [];
  drawImage(_s: never, ...a: number[]): void {
    this.blits.push(a);
  }
}

describe('overlay meter atlas', () => {
  const meter = (o: Partial<AtlasMeter> = {}): AtlasMeter => ({ ...data(), x: 100.4, y: 50, ...o });
  let surfaces: FakeSurface[];
  let atlas: MeterAtlas;
  beforeEach(() => {
    surfaces = [];
    atlas = new MeterAtlas((w, h) => {
      const s = new FakeSurface(w, h);
      surfaces.push(s);
      return s;
    });
  });

  it('blits one unscaled image per meter at its device-pixel position', () => {
    const ctx = new BlitFake();
    atlas.paint(ctx, [meter(), meter({ x: 300 })], 2, BARS);
    expect(ctx.blits).to.deep.equal([[0, 0, 64, 28, 201, 100, 64, 28], [64, 0, 64, 28, 600, 100, 64, 28]]);
    expect(ctx.calls.length).to.equal(0); // no paths, no fills: only blits
    expect(ctx.imageSmoothingEnabled).to.equal(false); // 1:1, nearest-neighbour
  });

  it('re-rasterises only meters whose content changed, and uploads only the band that changed', () => {
    const ring = new Float32Array(60);
    const ms = Array.from({ length: 40 }, (_, i) => meter({ x: i * 40, spark: ring, sparkBucket: 7 }));
    atlas.paint(new BlitFake(), ms, 1, SPARK);
    expect(atlas.rasterised).to.equal(40);
    atlas.paint(new BlitFake(), ms, 1, SPARK);
    expect(atlas.rasterised).to.equal(0);
    expect(surfaces[0].uploads).to.have.length(1);
    const moved = ms.map((m) => ({ ...m, x: m.x + 5 })); // scrolling moves meters, not their pixels
    atlas.paint(new BlitFake(), moved, 1, SPARK);
    expect(atlas.rasterised).to.equal(0);
    moved[39] = { ...moved[39], sparkBucket: 8 }; // a new bucket began
    atlas.paint(new BlitFake(), moved, 1, SPARK);
    expect(atlas.rasterised).to.equal(1);
    expect(surfaces[0].uploads[1]).to.deep.equal([0, 28, 512, 14]);
  });

  it('keys content on everything the pixels depend on', () => {
    const ring = new Float32Array(60);
    const base = meter({ spark: ring, sparkBucket: 3 });
    const k = contentKey(base, 1, SPARK);
    ring[59] = 4; // the newest bucket grew
    expect(contentKey(base, 1, SPARK)).to.not.equal(k);
    expect(contentKey(base, 2, SPARK)).to.not.equal(contentKey(base, 1, SPARK));
    expect(contentKey({ ...base, rendered: 100 }, 1, SPARK)).to.not.equal(contentKey(base, 1, SPARK));
    expect(contentKey(base, 1, { ...SPARK, colorBlind: true })).to.not.equal(contentKey(base, 1, SPARK));
    expect(contentKey({ ...base, sparkBucket: undefined }, 1, SPARK)).to.equal(null); // no bucket number: never reused
    expect(contentKey(meter({ layoutMs: 3 }), 1, BARS)).to.not.equal(contentKey(meter({ layoutMs: 4 }), 1, BARS));
  });

  it('grows its surface for more meters and starts over when the zoom changes', () => {
    atlas.paint(new BlitFake(), Array.from({ length: 10 }, () => meter()), 1, BARS);
    atlas.paint(new BlitFake(), Array.from({ length: 300 }, () => meter()), 1, BARS);
    expect(surfaces).to.have.length(2);
    expect(surfaces[1].pixels.height).to.be.at.least(Math.ceil(300 / 16) * 14);
    atlas.paint(new BlitFake(), [meter()], 2, BARS);
    expect(surfaces).to.have.length(3);
    expect(atlas.rasterised).to.equal(1);
  });

  it('draws nothing when no surface can be made', () => {
    const none = new MeterAtlas(() => null);
    const ctx = new BlitFake();
    none.paint(ctx, [meter()], 1, BARS);
    expect(ctx.blits).to.deep.equal([]);
  });
});
