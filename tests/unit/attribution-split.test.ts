/**
 * Attribution of a frame's style/layout and of forced reflows
 * (src/inject/agent/pipeline/attribution.ts): pure, through the real ring buffer
 * and the protocol's toLines decoder.
 */
import { expect } from 'chai';
import { attribute, MIN_SHARE_MS, type Caused } from '../../src/inject/agent/pipeline/attribution';
import { GONE } from '../../src/inject/agent/pipeline/registry';
import { RingBuffer } from '../../src/inject/agent/ring-buffer';
import { RECORD_STRIDE, RecordKind, toLines } from '../../src/protocol';

function node(id: number, parent: Caused | null = null, marks = 0): Caused {
  return { id, parent, marks };
}

/** Cost records as {id: [style, layout, forced]}. */
function costs(ring: RingBuffer): Record<number, [number, number, number]> {
  const data = ring.drain();
  const out: Record<number, [number, number, number]> = {};
  for (let o = 0; o < data.length; o += RECORD_STRIDE) {
    expect(data[o]).to.equal(RecordKind.Cost);
    out[data[o + 1]] = [data[o + 2], data[o + 3], data[o + 4]];
  }
  return out;
}

describe('attribution: splitting a frame among the components that caused it', () => {
  it('splits layout by probed ms and style by restyled elements, conserving the frame\'s totals', () => {
    const ring = new RingBuffer(64);
    // Layout weights add up to more than the frame (their relayouts shared a boundary): proportional.
    attribute(ring, [node(1), node(2)], [6, 2], [10, 30], 4, 4, new Map());
    const c = costs(ring);
    expect(c[1][1]).to.be.closeTo(3, 1e-9);
    expect(c[2][1]).to.be.closeTo(1, 1e-9);
    expect(c[1][0]).to.be.closeTo(1, 1e-9);
    expect(c[2][0]).to.be.closeTo(3, 1e-9);
  });

  it('a cause of style only gets none of the layout, and the style by restyled elements', () => {
    const ring = new RingBuffer(64);
    attribute(ring, [node(1), node(2), node(3)], [1.2, 0.3, 0], [0, 0, 4], 0.5, 2, new Map());
    const c = costs(ring);
    expect(c[1][1]).to.be.closeTo(1.6, 1e-9);
    expect(c[2][1]).to.be.closeTo(0.4, 1e-9);
    expect(c[3]).to.deep.equal([0.5, 0, 0]);
  });

  it('a frame with causes of one kind only splits the other kind by them', () => {
    let ring = new RingBuffer(64);
    // Only style causes (a class change read as colour only): the frame's layout still goes to them, not to <page>.
    attribute(ring, [node(1), node(2)], [0, 0], [3, 1], 2, 1, new Map());
    let c = costs(ring);
    expect(c[1]).to.deep.equal([1.5, 0.75, 0]);
    expect(c[2]).to.deep.equal([0.5, 0.25, 0]);
    ring = new RingBuffer(64);
    // Only layout causes (text changes): the style window goes by the layout weights.
    attribute(ring, [node(1), node(2)], [3, 1], [0, 0], 2, 8, new Map());
    c = costs(ring);
    expect(c[1][0]).to.be.closeTo(1.5, 1e-9);
    expect(c[1][1]).to.be.closeTo(6, 1e-9);
    expect(c[2][1]).to.be.closeTo(2, 1e-9);
  });

  it('carries each owner\'s forced-reflow count beside its forced ms; a gone owner\'s go to <page>', () => {
    const ring = new RingBuffer(64);
    const counts = new Map([[1, 3], [2, 1], [9, 2], [0, 1]]);
    const live = (id: number): boolean => id !== 9;
    attribute(ring, [node(1)], [1], [1], 1, 2, new Map([[1, 0.6], [2, 0.2], [9, 0.3], [0, 0.1]]), live, counts);
    const data = ring.drain();
    const byId = new Map<number, number[]>();
    for (let o = 0; o < data.length; o += RECORD_STRIDE) {
      const prev = byId.get(data[o + 1]) ?? [0, 0];
      byId.set(data[o + 1], [prev[0] + data[o + 4], prev[1] + data[o + 5]]);
    }
    expect(byId.get(1)).to.deep.equal([0.6, 3]);
    expect(byId.get(2)).to.deep.equal([0.2, 1]);
    expect(byId.get(0)![1]).to.equal(3); // its own 1 and the gone owner's 2
    expect(byId.get(0)![0]).to.be.closeTo(0.4, 1e-9);
    expect(counts.size).to.equal(0);
  });

  it('folds shares below MIN_SHARE_MS into the parent, in whatever order the parents come', () => {
    const ring = new RingBuffer(4096);
    const a = node(1), b = node(2);
    // 300 cells of equal weight (a 1 ms frame gives each ≈ 0.003 ms): under a, then b, then a again; one cell of a
    // (id 150) has a forced reflow of its own, so it is never folded.
    const cells: Caused[] = [];
    for (let i = 0; i < 300; i++) cells.push(node(100 + i, i < 100 || i >= 200 ? a : b));
    const forced = new Map([[150, 0.5]]);
    const ones = cells.map(() => 1);
    attribute(ring, cells, ones, ones, 0.25, 0.75, forced);
    const c = costs(ring);
    expect(Object.keys(c).map(Number).sort((x, y) => x - y)).to.deep.equal([1, 2, 150]);
    expect(c[1][0]).to.be.closeTo(0.25 * 199 / 300, 1e-9);
    expect(c[1][1]).to.be.closeTo(0.75 * 199 / 300, 1e-9);
    expect(c[2][1]).to.be.closeTo(0.75 * 100 / 300, 1e-9);
    expect(c[150]).to.deep.equal([0.25 / 300, 0.75 / 300, 0.5]);
    expect(c[1][1] + c[2][1] + c[150][1]).to.be.closeTo(0.75, 1e-9);
  });

  it('folds the shares of many siblings below 1/MAX_OWN_SHARES of the frame whatever its length; a lone one keeps its own', () => {
    const grid = node(1), app = node(2);
    const cells: Caused[] = [];
    for (let i = 0; i < 490; i++) cells.push(node(100 + i, grid));
    // One cell weighs a tenth of the frame alone (the table-box case): kept, beside the rest folded.
    const big = node(99, grid);
    // A one-line text beside the grid (its own parent): 0.3 % of the frame, under 1/256 of it.
    const text = node(98, app);
    const ones = cells.map(() => 1);
    const total = 490 + 490 / 9 + 1.64;
    // A 50 ms frame: each cell's 0.09 ms is above MIN_SHARE_MS, and below 1/256 of the frame; so is the text's 0.15 ms.
    for (const layoutMs of [10, 50]) {
      const ring = new RingBuffer(4096);
      attribute(ring, [...cells, big, text], [...ones, 490 / 9, 1.64], [...ones, 0, 0], 0, layoutMs, new Map());
      const c = costs(ring);
      const textMs = layoutMs * 1.64 / total;
      // Under MIN_SHARE_MS (the 10 ms frame) the text's share goes to its parent; over it, it keeps its own.
      const ids = textMs < MIN_SHARE_MS ? [1, 2, 99] : [1, 98, 99];
      expect(Object.keys(c).map(Number).sort((x, y) => x - y), `${layoutMs} ms`).to.deep.equal(ids);
      expect(c[99][1]).to.be.closeTo(layoutMs * (490 / 9) / total, 1e-9);
      expect(c[1][1]).to.be.closeTo(layoutMs * 490 / total, 1e-9);
      expect((c[98] ?? c[2])[1]).to.be.closeTo(textMs, 1e-9);
    }
  });

  it('gives the frame to <page> when no component caused anything', () => {
    let ring = new RingBuffer(64);
    attribute(ring, [], [], [], 1, 2, new Map([[0, 0.5]]));
    expect(toLines(ring.drain())).to.deep.equal(['Cost 0 style=1.00 layout=2.00 forced=0.50']);
    // A render that changed nothing in the DOM is no cause: it never reaches the split (weights 0 here too).
    ring = new RingBuffer(64);
    attribute(ring, [node(1)], [0], [0], 1, 2, new Map());
    expect(toLines(ring.drain())).to.deep.equal(['Cost 0 style=1.00 layout=2.00 forced=0.00']);
  });

  it('skips unmounted components: their share goes to the live ones, or to <page> when none is left', () => {
    const live = (id: number): boolean => id !== 2;
    let ring = new RingBuffer(64);
    attribute(ring, [node(1), node(2)], [5, 1000], [1, 1], 0, 5, new Map(), live);
    expect(toLines(ring.drain())).to.deep.equal(['Cost 1 style=0.00 layout=5.00 forced=0.00']);
    ring = new RingBuffer(64);
    attribute(ring, [node(2)], [1000], [1], 1, 5, new Map(), live);
    expect(toLines(ring.drain())).to.deep.equal(['Cost 0 style=1.00 layout=5.00 forced=0.00']);
  });

  it('reads an unmounted component from its gone mark when the owner has one, not by id', () => {
    const asked: number[] = [];
    const live = (id: number): boolean => {
      asked.push(id);
      return true;
    };
    const ring = new RingBuffer(64);
    attribute(ring, [node(1), node(2, null, GONE)], [5, 1000], [1, 1], 0, 5, new Map(), live, new Map(), GONE);
    expect(toLines(ring.drain())).to.deep.equal(['Cost 1 style=0.00 layout=5.00 forced=0.00']);
    expect(asked).to.deep.equal([]);
  });

  it('adds forced ms per owner: a cause or not, and an unmounted owner\'s to <page>; consumes the map', () => {
    const forced = new Map([[1, 2], [5, 3], [7, 4], [0, 1]]);
    const ring = new RingBuffer(64);
    attribute(ring, [node(1)], [1], [1], 0, 1, forced, (id) => id !== 7);
    const c = costs(ring);
    expect(c[1]).to.deep.equal([0, 1, 2]);
    expect(c[5]).to.deep.equal([0, 0, 3]);
    expect(c[0]).to.deep.equal([0, 0, 5]); // 1 of its own + 4 of the unmounted 7
    expect(c[7]).to.equal(undefined);
    expect(forced.size).to.equal(0);
  });

  it('writes nothing for an idle frame', () => {
    const ring = new RingBuffer(64);
    attribute(ring, [], [], [], 0, 0, new Map());
    expect(ring.length).to.equal(0);
  });
});
