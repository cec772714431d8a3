/**
 * The rollup store: everything the overlay and the panel read, built from
 * the agent's records. Per component: identity, counts, subtree-inclusive
 * EMAs (α = 0.2) of style, layout and forced-reflow ms, the last frame's
 * values, and a 60 × 100 ms sparkline of layout ms (max within a bucket).
 *
 * EMAs decay lazily: a component not dirtied in a frame contributes 0 for
 * it, applied when it is next touched or read, so per-frame work is
 * proportional to what changed, not to the tree.
 */
import { RECORD_STRIDE, RecordKind, RENDERS_PACK, type Bounds, type ComponentRow, type FrameTotals, type SelfCost, type Snapshot } from '../../protocol';
import type { DirtiedBy } from '../../protocol/snapshot';
import { NO_VITALS, type Vitals } from '../../protocol/vitals';
import { IdTable } from '../../protocol/id-table';
import { packCounts, packedAuthored, packedRendered } from '../../protocol/packed-counts';
import type { FrameSink } from './recorder';
import type { SourceBook } from './sources';
import { advanceSparkline, SPARKLINE_BUCKETS, SPARKLINE_BUCKET_MS } from '../../overlay/sparkline';

export const EMA_ALPHA = 0.2;
const KEEP = 1 - EMA_ALPHA;
const MAX_COMPONENTS = 200_000;
/** The string table (component names) holds at most this many strings and characters (issue 11: it grew with the page). */
export const MAX_STRINGS = 65_536;
export const MAX_STRING_CHARS = 4_000_000;
/**
 * Work one batch may cost the store (records applied + roll-up steps): a hostile batch of 2^18 cost records on a
 * 10 000-deep chain stalled the page 15 s (issue 11). Past it the batch's remaining cost records are ignored.
 */
export const MAX_BATCH_WORK = 2_000_000;
/** The ranges the worker's validator accepts for a table row (protocol's componentRow): kept here so a row always passes. */
const MAX_COUNT = 1e8;
const MAX_COMMITS = 1e12;
/** Forced reflows one Cost record may claim (a frame of a page that reads layout in a loop: thousands). */
const MAX_FORCED_PER_RECORD = 1e6;
const MAX_MS = 1e7;
/** Occluders kept (the agent sends at most this many). */
const MAX_OCCLUDERS = 32;
/** Layout ms below which a component gets no sparkline buffer yet (it would draw as nothing). */
export const SPARK_MIN_MS = 0.05;


export interface StoredComponent {
  id: number;
  name: string;
  parentId: number | null;
  /**
   * Its depth among components (the adapter stops at 10 000; kept up to MAX_STORED_DEPTH) and its type (the content
   * script's number for it, sources.ts `localType`; 0: not typed yet), for its source and original name: one small
   * integer between them (`shape`), as the counts below are (`counts`): a field is 4 B on every component
   * (docs/PERFORMANCE.md, memory).
   */
  depth: number;
  typeId: number;
  /** Set together: `setCounts`. */
  readonly authored: number;
  readonly rendered: number;
  setCounts(authored: number, rendered: number): void;
  /**
   * Layout ms EMA as of `cost.emaFrame` (0 while `cost` is null); read through `store.ema()` to decay it to now. The
   * overlay's pure rules read it as `node.layout`; it is kept in `cost` (a fraction held in a field of every
   * component would be a 12-byte box in each under V8's pointer compression, docs/PERFORMANCE.md, memory).
   */
  readonly layout: number;
  /**
   * Everything else about its cost, created with its first cost record: most components of a big tree never get one
   * (their shares are folded into a parent), so they carry none of this (docs/PERFORMANCE.md, memory).
   */
  cost: CostState | null;
  /** Elements of `rendered` that other components' portals placed in its DOM (kept in `rare`). */
  readonly portaledIn: number;
  /** The occluder (1-based) whose content holds it; 0: the page itself (kept in `rare`). */
  readonly layer: number;
  /** Directly in a dialog's, menu's or tooltip's content: a surface of its own (kept in `rare`). */
  readonly surfaceRoot: boolean;
  /** Where it is, for a component the overlay draws (kept in `rare`). */
  readonly bounds: Bounds | null;
  /**
   * What only a few components have — bounds (drawn ones), portal content, a layer, a surface — created when the
   * first of them is set: four fields on every component would be 12 B more each (docs/PERFORMANCE.md, memory).
   */
  rare: RareState | null;
}

