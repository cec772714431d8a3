/**
 * A table of objects by component id, for the two tables that hold one entry per live component: the agent's
 * (registry.ts) and the content store's (store.ts). A `Map` spends 14–28 B of backing store on each entry (three
 * slots of 4 B and a bucket's share, up to half of its capacity unused); ids are the agent's counter, so live ids
 * cluster, and pages of 64 slots indexed by the id's low bits hold them in ≈ 5 B each (docs/PERFORMANCE.md, memory).
 *
 * Behaves as a `Map<number, T>` for any number key (T never undefined). What keeps it bounded:
 * - a page that is left with fewer than SPARSE live ids, and is not the newest, moves them to a `Map` and goes, so
 *   a long-lived page where most components unmounted (churn around a few survivors) costs no more than a Map;
 * - a page is made only while there are at most one per SPARSE entries (plus a few): ids from a hostile page spread
 *   one per page go to the `Map` instead.
 * Iteration is by page (in the order pages were made), each page in id order, then the `Map`'s. An entry moved to
 * the `Map` while an iteration runs may be seen twice; nothing deletes while iterating these tables.
 */
const SHIFT = 6;
const PAGE = 1 << SHIFT;
const MASK = PAGE - 1;
/** Live ids below which a page (other than the newest) gives them to the Map. */
const SPARSE = 8;
/** Pages allowed beyond one per SPARSE entries. */
const SPARE_PAGES = 16;

interface Page<T> {
  readonly slots: (T | undefined)[];
  n: number;
}

export class IdTable<T> implements Iterable<T> {
  private readonly pages = new Map<number, Page<T>>();
  private readonly rest = new Map<number, T>();
  private count = 0;
  /** The highest page index made so far: it is still filling, so it never moves to the Map. */
  private newest = -1;
  /** The page looked at last (consecutive ids share one). */
  private lastIndex = -1;
  private lastPage: Page<T> | undefined = undefined;

  get size(): number {
    return this.count;
  }

  get(id: number): T | undefined {
    if (id >>> 0 !== id) return this.rest.get(id);
    const page = this.pageOf(id >>> SHIFT);
    const v = page === undefined ? undefined : page.slots[id & MASK];
    return v !== undefined || this.rest.size === 0 ? v : this.rest.get(id);
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  set(id: number, v: T): this {
    if (id >>> 0 !== id) {
      if (!this.rest.has(id)) this.count++;
      this.rest.set(id, v);
      return this;
    }
    const index = id >>> SHIFT;
    let page = this.pageOf(index);
    if (page === undefined) {
      if (this.rest.size > 0 && this.rest.has(id)) {
        this.rest.set(id, v);
        return this;
      }
      if (this.pages.size >= Math.floor(this.count / SPARSE) + SPARE_PAGES) {
        this.count++;
        this.rest.set(id, v);
        return this;
      }
      page = { slots: new Array<T | undefined>(PAGE), n: 0 };
      this.pages.set(index, page);
      if (index > this.newest) this.newest = index;
      this.lastIndex = index;
      this.lastPage = page;
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
    if (id >>> 0 === id) {
      const index = id >>> SHIFT;
      const page = this.pageOf(index);
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
    this.pages.clear();
    this.rest.clear();
    this.count = 0;
    this.newest = -1;
    this.lastIndex = -1;
    this.lastPage = undefined;
  }

  /** Calls `fn` with every value, in the order `values()` gives them, in plain loops (the overlay's walk of all). */
  forEach(fn: (v: T) => void): void {
    for (const page of this.pages.values()) {
      const slots = page.slots;
      for (let i = 0; i < PAGE; i++) {
        const v = slots[i];
        if (v !== undefined) fn(v);
      }
    }
    if (this.rest.size > 0) for (const v of this.rest.values()) fn(v);
  }

  values(): IterableIterator<T> {
    return new Values(this.pages.values(), this.rest);
  }

  [Symbol.iterator](): IterableIterator<T> {
    return this.values();
  }

  /** The lowest id held (Infinity when empty): a look at every page's first slots and the Map's keys. */
  minId(): number {
    let min = Infinity;
    for (const [index, page] of this.pages) {
      if (index * PAGE >= min) continue;
      for (let i = 0; i < PAGE; i++) {
        if (page.slots[i] !== undefined) {
          min = index * PAGE + i;
          break;
        }
      }
    }
    for (const id of this.rest.keys()) if (id < min) min = id;
    return min;
  }

  /** Pages and Map entries in use (tests and the heap bench's notes). */
  get shape(): { pages: number; rest: number } {
    return { pages: this.pages.size, rest: this.rest.size };
  }

  private pageOf(index: number): Page<T> | undefined {
    if (index === this.lastIndex) return this.lastPage;
    const page = this.pages.get(index);
    if (page !== undefined) {
      this.lastIndex = index;
      this.lastPage = page;
    }
    return page;
  }

  private retire(index: number, page: Page<T>): void {
    for (let i = 0; i < PAGE; i++) {
      const v = page.slots[i];
      if (v !== undefined) this.rest.set(index * PAGE + i, v);
    }
    this.pages.delete(index);
    if (this.lastIndex === index) {
      this.lastIndex = -1;
      this.lastPage = undefined;
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

  constructor(private readonly pageIt: Iterator<Page<T>>, private readonly rest: Map<number, T>) {}

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
        const r = this.pageIt.next();
        if (r.done !== true) {
          this.slots = r.value.slots;
          this.i = 0;
          continue;
        }
        this.restIt = this.rest.values();
      }
      return this.restIt.next();
    }
  }

  [Symbol.iterator](): IterableIterator<T> {
    return this;
  }
}
