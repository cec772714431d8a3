/**
 * The page agent's watch on interactions and layout shifts while the overlay is on (issue 46, docs/VITALS.md):
 * Event Timing (`event` entries from 16 ms, and `first-input`) and `layout-shift` entries, and font swaps and image
 * loads (which lay the page out again) for the shifts' causes. Entries are noted as they come; the interactions they
 * touched are built against the frame log a little later (an interaction's entries come in two or three batches), and
 * what changed rides to the content agent in the pipeline's next records batch (a delta, protocol/vitals.ts
 * `mergeVitals`): no timer and no post of its own. All of it is timed: our own cost per interaction and per shift
 * (`stats()`). Nothing is observed while off.
 */
import type { LayoutShift, VitalsDelta } from '../../../protocol/vitals';
import { FrameLog } from './frame-log';
import { InteractionBook, type EventEntry } from './interactions';
import { LoafLog, type LoafEntry } from './loafs';
import { ShiftBook, unquote, type ShiftEntry, type ShiftLookup } from './shifts';

/** Event Timing reports interactions of at least this many ms (the smallest it allows), as the reference does. */
export const DURATION_THRESHOLD_MS = 16;
/** The inputs an interaction begins with (Event Timing's interactions: taps, clicks, keys). */
const INPUTS = ['pointerdown', 'keydown'] as const;
/**
 * Interactions touched are settled (and built, when read) this long after their first entry came; shifts too (their
 * frames looked for: the one after a shift may not be logged when it comes) while something reads them.
 */
const SETTLE_MS = 100;
/**
 * While nothing reads them, interactions and shifts settle in bulk this long after the first came: well within what
 * the logs keep (the frame log's 240 measured frames, the long frames' 32), and one settle for a burst.
 */
const SETTLE_UNREAD_MS = 1000;

export interface VitalsHost extends ShiftLookup {
  now(): number;
  /** Runs a callback of ours (the self clock and the page's built-ins back in place). */
  run(fn: () => void): void;
  /** Hand the records over within `ms` (the pipeline's flush, which asks `take()` for what is due). */
  wake(ms: number): void;
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
  /**
   * Our own time: in all (ms), interactions (each once, however often rebuilt) and shifts handed over, and the most one
   * hand-over took per item.
   */
  ownMs = 0;
  handled = 0;
  maxMs = 0;
  /** Of ownMs: the input listener's, the observers' callbacks' and the records batches' `take` (the bench's breakdown). */
  readonly split = { input: 0, entries: 0, take: 0 };
  private readonly touched = new Set<number>();

  /** An image or a font arriving lays the page out again: that frame is measured (and logged) like any other. */
  private readonly onLoad = (e: Event): void => this.guard('vitals: load', () => {
    const t = e.target as Element | null;
    if (t !== null && typeof t === 'object' && t.tagName === 'IMG') this.host.markDirty();
  });

  /** An input: renders are logged for the next second (frame-log.ts `input`). */
  private readonly onInput = (): void => {
    // A clock read and two stores: nothing that can throw and no built-in of the page's, so no guard and no swap.
    const t0 = this.host.now();
    this.log.input(t0);
    const ms = this.host.now() - t0;
    this.ownMs += ms;
    this.split.input += ms;
  };