export interface RareState {
  /** A component's counts when either is above MAX_PACKED_COUNT (an ancestor of a big page's content). */
  authored: number;
  rendered: number;
  portaledIn: number;
  layer: number;
  surfaceRoot: boolean;
  bounds: Bounds | null;
}

export interface CostState {
  /** EMAs as of `emaFrame` (the component's `layout` reads this one). */
  style: number;
  layout: number;
  forced: number;
  emaFrame: number;
  lastStyleMs: number;
  lastLayoutMs: number;
  lastForcedMs: number;
  /** Frame number of the last* values. */
  lastFrame: number;
  spark: Float32Array | null;
  sparkBucket: number;
  /** This frame's inclusive cost while records are applied (valid when accFrame === store.frameNo + 1). */
  accFrame: number;
  accStyle: number;
  accLayout: number;
  accForced: number;
  /** Forced reflows this frame (inclusive), for recordings. */
  accForcedN: number;
}

/** Depth bits of `Component.shape`: the adapter stops at depth 10 000 (react/adapter.ts MAX_DEPTH). */
const DEPTH_BITS = 14;
const MAX_STORED_DEPTH = 2 ** DEPTH_BITS - 1;
/** Type numbers go above the depth, up to 2^16 − 1 (sources.ts keeps at most MAX_TYPES = 20 000). */
const MAX_STORED_TYPE = 2 ** 16 - 1;

class Component implements StoredComponent {
  name = 'Anonymous';
  parentId: number | null = null;
  /** depth | typeId << DEPTH_BITS: a V8 small integer, 4 B where two fields were 8. */
  shape = 0;
  /** Both counts (protocol/packed-counts.ts) while they fit; −1: both are in `rare`. */
  counts = 0;
  cost: CostState | null = null;
  rare: RareState | null = null;

  constructor(readonly id: number) {}

  get depth(): number {
    return this.shape & MAX_STORED_DEPTH;
  }

  set depth(d: number) {
    this.shape = (this.shape & ~MAX_STORED_DEPTH) | Math.min(Math.max(d | 0, 0), MAX_STORED_DEPTH);
  }

  get typeId(): number {
    return this.shape >>> DEPTH_BITS;
  }

  set typeId(t: number) {
    this.shape = (this.shape & MAX_STORED_DEPTH) | (Math.min(Math.max(t | 0, 0), MAX_STORED_TYPE) << DEPTH_BITS);
  }

  get authored(): number {
    return this.counts >= 0 ? packedAuthored(this.counts) : (this.rare as RareState).authored;
  }

  get rendered(): number {
    return this.counts >= 0 ? packedRendered(this.counts) : (this.rare as RareState).rendered;
  }

  setCounts(authored: number, rendered: number): void {
    const packed = packCounts(authored, rendered);
    if (packed >= 0) {
      this.counts = packed;
      return;
    }
    const rare = rareOf(this);
    rare.authored = authored;
    rare.rendered = rendered;
    this.counts = -1;
  }

  get layout(): number {
    return this.cost === null ? 0 : this.cost.layout;
  }

  get portaledIn(): number {
    return this.rare === null ? 0 : this.rare.portaledIn;
  }

  get layer(): number {
    return this.rare === null ? 0 : this.rare.layer;
  }

  get surfaceRoot(): boolean {
    return this.rare === null ? false : this.rare.surfaceRoot;
  }

  get bounds(): Bounds | null {
    return this.rare === null ? null : this.rare.bounds;
  }
}

function newComponent(id: number): StoredComponent {
  return new Component(id);
}

/** A component's rare state, created on the first write that needs it. */
function rareOf(comp: StoredComponent): RareState {
  return comp.rare ?? (comp.rare = { authored: 0, rendered: 0, portaledIn: 0, layer: 0, surfaceRoot: false, bounds: null });
}

