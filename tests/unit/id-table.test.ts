/** The table by component id (src/protocol/id-table.ts): a Map's behaviour, in pages, bounded for sparse ids. */
import { expect } from 'chai';
import { IdTable } from '../../src/protocol/id-table';

/** A seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('IdTable', () => {
  it('behaves as a Map under random sets, deletes and gets, whatever the ids', () => {
    for (const seed of [1, 2, 3]) {
      const rnd = random(seed);
      const t = new IdTable<{ v: number }>();
      const m = new Map<number, { v: number }>();
      const pick = (): number => {
        const r = rnd();
        if (r < 0.6) return 1 + Math.floor(rnd() * 3000); // clustered, as the agent's ids are
        if (r < 0.9) return Math.floor(rnd() * 2 ** 31); // spread
        return [-1, 0.5, NaN, 2 ** 33, 2 ** 32 - 1][Math.floor(rnd() * 5)];
      };
      for (let step = 0; step < 20_000; step++) {
        const id = pick();
        const r = rnd();
        // Plain comparisons in the loop (60 000 steps of chai assertions took 4 s of the suite beside a CPU hog); the
        // first difference fails the test with its step.
        let same = true;
        if (r < 0.5) {
          const v = { v: step };
          t.set(id, v);
          m.set(id, v);
        } else if (r < 0.85) {
          same = t.delete(id) === m.delete(id);
        } else {
          same = t.get(id) === m.get(id) && t.has(id) === m.has(id);
        }
        if (!same || t.size !== m.size) expect.fail(`seed ${seed}, step ${step}, id ${id}: differs from a Map (size ${t.size} against ${m.size})`);
      }
      const seen = [...t.values()];
      const each: { v: number }[] = [];
      t.forEach((v) => each.push(v));
      expect(each).to.deep.equal(seen);
      expect(seen.length).to.equal(m.size);
      const want = new Set(m.values());
      expect(new Set(seen).size).to.equal(want.size);
      expect(seen.every((v) => want.has(v))).to.equal(true);
      const ids = [...m.keys()].filter((k) => !Number.isNaN(k));
      expect(t.minId()).to.equal(ids.length === 0 ? Infinity : Math.min(...ids));
    }
  });

  it('keeps consecutive ids in pages, in id order, and gives up the pages they leave', () => {
    const t = new IdTable<number>();
    for (let id = 1; id <= 640; id++) t.set(id, id);
    expect(t.shape).to.deep.equal({ pages: 11, rest: 0, dir: 11 });
    expect([...t.values()]).to.deep.equal(Array.from({ length: 640 }, (_, i) => i + 1));
    // Churn: all but two of each old page unmount; those two move to the Map and their pages go.
    for (let id = 1; id <= 576; id++) if (id % 64 !== 7 && id % 64 !== 9) t.delete(id);
    expect(t.shape.pages).to.equal(2); // ids 576–639 and 640 (the newest page keeps its place)
    expect(t.shape.rest).to.equal(18);
    expect(t.get(7)).to.equal(7);
    expect(t.get(8)).to.equal(undefined);
    expect(t.minId()).to.equal(7);
    for (let id = 577; id <= 640; id++) t.delete(id);
    for (let id = 1; id <= 576; id++) t.delete(id);
    expect(t.size).to.equal(0);
    expect(t.shape).to.include({ pages: 0, rest: 0 });
  });

  it('spans the live ids, not every id ever given, on a page that mounts and unmounts for hours', () => {
    const t = new IdTable<number>();
    const m = new Map<number, number>();
    const put = (id: number): void => { t.set(id, id); m.set(id, id); };
    let disagree = 0;
    const drop = (id: number): void => { if (t.delete(id) !== m.delete(id)) disagree++; };
    // Five components that never unmount (the app's shell), then 1 000 rows remounted with new ids 1 000 times: the
    // soak fixture's ids for 10 minutes, which grew the directory by 4 B per 64 ids before.
    for (let id = 1; id <= 5; id++) put(id);
    let next = 6;
    for (let cycle = 0; cycle < 1000; cycle++) {
      const first = next;
      for (let i = 0; i < 1000; i++) put(next++);
      if (cycle > 0) for (let id = first - 1000; id < first; id++) drop(id);
    }
    expect(disagree).to.equal(0);
    expect(t.size).to.equal(m.size);
    expect(t.shape.dir).to.be.below(600); // 15 640 slots before
    expect(t.shape.rest).to.equal(5); // the shell, its page long gone
    expect([...t.values()].sort((a, b) => a - b)).to.deep.equal([...m.values()].sort((a, b) => a - b));
    expect(t.minId()).to.equal(1);
    // Ids below the directory's start (an old id mounted again in the store): the Map keeps them, as any other.
    put(1000);
    put(70_000);
    expect([t.get(1000), t.get(70_000), t.get(next - 1), t.get(next - 1001)]).to.deep.equal([1000, 70_000, next - 1, undefined]);
    drop(1000);
    drop(70_000);
    drop(3);
    expect(disagree).to.equal(0);
    expect(t.size).to.equal(m.size);
    // Emptied and filled again from where the ids are now: the directory starts there.
    t.clear();
    for (let id = next; id < next + 640; id++) t.set(id, id);
    expect(t.shape).to.deep.equal({ pages: 10 + (next % 64 === 0 ? 0 : 1), rest: 0, dir: 10 + (next % 64 === 0 ? 0 : 1) });
    expect(t.minId()).to.equal(next);
  });

  it('makes no page for each of ids spread one to a page (a hostile page\'s records)', () => {
    const t = new IdTable<number>();
    for (let i = 1; i <= 10_000; i++) t.set(i * 64, i);
    expect(t.size).to.equal(10_000);
    // One page per 8 entries at most, plus a few: the rest are in the Map.
    expect(t.shape.pages).to.be.at.most(10_000 / 8 + 16);
    expect(t.shape.rest).to.be.at.least(10_000 - (10_000 / 8 + 16));
    for (let i = 1; i <= 10_000; i++) expect(t.get(i * 64)).to.equal(i);
  });

  it('clears', () => {
    const t = new IdTable<number>();
    for (let id = 1; id <= 100; id++) t.set(id, id);
    t.set(-5, 5);
    t.clear();
    expect(t.size).to.equal(0);
    expect(t.get(1)).to.equal(undefined);
    expect(t.get(-5)).to.equal(undefined);
    expect([...t.values()]).to.deep.equal([]);
    t.set(3, 3);
    expect([...t.values()]).to.deep.equal([3]);
  });
});
