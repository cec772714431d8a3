/** An entry of ours as its callers see it: timed, and an error inside it is a fault of ours (`fault`, issue 67). */
export interface Entries {
  enter(): void;
  leave(): void;
  fault(e: unknown): void;
}

/**
 * The agent's own main-thread time, from its own timers (issue 10: show our
 * own cost): every entry point of ours in the page's world — a commit, the
 * frame loop's measure callback, a flush, a MutationObserver callback — runs
 * between `enter` and `leave`; nested entries count once. The page's own
 * style and layout that the frame-end measurement only moves earlier is taken
 * out (`exclude`). Each records batch carries what accrued since the last.
 */
export class SelfClock implements Entries {
  private depth = 0;
  private t0 = 0;
  /** The page's own work inside the open entry, taken out when it closes. */
  private excluded = 0;
  private ms = 0;

  /** Put around every outermost entry: the browser's own built-ins back in place while ours run (pristine.ts). */
  outer: { enter(): void; leave(): void; recheck?(): void } | null = null;

  /** Told of every error caught in commit or frame handling (the pipeline's self-healing: heal.ts). */
  onFault: ((e: unknown) => void) | null = null;
  /** Told of any other error `run` caught (reported, nothing more: it left no view half-updated). */
  onError: ((e: unknown) => void) | null = null;

  constructor(private readonly now: () => number) {}

  /** An error inside an entry of ours, caught there: nothing of it reaches the page; the view is rebuilt. */
  fault(e: unknown): void {
    try {
      this.onFault?.(e);
    } catch {
      // The healing itself failed: the next fault tries again.
    }
  }

  enter(): void {
    if (this.depth++ === 0) {
      this.outer?.enter();
      this.t0 = this.now();
      this.excluded = 0;
    }
  }

  leave(): void {
    if (this.depth === 0) return;
    if (--this.depth === 0) {
      const ms = this.now() - this.t0 - this.excluded;
      if (ms > 0) this.ms += ms;
      this.outer?.leave();
    }
  }

  /**
   * Time inside the open entry that was the page's own work (the style and layout the measurement flushed). Taken
   * out when the entry closes, so a `take` inside the entry (a batch posted mid-frame) cannot lose it.
   */
  exclude(ms: number): void {
    if (ms > 0 && this.depth > 0) this.excluded += ms;
  }

  /** What closed entries accrued since the last take (an open entry counts when it closes). */
  take(): number {
    const m = this.ms;
    this.ms = 0;
    return m;
  }

  /** Runs `fn` as ours; an error in it is reported (undefined returned), never the page's. */
  run<T>(fn: () => T): T | undefined {
    this.enter();
    try {
      return fn();
    } catch (e) {
      try {
        this.onError?.(e);
      } catch {
        // Nothing more to do.
      }
      return undefined;
    } finally {
      this.leave();
    }
  }
}