function newCost(frame: number): CostState {
  return {
    style: 0, layout: 0, forced: 0, emaFrame: frame, lastStyleMs: 0, lastLayoutMs: 0, lastForcedMs: 0, lastFrame: 0,
    spark: null, sparkBucket: 0, accFrame: -1, accStyle: 0, accLayout: 0, accForced: 0, accForcedN: 0,
  };
}

export class RollupStore {
  /** By id: pages of slots, not a Map (src/protocol/id-table.ts; 14–28 B a component less). */
  readonly components = new IdTable<StoredComponent>();
  /** The `<page>` bucket: cost no component owns (id 0). */
  readonly page: StoredComponent = newComponent(0);
  readonly frames: FrameTotals = { count: 0, styleMsTotal: 0, layoutMsTotal: 0, forcedMsTotal: 0 };
  droppedEvents = 0;
  /** What the page stacks over its content (dialogs, menus, the top layer), bottom to top. */
  occluders: Bounds[] = [];
  /** Records that referenced unknown ids or were malformed. */
  ignoredRecords = 0;
  frameNo = 0;
  /** Bumped whenever anything changed; the overlay and panel redraw on change. */
  version = 0;
  /**
   * Bumped whenever the set of components or a parent link may have changed (mount, unmount, reset): the overlay
   * keeps its component tree until it moves (src/overlay/surface.ts).
   */
  structure = 0;
  /**
   * Bumped whenever something the overlay places by may have moved: a mount or unmount, bounds, an occluder or the
   * layer holding a component, a surface root, a reset. A batch that left it alone changed only numbers (costs,
   * counts), which the overlay redraws at a lower rate (content/agent/index.ts, scheduleRender).
   */
  geometry = 0;
  /**
   * Bumped whenever a key held back came over (a Key record): the panel's table then goes out whole, as when names or
   * sources changed (table-diff.ts: a row's fingerprint holds its numbers only).
   */
  keysVersion = 0;
  /**
   * Components' keys, for the keyed ones whose key came over: a table of their own rather than a field of every
   * component (4 B each), since keys come only while a DevTools panel or a recording shows them (records.ts, Key).
   */
  private readonly keyById = new Map<number, string>();
  /**
   * Components' commit counts above 0, in a table of their own rather than a field of every component (4 B each): the
   * agent holds counts back while no panel or recording reads them (registry.ts, `wantCommits`), so most stay empty.
   */
  private readonly commitsById = new IdTable<number>();
  private strings: string[] = [];
  private stringChars = 0;
  /** Work done on the batch being applied (see MAX_BATCH_WORK). */
  private batchWork = 0;
  /** Strings refused because the table was full. */
  refusedStrings = 0;
  /** Components (and the page) holding inclusive cost for the frame being applied. */
  private touched: StoredComponent[] = [];

  /** `maxBatchWork`: MAX_BATCH_WORK, lower in a unit test that runs a batch past it (the budget's real size is 1 s of work). */
  constructor(private readonly now: () => number = () => performance.now(), private readonly maxBatchWork = MAX_BATCH_WORK) {
    this.page.name = '<page>';
  }

  /** A recording in progress is fed from here (recorder.ts); null when not recording: nothing is done for it. */
  recorder: FrameSink | null = null;
  /** Component types' sources and original names (sources.ts), when known: rows and snapshots show them. */
  sources: SourceBook | null = null;

  /** What dirtied the pinned component, as the agent last said (agent/pipeline/dirtied.ts). */
  dirtied: { id: number; items: DirtiedBy[]; boundary: string | null; alone: { frames: number; layoutMs: number } } = {
    id: 0, items: [], boundary: null, alone: { frames: 0, layoutMs: 0 },
  };

  setDirtied(d: RollupStore['dirtied']): void {
    this.dirtied = d;
  }

  dirtiedOf(id: number): DirtiedBy[] {
    return this.dirtied.id === id ? this.dirtied.items.map((d) => ({ ...d })) : [];
  }

