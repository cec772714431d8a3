/**
 * Self-healing (issue 67). An error caught inside any entry of ours (a commit, a frame, an observer's callback, a timer:
 * self-clock.ts `fault`) may have left the agent's view half-updated — a component React no longer has, one it never
 * heard of — with nothing on screen saying so. So a fault marks the view suspect, and the view is rebuilt from the
 * framework's own tree (the walk `enable` does: pipeline.ts `rebuild`) at the next quiet moment: a timer, never inside
 * the page's own call. While errors recur the rebuilds back off (100 ms doubling to 1 s: a page whose sabotage lasts
 * costs at most one walk a second). The view is suspect until a rebuild ran with no fault in it or for QUIET_MS after
 * it; meanwhile `reason` says why (the error's first line), for `state().degraded` and the panel's status line.
 */
export const HEAL_FIRST_MS = 100;
export const HEAL_MAX_MS = 1000;
/** A rebuild followed by this long without a fault: converged. */
export const QUIET_MS = 300;
const MAX_REASON = 120;

export interface HealHost {
  now(): number;
  /** A timer of the browser's own (run as an entry of ours). */
  later(fn: () => void, ms: number): unknown;
  cancel(timer: unknown): void;
  /** The walk from the framework's roots, keeping the ids of the components that still exist. */
  rebuild(): void;
  /** Look again for built-ins the page replaced (pristine.ts) before the rebuild runs. */
  recheck(): void;
  /** The reason came or went: the page's status is to be sent again. */
  changed(): void;
}

/** The first line of what was thrown, as text of bounded length (whatever the page made of the error). */
export function faultText(e: unknown): string {
  let s: string;
  try {
    s = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  } catch {
    s = 'an error';
  }
  const nl = s.indexOf('\n');
  return (nl >= 0 ? s.slice(0, nl) : s).slice(0, MAX_REASON);
}

export class Healer {
  private timer: unknown = null;
  private settleTimer: unknown = null;
  private delay = HEAL_FIRST_MS;
  private lastRunAt = -Infinity;
  private rebuilding = false;
  /** Faults seen in all (each rebuild compares the count before and after). */
  faults = 0;
  /** Rebuilds run in all. */
  rebuilds = 0;
  private why: string | null = null;
  /** Faults when the last clean rebuild ended, and when (null: none since the last fault). */
  private cleanFaults = -1;
  private cleanAt: number | null = null;

  constructor(private readonly host: HealHost) {}

  /** Why the view is suspect (null: it is not). */
  get reason(): string | null {
    return this.why;
  }

  /**
   * A fault inside an entry of ours, or anything else that says the view may be wrong (the page replaced a built-in
   * while we ran: a string): the view is suspect until a rebuild converges.
   */
  fault(e: unknown): void {
    this.faults++;
    const first = this.why === null;
    this.why = faultText(e);
    this.cleanAt = null;
    if (this.settleTimer !== null) this.host.cancel(this.settleTimer);
    this.settleTimer = null;
    this.host.recheck();
    if (first) this.host.changed();
    // A fault during the rebuild is that rebuild's: it will not count as clean, and schedules the next itself.
    if (!this.rebuilding) this.schedule();
  }

  private schedule(): void {
    if (this.timer !== null) return;
    const now = this.host.now();
    // Errors that recur soon after a rebuild back it off; a fault long after the last rebuild starts afresh.
    this.delay = now - this.lastRunAt < 2 * this.delay + QUIET_MS ? Math.min(this.delay * 2, HEAL_MAX_MS) : HEAL_FIRST_MS;
    this.timer = this.host.later(() => {
      this.timer = null;
      this.run();
    }, this.delay);
  }

  private run(): void {
    const before = this.faults;
    this.rebuilding = true;
    try {
      this.host.rebuild();
    } catch (e) {
      this.faults++;
      this.why = faultText(e);
    } finally {
      this.rebuilding = false;
    }
    this.rebuilds++;
    this.lastRunAt = this.host.now();
    if (this.faults !== before) {
      this.schedule();
      return;
    }
    // Clean: converged once QUIET_MS pass with no fault (a frame or commit right after may still fail).
    this.cleanFaults = this.faults;
    this.cleanAt = this.lastRunAt;
    this.settleTimer = this.host.later(() => {
      this.settleTimer = null;
      this.settle();
    }, QUIET_MS);
  }

  private settle(): void {
    if (this.cleanAt === null || this.faults !== this.cleanFaults || this.why === null) return;
    this.why = null;
    this.cleanAt = null;
    this.host.changed();
  }

  /** The pipeline stopped (off): nothing pending, nothing suspect. */
  reset(): void {
    if (this.timer !== null) this.host.cancel(this.timer);
    if (this.settleTimer !== null) this.host.cancel(this.settleTimer);
    this.timer = this.settleTimer = null;
    this.why = null;
    this.cleanAt = null;
    this.delay = HEAL_FIRST_MS;
    this.lastRunAt = -Infinity;
  }
}
