/**
 * The component table: one entry per mounted instance, fed by an adapter
 * through ComponentSink, written out as ring records. Counts are kept
 * incrementally: only entries whose structure changed are recounted
 * (deepest first, the difference added to every ancestor), and Stats
 * records go out once per flush for the entries that changed.
 */
import { RecordKind } from '../../protocol';
import type { ComponentSink, FrameworkAdapter } from '../adapter';
import type { RingBuffer } from '../ring-buffer';
import type { DomCounter } from './dom-counts';
import type { Interner, KeyBatch } from './interner';

const RECOUNT = 1;
const STATS = 2;
const LAYOUT_DIRTY = 4;
/** Above this many pending recounts in one flush, do the rest next flush. */
const MAX_RECOUNTS_PER_FLUSH = 20_000;

export interface Entry {
  id: number;
  handle: object;
  parent: Entry | null;
  depth: number;
  authored: number;
  rendered: number;
  commits: number;
  marks: number;
  /** Last bounds written as [x, y, width, height] (null: none yet, or to be rewritten): only drawn components get one. */
  lastBounds: number[] | null;
}

export class Registry implements ComponentSink {
  readonly entries = new Map<number, Entry>();
  private nextId = 1;
  private recounts: Entry[] = [];
  private stats: Entry[] = [];
  /** Components whose DOM the framework changed since the last frame. */
  layoutDirty: Entry[] = [];
  /** Set by the pipeline: something happened that needs a frame. */
  onChange: () => void = () => {};
  /** Set by the pipeline: some component's DOM structure may have changed. */
  onStructure: () => void = () => {};
  /** Set by the pipeline: the ring is nearly full (a big back-fill or commit); hand records over now. */
  onRingHigh: () => void = () => {};
  private readonly ringHigh: number;
  private readonly hostScratch: Element[] = [];

  constructor(
    private readonly ring: RingBuffer,
    private readonly strings: Interner,
    private readonly keys: KeyBatch,
    private readonly counter: DomCounter,
    private readonly adapter: () => FrameworkAdapter | null,
  ) {
    this.ringHigh = ring.capacity - 1024;
  }

  mount(handle: object, parentId: number, depth: number, name: string, key: string | null): number {
    const id = this.nextId++;
    const parent = this.entries.get(parentId) ?? null;
    const e: Entry = {
      id, handle, parent, depth, authored: 0, rendered: 0, commits: 0, marks: 0, lastBounds: null,
    };
    this.entries.set(id, e);
    this.ring.write(RecordKind.Mount, id, parent ? parent.id : -1, depth, this.strings.intern(name), this.keys.add(key));
    this.mark(e, RECOUNT);
    if (this.ring.length >= this.ringHigh) this.onRingHigh();
    return id;
  }

  unmount(id: number): void {
    const e = this.entries.get(id);
    if (!e) return;
    this.entries.delete(id);
    e.marks = 0;
    this.ring.write(RecordKind.Unmount, id);
    if (this.ring.length >= this.ringHigh) this.onRingHigh();
  }

  rendered(id: number): void {
    const e = this.entries.get(id);
    if (!e) return;
    e.commits++;
    this.mark(e, STATS);
  }

  structure(id: number): void {
    const e = this.entries.get(id);
    if (!e) return;
    this.mark(e, RECOUNT);
    this.onStructure();
  }

  dirty(id: number): void {
    const e = this.entries.get(id);
    if (e && (e.marks & LAYOUT_DIRTY) === 0) {
      e.marks |= LAYOUT_DIRTY;
      this.layoutDirty.push(e);
    }
  }

  rehandle(id: number, handle: object): void {
    const e = this.entries.get(id);
    if (e) e.handle = handle;
  }

  committed(): void {
    this.onChange();
  }

  private mark(e: Entry, bit: number): void {
    if ((e.marks & bit) !== 0) return;
    e.marks |= bit;
    (bit === RECOUNT ? this.recounts : this.stats).push(e);
  }

  /** Takes the layout-dirty list for this frame and clears the marks. */
  takeLayoutDirty(): Entry[] {
    const list = this.layoutDirty;
    this.layoutDirty = [];
    for (const e of list) e.marks &= ~LAYOUT_DIRTY;
    return list;
  }

  /** The topmost host elements of an entry (reused scratch array: copy before keeping). */
  hostsOf(e: Entry): Element[] {
    const out = this.hostScratch;
    out.length = 0;
    this.adapter()?.topHostNodes(e.handle, out);
    return out;
  }

  /** Recounts what changed and writes Stats records. Called at flush. */
  flushStats(): void {
    const adapter = this.adapter();
    if (adapter && this.recounts.length > 0) {
      let list = this.recounts.filter((e) => this.entries.get(e.id) === e);
      if (list.length > MAX_RECOUNTS_PER_FLUSH) {
        list.sort((a, b) => b.depth - a.depth);
        this.recounts = list.slice(MAX_RECOUNTS_PER_FLUSH);
        list = list.slice(0, MAX_RECOUNTS_PER_FLUSH);
      } else {
        this.recounts = [];
        list.sort((a, b) => b.depth - a.depth);
      }
      const childAuthored = (id: number): number | null => this.entries.get(id)?.authored ?? null;
      for (const e of list) {
        e.marks &= ~RECOUNT;
        const authored = adapter.authored(e.handle, childAuthored);
        const rendered = this.counter.count(this.hostsOf(e));
        const da = authored - e.authored;
        const dr = rendered - e.rendered;
        if (da === 0 && dr === 0) continue;
        e.authored = authored;
        e.rendered = rendered;
        this.mark(e, STATS);
        for (let p = e.parent; p !== null; p = p.parent) {
          if (this.entries.get(p.id) !== p) break;
          p.authored += da;
          p.rendered += dr;
          this.mark(p, STATS);
        }
      }
    }
    for (const e of this.stats) {
      e.marks &= ~STATS;
      if (this.entries.get(e.id) !== e) continue;
      this.ring.write(RecordKind.Stats, e.id, e.commits, e.authored, e.rendered);
      if (this.ring.length >= this.ringHigh) this.onRingHigh();
    }
    this.stats = [];
  }

  /** Re-queues every live entry for a recount (DOM changed in ways we cannot localise). */
  recountAll(): void {
    for (const e of this.entries.values()) this.mark(e, RECOUNT);
  }

  get pendingRecounts(): number {
    return this.recounts.length;
  }

  clear(): void {
    this.entries.clear();
    this.recounts = [];
    this.stats = [];
    this.layoutDirty = [];
  }
}
