/**
 * Interactions from Event Timing (issue 46, docs/VITALS.md): each interaction's latency and phases as the web-vitals
 * library's attribution build defines them, the component owning its target, and the style, layout and forced-reflow
 * ms of the frames between the input and the next paint, split per component by the frame log's attribution. INP as
 * web-vitals computes it: the ten longest interactions kept, the worst one, or past 50 interactions the one at
 * `floor(count / 50)` (the 98th percentile). Pure but for the lookups it is given.
 *
 * Three steps, so that an interaction costs little until something reads it: `note` folds entries in as they come,
 * `settle` keeps what its record will need (its frames and long frames, its latency for INP) once its entries are in,
 * and `build` makes the records of those settled since they were last built, only when a reader wants them.
 */
import {
  MAX_INTERACTION_COMPONENTS, MAX_INTERACTIONS, type ComponentRef, type Interaction, type InteractionComponent,
} from '../../../protocol/vitals';
import type { FrameLog, LoggedFrame } from './frame-log';
import { scriptsOf, type LoafEntry, type LoafLog } from './loafs';

/** The fields of a PerformanceEventTiming we read. */
export interface EventEntry {
  name: string;
  entryType: string;
  interactionId: number;
  startTime: number;
  duration: number;
  processingStart: number;
  processingEnd: number;
  target: Node | null;
}

export interface VitalsLookup {
  /** The component owning a node (0: none). */
  ownerOf(node: Node): number;
  nameOf(id: number): string;
}

/** Entries whose paints fall within this many ms are one group (they share a frame): web-vitals' rule. */
const SAME_PAINT_MS = 8;
/** Frames measured this long after the reported paint still count (Event Timing rounds durations to 8 ms). */
const PAINT_SLACK_MS = 8;
/** web-vitals keeps this many of the longest interactions as INP candidates. */
const INP_CANDIDATES = 10;
const MAX_GROUPS = 100;
/** Entries waiting to be grouped (a read groups them): beyond this many, the oldest are dropped unread. */
const MAX_UNGROUPED = 500;

interface Group {
  renderTime: number;
  processingStart: number;
  processingEnd: number;
}

interface Tracked {
  /**
   * The longest entry (its duration is the interaction's latency) and the first: the target is read from them when
   * the record is built (the browser's getter makes the node's wrapper; it gives null for a node no longer in the
   * document, which the record could not name anyway).
   */
  entry: EventEntry;
  first: EventEntry;
  /** The longest entry's duration and start, as read when it came (each of the browser's getters is a call). */
  latency: number;
  start: number;
  /** The earliest input and the latest paint of all its entries: its frames lie between (a key's keyup can be the longest). */
  from: number;
  to: number;
  /** The logged frames between its input and its paint, and the long frames overlapping it: kept when it settles. */
  frames: LoggedFrame[];
  loafs: LoafEntry[];
  /** Settled since it was last built (or never built). */
  stale: boolean;
  /** Null until built. */
  record: Interaction | null;
}

export function interactionType(name: string): 'pointer' | 'keyboard' {
  return name.startsWith('key') || name.startsWith('composition') || name === 'input' ? 'keyboard' : 'pointer';
}

export class InteractionBook {
  private readonly groups: Group[] = [];
  /** Entries not grouped yet, in the order they came: grouping reads four of each one's fields, so a read does it. */
  private ungrouped: EventEntry[] = [];
  private readonly tracked = new Map<number, Tracked>();
  /** Kept interactions' ids, oldest first (the list the snapshot shows). */
  private readonly kept: number[] = [];
  /** The longest interactions, longest first: [id, latency]. */
  private longest: [number, number][] = [];

