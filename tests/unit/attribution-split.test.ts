/**
 * Attribution of a frame's style/layout and of forced reflows
 * (src/inject/agent/pipeline/attribution.ts): pure, through the real ring buffer
 * and the protocol's toLines decoder.
 */
import { expect } from 'chai';
import { attribute, exclusiveWeights, WEIGHING, type Dirtied } from '../../src/inject/agent/pipeline/attribution';
import { GONE, REGISTRY_MARKS } from '../../src/inject/agent/pipeline/registry';
import { RingBuffer } from '../../src/inject/agent/ring-buffer';
import { RECORD_STRIDE, RecordKind, toLines } from '../../src/protocol';

function node(id: number, rendered: number, parent: Dirtied | null = null, marks = 0): Dirtied {
  return { id, rendered, parent, marks };
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

describe('attribution: splitting a frame among dirtied components', () => {
  it('splits by element count and conserves the frame\'s totals', () => {
    const ring = new RingBuffer(64);
    attribute(ring, [node(1, 300), node(2, 100)], 4, 8, new Map());
    const c = costs(ring);
    expect(c[1][0]).to.be.closeTo(3, 1e-9);
    expect(c[1][1]).to.be.closeTo(6, 1e-9);
    expect(c[2][1]).to.be.closeTo(2, 1e-9);
    expect(c[1][1] + c[2][1]).to.be.closeTo(8, 1e-9);
  });

  it('carries each owner\'s forced-reflow count beside its forced ms; a gone owner\'s go to <page>', () => {
    const ring = new RingBuffer(64);
    const counts = new Map([[1, 3], [2, 1], [9, 2], [0, 1]]);
    const live = (id: number): boolean => id !== 9;
    attribute(ring, [node(1, 100)], 1, 2, new Map([[1, 0.6], [2, 0.2], [9, 0.3], [0, 0.1]]), live, counts);
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
    const a = node(1, 1000), b = node(2, 1000);
    // 300 cells of one element each (a 1 ms frame gives each ≈ 0.003 ms): under a, then b, then a again; one cell of
    // a (id 150) has a forced reflow of its own, so it is never folded.
    const cells: Dirtied[] = [];
    for (let i = 0; i < 300; i++) cells.push(node(100 + i, 1, i < 100 || i >= 200 ? a : b));
    const forced = new Map([[150, 0.5]]);
    attribute(ring, cells, 0.25, 0.75, forced);
    const c = costs(ring);
    expect(Object.keys(c).map(Number).sort((x, y) => x - y)).to.deep.equal([1, 2, 150]);
    expect(c[1][0]).to.be.closeTo(0.25 * 199 / 300, 1e-9);
    expect(c[1][1]).to.be.closeTo(0.75 * 199 / 300, 1e-9);
    expect(c[2][1]).to.be.closeTo(0.75 * 100 / 300, 1e-9);
    expect(c[150]).to.deep.equal([0.25 / 300, 0.75 / 300, 0.5]);
    expect(c[1][1] + c[2][1] + c[150][1]).to.be.closeTo(0.75, 1e-9);
  });

  it('gives the frame to <page> when nothing a component owns changed', () => {
    const ring = new RingBuffer(64);
    attribute(ring, [], 1, 2, new Map([[0, 0.5]]));
    expect(toLines(ring.drain())).to.deep.equal(['Cost 0 style=1.00 layout=2.00 forced=0.50']);
  });

  it('weighs a dirtied parent by what is not under a dirtied child (no double count)', () => {
    // Panel (704 elements) holds Heavy (700) and Light (1); all three dirtied (React 19 flags every re-rendered host).
    const panel = node(1, 704);
    const mid = node(9, 702, panel); // not dirtied: a wrapper between them
    const heavy = node(2, 700, mid);
    const light = node(3, 1, panel);
    const w: number[] = [];
    const total = exclusiveWeights([panel, heavy, light], () => true, w);
    expect(w).to.deep.equal([3, 700, 1]);
    expect(total).to.equal(704);
    // The owner's marks are left as they were (the bit borrowed for the call is cleared, the others kept).
    expect([panel, mid, heavy, light].map((n) => n.marks)).to.deep.equal([0, 0, 0, 0]);
    const flagged = node(4, 10, null, 1 | 4);
    exclusiveWeights([flagged, flagged, node(5, 3, flagged)], (id) => id !== 5, w);
    expect(flagged.marks).to.equal(1 | 4);
    expect(w).to.deep.equal([10, 10, 0]); // listed twice: weighs twice, as before
    const ring = new RingBuffer(64);
    attribute(ring, [panel, heavy, light], 0, 704, new Map());
    const c = costs(ring);
    expect(c[2][1]).to.be.closeTo(700, 1e-9);
    expect(c[1][1]).to.be.closeTo(3, 1e-9);
  });

  it('borrows a bit of marks the registry does not use', () => {
    expect(WEIGHING & REGISTRY_MARKS).to.equal(0);
    expect(WEIGHING).to.be.above(0);
  });

  it('gives every dirtied component at least weight 1 (counts not known yet)', () => {
    const w: number[] = [];
    expect(exclusiveWeights([node(1, 0), node(2, 0)], () => true, w)).to.equal(2);
    expect(w).to.deep.equal([1, 1]);
    // A child whose count exceeds its parent's stale count leaves the parent at 1, never below.
    const p = node(1, 5);
    expect(exclusiveWeights([p, node(2, 50, p)], () => true, w)).to.equal(51);
  });

  it('skips unmounted components: their share goes to the live ones, or to <page> when none is left', () => {
    const live = (id: number): boolean => id !== 2;
    let ring = new RingBuffer(64);
    attribute(ring, [node(1, 10), node(2, 1000)], 0, 5, new Map(), live);
    expect(toLines(ring.drain())).to.deep.equal(['Cost 1 style=0.00 layout=5.00 forced=0.00']);
    ring = new RingBuffer(64);
    attribute(ring, [node(2, 1000)], 1, 5, new Map(), live);
    expect(toLines(ring.drain())).to.deep.equal(['Cost 0 style=1.00 layout=5.00 forced=0.00']);
  });

  it('reads an unmounted dirtied component from its gone mark when the owner has one, not by id', () => {
    const asked: number[] = [];
    const live = (id: number): boolean => {
      asked.push(id);
      return true;
    };
    const ring = new RingBuffer(64);
    attribute(ring, [node(1, 10), node(2, 1000, null, GONE)], 0, 5, new Map(), live, new Map(), GONE);
    expect(toLines(ring.drain())).to.deep.equal(['Cost 1 style=0.00 layout=5.00 forced=0.00']);
    expect(asked).to.deep.equal([]);
  });

  it('adds forced ms per owner: dirtied or not, and an unmounted owner\'s to <page>; consumes the map', () => {
    const forced = new Map([[1, 2], [5, 3], [7, 4], [0, 1]]);
    const ring = new RingBuffer(64);
    attribute(ring, [node(1, 10)], 0, 1, forced, (id) => id !== 7);
    const c = costs(ring);
    expect(c[1]).to.deep.equal([0, 1, 2]);
    expect(c[5]).to.deep.equal([0, 0, 3]);
    expect(c[0]).to.deep.equal([0, 0, 5]); // 1 of its own + 4 of the unmounted 7
    expect(c[7]).to.equal(undefined);
    expect(forced.size).to.equal(0);
  });

  it('writes nothing for an idle frame', () => {
    const ring = new RingBuffer(64);
    attribute(ring, [], 0, 0, new Map());
    expect(ring.length).to.equal(0);
  });
});
