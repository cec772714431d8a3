/**
 * A table of objects by component id, for the two tables that hold one entry per live component: the agent's
 * (registry.ts) and the content store's (store.ts). A `Map` spends 14–28 B of backing store on each entry (three
 * slots of 4 B and a bucket's share, up to half of its capacity unused); ids are the agent's counter, so live ids
 * cluster, and pages of 64 slots indexed by the id's low bits hold them in ≈ 5 B each (docs/PERFORMANCE.md, memory).
 * A look-up is two array reads (the page, the slot), where a `Map`'s hashes the id.
 *
 * Behaves as a `Map<number, T>` for any number key (T never undefined). What keeps it bounded:
 * - a page that is left with fewer than SPARSE live ids, and is not the newest, moves them to a `Map` and goes, so
 *   a long-lived page where most components unmounted (churn around a few survivors) costs no more than a Map;
 * - a page is made only while there are at most one per SPARSE entries (plus a few): ids from a hostile page spread
 *   one per page go to the `Map` instead;
 * - the pages' directory is an array by page index from `base`, the page index of its first slot: as ids move on
 *   (a page that mounts and unmounts for hours) the slots below the lowest page still held are dropped, so it spans
 *   the live ids, not every id ever given (it grew by 4 B per 64 ids mounted: 75 KB a minute on the soak fixture,
 *   docs/PERFORMANCE.md, memory). Ids below `base` or 65 536 pages above it go to the `Map`.
 * Iteration is by id through the pages, then the `Map`'s entries. An entry moved to the `Map` while an iteration
 * runs may be seen twice; nothing deletes while iterating these tables.
 */
const SHIFT = 6;
const PAGE = 1 << SHIFT;
const MASK = PAGE - 1;
/** The directory spans at most this many pages. */
const MAX_DIR = 1 << 16;
/** Empty slots at the front of the directory are dropped once there are this many and they are half of it or more. */
const TRIM = 256;
/** Live ids below which a page (other than the newest) gives them to the Map. */
const SPARSE = 8;
/** Pages allowed beyond one per SPARSE entries. */
const SPARE_PAGES = 16;

interface Page<T> {
  readonly slots: (T | undefined)[];
  n: number;
}

