/**
 * Interactions from Event Timing (issue 46, docs/VITALS.md): each interaction's latency and phases as the web-vitals
 * library's attribution build defines them, the component owning its target, and the style, layout and forced-reflow
 * ms of the frames between the input and the next paint, split per component by the frame log's attribution. INP as
 * web-vitals computes it: the ten longest interactions kept, the worst one, or past 50 interactions the one at
 * `floor(count / 50)` (the 98th percentile). Pure but for the lookups it is given.
 */
import {
  MAX_INTERACTION_COMPONENTS, MAX_INTERACTIONS, type ComponentRef, type Interaction, type InteractionComponent,
} from '../../../protocol/vitals';
import type { FrameLog } from './frame-log';

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

interface Group {
  renderTime: number;
  processingStart: number;
  processingEnd: number;
}

interface Tracked {
  /** The longest entry (its duration is the interaction's latency) and its target. */
  entry: EventEntry;
  target: Node | null;
  /** The earliest input and the latest paint of all its entries: its frames lie between (a key's keyup can be the longest). */
  from: number;
  to: number;
  /** Null until built. */
  record: Interaction | null;
}

export function interactionType(name: string): 'pointer' | 'keyboard' {
  return name.startsWith('key') || name.startsWith('composition') || name === 'input' ? 'keyboard' : 'pointer';
}

export class InteractionBook {
  private readonly groups: Group[] = [];
  private readonly tracked = new Map<number, Tracked>();
  /** Kept interactions, oldest first (the list the snapshot shows). */
  readonly list: Interaction[] = [];
  /** The longest interactions, longest first: [id, latency]. */
  private longest: [number, number][] = [];

  /** Folds new entries in (cheap: grouping and the longest entry per interaction); returns the interactions touched. */
  note(entries: readonly EventEntry[], touched: Set<number>): void {
    for (const e of entries) {
      this.group(e);
      if (!(e.interactionId > 0)) continue;
      const t = this.tracked.get(e.interactionId);
      if (t === undefined) {
        this.tracked.set(e.interactionId, { entry: e, target: e.target, record: null, from: e.startTime, to: e.startTime + e.duration });
      } else {
        t.from = Math.min(t.from, e.startTime);
        t.to = Math.max(t.to, e.startTime + e.duration);
        if (t.target === null && e.target !== null) t.target = e.target;
        if (e.duration > t.entry.duration) {
          t.entry = e;
          if (e.target !== null) t.target = e.target;
        }
      }
      touched.add(e.interactionId);
    }
  }

  /** (Re)builds the touched interactions' records against the frame log; returns them (the kept ones). */
  build(touched: ReadonlySet<number>, log: FrameLog, lookup: VitalsLookup): Interaction[] {
    const out: Interaction[] = [];
    for (const id of touched) {
      const t = this.tracked.get(id);
      if (t === undefined) continue;
      const fresh = t.record === null;
      this.noteLatency(id, t.entry.duration);
      t.record = this.record(id, t, log, lookup, t.record);
      if (fresh) this.list.push(t.record);
      out.push(t.record);
    }
    this.trim();
    return out.filter((r) => this.tracked.has(r.id));
  }

  /** Both steps at once (tests). */
  add(entries: readonly EventEntry[], log: FrameLog, lookup: VitalsLookup): boolean {
    const touched = new Set<number>();
    this.note(entries, touched);
    return this.build(touched, log, lookup).length > 0;
  }

  /** INP as web-vitals computes it, over `count` interactions (null before any). */
  inp(count: number): { value: number; interactionId: number } | null {
    if (this.longest.length === 0) return null;
    const [id, latency] = this.longest[Math.min(this.longest.length - 1, Math.floor(count / 50))];
    return { value: latency, interactionId: id };
  }

  clear(): void {
    this.groups.length = 0;
    this.tracked.clear();
    this.list.length = 0;
    this.longest = [];
  }

  private group(e: EventEntry): void {
    const renderTime = e.startTime + e.duration;
    for (let i = this.groups.length - 1; i >= 0; i--) {
      const g = this.groups[i];
      if (Math.abs(renderTime - g.renderTime) <= SAME_PAINT_MS) {
        g.processingStart = Math.min(g.processingStart, e.processingStart);
        g.processingEnd = Math.max(g.processingEnd, e.processingEnd);
        return;
      }
    }
    this.groups.push({ renderTime, processingStart: e.processingStart, processingEnd: e.processingEnd });
    if (this.groups.length > MAX_GROUPS) this.groups.shift();
  }

  private groupOf(e: EventEntry): Group | null {
    const renderTime = e.startTime + e.duration;
    for (let i = this.groups.length - 1; i >= 0; i--) if (Math.abs(renderTime - this.groups[i].renderTime) <= SAME_PAINT_MS) return this.groups[i];
    return null;
  }

  private record(id: number, t: Tracked, log: FrameLog, lookup: VitalsLookup, into: Interaction | null): Interaction {
    const e = t.entry;
    const processingStart = e.processingStart;
    const nextPaint = Math.max(e.startTime + e.duration, processingStart);
    const processingEnd = Math.min(this.groupOf(e)?.processingEnd ?? e.processingEnd, nextPaint);
    const frames = log.between(Math.min(t.from, e.startTime), Math.max(t.to, nextPaint) + PAINT_SLACK_MS);
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
    const owner = t.target !== null && t.target.isConnected ? lookup.ownerOf(t.target) : 0;
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

  /** Keeps the newest MAX_INTERACTIONS, and always the INP candidates' records. */
  private trim(): void {
    if (this.list.length <= MAX_INTERACTIONS) return;
    const keep = new Set(this.longest.map(([id]) => id));
    while (this.list.length > MAX_INTERACTIONS) {
      const i = this.list.findIndex((r) => !keep.has(r.id));
      const [gone] = this.list.splice(i >= 0 ? i : 0, 1);
      this.tracked.delete(gone.id);
    }
  }
}

export function clip(name: string): string {
  return name.length > 200 ? `${name.slice(0, 199)}…` : name;
}
