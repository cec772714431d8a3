import { expect } from 'chai';
import { legendLines, modeCaption } from '../../src/overlay/legend';
import { paintFills, paintOutlines } from '../../src/overlay/paint-meters';
import { cleanName, formatMs, MAX_NAME_CHARS, measureLines, paintLines, pinCaption, placeCaption } from '../../src/overlay/paint-text';
import { DEFAULT_SETTINGS } from '../../src/overlay/settings';
import { FakeContext } from './overlay-helpers';

describe('overlay painters', () => {
  it('outlines on whole device pixels with a one-device-pixel line at 100 % and two at 200 %, one stroke for all', () => {
    const ctx = new FakeContext();
    paintOutlines(ctx, [{ x: 10.4, y: 10.6, width: 100, height: 50 }, { x: 300, y: 10, width: 20, height: 20 }], 1);
    expect(ctx.count('stroke')).to.equal(1);
    expect(ctx.fills.slice(0, 4).map((f) => f.rect)).to.deep.equal([
      { x: 10, y: 11, width: 100, height: 1 }, { x: 10, y: 60, width: 100, height: 1 },
      { x: 10, y: 12, width: 1, height: 48 }, { x: 109, y: 12, width: 1, height: 48 },
    ]);
    for (const dpr of [1, 1.25, 1.5, 2]) {
      const c = new FakeContext();
      paintOutlines(c, [{ x: 10.3, y: 20.7, width: 100.2, height: 50.1 }], dpr);
      for (const f of c.fills) for (const v of [f.rect.x, f.rect.y, f.rect.width, f.rect.height]) expect(Number.isInteger(v), `${dpr}: ${v}`).to.equal(true);
    }
    const hi = new FakeContext();
    paintOutlines(hi, [{ x: 10, y: 10, width: 100, height: 50 }], 2);
    expect(hi.fills[0].rect).to.deep.equal({ x: 20, y: 20, width: 200, height: 2 });
  });

  it('washes hovered boxes with one fill', () => {
    const ctx = new FakeContext();
    paintFills(ctx, [{ x: 1.2, y: 1.7, width: 10, height: 10 }, { x: 20, y: 0, width: 0, height: 5 }], 1, 'W');
    expect(ctx.count('fill')).to.equal(1);
    expect(ctx.fills.map((f) => f.rect)).to.deep.equal([{ x: 1, y: 2, width: 10, height: 10 }]);
  });
});

describe('overlay text', () => {
  it('formats the pinned caption: name, ms, authored → rendered with the ratio', () => {
    expect(pinCaption('Grid', 4.21, 50, 847)).to.equal('Grid · 4.2 ms · 50 → 847 el (16.9×)');
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
    expect(bars).to.match(/Top: layout ms/);
    expect(bars).to.match(/striped/);
    const ctx = new FakeContext();
    expect(measureLines(ctx, legendLines(DEFAULT_SETTINGS), 1).width).to.be.greaterThan(200);
    // Small enough to stay out of the way (issue 9: it covered ≈ 540 × 100 px): four lines, one title.
    expect(legendLines(DEFAULT_SETTINGS)).to.have.length(4);
    expect(spark).to.match(/click to hide/);
    expect(spark).not.to.match(/Esc/);
  });

  it('names the mode', () => {
    expect(modeCaption('heatmap')).to.match(/Heatmap/);
    expect(modeCaption('components')).to.equal('Layout Cost: Components');
  });
});
