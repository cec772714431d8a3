/** The agent's component types (issue 15; src/inject/agent/types.ts): typed once, text read once per function, never called. */
import { expect } from 'chai';
import { TypeSourcer } from '../../src/inject/agent/types';

describe('component types in the agent', () => {
  it('a hot update re-types the component: its new function is numbered and read, its name taken again', () => {
    function Counter(): null { return null; }
    const entries = new Map<number, { handle: { fn: unknown } }>([[1, { handle: { fn: Counter } }], [2, { handle: { fn: Counter } }]]);
    let retyped: number[] = [];
    const names: Record<number, string> = { 1: 'Counter', 2: 'Counter' };
    const s = new TypeSourcer({
      entry: (id) => entries.get(id), lowestId: () => 1, get mounts() { return 2; },
      typeOf: (h) => (h as { fn: unknown }).fn, nameOf: (id) => names[id], sourceOf: (fn) => Function.prototype.toString.call(fn),
      debugOf: () => null, takeRetyped: () => { const r = retyped; retyped = []; return r; },
    });
    expect(s.pass()!.members).to.deep.equal([[1, 1], [2, 1]]);
    expect(s.pass()).to.equal(null);
    // React Refresh resolved Counter's family to a new function for component 2 (and the name changed with it).
    function CounterWithHook(): null { return null; }
    entries.get(2)!.handle.fn = CounterWithHook;
    names[2] = 'CounterWithHook';
    retyped = [2, 7]; // 7: unmounted since
    const r = s.pass()!;
    expect(r.members).to.deep.equal([[2, 2]]);
    expect(r.types.map((t) => t.typeId)).to.deep.equal([2]);
    expect(r.types[0].text).to.match(/^function CounterWithHook\(\)/);
    expect(s.pass()).to.equal(null);
  });

  it('numbers each function once, reads its text once (never calling it), and links every component to its type', () => {
    let calls = 0;
    function Grid(): null { calls++; return null; }
    const Cell = (): null => { calls++; return null; };
    const entries = new Map<number, { handle: object }>([[1, { handle: { fn: Grid } }], [2, { handle: { fn: Cell } }],
      [3, { handle: { fn: Cell } }], [4, { handle: { fn: Math.max } }], [5, { handle: { fn: null } }]]);
    const read: unknown[] = [];
    const names: Record<number, string> = { 1: 'Grid', 2: 'Cell', 3: 'Cell', 4: 'max', 5: 'Anonymous', 6: 'Cell', 9: 'Grid' };
    let walked = 0;
    const s = new TypeSourcer({
      entry: (id) => { walked++; return entries.get(id); }, lowestId: () => Math.min(...entries.keys()), get mounts() { return Math.max(...entries.keys()); },
      typeOf: (h) => (h as { fn: unknown }).fn, nameOf: (id) => names[id],
      sourceOf: (fn) => { read.push(fn); return Function.prototype.toString.call(fn); },
      debugOf: (h) => ((h as { fn: unknown }).fn === Grid ? { kind: 'source', url: 'src/grid.tsx', line: 3, column: 1 } : null),
    });
    const r = s.pass()!;
    expect(r.members).to.deep.equal([[1, 1], [2, 2], [3, 2], [4, 3]]);
    // Native functions have no text to find; Grid and Cell are read once each.
    expect(r.types.map((t) => t.typeId)).to.deep.equal([1, 2]);
    expect(r.types[0].text).to.match(/^function Grid\(\)/);
    expect(r.types.map((t) => t.hint)).to.deep.equal([{ kind: 'source', url: 'src/grid.tsx', line: 3, column: 1 }, null]);
    expect(read).to.deep.equal([Grid, Cell, Math.max]);
    expect(calls).to.equal(0);
    expect(r.minified).to.equal(false);
    expect(walked).to.equal(5);
    expect(s.pass()).to.equal(null); // nothing new: and no mount since, so the components are not even looked at
    expect(walked).to.equal(5);
    entries.set(6, { handle: { fn: Cell } });
    expect(s.pass()).to.deep.include({ types: [], members: [[6, 2]] });
    expect(walked).to.equal(6); // only the id mounted since
    // Unmounted ids are passed over; after a reset the pass starts at the lowest live id.
    entries.delete(2);
    entries.delete(1);
    entries.set(9, { handle: { fn: Grid } });
    expect(s.pass()).to.deep.include({ types: [], members: [[9, 1]] });
    s.reset();
    walked = 0;
    const again = s.pass()!.members;
    expect(again.map(([id]) => id)).to.deep.equal([3, 4, 6, 9]);
    expect(again[0][1]).to.equal(again[2][1]); // both Cells
    expect(walked).to.equal(7); // ids 3 to 9, not 1 and 2
  });

  it('measures minified names from the names seen, and stops a pass at its time budget', () => {
    const entries = new Map<number, { handle: object }>();
    const names = ['a', 'Xe', 'Qt', 'App'];
    for (let i = 1; i <= 1000; i++) entries.set(i, { handle: {} });
    const s = new TypeSourcer({
      entry: (id) => entries.get(id), lowestId: () => 1, get mounts() { return entries.size; },
      typeOf: () => null, nameOf: (id) => names[id % 4], sourceOf: () => null, debugOf: () => null,
    });
    let t = 0;
    const r = s.pass(() => (t += 1))!;
    expect(s.more).to.equal(true);
    expect(r.members).to.deep.equal([]); // no types here, but the names were seen
    expect(r.minified).to.equal(true);
    // Cut short: the next pass goes on although nothing mounted since.
    t = 0;
    const next = s.pass(() => 0);
    expect(next === null || next.members.length === 0).to.equal(true);
    expect(s.more).to.equal(false);
    expect(s.pass(() => 0)).to.equal(null);
    s.reset();
    expect(s.namesMinified).to.equal(false);
  });

  it('caps the types numbered since the overlay went on, not the ids ever given (toggling does not use the cap up)', () => {
    // 12 000 functions a generation: two generations pass the 20 000 cap if it counted ids.
    const make = (): Map<number, { handle: object }> => {
      const m = new Map<number, { handle: object }>();
      for (let i = 1; i <= 12_000; i++) m.set(i, { handle: { fn: () => i } });
      return m;
    };
    let entries = make();
    const s = new TypeSourcer({
      entry: (id) => entries.get(id), lowestId: () => 1, get mounts() { return entries.size; },
      typeOf: (h) => (h as { fn: unknown }).fn, nameOf: () => 'Row', sourceOf: () => null, debugOf: () => null,
    });
    const drain = (): [number, number][] => {
      const all: [number, number][] = [];
      do all.push(...(s.pass(() => 0)?.members ?? [])); while (s.more);
      return all;
    };
    const first = drain();
    expect(first.length).to.equal(12_000);
    for (let round = 0; round < 2; round++) {
      s.reset();
      entries = make(); // new functions (a remount after the toggle)
      const again = drain();
      expect(again.length).to.equal(12_000);
      // Ids are never reused across generations: a message in flight from the last one cannot be mistaken.
      expect(Math.min(...again.map(([, t]) => t))).to.be.greaterThan(12_000 * (round + 1));
    }
    // Within one generation the cap holds.
    entries = new Map([...entries, ...[...make()].map(([id, e]) => [id + 12_000, e] as [number, { handle: object }])]);
    expect(drain().length).to.equal(8_000);
  });
});