  reset(): void {
    this.dirtied = { id: 0, items: [], boundary: null, alone: { frames: 0, layoutMs: 0 } };
    this.clearComponents();
    this.strings = [];
    this.stringChars = 0;
    this.touched.length = 0;
    this.frames.count = this.frames.styleMsTotal = this.frames.layoutMsTotal = this.frames.forcedMsTotal = 0;
    this.droppedEvents = 0;
    this.occluders = [];
    this.frameNo = 0;
    Object.assign(this.page, newComponent(0), { name: '<page>' });
    this.version++;
  }

  /** Applies one batch of records. Unknown ids and kinds are ignored and counted. */
  apply(
    data: ArrayLike<number>, count: number, strings: readonly string[], stringBase: number, dropped: number,
    keys: readonly string[] = [],
  ): void {
    this.batchWork = 0;
    if (stringBase <= this.strings.length) {
      for (let i = 0; i < strings.length; i++) {
        const at = stringBase + i;
        const s = strings[i];
        if (at < this.strings.length) {
          this.stringChars += s.length - this.strings[at].length;
          this.strings[at] = s;
        } else if (at < MAX_STRINGS && this.stringChars + s.length <= MAX_STRING_CHARS) {
          this.strings.push(s);
          this.stringChars += s.length;
        } else {
          this.refusedStrings += strings.length - i;
          break;
        }
      }
    }
    this.droppedEvents = dropped;
    const n = Math.min(count, Math.floor(data.length / RECORD_STRIDE));
    for (let r = 0; r < n; r++) {
      const o = r * RECORD_STRIDE;
      const a = data[o + 1], b = data[o + 2], c = data[o + 3], d = data[o + 4], e = data[o + 5];
      switch (data[o]) {
        case RecordKind.Mount: {
          if (!validId(a) || this.components.size >= MAX_COMPONENTS) { this.ignoredRecords++; break; }
          // `| 0`: a small integer (a V8 Smi) rather than the double the Float64Array gave, in the table's key and the
          // fields alike; a double would be a 12-byte box of its own in each (docs/PERFORMANCE.md, memory).
          const id = a | 0;
          const was = this.components.get(id);
          const remount = was !== undefined;
          const comp = was ?? newComponent(id);
          comp.parentId = validId(b) && b !== a ? b | 0 : null;
          comp.depth = c >= 0 && c < 1e5 ? Math.floor(c) : 0; // kept up to MAX_STORED_DEPTH
          comp.name = this.string(d) ?? 'Anonymous';
          if (Number.isInteger(e) && e >= 0 && e < keys.length) this.keyById.set(id, keys[e]);
          else if (this.keyById.size > 0) this.keyById.delete(id);
          this.components.set(id, comp);
          this.structure++;
          this.geometry++;
          if (this.recorder) {
            this.recorder.mount(id);
            // Its mount is its first render (commitsOf): a recording counts it in the frame it mounted in.
            if (!remount) this.recorder.commits(id, 1);
          }
          break;
        }
        case RecordKind.Unmount:
          if (!this.components.delete(a)) this.ignoredRecords++;
          else {
            if (this.keyById.size > 0) this.keyById.delete(a);
            if (this.commitsById.size > 0) this.commitsById.delete(a);
            this.structure++;
            this.geometry++;
            this.recorder?.unmount(a);
          }
          break;
        case RecordKind.Stats: {
          const comp = this.components.get(a);
          if (!comp) { this.ignoredRecords++; break; }
          // −1: the agent holds its commit count (nothing reads them); the one here stands.
          if (b !== -1) this.setCommits(comp, whole(b, MAX_COMMITS));
          comp.setCounts(whole(c, MAX_COUNT), whole(d, MAX_COUNT));
          const portaledIn = Math.min(whole(e, MAX_COUNT), comp.rendered);
          if (portaledIn !== comp.portaledIn) rareOf(comp).portaledIn = portaledIn;
          break;
        }
        case RecordKind.Renders:
        case RecordKind.Commits: {
          // Five slots of `id × RENDERS_PACK + commits`, −1 when empty; each checked on its own (inline: one batch
          // of a busy grid holds hundreds of these). Commits: totals the agent held back, not this frame's renders.
          const now = data[o] === RecordKind.Renders;
          for (let k = o + 1; k < o + RECORD_STRIDE; k++) {
            const v = data[k];
            if (v === -1) continue;
            const id = Math.floor(v / RENDERS_PACK);
            const comp = Number.isInteger(v) && v < 2 ** 52 && id > 0 ? this.components.get(id) : undefined;
            if (!comp) this.ignoredRecords++;
            else if (now) this.setCommits(comp, v - id * RENDERS_PACK);
            else this.putCommits(comp.id, v - id * RENDERS_PACK);
          }
          break;
        }
        case RecordKind.Bounds: {
          const comp = this.components.get(a);
          if (!comp) { this.ignoredRecords++; break; }
          const bounds = d >= 0 && e >= 0 && Number.isFinite(b + c + d + e) ? { x: b, y: c, width: d, height: e } : null;
          if (bounds !== null || comp.rare !== null) rareOf(comp).bounds = bounds;
          this.geometry++;
          break;
        }
        case RecordKind.Cost: {
          const comp = a === 0 ? this.page : this.components.get(a);
          if (!comp || ++this.batchWork > this.maxBatchWork) { this.ignoredRecords++; break; }
          // Self cost; endFrame rolls it up to the ancestors (inclusive = self + descendants).
          const n = d > 0 ? whole(e, MAX_FORCED_PER_RECORD) : 0;
          this.accumulate(comp, msValue(b), msValue(c), msValue(d), n);
          this.recorder?.self(a, msValue(b), msValue(c), msValue(d), n);
          break;
        }
        case RecordKind.Frame:
          // Cost records for a frame precede its Frame record.
          this.endFrame(whole(a, 2 ** 53), msValue(b), msValue(c), msValue(d), Number.isFinite(e) && e >= 0 ? e : 0);
          break;
        case RecordKind.Reset:
          this.clearComponents();
          this.occluders = [];
          break;
        case RecordKind.Layer: {
          const comp = this.components.get(a);
          if (!comp || !(b >= 0 && b <= MAX_OCCLUDERS)) { this.ignoredRecords++; break; }
          const layer = Math.floor(b);
          if (layer !== comp.layer) rareOf(comp).layer = layer;
          this.geometry++;
          break;
        }
        case RecordKind.Occluder:
          this.geometry++;
          if (a < 0) this.occluders = [];
          else if (a === this.occluders.length && a < MAX_OCCLUDERS && d > 0 && e > 0 && Number.isFinite(b + c + d + e)) {
            this.occluders.push({ x: b, y: c, width: d, height: e });
          } else this.ignoredRecords++;
          break;
        case RecordKind.Surface: {
          const comp = this.components.get(a);
          if (!comp) { this.ignoredRecords++; break; }
          if ((b === 1) !== comp.surfaceRoot) rareOf(comp).surfaceRoot = b === 1;
          this.geometry++;
          break;
        }
        case RecordKind.Key: {
          // A key held back while nothing showed keys (records.ts): only the rows, the pinned view and recordings read it.
          const comp = this.components.get(a);
          if (!comp || !(Number.isInteger(b) && b >= 0 && b < keys.length)) { this.ignoredRecords++; break; }
          this.keyById.set(comp.id, keys[b]);
          this.keysVersion++;
          break;
        }
        default:
          this.ignoredRecords++;
      }
    }
    this.version++;
  }

