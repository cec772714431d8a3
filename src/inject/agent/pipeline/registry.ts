/**
 * The component table: one entry per mounted instance, fed by an adapter
 * through ComponentSink, written out as ring records. Counts are kept
 * incrementally: only entries whose structure changed are recounted
 * (children before their parents), and Stats records go out once per flush for the entries
 * that changed.
 *
 * A recount's difference is added to the ancestors whose DOM holds the
 * entry's DOM: up the chain until a portal lies between (its DOM is then
 * elsewhere). The ancestor above a portal is recounted whole instead, and so
 * is the parent of an entry whose own top hosts came through a portal. Authored
 * counts are fibers, not DOM: their difference goes to every ancestor.
 *
 * "Portaled in": elements React rendered into a component's DOM through a
 * portal that a component outside its subtree owns (a chart layer's empty
 * <g> that the series portal their shapes into). Recomputed from the
 * adapter's portal list when portals or counts changed; zero cost on a page
 * without portals.
 */
import type { FrameLog } from '../vitals/frame-log';
import { RecordKind, RENDERS_PACK } from '../../../protocol';
import { IdTable } from '../../../protocol/id-table';
import { packCounts, packedAuthored, packedRendered } from '../../../protocol/packed-counts';
import type { ComponentRef, ComponentSink, FrameworkAdapter } from '../adapter';
import type { RingBuffer } from '../ring-buffer';
import type { Causes } from './causes';
import { propertyKind } from './css-kinds';
import type { DomCounter } from './dom-counts';
import type { Interner, KeyBatch } from './interner';

/** Components re-typed after hot updates between two type passes, at most (a hot update re-renders a module's components). */
const MAX_RETYPED = 10_000;
const NO_IDS: number[] = [];

const RECOUNT = 1;
const STATS = 2;
/** Left to the frame's cause table (causes.ts): the framework's commit changed the entry's DOM this frame (`committed`). */
export const CAUSED = 4;
/** Also the cause table's (causes.ts): set from the entry's first change in a frame to the frame's end. */
export const LOGGED = 16;
/** Its rendered count was read from the DOM in this flush: a later difference from below is already in it. */
const COUNTED = 8;
/** Its top hosts came through a portal at the last recount (a bit, not a field: 4 B per component, docs/PERFORMANCE.md). */
const PORTAL_TOP = 32;
/**
 * With STATS: a count other than `commits` changed since its last record, so it goes out as a whole Stats record;
 * without, only its commits did (it rendered), and it goes packed into a Renders record, five to a record.
 */
const COUNTS = 64;
/**
 * Unmounted (or cleared): the adapter may still hand the entry back in the same commit (React 16/17 report a deleted
 * fiber twice), and a call with it is then ignored — the check `entries.get(id)` made when the sink took ids.
 */
export const GONE = 128;
/** It rendered since its commit count last went out, and nothing read commit counts then (it is in `held`). */
const HELD = 256;
/**
 * In the `held` list (whether or not its count went out since, in a whole Stats record): an entry is listed once however
 * often it goes from held to sent and back, so the list is bounded by the live components.
 */
const QUEUED = 512;
/** Its key has gone out (in its Mount record or a Key record): keys go only while something shows them (`wantKeys`). */
const KEYED = 1024;
/**
 * `Entry.marks` holds its commit count above its bits (a field of its own would be 4 B a component), up to
 * MAX_MARKED_COMMITS; at that value the count is in the entry's `counts` object (a component that rendered half a
 * million times). The whole stays under 2^30: a V8 small integer, never a boxed double.
 */
const COMMIT_SHIFT = 11;
const COMMIT_ONE = 1 << COMMIT_SHIFT;
const MAX_MARKED_COMMITS = 2 ** (30 - COMMIT_SHIFT) - 1;
/** Every bit the registry keeps in `Entry.marks` (CAUSED and LOGGED included, which causes.ts sets and clears). */
export const REGISTRY_MARKS = RECOUNT | STATS | CAUSED | LOGGED | COUNTED | PORTAL_TOP | COUNTS | GONE | HELD | QUEUED | KEYED;
/** Unmounted entries `held` may keep before it is compacted (and then only while they are most of it). */
const MAX_HELD_GONE = 1024;
/** Above this many pending recounts in one flush, do the rest next flush. */
const MAX_RECOUNTS_PER_FLUSH = 20_000;
/** Rounds of whole recounts of ancestors above portals in one flush (each round is shallower). */
const MAX_RECOUNT_ROUNDS = 64;
/** Portals looked at when computing portaled-in counts (a page with more gets the first ones). */
const MAX_PORTALS = 2_000;