  /** Folds new entries in (cheap: grouping and the longest entry per interaction); returns the interactions touched. */
  note(entries: readonly EventEntry[], touched: Set<number>): void {
    // Each of the browser's fields is a getter: read once, and only what INP needs (a read groups the entries).
    for (const e of entries) {
      this.ungrouped.push(e);
      const id = e.interactionId;
      if (!(id > 0)) continue;
      const start = e.startTime, duration = e.duration;
      const t = this.tracked.get(id);
      if (t === undefined) {
        this.tracked.set(id, {
          entry: e, first: e, latency: duration, start, record: null, from: start, to: start + duration, frames: [], loafs: [], stale: false,
        });
      } else {
        if (start < t.from) t.from = start;
        if (start + duration > t.to) t.to = start + duration;
        if (duration > t.latency) {
          t.entry = e;
          t.latency = duration;
          t.start = start;
        }
      }
      touched.add(id);
    }
    if (this.ungrouped.length > MAX_UNGROUPED) this.ungrouped = this.ungrouped.slice(-MAX_UNGROUPED / 2);
  }

  /**
   * The touched interactions' entries are in: keeps their latency (INP), their frames and their long frames (the logs
   * forget them in a few seconds) for `build`. Returns how many were new.
   */
  settle(touched: ReadonlySet<number>, log: FrameLog, loafs: LoafLog | null): number {
    let fresh = 0;
    for (const id of touched) {
      const t = this.tracked.get(id);
      if (t === undefined) continue;
      if (!t.stale && t.record === null) {
        this.kept.push(id);
        fresh++;
      }
      this.noteLatency(id, t.latency);
      const nextPaint = Math.max(t.start + t.latency, t.entry.processingStart);
      t.frames = log.between(Math.min(t.from, t.start), Math.max(t.to, nextPaint) + PAINT_SLACK_MS);
      t.loafs = loafs?.overlapping(t.start, t.start + t.latency) ?? [];
      t.stale = true;
      this.anyStale = true;
    }
    // Trimmed in bulk here (a read trims exactly): a shift of the list per interaction is work for nothing.
    if (this.kept.length > 2 * MAX_INTERACTIONS) this.trim();
    return fresh;
  }

  /** Builds the records of the kept interactions settled since they were last built; returns them. */
  build(lookup: VitalsLookup): Interaction[] {
    this.trim();
    for (const e of this.ungrouped) this.group(e.startTime + e.duration, e.processingStart, e.processingEnd);
    this.ungrouped = [];
    const out: Interaction[] = [];
    for (const id of this.kept) {
      const t = this.tracked.get(id);
      if (t === undefined || !t.stale) continue;
      t.stale = false;
      t.record = this.record(id, t, lookup, t.record);
      t.record.scripts = scriptsOf(t.loafs);
      out.push(t.record);
    }
    this.anyStale = false;
    return out;
  }

  /**
   * Whether a settled interaction waits to be built (asked at every records batch while something reads them): set by
   * `settle`, cleared by `build`, which builds every kept one settled (one trimmed away is gone from `tracked` too).
   */
  get stale(): boolean {
    return this.anyStale;
  }

  private anyStale = false;

  /** The kept interactions built so far, oldest first. */
  get list(): Interaction[] {
    this.trim();
    const out: Interaction[] = [];
    for (const id of this.kept) {
      const r = this.tracked.get(id)?.record;
      if (r) out.push(r);
    }
    return out;
  }

  /** All three steps at once (tests). */
  add(entries: readonly EventEntry[], log: FrameLog, lookup: VitalsLookup): boolean {
    const touched = new Set<number>();
    this.note(entries, touched);
    this.settle(touched, log, null);
    return this.build(lookup).length > 0;
  }

  /** INP as web-vitals computes it, over `count` interactions (null before any). */
  inp(count: number): { value: number; interactionId: number } | null {
    if (this.longest.length === 0) return null;
    const [id, latency] = this.longest[Math.min(this.longest.length - 1, Math.floor(count / 50))];
    return { value: latency, interactionId: id };
  }

  clear(): void {
    this.groups.length = 0;
    this.ungrouped = [];
    this.tracked.clear();
    this.kept.length = 0;
    this.anyStale = false;
    this.longest = [];
  }

  private group(renderTime: number, processingStart: number, processingEnd: number): void {
    for (let i = this.groups.length - 1; i >= 0; i--) {
      const g = this.groups[i];
      if (Math.abs(renderTime - g.renderTime) <= SAME_PAINT_MS) {
        if (processingStart < g.processingStart) g.processingStart = processingStart;
        if (processingEnd > g.processingEnd) g.processingEnd = processingEnd;
        return;
      }
    }
    this.groups.push({ renderTime, processingStart, processingEnd });
    if (this.groups.length > MAX_GROUPS) this.groups.shift();
  }

