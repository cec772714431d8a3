/**
 * The page agent's watch on interactions and layout shifts while the overlay is on (issue 46, docs/VITALS.md):
 * Event Timing (`event` entries from 16 ms, and `first-input`) and `layout-shift` entries, and font swaps and image
 * loads (which lay the page out again) for the shifts' causes. Entries are noted as they come; the interactions they
 * touched are built against the frame log a little later (an interaction's entries come in two or three batches), and
 * what changed is handed to the content agent (a delta, protocol/vitals.ts `mergeVitals`). All of it is timed: our own
 * cost per interaction and per shift (`stats()`). Nothing is observed while off.
 */
import type { VitalsDelta } from '../../../protocol/vitals';
import { FrameLog } from './frame-log';
import { InteractionBook, type EventEntry } from './interactions';
import { LoafLog, type LoafEntry } from './loafs';
import { ShiftBook, unquote, type ShiftEntry, type ShiftLookup } from './shifts';

/** Event Timing reports interactions of at least this many ms (the smallest it allows), as the reference does. */
export const DURATION_THRESHOLD_MS = 16;
/** The inputs an interaction begins with (Event Timing's interactions: taps, clicks, keys). */
const INPUTS = ['pointerdown', 'keydown'] as const;
/** Renders are logged this long after an input (frame-log.ts `inputRecent`). */
const INPUT_WINDOW_MS = 1000;
/** Interactions touched are built and handed over this long after their first entry came. */
const SETTLE_MS = 100;

export interface VitalsHost extends ShiftLookup {
  now(): number;
  /** Runs a callback of ours (the self clock and the page's built-ins back in place). */
  run(fn: () => void): void;
  post(v: VitalsDelta): void;
  degrade(reason: string): void;
  /** Something changed the page's layout: measure the next frame. */
  markDirty(): void;
  debug(what: string, e: unknown): void;
}

export class VitalsObserver {
  readonly log = new FrameLog();
  readonly interactions = new InteractionBook();
  readonly shifts = new ShiftBook();
  /** Long Animation Frames (Chrome), whose scripts a slow interaction names. */
  readonly loafs = new LoafLog();
  private observers: PerformanceObserver[] = [];
  private win: (Window & typeof globalThis) | null = null;
  private countAtStart = 0;
  /** Interactions seen, where the browser has no `performance.interactionCount`. */
  private seen = 0;
  /** Our own time: in all (ms), interactions and shifts handed over, and the most one hand-over took per item. */
  ownMs = 0;
  handled = 0;
  maxMs = 0;
  private readonly touched = new Set<number>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  /** An image or a font arriving lays the page out again: that frame is measured (and logged) like any other. */
  private readonly onLoad = (e: Event): void => this.guard('vitals: load', () => {
    const t = e.target as Element | null;
    if (t !== null && typeof t === 'object' && t.tagName === 'IMG') this.host.markDirty();
  });

  /** An input: renders are logged for the next second (frame-log.ts `inputRecent`). */
  private readonly onInput = (): void => this.guard('vitals: input', () => {
    this.log.inputRecent = true;
    if (this.inputTimer !== null) clearTimeout(this.inputTimer);
    this.inputTimer = setTimeout(() => {
      this.inputTimer = null;
      this.log.inputRecent = false;
    }, INPUT_WINDOW_MS);
  });

  private inputTimer: ReturnType<typeof setTimeout> | null = null;

  private readonly onFont = (e: Event): void => this.guard('vitals: font', () => {
    // FontFaceSetLoadEvent: the faces that loaded; their families name the text that was laid out again.
    const faces = (e as Event & { fontfaces?: readonly { family?: unknown }[] }).fontfaces;
    const families: string[] = [];
    if (Array.isArray(faces)) {
      for (const f of faces.slice(0, 8)) if (typeof f?.family === 'string') families.push(unquote(f.family).slice(0, 100));
    }
    this.log.fontSwapped(families);
    this.host.markDirty();
  });

  constructor(private readonly host: VitalsHost) {}

  /** A listener of ours: run as ours, and nothing thrown into the page's event dispatch. */
  private guard(what: string, fn: () => void): void {
    try {
      this.host.run(fn);
    } catch (e) {
      this.host.debug(what, e);
    }
  }

