/**
 * The outside measurement: Chrome's own Long Animation Frames (frames over
 * 50 ms) report, per script that ran over 5 ms, how long it spent in forced
 * style and layout (`forcedStyleAndLayoutDuration`). While the overlay is on
 * we sum that and, for the same frames, what the wrappers timed, so the two
 * can be compared (status `outside`). Two corrections keep the comparison
 * honest:
 * - our frame loop's own native callback shows up as a script whose forced
 *   style/layout includes the frame-end flush we do on purpose; the frame-end
 *   spans we recorded inside it are subtracted;
 * - a requestAnimationFrame callback from page code that is not our frame
 *   loop means the page holds a native requestAnimationFrame (captured from
 *   another realm): its work escapes the frame-end measurement, and that is
 *   reported as degraded.
 */
import type { SpanRing } from './span-ring';

/** The parts of PerformanceScriptTiming we read (all optional: the API is young). */
export interface LoafScript {
  invoker?: string;
  invokerType?: string;
  sourceURL?: string;
  startTime?: number;
  duration?: number;
  forcedStyleAndLayoutDuration?: number;
}
export interface LoafEntry {
  startTime: number;
  duration: number;
  scripts?: readonly LoafScript[];
}

export interface LoafTotals {
  longFrames: number;
  /** Chrome's forced style+layout in those frames, less our own frame-end flush. */
  forcedMs: number;
  /** What the wrappers timed as forced reflows within the same frames. */
  measuredMs: number;
  /** rAF callbacks the browser ran that did not come through our frame loop. */
  foreignRafCallbacks: number;
}

export function emptyTotals(): LoafTotals {
  return { longFrames: 0, forcedMs: 0, measuredMs: 0, foreignRafCallbacks: 0 };
}

/** The extension origin ("chrome-extension://id/") of a script URL, or null. */
export function extensionOrigin(url: string | null): string | null {
  const m = url ? /^[a-z-]+-extension:\/\/[^/]+\//.exec(url) : null;
  return m ? m[0] : null;
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}

/** Folds one long-animation-frame entry into `t`. Pure apart from reading the rings. */
export function foldEntry(t: LoafTotals, e: LoafEntry, forced: SpanRing, frameEnds: SpanRing, ourOrigin: string | null): void {
  t.longFrames++;
  let chrome = 0;
  for (const s of e.scripts ?? []) {
    const f = num(s.forcedStyleAndLayoutDuration);
    const url = typeof s.sourceURL === 'string' ? s.sourceURL : '';
    const ours = ourOrigin !== null && url.startsWith(ourOrigin);
    if (ours) {
      const from = num(s.startTime);
      chrome += Math.max(0, f - frameEnds.sumWithin(from, from + num(s.duration)));
    } else {
      chrome += f;
      if (s.invokerType === 'user-callback' && typeof s.invoker === 'string' && s.invoker.includes('FrameRequestCallback')) {
        t.foreignRafCallbacks++;
      }
    }
  }
  t.forcedMs += chrome;
  t.measuredMs += forced.sumWithin(e.startTime, e.startTime + e.duration);
}

/** Observes long animation frames while the overlay is on. */
export class LoafObserver {
  private observer: PerformanceObserver | null = null;
  totals: LoafTotals = emptyTotals();
  /** Entries from frames that began before this are ignored (callbacks queued natively before enable). */
  private since = 0;

  constructor(
    private readonly forced: SpanRing,
    private readonly frameEnds: SpanRing,
    private readonly ourOrigin: string | null,
    private readonly onUpdate: (totals: LoafTotals) => void,
    private readonly report: (e: unknown) => void,
  ) {}

  /** False when this browser has no Long Animation Frames. */
  start(win: Window & typeof globalThis): boolean {
    if (this.observer) return true;
    const PO = win.PerformanceObserver;
    if (typeof PO !== 'function' || !(PO.supportedEntryTypes ?? []).includes('long-animation-frame')) return false;
    this.totals = emptyTotals();
    this.since = win.performance.now() + 100;
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
        if (e.startTime < this.since) continue;
        foldEntry(this.totals, e, this.forced, this.frameEnds, this.ourOrigin);
        any = true;
      }
      if (any) this.onUpdate(this.totals);
    } catch (e) {
      this.report(e);
    }
  }
}