  private groupOf(e: EventEntry): Group | null {
    const renderTime = e.startTime + e.duration;
    for (let i = this.groups.length - 1; i >= 0; i--) if (Math.abs(renderTime - this.groups[i].renderTime) <= SAME_PAINT_MS) return this.groups[i];
    return null;
  }

  private record(id: number, t: Tracked, lookup: VitalsLookup, into: Interaction | null): Interaction {
    const e = t.entry;
    const processingStart = e.processingStart;
    const nextPaint = Math.max(e.startTime + e.duration, processingStart);
    const processingEnd = Math.min(this.groupOf(e)?.processingEnd ?? e.processingEnd, nextPaint);
    const frames = t.frames;
    let styleMs = 0, layoutMs = 0, forcedMs = 0;
    const per = new Map<number, InteractionComponent>();
    const row = (cid: number): InteractionComponent => {
      let c = per.get(cid);
      if (c === undefined) {
        c = { id: cid, name: '', styleMs: 0, layoutMs: 0, forcedMs: 0, renders: 0 };
        per.set(cid, c);
      }
      return c;
    };
    for (const f of frames) {
      styleMs += f.styleMs;
      layoutMs += f.layoutMs;
      forcedMs += f.forcedMs;
      const s = f.shares;
      for (let i = 0; i < s.length; i += 4) {
        const c = row(s[i]);
        c.styleMs += s[i + 1];
        c.layoutMs += s[i + 2];
        c.forcedMs += s[i + 3];
      }
      for (const r of f.renders) row(r).renders++;
    }
    const components = [...per.values()]
      .sort((a, b) => b.layoutMs + b.forcedMs + b.styleMs - (a.layoutMs + a.forcedMs + a.styleMs) || b.renders - a.renders)
      .slice(0, MAX_INTERACTION_COMPONENTS);
    for (const c of components) c.name = clip(lookup.nameOf(c.id));
    const node = e.target ?? t.first.target;
    const owner = node !== null && node.isConnected ? lookup.ownerOf(node) : 0;
    const target: ComponentRef | null = owner > 0 ? { id: owner, name: clip(lookup.nameOf(owner)) } : into?.target ?? null;
    const r: Interaction = {
      id, type: interactionType(e.name), target, start: e.startTime, duration: e.duration,
      inputDelay: Math.max(0, processingStart - e.startTime), processing: Math.max(0, processingEnd - processingStart),
      presentationDelay: Math.max(0, nextPaint - processingEnd), styleMs, layoutMs, forcedMs, components,
    };
    if (into === null) return r;
    Object.assign(into, r);
    return into;
  }

  /** Keeps the INP candidates sorted, longest first, by insertion (at most INP_CANDIDATES). */
  private noteLatency(id: number, latency: number): void {
    const l = this.longest;
    let at = -1;
    for (let i = 0; i < l.length; i++) if (l[i][0] === id) at = i;
    if (at >= 0) {
      if (l[at][1] >= latency) return;
      l.splice(at, 1);
    }
    let i = 0;
    while (i < l.length && l[i][1] >= latency) i++;
    if (i >= INP_CANDIDATES) return;
    l.splice(i, 0, [id, latency]);
    if (l.length > INP_CANDIDATES) l.length = INP_CANDIDATES;
  }

  /** Keeps the newest MAX_INTERACTIONS, and always the INP candidates'. */
  private trim(): void {
    let over = this.kept.length - MAX_INTERACTIONS;
    if (over <= 0) return;
    const keep = new Set(this.longest.map(([id]) => id));
    const left: number[] = [];
    for (const id of this.kept) {
      if (over > 0 && !keep.has(id)) {
        over--;
        this.tracked.delete(id);
      } else {
        left.push(id);
      }
    }
    this.kept.splice(0, this.kept.length, ...left);
  }
}

export function clip(name: string): string {
  return name.length > 200 ? `${name.slice(0, 199)}…` : name;
}