/**
 * Recount order: every component before its ancestors. A component mounts after its parent (the adapter mounts a
 * component, then what it renders), so its id is higher: no depth kept for this (4 B a component).
 */
function childrenFirst(a: Entry, b: Entry): number {
  return b.id - a.id;
}

/**
 * The counts of a component with either above MAX_PACKED_COUNT (an ancestor of a big page's content: a few), and its commit
 * count once that is past what its marks hold (−1 until then).
 */
interface BigCounts {
  authored: number;
  rendered: number;
  commits: number;
}

export class Entry implements ComponentRef {
  /**
   * Both counts in one small integer while they fit (protocol/packed-counts.ts: one field where two were, 4 B on every
   * component, docs/PERFORMANCE.md, memory), else an object with both.
   */
  private counts: number | BigCounts = 0;

  constructor(
    readonly id: number,
    public handle: object,
    public parent: Entry | null,
    /**
     * Bit flags (RECOUNT, STATS, …, KEYED), and above them, from COMMIT_SHIFT, how often it committed (`commits`). What
     * only a few components have — the elements foreign portals put in its DOM (the registry's `portaledIn`), the layer
     * of an occluder holding it, the last bounds written for a drawn one — is kept in tables of their own: one field
     * here is 4 B on every component (docs/PERFORMANCE.md, memory).
     */
    public marks: number,
  ) {}

  /** Host elements its own and its descendants' JSX authored (fibers, not DOM). */
  get authored(): number {
    const c = this.counts;
    return typeof c === 'number' ? packedAuthored(c) : c.authored;
  }

  /** Elements its DOM holds. */
  get rendered(): number {
    const c = this.counts;
    return typeof c === 'number' ? packedRendered(c) : c.rendered;
  }

  /** How often it committed: its mount, then every render. */
  get commits(): number {
    const n = this.marks >>> COMMIT_SHIFT;
    return n < MAX_MARKED_COMMITS ? n : (this.counts as BigCounts).commits;
  }

  /** One more commit (a render). */
  addCommit(): void {
    const n = this.marks >>> COMMIT_SHIFT;
    if (n < MAX_MARKED_COMMITS - 1) {
      this.marks += COMMIT_ONE;
      return;
    }
    const big = this.big();
    big.commits = n < MAX_MARKED_COMMITS ? n + 1 : big.commits + 1;
    this.marks |= MAX_MARKED_COMMITS << COMMIT_SHIFT;
  }

  setCounts(authored: number, rendered: number): void {
    const c = this.counts;
    const packed = packCounts(authored, rendered);
    if (packed >= 0 && (typeof c === 'number' || c.commits < 0)) {
      this.counts = packed;
      return;
    }
    const big = this.big();
    big.authored = authored;
    big.rendered = rendered;
  }

  private big(): BigCounts {
    const c = this.counts;
    if (typeof c !== 'number') return c;
    const big = { authored: packedAuthored(c), rendered: packedRendered(c), commits: -1 };
    this.counts = big;
    return big;
  }
}