export class IdTable<T> implements Iterable<T> {
  /** Pages by index from `base` (dir[k] holds page base + k); undefined where there is none. */
  private dir: (Page<T> | undefined)[] = [];
  /** The page index of `dir[0]`. */
  private base = 0;
  private pageCount = 0;
  /** No page in `dir` below this position. */
  private low = 0;
  /** The highest page index made so far: it is still filling, so it never moves to the Map. */
  private newest = -1;
  private readonly rest = new Map<number, T>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(id: number): T | undefined {
    const k = (id >>> SHIFT) - this.base;
    if (id >>> 0 === id && k >= 0) {
      const page = this.dir[k];
      if (page !== undefined) {
        const v = page.slots[id & MASK];
        if (v !== undefined) return v;
      }
    }
    return this.rest.size === 0 ? undefined : this.rest.get(id);
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  set(id: number, v: T): this {
    if (id >>> 0 !== id) return this.setRest(id, v);
    const index = id >>> SHIFT;
    if (this.dir.length === 0) {
      // Nothing paged: the directory starts at this id's page (after a clear, the agent's ids have moved on).
      this.base = index;
      this.low = 0;
    }
    const k = index - this.base;
    let page = k >= 0 ? this.dir[k] : undefined;
    if (page === undefined) {
      if (k < 0 || k >= MAX_DIR || (this.rest.size > 0 && this.rest.has(id))
        || this.pageCount >= Math.floor(this.count / SPARSE) + SPARE_PAGES) {
        return this.setRest(id, v);
      }
      page = { slots: new Array<T | undefined>(PAGE), n: 0 };
      // Filled up to it, so the directory stays an array without holes.
      while (this.dir.length < k) this.dir.push(undefined);
      this.dir[k] = page;
      this.pageCount++;
      if (index > this.newest) this.newest = index;
      if (k < this.low) this.low = k;
    }
    const at = id & MASK;
    if (page.slots[at] === undefined) {
      // An id of a page that moved to the Map, back in a page made for its neighbours since: one place only.
      if (this.rest.size > 0 && this.rest.delete(id)) this.count--;
      page.n++;
      this.count++;
    }
    page.slots[at] = v;
    return this;
  }

  delete(id: number): boolean {
    const index = id >>> SHIFT;
    const k = index - this.base;
    if (id >>> 0 === id && k >= 0) {
      const page = this.dir[k];
      const at = id & MASK;
      if (page !== undefined && page.slots[at] !== undefined) {
        page.slots[at] = undefined;
        page.n--;
        this.count--;
        if (page.n === 0 || (page.n < SPARSE && index !== this.newest)) this.retire(k, page);
        return true;
      }
    }
    if (this.rest.size > 0 && this.rest.delete(id)) {
      this.count--;
      return true;
    }
    return false;
  }

  clear(): void {
    this.dir = [];
    this.base = 0;
    this.pageCount = 0;
    this.low = 0;
    this.newest = -1;
    this.rest.clear();
    this.count = 0;
  }

  /** Calls `fn` with every value, in the order `values()` gives them, in plain loops (the overlay's walk of all). */
  forEach(fn: (v: T) => void): void {
    const dir = this.dir;
    for (let p = this.firstPage(); p < dir.length; p++) {
      const page = dir[p];
      if (page === undefined) continue;
      const slots = page.slots;
      for (let i = 0; i < PAGE; i++) {
        const v = slots[i];
        if (v !== undefined) fn(v);
      }
    }
    if (this.rest.size > 0) for (const v of this.rest.values()) fn(v);
  }

  values(): IterableIterator<T> {
    return new Values(this.dir, this.firstPage(), this.rest);
  }

  [Symbol.iterator](): IterableIterator<T> {
    return this.values();
  }

  /** The lowest id held (Infinity when empty): the first page's first slot in use, and the Map's keys. */
  minId(): number {
    let min = Infinity;
    const dir = this.dir;
    for (let p = this.firstPage(); p < dir.length; p++) {
      const page = dir[p];
      if (page === undefined) continue;
      for (let i = 0; i < PAGE; i++) {
        if (page.slots[i] !== undefined) {
          min = (this.base + p) * PAGE + i;
          break;
        }
      }
      break;
    }
    for (const id of this.rest.keys()) if (id < min) min = id;
    return min;
  }

  /** Pages, Map entries and directory slots in use (for tests). */
  get shape(): { pages: number; rest: number; dir: number } {
    return { pages: this.pageCount, rest: this.rest.size, dir: this.dir.length };
  }

  /** The lowest position holding a page (the directory's length when none): moves up past pages that went. */
  private firstPage(): number {
    const dir = this.dir;
    let p = this.low;
    while (p < dir.length && dir[p] === undefined) p++;
    this.low = p;
    return p;
  }

  private setRest(id: number, v: T): this {
    if (!this.rest.has(id)) this.count++;
    this.rest.set(id, v);
    return this;
  }

  private retire(k: number, page: Page<T>): void {
    for (let i = 0; i < PAGE; i++) {
      const v = page.slots[i];
      if (v !== undefined) this.rest.set((this.base + k) * PAGE + i, v);
    }
    this.dir[k] = undefined;
    this.pageCount--;
    if (k !== this.low) return;
    // The front moved: drop the empty slots before the first page once they are many (nothing iterates meanwhile).
    const first = this.firstPage();
    if (first >= TRIM && first * 2 >= this.dir.length) {
      this.dir = this.dir.slice(first);
      this.base += first;
      this.low = 0;
    }
  }
}

class Values<T> implements IterableIterator<T> {
  private slots: (T | undefined)[] | null = null;
  private i = 0;
  private restIt: Iterator<T> | null = null;
  /**
   * One result object for the whole walk, its value replaced at each step (what reads an iterator reads the value before
   * the next step): the overlay walks every component at each redraw, 4 900 objects a walk otherwise.
   */
  private readonly step: { value: T; done: false } = { value: undefined as T, done: false };

  constructor(private readonly dir: (Page<T> | undefined)[], private p: number, private readonly rest: Map<number, T>) {}

  next(): IteratorResult<T> {
    for (;;) {
      const slots = this.slots;
      if (slots !== null) {
        while (this.i < PAGE) {
          const v = slots[this.i++];
          if (v !== undefined) {
            this.step.value = v;
            return this.step;
          }
        }
        this.slots = null;
      }
      if (this.restIt === null) {
        while (this.p < this.dir.length) {
          const page = this.dir[this.p++];
          if (page !== undefined) {
            this.slots = page.slots;
            this.i = 0;
            break;
          }
        }
        if (this.slots !== null) continue;
        this.restIt = this.rest.values();
      }
      return this.restIt.next();
    }
  }

  [Symbol.iterator](): IterableIterator<T> {
    return this;
  }
}