  start(win: Window & typeof globalThis): void {
    if (this.win !== null) return;
    this.win = win;
    this.clear();
    const PO = win.PerformanceObserver;
    const types: readonly string[] = typeof PO === 'function' ? PO.supportedEntryTypes ?? [] : [];
    const hasInteractions = types.includes('event') && typeof win.PerformanceEventTiming === 'function'
      && 'interactionId' in win.PerformanceEventTiming.prototype;
    if (hasInteractions) {
      const po = new PO((list) => this.guard('vitals: events', () => this.onEvents(list.getEntries() as unknown as EventEntry[])));
      po.observe({ type: 'event', durationThreshold: DURATION_THRESHOLD_MS, buffered: false } as PerformanceObserverInit);
      for (const type of INPUTS) win.addEventListener(type, this.onInput, { capture: true, passive: true });
      if (types.includes('first-input')) po.observe({ type: 'first-input', buffered: false });
      this.observers.push(po);
      if (types.includes('long-animation-frame')) {
        const lo = new PO((list) => this.guard('vitals: loafs', () => this.loafs.note(list.getEntries() as unknown as LoafEntry[])));
        lo.observe({ type: 'long-animation-frame', buffered: false });
        this.observers.push(lo);
      }
      const count = (win.performance as Performance & { interactionCount?: number }).interactionCount;
      this.countAtStart = typeof count === 'number' ? count : 0;
    } else {
      this.host.degrade('this browser reports no interactions (Event Timing with interactionId): no Interactions, no INP');
    }
    if (types.includes('layout-shift')) {
      const po = new PO((list) => this.guard('vitals: shifts', () => this.onShifts(list.getEntries() as unknown as ShiftEntry[])));
      po.observe({ type: 'layout-shift', buffered: false });
      this.observers.push(po);
      win.addEventListener('load', this.onLoad, { capture: true, passive: true });
      win.document.fonts?.addEventListener?.('loadingdone', this.onFont);
    } else {
      this.host.degrade('this browser reports no layout shifts (no layout-shift entries): no Layout shifts, no CLS');
    }
    this.log.on = this.observers.length > 0;
  }

  stop(): void {
    for (const po of this.observers) po.disconnect();
    this.observers = [];
    if (this.inputTimer !== null) clearTimeout(this.inputTimer);
    this.inputTimer = null;
    this.log.inputRecent = false;
    if (this.win !== null) {
      for (const type of INPUTS) this.win.removeEventListener(type, this.onInput, { capture: true });
      this.win.removeEventListener('load', this.onLoad, { capture: true });
      this.win.document.fonts?.removeEventListener?.('loadingdone', this.onFont);
    }
    this.win = null;
    this.log.on = false;
    this.clear();
  }

  private interactionCount(): number {
    const count = (this.win?.performance as (Performance & { interactionCount?: number }) | undefined)?.interactionCount;
    return typeof count === 'number' ? Math.max(0, count - this.countAtStart) : this.seen;
  }

  private onEvents(entries: EventEntry[]): void {
    const t0 = this.host.now();
    try {
      const before = this.touched.size;
      this.interactions.note(entries, this.touched);
      if (this.touched.size > before) this.schedule();
    } catch (e) {
      this.host.debug('vitals: events', e);
    }
    this.ownMs += this.host.now() - t0;
  }

  private onShifts(entries: ShiftEntry[]): void {
    const t0 = this.host.now();
    try {
      // Their causes are looked for at the flush: the frame that holds what moved them may not be logged yet.
      if (this.shifts.note(entries)) this.schedule();
    } catch (e) {
      this.host.debug('vitals: shifts', e);
    }
    this.ownMs += this.host.now() - t0;
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.host.run(() => this.flush());
    }, SETTLE_MS);
  }

  /** Builds what the entries touched and hands it over. */
  private flush(): void {
    if (this.win === null) return;
    const t0 = this.host.now();
    try {
      const built = this.interactions.build(this.touched, this.log, this.host);
      for (const i of built) i.scripts = this.loafs.scriptsIn(i.start, i.start + i.duration);
      const fresh = built.filter((r) => !this.sentIds.has(r.id)).length;
      for (const r of built) this.sentIds.add(r.id);
      this.seen += fresh;
      this.touched.clear();
      const shifts = this.shifts.resolve(this.log, this.host).map((x) => ({ ...x, shifted: x.shifted.map((c) => ({ ...c })), cause: x.cause && { ...x.cause } }));
      this.host.post({
        interactions: built.map((i) => ({
          ...i, target: i.target && { ...i.target }, components: i.components.map((c) => ({ ...c })), scripts: i.scripts ?? [],
        })),
        inp: this.interactions.inp(this.interactionCount()),
        shifts,
        cls: this.shifts.cls,
      });
      const n = built.length + shifts.length;
      const ms = this.host.now() - t0;
      this.handled += n;
      if (n > 0) this.maxMs = Math.max(this.maxMs, ms / n);
    } catch (e) {
      this.host.debug('vitals: flush', e);
    }
    this.ownMs += this.host.now() - t0;
  }

  /** Ids handed over already (the count of interactions where the browser has no `interactionCount`). */
  private readonly sentIds = new Set<number>();

  private clear(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.touched.clear();
    this.sentIds.clear();
    this.log.clear();
    this.interactions.clear();
    this.shifts.clear();
    this.loafs.clear();
    this.seen = 0;
  }
}