export class Registry implements ComponentSink {
  /** By id: pages of slots, not a Map (src/protocol/id-table.ts; 14–28 B a component less). */
  readonly entries = new IdTable<Entry>();
  private nextId = 1;
  private recounts: Entry[] = [];
  private stats: Entry[] = [];
  /** Set by the pipeline: the frame log of renders and mounts (vitals/frame-log.ts), written while it is on. */
  log: FrameLog | null = null;
  /** Set by the pipeline: something happened that needs a frame. */
  onChange: () => void = () => {};
  /** Set by the pipeline: some component's DOM structure may have changed. */
  onStructure: () => void = () => {};
  /** Set by the pipeline: a commit just ended (its DOM changes are applied). */
  onCommitted: () => void = () => {};
  /** Set by the pipeline: the ring is nearly full (a big back-fill or commit); hand records over now. */
  onRingHigh: () => void = () => {};
  private readonly ringHigh: number;
  private readonly hostScratch: Element[] = [];
  /** Whether the last hostsOf() reached hosts through a portal. */
  private hostsThroughPortal = false;
  /** A recount's difference stopped at a portal this flush: the DOM that holds portal content changed too. */
  private crossedPortal = false;
  /** Entries marked COUNTED in this flush. */
  private counted: Entry[] = [];
  /**
   * Elements in an entry's DOM that foreign portals rendered (see the file comment), for the entries that have any;
   * `portalVersion` is the adapter's portal version they were computed for.
   */
  private portaledIn = new Map<Entry, number>();
  /** The Renders or Commits record being filled (sendCommits) and its slots in use. */
  private readonly packed = [0, 0, 0, 0, 0];
  private packedN = 0;
  /**
   * Whether commit counts go out at each flush (a DevTools panel or a recording reads them: the content script says
   * so in its config). Without, an entry that only rendered is held (`held`, its HELD bit) until `releaseCommits` —
   * on an API call, or when this turns on: on a busy grid the Renders records were a sixth of the overlay's own cost
   * for a number nothing on the page showed (docs/PERFORMANCE.md, overlay on).
   */
  wantCommits = false;
  /**
   * Whether components' keys go out (in their Mount records): only while a DevTools panel or a recording shows them
   * (set with `wantCommits`, from the content script's config: the same readers). Without, a key stays on the fiber it came from — copied into
   * the content script's world it was a string of its own for every component, 20 B (docs/PERFORMANCE.md, state per
   * component) — and `sendKeys` writes the held ones when something starts showing them; the API's results get theirs
   * in this world (`keyOf`).
   */
  wantKeys = false;
  /**
   * Entries that rendered while nothing read commit counts (QUEUED; HELD while their count has not gone out since);
   * some may have unmounted since (`heldGone`).
   */
  private held: Entry[] = [];
  private heldGone = 0;
  private portalVersion = -1;
  /** Components directly in a floating portal's content (a dialog, menu, tooltip): surfaces of their own. */
  private surfaceRoots = new Set<Entry>();
  /** The content (top elements) of each floating portal: portals into DOM that no component owns. */
  floating: Element[][] = [];

  constructor(
    private readonly ring: RingBuffer,
    private readonly strings: Interner,
    private readonly keys: KeyBatch,
    private readonly counter: DomCounter,
    private readonly adapter: () => FrameworkAdapter | null,
    /** What each component changed since the last frame end that costs style or layout (causes.ts). */
    readonly causes: Causes<Entry>,
  ) {
    this.ringHigh = ring.capacity - 1024;
  }

  /** Components mounted since the agent started (only grows: ids are never reused). */
  get mounted(): number {
    return this.nextId - 1;
  }

  /**
   * While the view is rebuilt (heal.ts): the ids of the components that were live, under their handles and their
   * twins — a component the walk finds again keeps its id (the panel's pin and recordings stay valid).
   */
  private reuse: WeakMap<object, number> | null = null;

  /** Takes the live components' ids for the next walk to give again (null: done, new ids from now on). */
  keepIds(twinOf: ((handle: object) => object | null) | null): void {
    if (twinOf === null) {
      this.reuse = null;
      return;
    }
    const reuse = new WeakMap<object, number>();
    for (const e of this.entries.values()) {
      reuse.set(e.handle, e.id);
      const twin = twinOf(e.handle);
      if (twin !== null) reuse.set(twin, e.id);
    }
    this.reuse = reuse;
  }

