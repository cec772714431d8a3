import { expect } from 'chai';
import { hairline, outlineRects, snap, snapRect, strokeInset } from '../../src/overlay/snap';

describe('overlay pixel snapping', () => {
  it('puts every edge on a whole device pixel at 100, 125, 150 and 200 %', () => {
    for (const dpr of [1, 1.25, 1.5, 2]) {
      const r = snapRect({ x: 10.3, y: 20.6, width: 100.45, height: 33.3 }, dpr);
      for (const v of [r.x, r.y, r.width, r.height]) expect(Number.isInteger(v), `${dpr}: ${v}`).to.equal(true);
      expect(r.x).to.equal(Math.round(10.3 * dpr));
      expect(r.x + r.width).to.equal(Math.round((10.3 + 100.45) * dpr));
    }
  });

  it('rounds edges, not sizes, so abutting rects share their edge', () => {
    const dpr = 1.25;
    const a = snapRect({ x: 0.7, y: 0, width: 10.3, height: 5 }, dpr);
    const b = snapRect({ x: 11, y: 0, width: 10, height: 5 }, dpr);
    expect(a.x + a.width).to.equal(b.x);
  });

  it('never yields negative sizes', () => {
    expect(snapRect({ x: 5, y: 5, width: -3, height: 0.1 }, 1)).to.deep.equal({ x: 5, y: 5, width: 0, height: 0 });
  });

  it('draws a 1 px line as one CSS px of whole device pixels, never thinner than one', () => {
    expect([0.5, 1, 1.25, 1.5, 2, 3].map(hairline)).to.deep.equal([1, 1, 1, 2, 2, 3]);
    expect(snap(0.5, 1)).to.equal(1);
  });

  it('outlines as four inside rects on whole device pixels', () => {
    const rs = outlineRects({ x: 10, y: 10, width: 50, height: 40 }, 2);
    expect(rs).to.have.length(4);
    expect(rs[0]).to.deep.equal({ x: 20, y: 20, width: 100, height: 2 });
    expect(rs[1]).to.deep.equal({ x: 20, y: 98, width: 100, height: 2 });
    expect(rs[2]).to.deep.equal({ x: 20, y: 22, width: 2, height: 76 });
    expect(rs[3]).to.deep.equal({ x: 118, y: 22, width: 2, height: 76 });
  });

  it('fills an outline that is too small to have a hole, and drops an empty one', () => {
    expect(outlineRects({ x: 0, y: 0, width: 2, height: 10 }, 1)).to.deep.equal([{ x: 0, y: 0, width: 2, height: 10 }]);
    expect(outlineRects({ x: 0, y: 0, width: 0, height: 10 }, 1)).to.deep.equal([]);
  });

  it('strokes odd widths on pixel centres and even widths on edges', () => {
    expect(strokeInset(1)).to.equal(0.5);
    expect(strokeInset(2)).to.equal(0);
    expect(strokeInset(3)).to.equal(0.5);
  });
});
