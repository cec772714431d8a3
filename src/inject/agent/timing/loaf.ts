/**
 * The outside measurement: Chrome's own Long Animation Frames (frames over
 * 50 ms) report, per script that ran over 5 ms, how long it spent in forced
 * style and layout (`forcedStyleAndLayoutDuration`). While the overlay is on
 * we sum that and, within the same scripts' time spans, what the wrappers
 * timed, so the two can be compared like for like (status `outside`).
 *
 * What Chrome leaves out (measured on Chromium 156, docs/TIMING.md): scripts
 * from extensions are never listed, and while our frame loop runs, neither
 * are the page's rAF callbacks (they run inside our native callback). So
 * the comparison covers the page's timers, event handlers and scripts, and
 * extension-origin entries are skipped.
 *
 * The same entries catch a page that keeps a native requestAnimationFrame
 * (captured from another realm): the rendering steps from `renderStart` to
 * `styleAndLayoutStart` are where rAF callbacks run; time there that is
 * neither our frame loop's callback nor a listed script is someone else's
 * rAF work, whose layout escapes the frame-end measurement.
 */
import type { SpanRing } from './span-ring';

/**
 * Unexplained time in the rAF phase of a long frame above this, and above
 * half of that phase, is reported. Lower bars fired on the StressGrid demo
 * on these loaded 2-core machines: a descheduled main thread or a GC pause
 * inside the phase looks like foreign work too.
 */
export const FOREIGN_RAF_MIN_MS = 30;
/**
 * Such long frames in a row before it is reported: a page that kept a native rAF runs it frame after frame, while a
 * main thread descheduled inside the phase (a CI machine beside a CPU hog, load 10 on two cores) made one such frame
 * now and then: two, apart, over the eight chart animations of a recharts page in one of six runs, when any two were
 * enough.
 */
export const FOREIGN_RAF_REPORT_FRAMES = 3;
/**
 * "In a row": each such frame starts within this of the previous one's end, with no other long frame between. A
 * callback that takes over 30 ms every frame leaves no idle time between its frames: 1–5 ms apart on Chromium 156, up
 * to 32 ms beside a CPU hog (docs/TIMING.md §5).
 */
export const FOREIGN_RAF_ROW_GAP_MS = 50;

/** The parts of PerformanceScriptTiming we read (all optional: the API is young). */
export interface LoafScript {
  invokerType?: string;
  sourceURL?: string;
  startTime?: number;
  duration?: number;
  forcedStyleAndLayoutDuration?: number;
}
export interface LoafEntry {
  startTime: number;
  duration: number;
  renderStart?: number;
  styleAndLayoutStart?: number;
  scripts?: readonly LoafScript[];
}

export interface LoafTotals {
  longFrames: number;
  /** Chrome's forced style+layout in the page scripts it listed. */
  forcedMs: number;
  /** What the wrappers timed as forced reflows within those scripts' spans. */
  measuredMs: number;
  /** Long frames with rAF-phase work that was neither our frame loop nor a listed script. */
  foreignRafFrames: number;
  /** The longest run of such frames in a row (FOREIGN_RAF_ROW_GAP_MS). */
  foreignRafRow: number;
  /** The run in progress: its length and where its last frame ended. */
  run: number;
  runEnd: number;
}

export function emptyTotals(): LoafTotals {
  return { longFrames: 0, forcedMs: 0, measuredMs: 0, foreignRafFrames: 0, foreignRafRow: 0, run: 0, runEnd: 0 };
}

const EXTENSION_URL = /^[a-z-]+-extension:\/\//;

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}

/**
 * Folds one long-animation-frame entry into `t`. `forced` holds the forced
 * reflows we timed, `ticks` the spans of our frame loop's native callback.
 */
export function foldEntry(t: LoafTotals, e: LoafEntry, forced: SpanRing, ticks: SpanRing, foreignSince = 0): void {
  t.longFrames++;
  const renderStart = num(e.renderStart);
  const layoutStart = num(e.styleAndLayoutStart);
  let listedInRafPhase = 0;
  for (const s of e.scripts ?? []) {
    if (typeof s.sourceURL === 'string' && EXTENSION_URL.test(s.sourceURL)) continue;
    const from = num(s.startTime);
    const dur = num(s.duration);
    t.forcedMs += num(s.forcedStyleAndLayoutDuration);
    t.measuredMs += forced.sumWithin(from, from + dur);
    if (renderStart > 0 && from >= renderStart && from <= layoutStart) listedInRafPhase += dur;
  }
  let foreign = false;
  if (renderStart > 0 && renderStart >= foreignSince && layoutStart > renderStart) {
    const phase = layoutStart - renderStart;
    const unexplained = phase - ticks.sumWithin(renderStart, layoutStart) - listedInRafPhase;
    foreign = unexplained > FOREIGN_RAF_MIN_MS && unexplained > phase / 2;
  }
  if (!foreign) {
    t.run = 0;
    return;
  }
  t.foreignRafFrames++;
  const start = num(e.startTime);
  t.run = t.run > 0 && start - t.runEnd <= FOREIGN_RAF_ROW_GAP_MS ? t.run + 1 : 1;
  t.runEnd = start + num(e.duration);
  if (t.run > t.foreignRafRow) t.foreignRafRow = t.run;
}

/** Observes long animation frames while the overlay is on. */
export class LoafObserver {
  private observer: PerformanceObserver | null = null;
  totals: LoafTotals = emptyTotals();
  /**
   * The foreign-rAF check starts with our first tick: until then the page's
   * callbacks queued natively while off legitimately run outside the loop.
   */
  foreignSince = Infinity;

  constructor(
    private readonly forced: SpanRing,
    private readonly ticks: SpanRing,
    private readonly onUpdate: (totals: LoafTotals) => void,
    private readonly report: (e: unknown) => void,
  ) {}

  /** False when this browser has no Long Animation Frames. */
  start(win: Window & typeof globalThis): boolean {
    if (this.observer) return true;
    const PO = win.PerformanceObserver;
    if (typeof PO !== 'function' || !(PO.supportedEntryTypes ?? []).includes('long-animation-frame')) return false;
    this.totals = emptyTotals();
    this.foreignSince = Infinity;
    this.observer = new PO((list) => this.handle(list.getEntries() as unknown as LoafEntry[]));
    this.observer.observe({ type: 'long-animation-frame', buffered: false });
    return true;
  }

  stop(): void {
    this.observer?.disconnect();
    this.observer = null;
  }

  private handle(entries: readonly LoafEntry[]): void {
    try {
      let any = false;
      for (const e of entries) {
        foldEntry(this.totals, e, this.forced, this.ticks, this.foreignSince);
        any = true;
      }
      if (any) this.onUpdate(this.totals);
    } catch (e) {
      this.report(e);
    }
  }
}