  mount(handle: object, parent: Entry | null, depth: number, name: string, key: string | null): Entry {
    const kept = this.reuse === null ? undefined : this.reuse.get(handle);
    const id = kept !== undefined && !this.entries.has(kept) ? kept : this.nextId++;
    const nameIdx = this.strings.intern(name);
    const live = parent !== null && (parent.marks & GONE) === 0 ? parent : null;
    // The mount's render is its first commit (commits 1); it is in the Mount record, so nothing holds or sends it (the
    // content store counts a mounted component as rendered once, store.ts `commitsOf`): only renders after it are held.
    const e = new Entry(id, handle, live, COMMIT_ONE | (this.wantKeys ? KEYED : 0));
    this.entries.set(id, e);
    this.ring.write(RecordKind.Mount, id, live ? live.id : -1, depth, nameIdx, this.wantKeys ? this.keys.add(key) : -1);
    this.log?.mounted(id);
    this.mark(e, RECOUNT);
    if (this.ring.length >= this.ringHigh) this.onRingHigh();
    return e;
  }

  unmount(e: Entry): void {
    if ((e.marks & GONE) !== 0) return;
    if ((e.marks & LOGGED) !== 0) this.causes.ownerGone();
    this.entries.delete(e.id);
    if ((e.marks & QUEUED) !== 0 && ++this.heldGone > MAX_HELD_GONE && this.heldGone * 2 > this.held.length) {
      // Mostly unmounted entries (a page that mounts and unmounts while the overlay is on): let them go.
      e.marks = 0;
      this.held = this.held.filter((h) => (h.marks & QUEUED) !== 0);
      this.heldGone = 0;
    }
    e.marks = GONE;
    this.ring.write(RecordKind.Unmount, e.id);
    if (this.ring.length >= this.ringHigh) this.onRingHigh();
  }

  rendered(e: Entry): void {
    if ((e.marks & GONE) !== 0) return;
    e.addCommit();
    // Hot (every render of a busy grid): the flag is read here, the call made only right after an input.
    const log = this.log;
    if (log !== null && log.inputRecent) log.rendered(e.id);
    // Held right here while nothing reads commit counts: no STATS entry to look at again at the flush (a busy grid's
    // 490 changed cells a commit; docs/PERFORMANCE.md, overlay on).
    if (this.wantCommits) this.mark(e, STATS);
    else this.hold(e);
  }

  private hold(e: Entry): void {
    e.marks |= HELD;
    if ((e.marks & QUEUED) === 0) {
      e.marks |= QUEUED;
      this.held.push(e);
    }
  }

  structure(e: Entry): void {
    if ((e.marks & GONE) !== 0) return;
    this.mark(e, RECOUNT);
    this.onStructure();
  }

  changed(e: Entry, site: Element | null, how: number, parent?: Element | null): void {
    if ((e.marks & GONE) === 0) this.causes.add(e, site, how, parent);
  }

  attributeKind(name: string, before: string | null, after: string | null): number {
    return this.causes.attributeKind(name, before, after);
  }

  styleKind(name: string): number {
    return propertyKind(name);
  }

  rehandle(e: Entry, handle: object): void {
    if ((e.marks & GONE) === 0) e.handle = handle;
  }

  /** Ids of components whose code a hot update replaced, for the type pass to read again (types.ts). */
  private readonly retypedIds = new Set<number>();

  retyped(e: Entry): void {
    if ((e.marks & GONE) === 0 && this.retypedIds.size < MAX_RETYPED) this.retypedIds.add(e.id);
  }

  /** The ids retyped since the last call (each once). */
  takeRetyped(): number[] {
    if (this.retypedIds.size === 0) return NO_IDS;
    const ids = [...this.retypedIds];
    this.retypedIds.clear();
    return ids;
  }

  committed(): void {
    this.causes.commitEnd();
    this.onCommitted();
    this.onChange();
  }

  private mark(e: Entry, bit: number): void {
    if ((e.marks & bit) !== 0) return;
    e.marks |= bit;
    (bit === RECOUNT ? this.recounts : this.stats).push(e);
  }

  /** Its authored, rendered or portaled-in count changed: a whole Stats record at the flush. */
  private countsChanged(e: Entry): void {
    e.marks |= COUNTS;
    this.mark(e, STATS);
  }

