/**
 * The agent on the browser's own built-ins where the page wrapped them after load (issue 45, item 4). Monitoring and
 * framework code wraps built-ins all the time (zone.js, Sentry, New Relic: `addEventListener`; polyfills: collection
 * methods); a wrapper that drops, changes or throws on our calls left the snapshot wrong or the agent tracking
 * nothing. The agent's code is ordinary TypeScript (`[]`, `new Map()`, `.push`): it cannot avoid the page's
 * prototypes, so around each of its entries (a commit, a frame, an observer's callback, a timer, a message, an API
 * call: self-clock.ts) the built-ins the boot script kept at load (boot/index.ts `KEPT`) that the page has replaced since
 * are put back, and the page's own are restored on the way out. JavaScript runs one thing at a time, so the page's code
 * never runs while ours are in place, except page code we call into (a getter in props): it then runs on the browser's
 * own built-ins, as it would have on a page without the wrapper. Where nothing was replaced (most pages) an entry costs
 * one comparison. A built-in the page made unwritable and unconfigurable cannot be swapped: `state().degraded` says so.
 */
import type { BootNatives } from '../boot/link';

interface Swap {
  holder: object;
  key: string;
  /** Ours, kept at load. */
  kept: PropertyDescriptor;
  /** The page's, taken at each entry. */
  page: PropertyDescriptor | undefined;
}

/** How often `check` runs at most: a page patches built-ins once, soon after load, not while we run. */
const CHECK_EVERY_MS = 1000;

export class Pristine {
  private swaps: Swap[] = [];
  private depth = 0;
  private checkedAt = -Infinity;
  /** "EventTarget.prototype.addEventListener", … replaced by the page (swapped while ours run). */
  replaced: string[] = [];
  /** Replaced and not swappable (the page froze its own in place). */
  readonly stuck: string[] = [];
  /**
   * Told, with ours in place, of a built-in the page replaced since the last look (`fresh`: the agent ran on the page's
   * until now, and its view may be wrong: heal.ts), and of any change of `replaced` (the page's status is sent again).
   */
  onChange: ((fresh: string | null) => void) | null = null;
  private fresh: string | null = null;
  private changed = false;

  /** Look again at the next entry (an error of ours may come from a built-in replaced since the last look). */
  recheck(): void {
    this.checkedAt = -Infinity;
  }

  /**
   * `listeners`: window's own addEventListener and removeEventListener as the boot kept them at load, with how to walk
   * up from window to the prototype that holds them (EventTarget's): kept with the rest from then on.
   */
  constructor(
    private readonly n: BootNatives,
    private readonly now: () => number,
    listeners?: { win: object; add: unknown; remove: unknown; protoOf: (o: object) => object | null },
  ) {
    if (!listeners) return;
    const { win, add, remove, protoOf } = listeners;
    this.win = win;
    for (let p = protoOf(win); p !== null; p = protoOf(p)) {
      if (n.ownDescriptor(p, 'addEventListener') === undefined) continue;
      this.extra = [p, 'addEventListener', add, 'EventTarget.prototype', p, 'removeEventListener', remove, 'EventTarget.prototype'];
      break;
    }
  }

  /** The listener pair, kept like the boot's list (see the constructor). */
  private extra: unknown[] = [];
  private win: object | null = null;

  /** Looks again for built-ins the page replaced since load (at an outermost entry, at most once a second). */
  private check(): void {
    const t = this.now();
    if (t - this.checkedAt < CHECK_EVERY_MS) return;
    this.checkedAt = t;
    const swaps: Swap[] = [];
    // No spread, iterator or array method here: this runs before the swap, on whatever the page put in place.
    const was = this.replaced, wasStuck = this.stuck.length;
    this.replaced = [];
    this.stuck.length = 0;
    this.look(this.n.kept, swaps);
    this.look(this.extra, swaps);
    this.swaps = swaps;
    const now = this.replaced;
    let same = now.length === was.length && this.stuck.length === wasStuck;
    for (let i = 0; i < now.length; i++) {
      let seen = false;
      for (let j = 0; j < was.length && !seen; j++) seen = was[j] === now[i];
      if (seen) continue;
      same = false;
      this.fresh ??= now[i];
    }
    if (!same) this.changed = true;
  }

  private look(kept: readonly unknown[], swaps: Swap[]): void {
    const { ownDescriptor } = this.n;
    for (let i = 0; i + 3 < kept.length; i += 4) {
      const holder = kept[i] as object;
      const key = kept[i + 1] as string;
      const value = kept[i + 2];
      if (typeof value !== 'function') continue;
      let now: PropertyDescriptor | undefined;
      try {
        now = ownDescriptor(holder, key);
      } catch {
        continue;
      }
      if (now !== undefined && now.value === value) continue;
      const path = kept[i + 3] as string;
      const name = path ? `${path}.${key}` : key;
      if (now !== undefined && now.configurable === false && now.writable !== true) {
        this.stuck[this.stuck.length] = name;
        continue;
      }
      this.replaced[this.replaced.length] = name;
      // A built-in method's own attributes (window's own are enumerable too): writable and configurable.
      const kept_: PropertyDescriptor = { value, writable: true, enumerable: holder === this.win, configurable: true };
      swaps[swaps.length] = { holder, key, kept: kept_, page: undefined };
    }
  }

  enter(): void {
    if (this.depth++ !== 0) return;
    this.check();
    const swaps = this.swaps;
    if (swaps.length > 0) {
      const { ownDescriptor, define } = this.n;
      for (let i = 0; i < swaps.length; i++) {
        const s = swaps[i];
        try {
          s.page = ownDescriptor(s.holder, s.key);
          define(s.holder, s.key, s.kept);
        } catch {
          s.page = undefined;
        }
      }
    }
    if (!this.changed) return;
    const fresh = this.fresh;
    this.changed = false;
    this.fresh = null;
    try {
      this.onChange?.(fresh);
    } catch {
      // Told again at the next change.
    }
  }

  leave(): void {
    if (this.depth === 0 || --this.depth !== 0) return;
    const swaps = this.swaps;
    if (swaps.length === 0) return;
    const { ownDescriptor, define } = this.n;
    for (let i = swaps.length - 1; i >= 0; i--) {
      const s = swaps[i];
      const page = s.page;
      s.page = undefined;
      if (page === undefined) continue;
      try {
        // Only if ours is still there: page code we called into may have wrapped it again meanwhile; theirs stays.
        if (ownDescriptor(s.holder, s.key)?.value === s.kept.value) define(s.holder, s.key, page);
      } catch {
        // Nothing more to do: the page's own is where the page put it.
      }
    }
  }

  /** Runs `fn` on the kept built-ins. */
  run<T>(fn: () => T): T {
    this.enter();
    try {
      return fn();
    } finally {
      this.leave();
    }
  }
}
