/**
 * "Layout Cost itself": our own main-thread time while on — the agent's (its
 * records batches carry `selfMs`, from its own timers) and the content
 * script's (store, canvas, panel feed, timed here), both on the page's main
 * thread — per measured frame and as a share of wall-clock time, over windows
 * of at least a second. Shown in the panel's status line, `state().self` and
 * `snapshot().self`.
 */
import type { SelfCost } from '../../protocol';

export const SELF_WINDOW_MS = 1000;

export class SelfCostMeter {
  private ms = 0;
  private windowStart: number;
  private framesAtStart: number;
  private last: SelfCost | null = null;

  constructor(private readonly now: () => number = () => performance.now(), frames = 0) {
    this.windowStart = now();
    this.framesAtStart = frames;
  }

  add(ms: number): void {
    if (ms > 0 && Number.isFinite(ms)) this.ms += ms;
  }

  /** Times `fn` as ours. */
  time<T>(fn: () => T): T {
    const t0 = this.now();
    try {
      return fn();
    } finally {
      this.add(this.now() - t0);
    }
  }

  /**
   * Closes the window once it is long enough: true when the figure changed. `frames` is the measured frame count so
   * far (the store's).
   */
  sample(frames: number): boolean {
    const t = this.now();
    const wall = t - this.windowStart;
    if (wall < SELF_WINDOW_MS) return false;
    const n = frames - this.framesAtStart;
    const next: SelfCost = {
      msPerFrame: n > 0 ? this.ms / n : 0,
      mainThreadShare: Math.min(1, this.ms / wall),
    };
    this.ms = 0;
    this.windowStart = t;
    this.framesAtStart = frames;
    const changed = this.last === null || Math.abs(next.msPerFrame - this.last.msPerFrame) >= 0.005
      || Math.abs(next.mainThreadShare - this.last.mainThreadShare) >= 0.0005;
    this.last = next;
    return changed;
  }

  get value(): SelfCost | null {
    return this.last;
  }

  reset(frames: number): void {
    this.ms = 0;
    this.last = null;
    this.windowStart = this.now();
    this.framesAtStart = frames;
  }
}
