/**
 * One flush as data (src/overlay/paint-frame.ts) and the painter that draws it, against a recording context; and the
 * canvas size rule (src/overlay/canvas-size.ts) across a browser zoom.
 */
import { expect } from 'chai';
import type { AtlasMeter, AtlasSurface, BlitContext } from '../../src/overlay/atlas';
import { cssSize } from '../../src/content/agent/canvas/canvas-size';
import type { MeterStyle, PixelBuffer } from '../../src/overlay/meter-raster';
import { FramePainter, type PaintContext, type PaintFrame } from '../../src/content/agent/canvas/paint-frame';
import { DEFAULT_SETTINGS } from '../../src/overlay/settings';
import { SPARKLINE_BUCKETS } from '../../src/overlay/sparkline';
import { FakeContext } from './overlay-helpers';

const STYLE: MeterStyle = { meterStyle: 'sparkline', msRamp: DEFAULT_SETTINGS.msRamp, inflationRamp: DEFAULT_SETTINGS.inflationRamp, colorBlind: false };

function frame(o: Partial<PaintFrame> = {}): PaintFrame {
  const ring = new Float32Array(SPARKLINE_BUCKETS).map((_, i) => (i % 7) / 2);
  const meters: AtlasMeter[] = [
    { x: 10.5, y: 20, layoutMs: 1.25, authored: 3, rendered: 40, spark: ring, sparkOldest: 35, sparkBucket: 1234 },
    { x: 300, y: 44, layoutMs: 0, authored: 1, rendered: 1, spark: null, sparkOldest: 0 },
  ];
  return {
    vp: { width: 1280, height: 900, dpr: 2 },
    outlines: [{ x: 1, y: 2, width: 300, height: 200 }], covers: [[]], accent: [], pin: { x: 7, y: 8, width: 90, height: 60 },
    meters,
    labels: [{ text: '<page>', at: { x: 300, y: 44 } }],
    captions: [{ lines: ['Big  1.2 ms · 3 → 40'], at: { x: 10.5, y: 20 }, bounds: { x: 1, y: 2, width: 300, height: 200 }, pinned: true }],
    modeCaption: 'Layout Cost: Components',
    legend: ['Layout Cost', [{ text: '', swatch: true, color: 'rgb(1,2,3)' }, { text: ' layout ms' }]],
    style: STYLE,
    ...o,
  };
}

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
  blits = 0;
  drawImage(): void {
    this.blits++;
  }
}

describe('overlay paint frame', () => {
  it('draws every part of the flush: one blit per meter, the label, the caption, the mode caption, the legend', () => {
    const ctx = new Ctx();
    const legend = new FramePainter((w, h) => new Surface(w, h)).paint(ctx as unknown as PaintContext, 2560, 1800, frame());
    expect(ctx.calls[0]).to.deep.equal({ op: 'setTransform', args: [1, 0, 0, 1, 0, 0] });
    expect(ctx.calls[1]).to.deep.equal({ op: 'clearRect', args: [0, 0, 2560, 1800] });
    expect(ctx.blits).to.equal(2);
    const texts = ctx.texts.map((t) => t.text);
    for (const t of ['<page>', 'Big  1.2 ms · 3 → 40', 'Layout Cost: Components', 'Layout Cost', ' layout ms']) expect(texts, t).to.include(t);
    // Where the legend went (CSS px), inside the viewport: the click that hides it is checked against it.
    expect(legend).to.not.equal(null);
    expect(legend!.x).to.be.at.least(0);
    expect(legend!.y + legend!.height).to.be.at.most(900);
    const none = new FramePainter((w, h) => new Surface(w, h)).paint(new Ctx() as unknown as PaintContext, 10, 10, frame({ legend: null }));
    expect(none).to.equal(null);
  });
});

describe('overlay canvas size', () => {
  let reads = 0;
  const win = (width: number, height: number) => () => {
    reads++;
    return { width, height };
  };
  beforeEach(() => { reads = 0; });

  it('is the window\'s before the first observation, then the observed CSS size (the window is not read)', () => {
    expect(cssSize(null, 0, 1, win(1000, 700))).to.deep.equal({ size: { width: 1000, height: 700 }, reread: false });
    expect(cssSize({ width: 1280, height: 900 }, 1, 1, win(1, 1))).to.deep.equal({ size: { width: 1280, height: 900 }, reread: false });
    expect(reads).to.equal(1);
  });

  it('at a ratio the observation was not taken at, reads the window once: a zoom halves the CSS size, emulation keeps it', () => {
    // Browser zoom to 200 %: the observer is not told (the device-pixel size did not change); the window is 640 wide.
    expect(cssSize({ width: 1280, height: 900 }, 1, 2, win(640, 450))).to.deep.equal({ size: { width: 640, height: 450 }, reread: true });
    // An emulated ratio of 2: the window is still 1280 wide.
    expect(cssSize({ width: 1280, height: 900 }, 1, 2, win(1280, 900))).to.deep.equal({ size: { width: 1280, height: 900 }, reread: true });
    // Kept as the observation at the new ratio: no more reads.
    expect(cssSize({ width: 640, height: 450 }, 2, 2, win(1, 1))).to.deep.equal({ size: { width: 640, height: 450 }, reread: false });
    expect(reads).to.equal(2);
  });
});
