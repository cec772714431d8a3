/**
 * An alike frame split straight from the log (attribution.ts `attributeAlike`, issue 61) writes what the general
 * split writes from weigh.ts's alike weights: the same records, shares and folds, on logs of many shapes.
 */
import { expect } from 'chai';
import { CHANGE_STYLE, CHANGE_TEXT } from '../../src/inject/agent/adapter';
import { attribute, attributeAlike, type Caused } from '../../src/inject/agent/pipeline/attribution';
import { Causes } from '../../src/inject/agent/pipeline/causes';
import { weigh, type Weights } from '../../src/inject/agent/pipeline/weigh';

const CAUSED = 1 << 4, LOGGED = 1 << 5, GONE = 1 << 7;

interface Owner extends Caused {
  parent: Owner | null;
}

class Recorder {
  readonly rows: number[][] = [];
  write(kind: number, a: number, b = 0, c = 0, d = 0, e = 0): void {
    this.rows.push([kind, a, b, c, d, e]);
  }
}

/** A seeded generator: each case is the same on every run. */
function random(seed: number): () => number {
  let s = (seed * 7_919_993) % 2147483647;
  const next = (): number => (s = (s * 16807) % 2147483647) / 2147483647;
  for (let i = 0; i < 4; i++) next();
  return next;
}

/** The same records, the ms equal but for the last bits (a fold adds its parts up; the whole frame is written as is). */
function same(a: number[][], b: number[][], what: string): void {
  const off = a.length !== b.length || a.some((r, i) => r.some((v, j) => (j < 2 ? v !== b[i][j] : Math.abs(v - b[i][j]) > 1e-9)));
  if (off) expect(a, what).to.deep.equal(b);
}

describe('attributeAlike', () => {
  it('writes what weigh + attribute write, on alike logs of many shapes', () => {
    let checked = 0, folded = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const rnd = random(seed);
      const grid: Owner = { id: 1, parent: null, marks: 0 };
      const other: Owner = { id: 2, parent: grid, marks: 0 };
      const top: Owner = { id: 3, parent: null, marks: 0 };
      const parents = [grid, other, top, null];
      const place = {};
      const causes = new Causes<Owner>(() => [], () => 0, CAUSED, LOGGED);
      const owners: Owner[] = [];
      const n = Math.floor(rnd() * (seed % 2 === 0 ? 40 : 600));
      for (let i = 0; i < n; i++) {
        // Runs of siblings under one parent (a grid's cells), now and then another parent.
        const parent = seed % 4 === 1 ? grid
          : rnd() < 0.8 && owners.length > 0 ? owners[owners.length - 1].parent : parents[Math.floor(rnd() * 4)];
        owners.push({ id: 10 + i, parent, marks: 0 });
      }
      const hows = [CHANGE_TEXT | CHANGE_STYLE, CHANGE_TEXT, CHANGE_STYLE];
      const sites = owners.map(() => ({}) as Element);
      const pick = (): number => hows[Math.floor(rnd() * (seed % 3 === 0 ? 1 : 3))];
      owners.forEach((o, i) => causes.add(o, sites[i], pick(), place as Element));
      causes.commitEnd();
      // A second commit before the frame: some of the same cells again, their changes merged where they lie (a kind
      // added to the first change's), and now and then a cell changing somewhere else (a repeat).
      owners.forEach((o, i) => {
        if (rnd() < 0.3) causes.add(o, rnd() < 0.9 ? sites[i] : ({} as Element), pick(), place as Element);
      });
      causes.commitEnd();
      expect(causes.alike()).to.equal(true);
      const styleMs = rnd() < 0.1 ? 0 : rnd() * 20, layoutMs = rnd() < 0.1 ? 0 : rnd() * 60;
      const straight = new Recorder();
      attributeAlike(straight, causes, styleMs, layoutMs);
      const w: Weights<Owner> = { owners: [], layout: [], style: [], explainedMs: -1, bySeen: false };
      weigh(causes, null, w, layoutMs);
      const general = new Recorder();
      attribute(general, w.owners, w.layout, w.style, styleMs, layoutMs, new Map(), () => true, new Map(), GONE);
      same(straight.rows, general.rows, `seed ${seed}`);
      if (general.rows.length > 1) checked++;
      if (causes.soleParent && general.rows.length === 1 && n >= 16) folded++;
      causes.clear();
    }
    // Not only the one-record frames: most cases split among several components or fold into several parents.
    expect(checked).to.be.greaterThan(100);
    // And the frames whose every change folds into the one parent, written without a pass over the log.
    expect(folded).to.be.greaterThan(20);
  });

  it('is not used once a logged owner unmounted: the log says so', () => {
    const causes = new Causes<Owner>(() => [], () => 0, CAUSED, LOGGED);
    const o: Owner = { id: 5, parent: null, marks: 0 };
    causes.add(o, {} as Element, CHANGE_TEXT, {} as Element);
    expect(causes.anyGone).to.equal(false);
    causes.ownerGone();
    expect(causes.anyGone).to.equal(true);
    causes.clear();
    expect(causes.anyGone).to.equal(false);
  });
});
