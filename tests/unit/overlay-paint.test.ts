import { expect } from 'chai';
import { legendLines, modeCaption } from '../../src/overlay/legend';
import { BOX_FILL, paintMeters, paintOutlines, paintStripeTile, type MeterDraw, type PaintStyle } from '../../src/overlay/paint-meters';
import { cleanName, formatMs, MAX_NAME_CHARS, measureLines, paintLines, pinCaption, placeCaption } from '../../src/overlay/paint-text';
import { AUTHORED_COLOR, LEVEL_COLORS } from '../../src/overlay/ramps';
import { DEFAULT_SETTINGS } from '../../src/overlay/settings';
import { FakeContext } from './overlay-helpers';

const STYLE: PaintStyle = {
  meterStyle: 'bars', msRamp: DEFAULT_SETTINGS.msRamp, inflationRamp: DEFAULT_SETTINGS.inflationRamp, colorBlind: false, stripeFill: 'STRIPES',
};
const meter = (o: Partial<MeterDraw> = {}): MeterDraw => ({
  x: 100, y: 50, layoutMs: 20, authored: 9, rendered: 99, spark: null, sparkOldest: 0, ...o,
});

describe('overlay painters', () => {
  it('batches: one fill for all boxes, one stroke for all borders, one fill per color', () => {
    const ctx = new FakeContext();
    paintMeters(ctx, Array.from({ length: 200 }, (_, i) => meter({ x: i * 40 })), 1, STYLE);
    expect(ctx.count('stroke')).to.equal(1);
    // boxes + grey + red ms bar + orange tail
    expect(ctx.count('fill')).to.equal(4);
    expect(ctx.count('fillRect')).to.equal(0);
  });

  it('fills the bars at their device pixels in the ramp colors', () => {
    const ctx = new FakeContext();
    paintMeters(ctx, [meter()], 2, STYLE);
    expect(ctx.fillAt(2 * 102, 2 * 52)).to.equal(LEVEL_COLORS[3]); // 20 ms → red top bar
    expect(ctx.fillAt(2 * 102, 2 * 58)).to.equal(AUTHORED_COLOR);
    expect(ctx.fillAt(2 * 115, 2 * 58)).to.equal(LEVEL_COLORS[2]); // 11× → orange tail
    expect(ctx.fillAt(2 * 129, 2 * 58)).to.equal(undefined);
  });

  it('lays stripes over orange and red only when the color-blind setting is on', () => {
    const off = new FakeContext();
    paintMeters(off, [meter()], 1, STYLE);
    expect(off.fills.some((f) => f.fill === 'STRIPES')).to.equal(false);
    const on = new FakeContext();
    paintMeters(on, [meter()], 1, { ...STYLE, colorBlind: true });
    expect(on.fillAt(102, 52)).to.equal('STRIPES'); // red ms bar
    expect(on.fillAt(115, 58)).to.equal('STRIPES'); // orange tail
    expect(on.fillAt(102, 58)).to.equal(AUTHORED_COLOR); // grey: no stripes
    const yellow = new FakeContext();
    paintMeters(yellow, [meter({ layoutMs: 5, authored: 10, rendered: 10 })], 1, { ...STYLE, colorBlind: true });
    expect(yellow.fills.some((f) => f.fill === 'STRIPES')).to.equal(false);
  });

  it('draws the sparkline body by default, and nothing for a meter without history', () => {
    const ring = new Float32Array(60);
    ring[59] = 10;
    const ctx = new FakeContext();
    paintMeters(ctx, [meter({ spark: ring }), meter({ x: 300, authored: 0, rendered: 0 })], 1, { ...STYLE, meterStyle: 'sparkline' });
    expect(ctx.fillAt(129, 59)).to.equal(LEVEL_COLORS[2]);
    expect(ctx.fillAt(102, 61)).to.equal(AUTHORED_COLOR); // the element strip
    expect(ctx.fills.filter((f) => f.fill !== BOX_FILL && f.rect.x >= 300)).to.have.length(0);
  });

  it('paints nothing at all for no meters', () => {
    const ctx = new FakeContext();
    paintMeters(ctx, [], 1, STYLE);
    expect(ctx.calls).to.deep.equal([]);
  });

  it('outlines on whole device pixels with a one-device-pixel line at 100 % and two at 200 %', () => {
    const ctx = new FakeContext();
    paintOutlines(ctx, [{ x: 10.4, y: 10.6, width: 100, height: 50 }], 1);
    expect(ctx.fills.map((f) => f.rect)).to.deep.equal([
      { x: 10, y: 11, width: 100, height: 1 }, { x: 10, y: 60, width: 100, height: 1 },
      { x: 10, y: 12, width: 1, height: 48 }, { x: 109, y: 12, width: 1, height: 48 },
    ]);
    const hi = new FakeContext();
    paintOutlines(hi, [{ x: 10, y: 10, width: 100, height: 50 }], 2);
    expect(hi.fills[0].rect).to.deep.equal({ x: 20, y: 20, width: 200, height: 2 });
  });

  it('draws a stripe tile of diagonal lines', () => {
    const ctx = new FakeContext();
    paintStripeTile(ctx, 2);
    expect(ctx.count('lineTo')).to.equal(3);
    expect(ctx.count('stroke')).to.equal(1);
  });
});