  private readonly onFont = (e: Event): void => this.guard('vitals: font', () => {
    // FontFaceSetLoadEvent: the faces that loaded; their families name the text that was laid out again.
    const faces = (e as Event & { fontfaces?: readonly { family?: unknown }[] }).fontfaces;
    const families: string[] = [];
    if (Array.isArray(faces)) {
      for (const f of faces.slice(0, 8)) if (typeof f?.family === 'string') families.push(unquote(f.family).slice(0, 100));
    }
    this.log.fontSwapped(families, typeof e.timeStamp === 'number' ? e.timeStamp : this.host.now());
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
      const po = new PO((list) => this.guard('vitals: events', () => this.onEvents(list)));
      po.observe({ type: 'event', durationThreshold: DURATION_THRESHOLD_MS, buffered: false } as PerformanceObserverInit);
      for (const type of INPUTS) win.addEventListener(type, this.onInput, { capture: true, passive: true });
      if (types.includes('first-input')) po.observe({ type: 'first-input', buffered: false });
      this.observers.push(po);
      if (types.includes('long-animation-frame')) {
        const lo = new PO((list) => this.guard('vitals: loafs', () => this.onLoafs(list)));
        lo.observe({ type: 'long-animation-frame', buffered: false });
        this.observers.push(lo);
      }
      const count = (win.performance as Performance & { interactionCount?: number }).interactionCount;
      this.countAtStart = typeof count === 'number' ? count : 0;
    } else {
      this.host.degrade('this browser reports no interactions (Event Timing with interactionId): no Interactions, no INP');
    }
    if (types.includes('layout-shift')) {
      const po = new PO((list) => this.guard('vitals: shifts', () => this.onShifts(list)));
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

  /** Timed from the list's read: `getEntries()` makes the entries' objects, for us. */
  private onEvents(list: PerformanceObserverEntryList): void {
    const t0 = this.host.now();
    try {
      const entries = list.getEntries() as unknown as EventEntry[];
      const before = this.touched.size;
      this.interactions.note(entries, this.touched);
      if (this.touched.size > before && this.touchedAt === null) {
        this.touchedAt = t0;
        // Settled at the pipeline's next batch after SETTLE_UNREAD_MS (one comes after every measured frame, before
        // the log could forget its frames); a batch is asked for only when something reads them.
        if (this.wantedNow) this.host.wake(SETTLE_MS);
      }
    } finally {
      this.entriesMs(t0);
    }
  }

  /** A page slow in every frame has a long frame every frame: timed too. */
  private onLoafs(list: PerformanceObserverEntryList): void {
    const t0 = this.host.now();
    try {
      this.loafs.note(list.getEntries() as unknown as LoafEntry[]);
    } finally {
      this.entriesMs(t0);
    }
  }

  /**
   * An observer's callback took from `t0` to now (what it threw, `guard` reports). Timed from inside our entry
   * (self-clock.ts): the entry's own swap, and its check for built-ins the page replaced (once a second, in whichever
   * entry of ours comes first), are the agent's, paid by its next frame when not here.
   */
  private entriesMs(t0: number): void {
    const ms = this.host.now() - t0;
    this.ownMs += ms;
    this.split.entries += ms;
  }

  private onShifts(list: PerformanceObserverEntryList): void {
    const t0 = this.host.now();
    try {
      const entries = list.getEntries() as unknown as ShiftEntry[];
      // Their frames are looked for later (the frame that holds what moved them may not be logged yet): SETTLE_MS
      // later in a batch asked for now while something reads them (a shift is outlined on the page as it happens,
      // setting flashShifts), else at the pipeline's next batch after SETTLE_UNREAD_MS.
      if (this.shifts.note(entries) && this.shiftsAt === null) {
        this.shiftsAt = t0;
        if (this.shiftsRead) this.host.wake(SETTLE_MS);
      }
    } finally {
      this.entriesMs(t0);
    }
  }

  /** When the first interaction entry not settled yet came, and the first shift not settled yet (null: none). */
  private touchedAt: number | null = null;
  private shiftsAt: number | null = null;

  /**
   * Whether something reads interactions and shifts now (a DevTools panel or a recording: the content agent's
   * `commits`). While nothing does, an interaction or a shift is only settled (its frames kept), not built: `take`
   * builds the ones waiting when a reader comes, or when an API call asks (`take(true)`).
   */
  get wanted(): boolean {
    return this.wantedNow;
  }

  set wanted(on: boolean) {
    if (on === this.wantedNow) return;
    this.wantedNow = on;
    if (on && (this.interactions.stale || this.touchedAt !== null || this.shifts.settled.length > 0 || this.shiftsAt !== null)) this.host.wake(0);
  }

  /** Whether shifts are outlined on the page as they happen (the content agent's `flash`: setting flashShifts, overlay on). */
  set flash(on: boolean) {
    if (on === this.flashNow) return;
    this.flashNow = on;
    if (on && (this.shifts.settled.length > 0 || this.shiftsAt !== null)) this.host.wake(0);
  }

  private wantedNow = false;
  private flashNow = false;

  /** Something reads shifts as they come: a panel, a recording, or the overlay's outline. */
  get shiftsRead(): boolean {
    return this.wantedNow || this.flashNow;
  }

  /**
   * What waits, for the records batch being posted (the pipeline's flush, our own time already): the interactions
   * whose entries came SETTLE_MS ago (SETTLE_UNREAD_MS while nothing reads them; at once for `force`: an API call
   * reads them next), built when something reads them; the shifts that came SETTLE_MS ago (SETTLE_UNREAD_MS while
   * nothing reads them; never sooner, even for `force`: their causes need the frames after them), their frames looked
   * for, and their moved components and causes when something reads them. Undefined when there is nothing to hand
   * over; what is not due yet waits for a later batch, asked for when something reads it.
   */
  take(force = false): VitalsDelta | undefined {
    if (this.win === null) return undefined;
    const build = force || this.wantedNow;
    const buildShifts = build || this.flashNow;
    const builds = (build && this.interactions.stale) || (buildShifts && this.shifts.settled.length > 0);
    if (this.touchedAt === null && this.shiftsAt === null && !builds) return undefined;
    const t0 = this.host.now();
    const settleIn = this.touchedAt === null || force ? 0 : (build ? SETTLE_MS : SETTLE_UNREAD_MS) - (t0 - this.touchedAt);
    const resolveIn = this.shiftsAt === null ? 0 : (buildShifts ? SETTLE_MS : SETTLE_UNREAD_MS) - (t0 - this.shiftsAt);
    if (settleIn > 0 && build) this.host.wake(settleIn);
    if (resolveIn > 0 && buildShifts) this.host.wake(resolveIn);
    const settle = this.touchedAt !== null && settleIn <= 0;
    const resolve = this.shiftsAt !== null && resolveIn <= 0;
    if (!settle && !resolve && !builds) return undefined;
    let delta: VitalsDelta | undefined;
    let n = 0;
    try {
      if (resolve) {
        this.shiftsAt = null;
        n += this.shifts.settle(this.log);
      }
      if (settle) {
        this.touchedAt = null;
        const fresh = this.interactions.settle(this.touched, this.log, this.loafs);
        this.touched.clear();
        this.seen += fresh;
        n += fresh;
      }
      const shifts: LayoutShift[] = buildShifts ? this.shifts.build(this.host) : [];
      const interactions = build ? this.interactions.build(this.host) : [];
      if (interactions.length > 0 || shifts.length > 0) {
        delta = { interactions, inp: this.interactions.inp(this.interactionCount()), shifts, cls: this.shifts.cls };
      }
    } catch (e) {
      this.host.debug('vitals: take', e);
    }
    const ms = this.host.now() - t0;
    this.ownMs += ms;
    this.split.take += ms;
    this.handled += n;
    if (n > 0) this.maxMs = Math.max(this.maxMs, ms / n);
    return delta;
  }

  private clear(): void {
    this.touchedAt = null;
    this.shiftsAt = null;
    this.touched.clear();
    this.log.clear();
    this.interactions.clear();
    this.shifts.clear();
    this.loafs.clear();
    this.seen = 0;
  }
}