  /** Every component goes, with the tables beside them (keys, commit counts). */
  private clearComponents(): void {
    this.components.clear();
    this.keyById.clear();
    this.commitsById.clear();
    this.structure++;
    this.geometry++;
  }

  private setCommits(comp: StoredComponent, commits: number): void {
    const was = this.commitsOf(comp.id);
    if (this.recorder && commits > was) this.recorder.commits(comp.id, commits - was);
    this.putCommits(comp.id, commits);
  }

  private putCommits(id: number, commits: number): void {
    // `| 0` below 2^30: a small integer (a V8 Smi) in the table's slot, not a 12-byte box for the double it came as.
    if (commits !== 1) this.commitsById.set(id, commits < 2 ** 30 ? commits | 0 : commits);
    else if (this.commitsById.size > 0) this.commitsById.delete(id);
  }

  /**
   * How often a live component rendered: 1 (its mount) until a count other than that came over — the agent holds
   * counts while nothing reads them, and most components never render again, so the table holds only the others.
   */
  commitsOf(id: number): number {
    return this.commitsById.size === 0 ? 1 : this.commitsById.get(id) ?? 1;
  }

  private string(i: number): string | null {
    return i >= 0 && i < this.strings.length && this.strings[i] !== undefined ? this.strings[i] : null;
  }

