import { expect } from 'chai';
import { placesMeter, RECORD_KIND_NAMES, RECORD_STRIDE, RecordKind, RENDERS_PACK, toLines } from '../../src/protocol';
import { RollupStore } from '../../src/content/agent/store';

function batch(...rows: number[][]): Float64Array {
  const d = new Float64Array(rows.length * RECORD_STRIDE);
  rows.forEach((r, i) => d.set(r, i * RECORD_STRIDE));
  return d;
}

describe('RollupStore', () => {
  let now = 0;
  const make = () => new RollupStore(() => now);

  it('builds components from mount and stats records, and frees them on unmount', () => {
    const s = make();
    s.apply(batch([RecordKind.Mount, 1, -1, 0, 0, -1], [RecordKind.Mount, 2, 1, 1, 1, 0], [RecordKind.Stats, 2, 1, 3, 9]),
      3, ['App', 'Cell'], 0, 0, ['k']);
    const snap = s.snapshot();
    expect(snap.components.map((c) => [c.id, c.name, c.parentId, c.depth, c.key])).to.deep.equal([
      [1, 'App', null, 0, null], [2, 'Cell', 1, 1, 'k'],
    ]);
    expect(snap.components[1]).to.include({ commits: 1, authored: 3, rendered: 9 });
    s.apply(batch([RecordKind.Unmount, 2]), 1, [], 3, 0);
    expect(s.components.size).to.equal(1);
  });

  it('takes commit counts from Renders records, five packed to a record, and keeps the other counts', () => {
    const s = make();
    const p = (id: number, commits: number): number => id * RENDERS_PACK + commits;
    s.apply(batch([RecordKind.Mount, 1, -1, 0, 0, -1], [RecordKind.Mount, 2, 1, 1, 0, -1], [RecordKind.Stats, 2, 1, 3, 9, 2]),
      3, ['C'], 0, 0);
    s.apply(batch([RecordKind.Renders, p(2, 7), p(1, 4), -1, -1, -1]), 1, [], 1, 0);
    expect(s.snapshot().components.map((c) => [c.id, c.commits, c.authored, c.rendered, c.portaledIn])).to.deep.equal([
      [1, 4, 0, 0, 0], [2, 7, 3, 9, 2],
    ]);
    // A component the table does not have, a fraction, id 0 (the page never renders) and a value past 2^52 are
    // refused one by one; the good slot beside them still counts.
    const before = s.ignoredRecords;
    s.apply(batch([RecordKind.Renders, p(9, 1), p(1, 5) + 0.5, p(0, 3), 2 ** 53, p(1, 6)]), 1, [], 1, 0);
    expect(s.ignoredRecords - before).to.equal(4);
    expect(s.commitsOf(1)).to.equal(6);
    // Unmounted, its count goes with it: the same id mounted again starts at 1 (a mount is a render), kept in no table.
    s.apply(batch([RecordKind.Unmount, 1], [RecordKind.Mount, 1, -1, 0, 0, -1]), 2, [], 2, 0);
    expect(s.commitsOf(1)).to.equal(1);
    expect(s.snapshot().components.find((c) => c.id === 1)!.commits).to.equal(1);
    expect(s.commitsOf(2)).to.equal(7);
    // A Stats record whose commits are −1 (the agent holds them) leaves the count here as it was.
    s.apply(batch([RecordKind.Stats, 2, -1, 5, 6, 0]), 1, [], 3, 0);
    expect([s.commitsOf(2), s.components.get(2)!.authored, s.components.get(2)!.rendered]).to.deep.equal([7, 5, 6]);
  });

  it('takes held commit totals from Commits records without counting them as renders of the frame in a recording', () => {
    const s = make();
    const p = (id: number, commits: number): number => id * RENDERS_PACK + commits;
    const counted: [number, number][] = [];
    s.apply(batch([RecordKind.Mount, 1, -1, 0, 0, -1], [RecordKind.Mount, 2, 1, 1, 0, -1]), 2, ['C'], 0, 0);
    s.recorder = {
      self() {}, inclusive() {}, endFrame() {}, mount() {}, unmount() {}, stack() {},
      commits: (id, n) => { counted.push([id, n]); },
    };
    s.apply(batch([RecordKind.Commits, p(2, 40), p(1, 3), p(9, 1), -1, -1]), 1, [], 1, 0);
    expect([s.commitsOf(1), s.commitsOf(2)]).to.deep.equal([3, 40]);
    expect(counted).to.deep.equal([]);
    // Renders after them count what is new.
    s.apply(batch([RecordKind.Renders, p(2, 42), -1, -1, -1, -1]), 1, [], 1, 0);
    expect(counted).to.deep.equal([[2, 2]]);
    // A mount is its component's first render: counted in the frame it mounted in, once, with no record of its count.
    s.apply(batch([RecordKind.Mount, 3, 1, 1, 0, -1], [RecordKind.Mount, 2, 1, 1, 0, -1]), 2, [], 2, 0);
    expect(counted).to.deep.equal([[2, 2], [3, 1]]);
    expect(s.commitsOf(3)).to.equal(1);
    expect(toLines(batch([RecordKind.Commits, p(2, 40), -1, -1, -1, -1]))).to.deep.equal(['Commits 2:40']);
  });

  it('decodes Renders records for tests and debugging', () => {
    const p = (id: number, commits: number): number => id * RENDERS_PACK + commits;
    expect(toLines(batch([RecordKind.Renders, p(3, 1), p(2 ** 31 - 1, RENDERS_PACK - 1), -1, -1, -1]))).to.deep.equal([
      `Renders 3:1 ${2 ** 31 - 1}:${RENDERS_PACK - 1}`,
    ]);
  });

  it('moves `structure` when components mount, unmount or reset — never for their numbers (the overlay keeps its tree)', () => {
    const s = make();
    const at = (): number => s.structure;
    const moved = (f: () => void): boolean => {
      const before = at();
      f();
      return at() !== before;
    };
    expect(moved(() => s.apply(batch([RecordKind.Mount, 1, -1, 0, 0, -1], [RecordKind.Mount, 2, 1, 1, 0, -1]), 2, ['A'], 0, 0))).to.equal(true);
    expect(moved(() => s.apply(batch([RecordKind.Stats, 2, 1, 3, 9], [RecordKind.Bounds, 2, 0, 0, 10, 10],
      [RecordKind.Cost, 2, 1, 2, 0], [RecordKind.Frame, 1, 1, 2, 0]), 4, [], 1, 0))).to.equal(false);
    expect(moved(() => s.apply(batch([RecordKind.Mount, 2, -1, 0, 0, -1]), 1, [], 1, 0))).to.equal(true); // re-parented
    expect(moved(() => s.apply(batch([RecordKind.Unmount, 2]), 1, [], 1, 0))).to.equal(true);
    expect(moved(() => s.apply(batch([RecordKind.Unmount, 99]), 1, [], 1, 0))).to.equal(false); // nothing was there
    expect(moved(() => s.apply(batch([RecordKind.Reset]), 1, [], 1, 0))).to.equal(true);
    s.apply(batch([RecordKind.Mount, 3, -1, 0, 0, -1]), 1, [], 1, 0);
    expect(moved(() => s.reset())).to.equal(true);
  });


  it('moves `geometry` for whatever places a meter, never for costs and counts alone (the overlay redraws those less often)', () => {
    const s = make();
    const p = (id: number, commits: number): number => id * RENDERS_PACK + commits;
    const moved = (...rows: number[][]): boolean => {
      const before = s.geometry;
      s.apply(batch(...rows), rows.length, ['A'], 0, 0);
      return s.geometry !== before;
    };
    expect(moved([RecordKind.Mount, 1, -1, 0, 0, -1], [RecordKind.Mount, 2, 1, 1, 0, -1])).to.equal(true);
    // A busy frame of a grid that does not move: counts, commits, costs, the frame.
    expect(moved([RecordKind.Stats, 2, 1, 3, 9], [RecordKind.Renders, p(2, 2), p(1, 1), -1, -1, -1],
      [RecordKind.Commits, p(2, 3), -1, -1, -1, -1], [RecordKind.Cost, 2, 1, 2, 0], [RecordKind.Cost, 0, 1, 1, 0],
      [RecordKind.Frame, 1, 1, 2, 0])).to.equal(false);
    expect(moved([RecordKind.Bounds, 2, 0, 0, 10, 10])).to.equal(true);
    expect(moved([RecordKind.Bounds, 2, 0, 0, -1, -1])).to.equal(true); // scrolled out of view
    expect(moved([RecordKind.Layer, 2, 1])).to.equal(true);
    expect(moved([RecordKind.Occluder, -1])).to.equal(true);
    expect(moved([RecordKind.Surface, 2, 1])).to.equal(true);
    expect(moved([RecordKind.Unmount, 2])).to.equal(true);
    expect(moved([RecordKind.Reset])).to.equal(true);
    // The same split the agent hands records over by (PLACING_KINDS, flush-cadence.ts): a sample of every kind.
    const sample: Record<number, number[]> = {
      [RecordKind.Mount]: [RecordKind.Mount, 3, 1, 1, 0, -1], [RecordKind.Unmount]: [RecordKind.Unmount, 2],
      [RecordKind.Stats]: [RecordKind.Stats, 2, 1, 3, 9], [RecordKind.Bounds]: [RecordKind.Bounds, 2, 0, 0, 10, 10],
      [RecordKind.Frame]: [RecordKind.Frame, 9, 1, 2, 0], [RecordKind.Cost]: [RecordKind.Cost, 2, 1, 2, 0],
      [RecordKind.Reset]: [RecordKind.Reset], [RecordKind.Layer]: [RecordKind.Layer, 2, 1],
      [RecordKind.Occluder]: [RecordKind.Occluder, -1], [RecordKind.Surface]: [RecordKind.Surface, 2, 1],
      [RecordKind.Renders]: [RecordKind.Renders, p(2, 4), -1, -1, -1, -1], [RecordKind.Commits]: [RecordKind.Commits, p(2, 5), -1, -1, -1, -1],
      [RecordKind.Key]: [RecordKind.Key, 2, 0],
    };
    for (const kind of Object.keys(RECORD_KIND_NAMES).map(Number)) {
      s.apply(batch([RecordKind.Mount, 1, -1, 0, 0, -1], [RecordKind.Mount, 2, 1, 1, 0, -1]), 2, ['A'], 0, 0);
      expect(sample[kind], RECORD_KIND_NAMES[kind]).to.be.an('array');
      expect(moved(sample[kind]), RECORD_KIND_NAMES[kind]).to.equal(placesMeter(kind));
    }
  });
  it('takes a key held back (Key record) for a known component, and ignores one for an unknown id or a missing key', () => {
    const s = make();
    s.apply(batch([RecordKind.Mount, 1, -1, 0, 0, -1], [RecordKind.Mount, 2, 1, 1, 0, 0]), 2, ['A'], 0, 0, ['k2']);
    expect(s.keyOf(1)).to.equal(null);
    expect(s.keyOf(2)).to.equal('k2');
    const ignored = s.ignoredRecords;
    s.apply(batch([RecordKind.Key, 1, 1], [RecordKind.Key, 9, 0], [RecordKind.Key, 2, 2], [RecordKind.Key, 2, 0.5]), 4, [], 1, 0, ['x', 'k1']);
    expect(s.keyOf(1)).to.equal('k1');
    expect(s.keyOf(2)).to.equal('k2');
    expect(s.row(s.components.get(2)!).key).to.equal('k2');
    expect(s.ignoredRecords - ignored).to.equal(3);
    // Unmounted: its key goes with it; mounted again under the same id without one, it has none.
    s.apply(batch([RecordKind.Unmount, 1], [RecordKind.Mount, 2, -1, 0, 0, -1]), 2, [], 2, 0);
    expect(s.keyOf(1)).to.equal(null);
    expect(s.keyOf(2)).to.equal(null);
  });
  it('rolls self cost up to ancestors and applies the EMA (α = 0.2)', () => {
    const s = make();
    s.apply(batch([RecordKind.Mount, 1, -1, 0, 0, -1], [RecordKind.Mount, 2, 1, 1, 0, -1], [RecordKind.Mount, 3, 1, 1, 0, -1]), 3, ['X'], 0, 0);
    s.apply(batch([RecordKind.Cost, 2, 1, 10, 0], [RecordKind.Cost, 3, 0, 5, 0], [RecordKind.Frame, 1, 1, 15, 0]), 3, [], 1, 0);
    const get = (id: number) => s.ema(s.components.get(id)!);
    expect(get(2).layoutMs).to.be.closeTo(2, 1e-9);
    expect(get(3).layoutMs).to.be.closeTo(1, 1e-9);
    expect(get(1).layoutMs).to.be.closeTo(3, 1e-9);
    expect(get(1).styleMs).to.be.closeTo(0.2, 1e-9);
    // A frame where only 3 is dirtied: 2 decays, 1 takes 3's cost.
    s.apply(batch([RecordKind.Cost, 3, 0, 5, 0], [RecordKind.Frame, 2, 0, 5, 0]), 2, [], 1, 0);
    expect(get(2).layoutMs).to.be.closeTo(1.6, 1e-9);
    expect(get(3).layoutMs).to.be.closeTo(1 * 0.8 + 1, 1e-9);
    expect(get(1).layoutMs).to.be.closeTo(3 * 0.8 + 1, 1e-9);
    expect(s.frames).to.deep.include({ count: 2, layoutMsTotal: 20 });
  });

  it('keeps a 60-bucket sparkline with the max per 100 ms bucket, decaying when quiet', () => {
    const s = make();
    now = 1000;
    s.apply(batch([RecordKind.Mount, 1, -1, 0, 0, -1], [RecordKind.Cost, 1, 0, 4, 0], [RecordKind.Frame, 1, 0, 4, 0],
      [RecordKind.Cost, 1, 0, 7, 0], [RecordKind.Frame, 2, 0, 7, 0]), 5, ['A'], 0, 0);
    let line = s.sparkline(s.components.get(1)!);
    expect(line).to.have.length(60);
    expect(line[59]).to.equal(7);
    now = 1100;
    line = s.sparkline(s.components.get(1)!);
    expect(line[58]).to.equal(7);
    expect(line[59]).to.equal(0);
    now = 1000 + 100 * 61;
    expect(s.sparkline(s.components.get(1)!).every((v) => v === 0)).to.equal(true);
  });

  it('keeps bounds, portal content, layer and surface only for the components that have one (rare state)', () => {
    const s = make();
    s.apply(batch([RecordKind.Mount, 1, -1, 0, 0, -1], [RecordKind.Mount, 2, 1, 1, 0, -1], [RecordKind.Mount, 3, 1, 1, 0, -1],
      [RecordKind.Stats, 1, 1, 1, 9, 0], [RecordKind.Stats, 2, 1, 1, 4, 0], [RecordKind.Bounds, 2, 0, 0, -1, 5],
      [RecordKind.Layer, 2, 0], [RecordKind.Surface, 2, 0]), 8, ['C'], 0, 0);
    // What equals its default (no portal content, bounds refused, layer 0, not a surface) creates nothing.
    for (const id of [1, 2, 3]) expect(s.components.get(id)!.rare, `component ${id}`).to.equal(null);
    s.apply(batch([RecordKind.Stats, 1, 1, 1, 9, 20], [RecordKind.Bounds, 2, 1, 2, 30, 40], [RecordKind.Layer, 3, 2],
      [RecordKind.Surface, 3, 1]), 4, [], 1, 0);
    const [a, b, c] = [1, 2, 3].map((id) => s.components.get(id)!);
    // portaledIn is clamped to what it rendered.
    expect([a.portaledIn, a.bounds, a.layer, a.surfaceRoot]).to.deep.equal([9, null, 0, false]);
    expect([b.portaledIn, b.bounds, b.layer, b.surfaceRoot]).to.deep.equal([0, { x: 1, y: 2, width: 30, height: 40 }, 0, false]);
    expect([c.portaledIn, c.bounds, c.layer, c.surfaceRoot]).to.deep.equal([0, null, 2, true]);
    const snap = s.snapshot().components;
    expect(snap.map((x) => [x.portaledIn, x.layer, x.bounds])).to.deep.equal([
      [9, 0, null], [0, 0, { x: 1, y: 2, width: 30, height: 40 }], [0, 2, null],
    ]);
    // Back to the defaults: the values read as such.
    s.apply(batch([RecordKind.Stats, 1, 1, 1, 9, 0], [RecordKind.Bounds, 2, 0, 0, -1, 0], [RecordKind.Layer, 3, 0],
      [RecordKind.Surface, 3, 0]), 4, [], 1, 0);
    expect([a.portaledIn, b.bounds, c.layer, c.surfaceRoot]).to.deep.equal([0, null, 0, false]);
  });

  it('keeps depth and type in one integer and both counts in another, a large count in rare state, every value as given', () => {
    const s = make();
    s.apply(batch([RecordKind.Mount, 1, -1, 0, 0, -1], [RecordKind.Mount, 2, 1, 9_999, 0, -1], [RecordKind.Mount, 3, 1, 16_383, 0, -1],
      [RecordKind.Stats, 1, 1, 32_767, 32_767, 0], [RecordKind.Stats, 2, 1, 0, 1, 0]), 5, ['C'], 0, 0);
    const [a, b, c] = [1, 2, 3].map((id) => s.components.get(id)!);
    expect([a.depth, b.depth, c.depth]).to.deep.equal([0, 9_999, 16_383]);
    // The largest counts that share one integer, with no rare state.
    expect([a.authored, a.rendered, a.rare, b.authored, b.rendered]).to.deep.equal([32_767, 32_767, null, 0, 1]);
    // Types and depths are set apart from each other.
    b.typeId = 20_000;
    c.typeId = 65_535;
    expect([b.typeId, b.depth, c.typeId, c.depth, a.typeId]).to.deep.equal([20_000, 9_999, 65_535, 16_383, 0]);
    b.depth = 3;
    expect([b.typeId, b.depth]).to.deep.equal([20_000, 3]);
    // One count above 2^15 − 1 (the root of a big page): both go to rare state, and back.
    s.apply(batch([RecordKind.Stats, 1, 1, 5, 1_000_000, 7], [RecordKind.Stats, 2, 1, 40_000, 2, 0]), 2, [], 1, 0);
    expect([a.authored, a.rendered, a.portaledIn, b.authored, b.rendered]).to.deep.equal([5, 1_000_000, 7, 40_000, 2]);
    expect(b.rare).to.not.equal(null);
    s.apply(batch([RecordKind.Stats, 2, 1, 6, 8, 0]), 1, [], 2, 0);
    expect([b.authored, b.rendered, b.typeId, b.depth]).to.deep.equal([6, 8, 20_000, 3]);
    expect(s.snapshot().components.map((x) => [x.id, x.depth, x.authored, x.rendered])).to.deep.equal([
      [1, 0, 5, 1_000_000], [2, 3, 6, 8], [3, 16_383, 0, 0],
    ]);
  });

  it('ignores and counts records for unknown ids and unknown kinds', () => {
    const s = make();
    s.apply(batch([RecordKind.Stats, 5, 1, 1, 1], [RecordKind.Bounds, 5, 0, 0, 1, 1], [42, 0, 0, 0, 0, 0], [RecordKind.Mount, -3, -1, 0, 0, -1]), 4, [], 0, 7);
    expect(s.components.size).to.equal(0);
    expect(s.ignoredRecords).to.equal(4);
    expect(s.droppedEvents).to.equal(7);
  });
});
