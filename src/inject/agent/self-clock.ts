/**
 * The agent's own main-thread time, from its own timers (issue 10: show our
 * own cost): every entry point of ours in the page's world — a commit, the
 * frame loop's measure callback, a flush, a MutationObserver callback — runs
 * between `enter` and `leave`; nested entries count once. The page's own
 * style and layout that the frame-end measurement only moves earlier is taken
 * out (`exclude`). Each records batch carries what accrued since the last.
 */
export class SelfClock {
  private depth = 0;
  private t0 = 0;
  private ms = 0;

  constructor(private readonly now: () => number) {}

  enter(): void {
    if (this.depth++ === 0) this.t0 = this.now();
  }

  leave(): void {
    if (this.depth === 0) return;
    if (--this.depth === 0) this.ms += this.now() - this.t0;
  }

  /** Time inside an entry that was the page's own work (the style and layout the measurement flushed). */
  exclude(ms: number): void {
    if (ms > 0) this.ms -= ms;
  }

  /** What accrued since the last take, never negative. */
  take(): number {
    const m = this.ms;
    this.ms = 0;
    return m > 0 ? m : 0;
  }

  /** Runs `fn` as ours. */
  run<T>(fn: () => T): T {
    this.enter();
    try {
      return fn();
    } finally {
      this.leave();
    }
  }
}