  private accumulate(comp: StoredComponent, styleMs: number, layoutMs: number, forcedMs: number, forcedN: number): void {
    const token = this.frameNo + 1;
    const c = comp.cost ?? (comp.cost = newCost(this.frameNo));
    if (c.accFrame !== token) {
      c.accFrame = token;
      c.accStyle = c.accLayout = c.accForced = c.accForcedN = 0;
      this.touched.push(comp);
    }
    c.accStyle += styleMs;
    c.accLayout += layoutMs;
    c.accForced += forcedMs;
    c.accForcedN += forcedN;
  }

  /**
   * Adds each touched component's cost to its parent's, deepest first, so every ancestor is visited once per frame
   * however many of its descendants carried cost. A parent must be shallower than its child (a hostile depth or a
   * parent cycle ends the roll-up there), and the batch's work budget bounds it.
   */
  private rollUp(): void {
    const byDepth = new Map<number, StoredComponent[]>();
    const depths = new DepthHeap();
    for (const comp of this.touched) {
      if (comp === this.page) continue;
      const list = byDepth.get(comp.depth);
      if (list) list.push(comp);
      else {
        byDepth.set(comp.depth, [comp]);
        depths.push(comp.depth);
      }
    }
    const token = this.frameNo + 1;
    for (let d = depths.pop(); d !== undefined; d = depths.pop()) {
      if (this.batchWork > this.maxBatchWork) {
        // Out of budget: this frame's ancestors keep what reached them; counted once.
        this.ignoredRecords++;
        break;
      }
      for (const comp of byDepth.get(d) ?? []) {
        const c = comp.cost as CostState;
        const parent = comp.parentId === null ? undefined : this.components.get(comp.parentId);
        if (!parent || parent.depth >= comp.depth || ++this.batchWork > this.maxBatchWork) continue;
        const fresh = parent.cost === null || parent.cost.accFrame !== token;
        this.accumulate(parent, c.accStyle, c.accLayout, c.accForced, c.accForcedN);
        if (!fresh) continue;
        const list = byDepth.get(parent.depth);
        if (list) list.push(parent);
        else {
          byDepth.set(parent.depth, [parent]);
          depths.push(parent.depth);
        }
      }
    }
  }

  private endFrame(frameNo: number, styleMs: number, layoutMs: number, forcedMs: number, startMs: number): void {
    this.rollUp();
    const token = this.frameNo + 1;
    this.frameNo = Math.max(this.frameNo + 1, frameNo);
    const f = this.frames;
    f.count++;
    f.styleMsTotal += styleMs;
    f.layoutMsTotal += layoutMs;
    f.forcedMsTotal += forcedMs;
    const bucket = Math.floor(this.now() / SPARKLINE_BUCKET_MS);
    for (const comp of this.touched) {
      const c = comp.cost;
      if (c === null) continue;
      if (c.accFrame === token) {
        this.touch(comp, c, c.accStyle, c.accLayout, c.accForced, bucket);
        this.recorder?.inclusive(comp.id, c.accStyle, c.accLayout, c.accForced, c.accForcedN);
      }
      c.accFrame = -1;
    }
    this.touched.length = 0;
    this.recorder?.endFrame(this.frameNo, startMs, styleMs, layoutMs, forcedMs);
  }