  /**
   * A component's name (for the Performance panel track and the types pass), read from the framework: not kept on the
   * entry, 4 B on every component for what only DevTools' Performance panel reads (docs/PERFORMANCE.md, state per
   * component). `<page>` for 0.
   */
  nameOf(id: number): string {
    if (id === 0) return '<page>';
    const e = this.entries.get(id);
    const adapter = this.adapter();
    return e === undefined || adapter === null ? 'Anonymous' : adapter.nameOf(e.handle);
  }

  /** The topmost host elements of an entry (reused scratch array: copy before keeping). */
  hostsOf(e: Entry): Element[] {
    const out = this.hostScratch;
    out.length = 0;
    this.hostsThroughPortal = this.adapter()?.topHostNodes(e.handle, out) ?? false;
    return out;
  }

  /** Recounts what changed and writes Stats records. Called at flush. */
  flushStats(): void {
    const adapter = this.adapter();
    const recounted = this.recounts.length > 0;
    if (adapter && recounted) {
      let list = this.recounts.filter((e) => this.entries.get(e.id) === e);
      if (list.length > MAX_RECOUNTS_PER_FLUSH) {
        list.sort(childrenFirst);
        this.recounts = list.slice(MAX_RECOUNTS_PER_FLUSH);
        list = list.slice(0, MAX_RECOUNTS_PER_FLUSH);
      } else {
        this.recounts = [];
      }
      list = this.recountRounds(adapter, list);
      if (this.crossedPortal) {
        // Content inside a portal changed: the components whose DOM holds a portal's container (a chart's layer
        // <g>) are not its ancestors, and the MutationObserver sees only what lands directly in the container.
        this.crossedPortal = false;
        const holders: Entry[] = [];
        adapter.portals((container) => {
          const h = this.entries.get(adapter.ownerOf(container));
          if (h && (h.marks & RECOUNT) === 0) {
            h.marks |= RECOUNT;
            holders.push(h);
          }
        });
        list.push(...this.recountRounds(adapter, holders));
      }
      for (const e of list) {
        e.marks &= ~RECOUNT;
        this.mark(e, RECOUNT);
      }
      for (const e of this.counted) e.marks &= ~COUNTED;
      this.counted = [];
    }
    if (adapter && (adapter.portalCount > 0 || this.portaledIn.size > 0 || this.surfaceRoots.size > 0)
      && (recounted || adapter.portalVersion !== this.portalVersion)) {
      this.updatePortals(adapter);
    }
    // Most of a busy commit's components only rendered: their new commit counts go five to a Renders record (a fifth
    // of the records, bytes and copying that a Stats record each would take; docs/PERFORMANCE.md, overlay on).
    for (const e of this.stats) {
      const whole = (e.marks & COUNTS) !== 0;
      e.marks &= ~(STATS | COUNTS);
      if ((e.marks & GONE) !== 0) continue;
      if (this.wantCommits) this.sendCommits(e, RecordKind.Renders, whole);
      else if (whole) this.sendCounts(e);
      else this.hold(e);
    }
    this.endPacked(RecordKind.Renders);
    this.stats = [];
  }

  /**
   * Writes the commit counts held back (Commits records, five to a record: totals, not this frame's renders) so that
   * what reads them next (an API call, a panel, a recording) sees them current.
   */
  releaseCommits(): void {
    for (const e of this.held) {
      if ((e.marks & HELD) !== 0) this.sendCommits(e, RecordKind.Commits, false);
      e.marks &= ~QUEUED;
    }
    this.endPacked(RecordKind.Commits);
    this.held = [];
    this.heldGone = 0;
  }

  /** Writes the keys held back (Key records) of every live component whose key has not gone out. */
  sendKeys(): void {
    const adapter = this.adapter();
    if (adapter === null) return;
    for (const e of this.entries.values()) {
      if ((e.marks & KEYED) !== 0) continue;
      e.marks |= KEYED;
      const key = adapter.keyOf(e.handle);
      if (key === null) continue;
      this.ring.write(RecordKind.Key, e.id, this.keys.add(key));
      if (this.ring.length >= this.ringHigh) this.onRingHigh();
    }
  }

  /** A live component's key, read from the framework (null: none, or not mounted). */
  keyOf(id: number): string | null {
    const e = this.entries.get(id);
    const adapter = this.adapter();
    return e === undefined || adapter === null ? null : adapter.keyOf(e.handle);
  }