describe('overlay text', () => {
  it('formats the pinned caption: name, ms, rendered/authored with the ratio', () => {
    expect(pinCaption('Grid', 4.21, 50, 847)).to.equal('Grid · 4.2 ms · 847/50 el (16.9×)');
    expect(formatMs(0)).to.equal('0 ms');
    expect(formatMs(0.04)).to.equal('<0.1 ms');
    expect(formatMs(12.6)).to.equal('13 ms');
  });

  it('keeps page-supplied names as plain, short text', () => {
    expect(cleanName('<img src=x onerror=alert(1)>')).to.equal('<img src=x onerror=alert(1)>');
    expect(cleanName('a\u0000b\nc')).to.equal('abc');
    expect(cleanName('   ')).to.equal('Anonymous');
    expect(cleanName('x'.repeat(100))).to.have.length(MAX_NAME_CHARS);
  });

  it('draws text only through fillText, scaled to device pixels', () => {
    const ctx = new FakeContext();
    paintLines(ctx, ['<b>hi</b>'], 10, 10, 2);
    expect(ctx.texts.map((t) => t.text)).to.deep.equal(['<b>hi</b>']);
    expect(ctx.font).to.match(/^22px /);
  });

  it('hangs the caption outside the component: above it, else below it', () => {
    const vp = { width: 800, height: 600, dpr: 1 };
    const size = { width: 100, height: 20 };
    expect(placeCaption({ x: 464, y: 104 }, size, vp, { x: 300, y: 100, width: 200, height: 60 })).to.deep.equal({ x: 400, y: 78 });
    expect(placeCaption({ x: 464, y: 14 }, size, vp, { x: 300, y: 10, width: 200, height: 60 })).to.deep.equal({ x: 400, y: 72 });
    // Filling the viewport: no room outside, so under the meter.
    expect(placeCaption({ x: 764, y: 4 }, size, vp, { x: 0, y: 0, width: 800, height: 600 })).to.deep.equal({ x: 696, y: 20 });
  });

  it('hangs the caption under the meter, above it at the bottom edge, inside the viewport', () => {
    const vp = { width: 800, height: 600, dpr: 1 };
    expect(placeCaption({ x: 500, y: 100 }, { width: 100, height: 20 }, vp)).to.deep.equal({ x: 432, y: 116 });
    expect(placeCaption({ x: 500, y: 590 }, { width: 100, height: 20 }, vp).y).to.equal(568);
    expect(placeCaption({ x: 0, y: 100 }, { width: 100, height: 20 }, vp).x).to.equal(0);
  });

  it('explains the meter in the form the settings draw it', () => {
    const spark = legendLines(DEFAULT_SETTINGS).map((l) => (typeof l === 'string' ? l : l.map((s) => s.text).join(''))).join('\n');
    expect(spark).to.match(/last 6 s/);
    expect(spark).to.match(/≤2 ms/);
    expect(spark).to.match(/>20×/);
    const bars = legendLines({ ...DEFAULT_SETTINGS, meterStyle: 'bars', colorBlind: true })
      .map((l) => (typeof l === 'string' ? l : l.map((s) => s.text).join(''))).join('\n');
    expect(bars).to.match(/Top bar/);
    expect(bars).to.match(/striped/);
    const ctx = new FakeContext();
    expect(measureLines(ctx, legendLines(DEFAULT_SETTINGS), 1).width).to.be.greaterThan(200);
  });

  it('names the mode', () => {
    expect(modeCaption('heatmap')).to.match(/Heatmap/);
    expect(modeCaption('components')).to.equal('Layout Cost: Components');
  });
});