  /** Folds this frame's values into a component's EMAs, last-frame values and sparkline. */
  private touch(comp: StoredComponent, c: CostState, styleMs: number, layoutMs: number, forcedMs: number, bucket: number): void {
    this.decayTo(comp, this.frameNo - 1);
    c.style = c.style * KEEP + styleMs * EMA_ALPHA;
    c.layout = c.layout * KEEP + layoutMs * EMA_ALPHA;
    c.forced = c.forced * KEEP + forcedMs * EMA_ALPHA;
    c.emaFrame = this.frameNo;
    c.lastStyleMs = styleMs;
    c.lastLayoutMs = layoutMs;
    c.lastForcedMs = forcedMs;
    c.lastFrame = this.frameNo;
    if (c.spark === null) {
      // A sparkline buffer only once there is something it could show: the
      // meter's log scale (0 → 33 ms over 14 px) draws nothing below this.
      if (layoutMs < SPARK_MIN_MS) return;
      c.spark = new Float32Array(SPARKLINE_BUCKETS);
      c.sparkBucket = bucket;
    }
    c.sparkBucket = advanceSparkline(c.spark, c.sparkBucket, bucket);
    const slot = bucket % SPARKLINE_BUCKETS;
    if (layoutMs > c.spark[slot]) c.spark[slot] = layoutMs;
  }

  /** Applies the frames a component sat out up to `frame` (each contributed 0). */
  private decayTo(comp: StoredComponent, frame: number): void {
    const c = comp.cost;
    if (c === null) return;
    const skipped = frame - c.emaFrame;
    if (skipped > 0) {
      const k = skipped > 200 ? 0 : KEEP ** skipped;
      c.style *= k;
      c.layout *= k;
      c.forced *= k;
      c.emaFrame = frame;
    }
  }

  /** Decays a component's EMAs to the latest frame in place (what the overlay reads before it draws; no allocation). */
  decay(comp: StoredComponent): void {
    this.decayTo(comp, this.frameNo);
  }

  /** Current EMAs (decayed to the latest frame) — what the overlay and snapshot show. */
  ema(comp: StoredComponent): { styleMs: number; layoutMs: number; forcedMs: number; lastFrameMs: number } {
    this.decayTo(comp, this.frameNo);
    const c = comp.cost;
    if (c === null) return { styleMs: 0, layoutMs: 0, forcedMs: 0, lastFrameMs: 0 };
    const last = c.lastFrame === this.frameNo;
    return {
      styleMs: c.style, layoutMs: comp.layout, forcedMs: c.forced,
      lastFrameMs: last ? Math.min(MAX_MS, c.lastStyleMs + c.lastLayoutMs + c.lastForcedMs) : 0,
    };
  }

  /**
   * Advances a component's sparkline ring to now (quiet buckets become 0) and returns the current bucket number, or
   * undefined when it has none. The store owns the ring; the overlay reads it after this.
   */
  advanceSparkline(comp: StoredComponent): number | undefined {
    const c = comp.cost;
    if (c === null || c.spark === null) return undefined;
    const bucket = Math.floor(this.now() / SPARKLINE_BUCKET_MS);
    c.sparkBucket = advanceSparkline(c.spark, c.sparkBucket, bucket);
    return bucket;
  }

  /** The sparkline, oldest bucket first, advanced to now (quiet buckets are 0). */
  sparkline(comp: StoredComponent): number[] {
    const c = comp.cost;
    if (c === null || c.spark === null) return new Array<number>(SPARKLINE_BUCKETS).fill(0);
    const bucket = Math.floor(this.now() / SPARKLINE_BUCKET_MS);
    c.sparkBucket = advanceSparkline(c.spark, c.sparkBucket, bucket);
    const out = new Array<number>(SPARKLINE_BUCKETS);
    for (let i = 0; i < SPARKLINE_BUCKETS; i++) out[i] = c.spark[(bucket + 1 + i) % SPARKLINE_BUCKETS];
    return out;
  }

  /** A component's key (null: none, unknown, or held in the page's world while nothing shows keys). */
  keyOf(id: number): string | null {
    return this.keyById.size === 0 ? null : this.keyById.get(id) ?? null;
  }