  /**
   * Writes `e` as a whole Stats record with `commits`: −1 (unchanged) while nothing reads commit counts — its count
   * stays held if it was (`rendered`), and the content store keeps no count for it until one reads them (4 B a
   * component there, docs/PERFORMANCE.md, memory).
   */
  private sendCounts(e: Entry, commits = -1): void {
    this.ring.write(RecordKind.Stats, e.id, commits, e.authored, e.rendered, this.portaledIn.get(e) ?? 0);
    if (this.ring.length >= this.ringHigh) this.onRingHigh();
  }

  /**
   * Writes `e` as a whole Stats record (`whole`, or a commit count too large to pack), else adds its commit count to the
   * five-slot `kind` record being filled, written when full. Either way its count is out: no longer held.
   */
  private sendCommits(e: Entry, kind: RecordKind.Renders | RecordKind.Commits, whole: boolean): void {
    e.marks &= ~HELD;
    if (whole || e.commits >= RENDERS_PACK) {
      this.sendCounts(e, e.commits);
      return;
    }
    this.packed[this.packedN++] = e.id * RENDERS_PACK + e.commits;
    if (this.packedN === 5) this.endPacked(kind);
  }

  /** Writes the `kind` record being filled, its empty slots −1 (nothing when none is). */
  private endPacked(kind: RecordKind.Renders | RecordKind.Commits): void {
    const p = this.packed;
    if (this.packedN === 0) return;
    for (let i = this.packedN; i < 5; i++) p[i] = -1;
    this.packedN = 0;
    this.ring.write(kind, p[0], p[1], p[2], p[3], p[4]);
    if (this.ring.length >= this.ringHigh) this.onRingHigh();
  }

  /** Recounts `list` and the ancestors above portals it queues, shallower round by round; returns what is left. */
  private recountRounds(adapter: FrameworkAdapter, list: Entry[]): Entry[] {
    for (let round = 0; list.length > 0 && round < MAX_RECOUNT_ROUNDS; round++) {
      list.sort(childrenFirst);
      list = this.recountRound(adapter, list);
    }
    return list;
  }

  /** Recounts `list` (children before their parents); returns the ancestors above portals that need a whole recount. */
  private recountRound(adapter: FrameworkAdapter, list: Entry[]): Entry[] {
    const childAuthored = (c: ComponentRef): number | null => ((c as Entry).marks & GONE) === 0 ? (c as Entry).authored : null;
    const next: Entry[] = [];
    const queue = (p: Entry): void => {
      if ((p.marks & RECOUNT) !== 0) return;
      p.marks |= RECOUNT;
      next.push(p);
    };
    for (const e of list) {
      e.marks &= ~RECOUNT;
      if (this.entries.get(e.id) !== e) continue;
      const authored = adapter.authored(e.handle, childAuthored);
      const hosts = this.hostsOf(e);
      const through = this.hostsThroughPortal;
      const rendered = this.counter.count(hosts, through);
      if ((e.marks & COUNTED) === 0) {
        e.marks |= COUNTED;
        this.counted.push(e);
      }
      // Top hosts that came (or until now came) through a portal are not in the parent's DOM.
      let domLinked = !through && (e.marks & PORTAL_TOP) === 0;
      if (through) e.marks |= PORTAL_TOP;
      else e.marks &= ~PORTAL_TOP;
      if (!domLinked) this.crossedPortal = true;
      const da = authored - e.authored;
      const dr = rendered - e.rendered;
      if (da === 0 && dr === 0) continue;
      e.setCounts(authored, rendered);
      this.countsChanged(e);
      // Past a portal, the ancestors whose top hosts come through portals too (wrappers around the portal's
      // owner) are counted whole, up to and including the first whose DOM is its own.
      let queuing = dr !== 0;
      let child = e;
      for (let p = e.parent; p !== null; child = p, p = p.parent) {
        if (this.entries.get(p.id) !== p) break;
        if (dr !== 0 && domLinked && adapter.portalAbove(child.handle)) {
          domLinked = false;
          this.crossedPortal = true;
        }
        if (!domLinked && queuing) {
          queue(p);
          queuing = (p.marks & PORTAL_TOP) !== 0 || adapter.portalAbove(p.handle);
        }
        // Read from the DOM earlier in this flush: this change is in it already, and in what it passed up.
        if (domLinked && (p.marks & COUNTED) !== 0) {
          domLinked = false;
          queuing = false;
        }
        if (!domLinked && da === 0 && !queuing) break;
        p.setCounts(p.authored + da, domLinked ? p.rendered + dr : p.rendered);
        this.countsChanged(p);
      }
    }
    return next;
  }

