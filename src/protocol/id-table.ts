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
 * - ids from 2^22 on (a page that mounted four million components) go to the `Map`: the pages' directory, an array
 *   by page index, stays under 65 536 slots.
 * Iteration is by id through the pages, then the `Map`'s entries. An entry moved to the `Map` while an iteration
 * runs may be seen twice; nothing deletes while iterating these tables.
 */
const SHIFT = 6;
const PAGE = 1 << SHIFT;
const MASK = PAGE - 1;
/** Ids from here on are not paged. */
const PAGED_IDS = 1 << 22;
/** Live ids below which a page (other than the newest) gives them to the Map. */
const SPARSE = 8;
/** Pages allowed beyond one per SPARSE entries. */
const SPARE_PAGES = 16;

interface Page<T> {
  readonly slots: (T | undefined)[];
  n: number;
}

export class IdTable<T> implements Iterable<T> {
  /** Pages by index (id >>> SHIFT); undefined where there is none. */
  private dir: (Page<T> | undefined)[] = [];
  private pageCount = 0;
  /** No page below this index. */
  private low = 0;
  /** The highest page index made so far: it is still filling, so it never moves to the Map. */
  private newest = -1;
  private readonly rest = new Map<number, T>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(id: number): T | undefined {
    if (id >>> 0 === id && id < PAGED_IDS) {
      const page = this.dir[id >>> SHIFT];
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
    if (!(id >>> 0 === id && id < PAGED_IDS)) return this.setRest(id, v);
    const index = id >>> SHIFT;
    let page = this.dir[index];
    if (page === undefined) {
      if ((this.rest.size > 0 && this.rest.has(id)) || this.pageCount >= Math.floor(this.count / SPARSE) + SPARE_PAGES) {
        return this.setRest(id, v);
      }
      page = { slots: new Array<T | undefined>(PAGE), n: 0 };
      // Filled up to it, so the directory stays an array without holes (at most 65 536 slots).
      while (this.dir.length < index) this.dir.push(undefined);
      this.dir[index] = page;
      this.pageCount++;
      if (index > this.newest) this.newest = index;
      if (index < this.low) this.low = index;
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
    if (id >>> 0 === id && id < PAGED_IDS) {
      const index = id >>> SHIFT;
      const page = this.dir[index];
      const at = id & MASK;
      if (page !== undefined && page.slots[at] !== undefined) {
        page.slots[at] = undefined;
        page.n--;
        this.count--;
        if (page.n === 0 || (page.n < SPARSE && index !== this.newest)) this.retire(index, page);
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
          min = p * PAGE + i;
          break;
        }
      }
      break;
    }
    for (const id of this.rest.keys()) if (id < min) min = id;
    return min;
  }

  /** Pages and Map entries in use (for tests). */
  get shape(): { pages: number; rest: number } {
    return { pages: this.pageCount, rest: this.rest.size };
  }

  /** The lowest index holding a page (the directory's length when none): moves up past pages that went. */
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

  private retire(index: number, page: Page<T>): void {
    for (let i = 0; i < PAGE; i++) {
      const v = page.slots[i];
      if (v !== undefined) this.rest.set(index * PAGE + i, v);
    }
    this.dir[index] = undefined;
    this.pageCount--;
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
