import { expect } from 'chai';
import { boxTemplate, cornerInsets } from '../../src/overlay/box';
import type { Rect } from '../../src/overlay/types';

/** Rasterises rect lists into a grid: 0 = empty, 1 = fill only, 2 = ring (over fill), 3 = ring twice. */
function raster(w: number, h: number, fill: Rect[], ring: Rect[]): number[][] {
  const g = Array.from({ length: h }, () => new Array<number>(w).fill(0));
  const put = (rs: Rect[], v: number): void => {
    for (const r of rs) for (let y = r.y; y < r.y + r.height; y++) for (let x = r.x; x < r.x + r.width; x++) g[y][x] += v;
  };
  put(fill, 1);
  put(ring, 1);
  for (const r of ring) for (let y = r.y; y < r.y + r.height; y++) for (let x = r.x; x < r.x + r.width; x++) if (g[y][x] < 2) g[y][x] = -1;
  return g;
}

describe('overlay meter box (device-pixel rounded rect)', () => {
  it('turns a corner radius into a staircase of row insets', () => {
    expect(cornerInsets(0)).to.deep.equal([]);
    expect(cornerInsets(2)).to.deep.equal([1]);
    expect(cornerInsets(4)).to.deep.equal([2, 1]);
  });

  for (const [w, h, r, t] of [[32, 14, 2, 1], [64, 28, 4, 2], [40, 18, 3, 1]]) {
    it(`${w}×${h}, radius ${r}, border ${t}: the ring lies on the fill, is ${t} px thick on straight edges, corners cut`, () => {
      const tpl = boxTemplate(w, h, r, t);
      const g = raster(w, h, tpl.fill, tpl.ring);
      expect(g.flat().includes(-1), 'ring outside the fill').to.equal(false);
      expect(g.flat().includes(3), 'overlapping ring rects').to.equal(false);
      const mid = Math.floor(h / 2);
      expect(g[mid].slice(0, t + 1)).to.deep.equal([...new Array<number>(t).fill(2), 1]);
      expect(g[mid].slice(w - t - 1)).to.deep.equal([1, ...new Array<number>(t).fill(2)]);
      expect(g.map((row) => row[w >> 1]).slice(0, t + 1)).to.deep.equal([...new Array<number>(t).fill(2), 1]);
      expect([g[0][0], g[0][w - 1], g[h - 1][0], g[h - 1][w - 1]]).to.deep.equal([0, 0, 0, 0]);
      // Mirror-symmetric both ways.
      for (let y = 0; y < h; y++) expect(g[y]).to.deep.equal(g[y].slice().reverse());
      expect(g).to.deep.equal(g.slice().reverse());
    });
  }

  it('stays a few rects per meter (what keeps 200 meters cheap)', () => {
    const a = boxTemplate(32, 14, 2, 1), b = boxTemplate(64, 28, 4, 2);
    expect(a.fill.length + a.ring.length).to.be.at.most(8);
    expect(b.fill.length + b.ring.length).to.be.at.most(16);
    expect(boxTemplate(32, 14, 2, 1)).to.equal(a); // cached
  });
});
