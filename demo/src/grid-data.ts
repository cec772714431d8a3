/**
 * The StressGrid data model: 4 900 cell values and one tick that changes an
 * exact share of them. Pure code, no React, so the mutation rule is easy to
 * check: seed 001 found that sampling *with* replacement turned a "100 %"
 * tick into ~63 % real changes, so cells are drawn without replacement here.
 */

export const GRID_COLUMNS = 70;
export const GRID_ROWS = 70;
export const CELL_COUNT = GRID_COLUMNS * GRID_ROWS;
export const TICK_INTERVAL_MS = 33;
export const MUTATION_PERCENTS = [10, 20, 50, 100] as const;
export type MutationPercent = (typeof MUTATION_PERCENTS)[number];
export const DEFAULT_PERCENT: MutationPercent = 10;

/** One cell's value (0–99) and whether its last change went up. */
export interface CellValue {
  readonly value: number;
  readonly up: boolean;
}

export function isMutationPercent(n: unknown): n is MutationPercent {
  return typeof n === 'number' && (MUTATION_PERCENTS as readonly number[]).includes(n);
}

/**
 * mulberry32: a tiny seeded generator, so a benchmark run with `?seed=` sees
 * the same sequence of ticks every time (Math.random cannot be seeded).
 */
export function createRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function initialCells(random: () => number): CellValue[] {
  const cells: CellValue[] = new Array(CELL_COUNT);
  for (let i = 0; i < CELL_COUNT; i++) cells[i] = { value: Math.floor(random() * 100), up: random() < 0.5 };
  return cells;
}

/**
 * Picks `count` distinct indices with a partial Fisher–Yates shuffle over a
 * permutation kept between ticks: O(count) per tick, no duplicates, so
 * 100 % really touches every cell.
 */
export class DistinctSampler {
  private readonly order: Int32Array;

  constructor(size: number, private readonly random: () => number) {
    this.order = new Int32Array(size);
    for (let i = 0; i < size; i++) this.order[i] = i;
  }

  /** The first `count` slots of the returned view are the chosen indices (valid until the next call). */
  sample(count: number): Int32Array {
    const n = this.order.length;
    const k = Math.min(Math.max(0, Math.floor(count)), n);
    for (let i = 0; i < k; i++) {
      const j = i + Math.floor(this.random() * (n - i));
      const t = this.order[i];
      this.order[i] = this.order[j];
      this.order[j] = t;
    }
    return this.order.subarray(0, k);
  }
}

/**
 * Returns a new cell array in which exactly `percent` % of the cells hold a
 * new value. The new value always differs from the old one, so every chosen
 * cell's props change and its memoised component really re-renders.
 */
export function mutate(cells: readonly CellValue[], percent: number, sampler: DistinctSampler, random: () => number): CellValue[] {
  const next = cells.slice();
  const chosen = sampler.sample(Math.round((cells.length * percent) / 100));
  for (let i = 0; i < chosen.length; i++) {
    const index = chosen[i];
    const old = next[index].value;
    const value = (old + 1 + Math.floor(random() * 99)) % 100;
    next[index] = { value, up: value > old };
  }
  return next;
}