  row(c: StoredComponent): ComponentRow {
    const e = this.ema(c);
    const src = this.sources;
    const n = src ? src.nameOf(c.typeId, c.name) : { name: c.name, minifiedName: null };
    const row: ComponentRow = {
      id: c.id, name: n.name, parentId: c.parentId, depth: c.depth, key: this.keyOf(c.id), styleMs: e.styleMs,
      layoutMs: e.layoutMs, forcedMs: e.forcedMs, lastFrameMs: e.lastFrameMs, authored: c.authored,
      rendered: c.rendered, portaledIn: c.portaledIn, commits: this.commitsOf(c.id), source: src ? src.rowSource(c.typeId) : null,
      minifiedName: n.minifiedName, kind: src ? src.kindOf(c.typeId) : 'own',
    };
    // Only while it is so (a few seconds at most): not a field of every row the panel is sent. A type being placed
    // (typed, not located): the located answer's new version sends the panel a whole table that clears it. Not a
    // component still untyped: its typing changes only its row's values, which would never clear the flag.
    if (src !== null && c.typeId !== 0 && src.placing(c.typeId)) row.placing = true;
    return row;
  }

  /** `meterAt`: where the overlay drew each component's meter (the overlay's, not the store's, to know). */
  snapshot(meterAt: (id: number) => { x: number; y: number } | null = () => null, self: SelfCost | null = null,
    vitals: Vitals = NO_VITALS): Snapshot {
    const pe = this.ema(this.page);
    const components: Snapshot['components'] = [];
    for (const c of this.components.values()) {
      const row = this.row(c);
      // Drawn: the overlay placed a meter for it (the overlay keeps its own drawn set).
      const at = meterAt(c.id);
      components.push({
        id: row.id, name: row.name, parentId: row.parentId, depth: row.depth, key: row.key,
        bounds: c.bounds ? { ...c.bounds } : null, authored: row.authored, rendered: row.rendered, portaledIn: row.portaledIn,
        styleMs: row.styleMs, layoutMs: row.layoutMs, forcedMs: row.forcedMs, lastFrameMs: row.lastFrameMs,
        commits: row.commits, sparkline: this.sparkline(c), drawn: at !== null, layer: c.layer, meterAt: at,
        dirtiedBy: this.dirtiedOf(c.id),
        source: row.source ? { file: row.source.file, line: row.source.line, column: row.source.column } : null,
        ...(row.minifiedName ? { minifiedName: row.minifiedName } : {}),
        kind: row.kind ?? 'own',
      });
    }
    return {
      time: Date.now(),
      frames: { ...this.frames },
      droppedEvents: this.droppedEvents,
      page: { styleMs: pe.styleMs, layoutMs: pe.layoutMs, forcedMs: pe.forcedMs },
      occluders: this.occluders.map((o) => ({ ...o })),
      components,
      self: self ? { ...self } : null,
      interactions: vitals.interactions, inp: vitals.inp, shifts: vitals.shifts, cls: vitals.cls,
    };
  }
}

function validId(v: number): boolean {
  return Number.isInteger(v) && v > 0 && v < 2 ** 31;
}
/** A whole count in [0, max] (the worker's validator's range): anything else from the page is clamped. */
function whole(v: number, max: number): number {
  return Number.isFinite(v) && v > 0 ? Math.min(Math.floor(v), max) : 0;
}
/** Milliseconds in [0, MAX_MS]. */
function msValue(v: number): number {
  return Number.isFinite(v) && v > 0 ? Math.min(v, MAX_MS) : 0;
}

/** A max-heap of depths (distinct values pushed once each). */
class DepthHeap {
  private readonly a: number[] = [];
  push(v: number): void {
    const a = this.a;
    a.push(v);
    for (let i = a.length - 1; i > 0;) {
      const p = (i - 1) >> 1;
      if (a[p] >= a[i]) break;
      [a[p], a[i]] = [a[i], a[p]];
      i = p;
    }
  }
  pop(): number | undefined {
    const a = this.a;
    if (a.length === 0) return undefined;
    const top = a[0];
    const last = a.pop() as number;
    if (a.length > 0) {
      a[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < a.length && a[l] > a[m]) m = l;
        if (r < a.length && a[r] > a[m]) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i], a[m]];
        i = m;
      }
    }
    return top;
  }
}