  /** Recomputes portaled-in counts, surface roots and floating layers from the adapter's portals. */
  private updatePortals(adapter: FrameworkAdapter): void {
    this.portalVersion = adapter.portalVersion;
    const fresh = new Map<Entry, number>();
    const roots = new Set<Entry>();
    const floating: Element[][] = [];
    let seen = 0;
    adapter.portals((container, ownerId, tops, inner) => {
      if (seen++ >= MAX_PORTALS || tops.length === 0) return;
      // A container not in the document yet (a library appends it in an effect) belongs to no component either.
      const holder = container.isConnected ? this.entries.get(adapter.ownerOf(container)) : undefined;
      if (!holder) {
        // Into DOM no component owns (document.body, a library's layer root): something floating over the page.
        const content = tops.slice();
        floating.push(content);
        // The component that renders the portal is the surface when the portal is all it shows (a menu's item
        // list, a tooltip); else the outermost components inside the portal are.
        const owner = this.entries.get(ownerId);
        const own = owner ? this.hostsOf(owner) : [];
        if (owner && own.length > 0 && own.every((h) => content.some((t) => t === h || t.contains(h)))) {
          roots.add(owner);
          return;
        }
        for (const id of inner) {
          const e = this.entries.get(id);
          if (e) roots.add(e);
        }
        return;
      }
      // The portal's own component and its ancestors rendered this content: not portaled in for them.
      const owners = new Set<Entry>();
      for (let o = this.entries.get(ownerId) ?? null, g = 0; o !== null && g < 10_000; o = o.parent, g++) owners.add(o);
      const n = this.counter.count(tops, tops.length > 1);
      for (let cur: Entry | null = holder, g = 0; cur !== null && !owners.has(cur) && g < 10_000; cur = cur.parent, g++) {
        fresh.set(cur, (fresh.get(cur) ?? 0) + n);
        // Its parent's DOM holds it only when no portal lies between.
        if ((cur.marks & PORTAL_TOP) !== 0 || adapter.portalAbove(cur.handle)) break;
      }
    });
    for (const [e, n] of this.portaledIn) {
      if (!fresh.has(e) && n !== 0) this.countsChanged(e);
    }
    const before = this.portaledIn;
    this.portaledIn = new Map();
    for (const [e, n] of fresh) {
      if (this.entries.get(e.id) !== e) continue;
      this.portaledIn.set(e, n);
      if ((before.get(e) ?? 0) !== n) this.countsChanged(e);
    }
    for (const e of this.surfaceRoots) {
      if (!roots.has(e) && this.entries.get(e.id) === e) this.ring.write(RecordKind.Surface, e.id, 0);
    }
    for (const e of roots) if (!this.surfaceRoots.has(e)) this.ring.write(RecordKind.Surface, e.id, 1);
    this.surfaceRoots = roots;
    this.floating = floating;
  }

  /** Re-queues every live entry for a recount (DOM changed in ways we cannot localise). */
  recountAll(): void {
    for (const e of this.entries.values()) this.mark(e, RECOUNT);
  }

  get pendingRecounts(): number {
    return this.recounts.length;
  }

  clear(): void {
    // An adapter attached again may still hold some of these.
    for (const e of this.entries.values()) e.marks = GONE;
    this.entries.clear();
    this.recounts = [];
    this.stats = [];
    this.held = [];
    this.heldGone = 0;
    this.causes.release();
    this.portaledIn.clear();
    this.portalVersion = -1;
    this.surfaceRoots.clear();
    this.floating = [];
    this.retypedIds.clear();
  }
}
