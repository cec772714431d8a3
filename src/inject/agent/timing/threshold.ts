/**
 * When a timed call counts as a forced reflow. Pure, so it is unit-tested.
 *
 * `performance.now()` is coarsened: 100 µs with jitter on pages that are not
 * cross-origin isolated, 5 µs when isolated. Under Chrome's jittered
 * clamping each 100 µs interval has its tick boundary at a random offset, so
 * a clean read of a few µs reads as one tick now and then (harmless: below
 * the threshold) and, rarely, as two: two boundaries can lie closer together
 * than the call lasts, with probability about (d / R)² / 2 for a call of d µs
 * at resolution R. One timed call in a useLayoutEffect never gets there, but
 * a loop of ten thousand clean reads would report a few false 0.2 ms
 * reflows. So:
 * - a call counts when it measured more than 1.5 ticks (two ticks or more):
 *   "above the timer resolution";
 * - within a burst of clean reads (more than BURST_CALLS calls that did not
 *   reach that threshold in BURST_WINDOW_MS, and more than BURST_RATIO times
 *   as many as the calls that did) it must measure more than 2.5 ticks, which
 *   a clean read essentially never does ((d / R)³ / 6). A layout-thrashing
 *   loop — write, read, write, read, each read a real flush of 0.2 ms — is
 *   not such a burst however fast it calls: its reads are flushes, and
 *   judging them at 2.5 ticks would drop most of them;
 * - never less than FLOOR_MS, which matters on isolated pages where a clean
 *   read on a slow machine spans several 5 µs ticks.
 * Flushes shorter than the threshold are missed (docs/TIMING.md).
 */
export const FEW_CALLS_MIN_TICKS = 1.5;
export const BURST_MIN_TICKS = 2.5;
export const BURST_CALLS = 64;
export const BURST_WINDOW_MS = 16;
/** A burst needs this many clean-looking calls for every call that looked like a flush. */
export const BURST_RATIO = 8;
export const FLOOR_MS = 0.03;

export function timerResolutionMs(crossOriginIsolated: boolean): number {
  return crossOriginIsolated ? 0.005 : 0.1;
}

/** The least measured duration that counts as a flush, for a call outside (false) or inside (true) a burst of reads. */
export function flushThresholdMs(resolutionMs: number, inBurst: boolean): number {
  return Math.max(FLOOR_MS, (inBurst ? BURST_MIN_TICKS : FEW_CALLS_MIN_TICKS) * resolutionMs);
}

/**
 * Counts timed calls in fixed windows, the clean-looking and the flush-looking
 * apart; allocation-free, a few comparisons per call.
 */
export class BurstCounter {
  private windowStart = -Infinity;
  private clean = 0;
  private flushes = 0;

  /** Whether a call starting at `t0` is within a burst of clean reads (judged by the calls before it). */
  inBurst(t0: number): boolean {
    if (t0 - this.windowStart > BURST_WINDOW_MS) {
      this.windowStart = t0;
      this.clean = 0;
      this.flushes = 0;
    }
    return this.clean > BURST_CALLS && this.clean > BURST_RATIO * this.flushes;
  }

  /** Notes the call just judged: `flush` when it measured at least the few-calls threshold. */
  note(flush: boolean): void {
    if (flush) this.flushes++;
    else this.clean++;
  }

  reset(): void {
    this.windowStart = -Infinity;
    this.clean = 0;
    this.flushes = 0;
  }
}
