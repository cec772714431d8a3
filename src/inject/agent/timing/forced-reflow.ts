/**
 * Forced synchronous style/layout, caught where page code causes it. While
 * the overlay is on, the layout-reading DOM APIs (targets.ts) are wrapped
 * (wrap.ts) and timed; a call during which the clock moved by more than its
 * resolution actually flushed style or layout: a forced reflow. Its ms go to
 * the component owning the node read (or `<page>`), a few get a sampled
 * stack, and the pipeline collects the per-owner totals at each frame
 * (`take`). Calls nested inside a timed call (focus handlers) are counted
 * once, with the outer call; the agent's own reads run between `pause()` and
 * `resume()` and are not counted. Long Animation Frames cross-check the
 * total (loaf.ts).
 * What "actually flushed" means against a coarse clock: threshold.ts.
 */
import type { OutsideMeasurement } from '../../../protocol';
import type { AgentLink } from '../../boot/link';
import { FOREIGN_RAF_REPORT_FRAMES, LoafObserver, type LoafTotals } from './loaf';
import { SpanRing } from './span-ring';
import { StackSampler } from './stacks';
import { layoutReadTargets } from './targets';
import { BurstCounter, flushThresholdMs, timerResolutionMs } from './threshold';
import { OwnerKind, WrapperSet, type WrapHost } from './wrap';

/** Timing of forced reflows between frames (this module's ForcedReflowTimer; the pipeline holds one). */
export interface ForcedSource {
  install(): void;
  uninstall(): void;
  /** Forced style+layout ms since the last call, per owning component id (0 = <page>), and the total; their counts into `counts`. */
  take(into: Map<number, number>, counts?: Map<number, number>): number;
  /** The agent's own layout reads (frame-end measure, bounds, hit-testing) run between these: not page forced reflows. */
  pause(): void;
  resume(): void;
  /** Our frame loop's native callback ran from `startMs` for `ms` (the Long Animation Frames cross-check). */
  loopRan(startMs: number, ms: number): void;
  /**
   * Lays out the document for the agent's own frame-end read: the native getBoundingClientRect captured at install,
   * not the page-facing wrapper (43 µs a commit of the grid at 10 % went through it, docs/PERFORMANCE.md).
   */
  layoutNow(el: Element): void;
  /** The Long Animation Frames cross-check while installed (undefined without it). */
  readonly outside: OutsideMeasurement | undefined;
}

const FORCED_SPANS = 256;
/** Forced spans this close to the last one's end join it (two ticks of the 100 µs clock and a half). */
const FORCED_MERGE_GAP_MS = 0.25;
const TICK_SPANS = 64;
/** The outside figure changes at most this often in the page status. */
const STATUS_INTERVAL_MS = 1000;

export interface ForcedTimerDeps {
  win: Window & typeof globalThis;
  /** Says why measurement is degraded (shown in `state().degraded` and the panel). */
  degrade(reason: string): void;
  /** Sends the page status now (the outside figure changed). */
  announce(): void;
  post: AgentLink['post'];
  debug(...args: unknown[]): void;
  /** The component owning a node (0 = `<page>`). */
  ownerOf(node: Node): number;
  /** A forced reflow was recorded since the last `take`: the pipeline needs a frame to report it. */
  onForced(): void;
  /** Each forced reflow as it is timed (the Performance panel track). */
  onSpan?(id: number, t0: number, ms: number): void;
  /**
   * The page's read by `reader` flushed what was pending (issue 43: what changed before it is no cause of the frame's
   * end); with `names`, returns the components whose writes it laid out (a few names, for a sampled stack).
   */
  onFlushed?(reader: number, names: boolean): string[] | undefined;
  /** The boot's captured Function.prototype.toString (the page's replacement must not run); absent: not checked. */
  sourceOf?(fn: unknown): string | null;
}

export class ForcedReflowTimer implements ForcedSource, WrapHost {
  active = false;
  /** The Long Animation Frames cross-check while installed; undefined where the browser has none. */
  outside: OutsideMeasurement | undefined = undefined;
  depth = 0;
  readonly now: () => number;
  private threshold = 0.15;
  private burstThreshold = 0.25;
  private readonly burst = new BurstCounter();
  private readonly wrappers = new WrapperSet();
  private readonly byOwner = new Map<number, number>();
  private readonly countByOwner = new Map<number, number>();
  private total = 0;
  private notified = false;
  private decls: WeakMap<object, Node> | null = null;
  private readonly spans = new SpanRing(FORCED_SPANS, FORCED_MERGE_GAP_MS);
  private readonly ticks = new SpanRing(TICK_SPANS);
  private readonly stacks = new StackSampler();
  private readonly loaf: LoafObserver;
  private statusTimer: ReturnType<typeof setTimeout> | null = null;
  private foreignRafReported = false;
  /** The native Element.prototype.getBoundingClientRect, for `preflush` (captured at install, before wrapping). */
  private nativeRect: ((self: unknown) => unknown) | null = null;

  constructor(private readonly deps: ForcedTimerDeps) {
    const perf = deps.win.performance;
    this.now = perf.now.bind(perf);
    this.loaf = new LoafObserver(this.spans, this.ticks, (t) => this.onLoaf(t), (e) => deps.debug('loaf', e));
  }

  install(): void {
    if (this.active) return;
    const { win } = this.deps;
    const deps = this.deps;
    const resolution = timerResolutionMs(win.crossOriginIsolated === true);
    this.threshold = flushThresholdMs(resolution, false);
    this.burstThreshold = flushThresholdMs(resolution, true);
    this.burst.reset();
    this.decls = new WeakMap();
    this.foreignRafReported = false;
    const nowText = deps.sourceOf ? deps.sourceOf(win.performance.now) : '[native code]';
    if (!/\[native code\]/.test(nowText ?? '')) {
      deps.degrade('the page replaced performance.now: forced-reflow timing may be wrong');
    }
    const rect = win.Element.prototype.getBoundingClientRect;
    this.nativeRect = Function.prototype.call.bind(rect) as (self: unknown) => unknown;
    try {
      const skipped = this.wrappers.install(layoutReadTargets(win), this);
      if (skipped.length > 0) deps.degrade(`not timed (not configurable): ${skipped.join(', ')}`.slice(0, 200));
    } catch (e) {
      // A page that made a prototype exotic: time nothing rather than half of it.
      deps.debug('wrap', e);
      this.wrappers.uninstall();
      deps.degrade('forced reflows are not timed on this page (the layout APIs could not be wrapped)');
    }
    this.active = true;
    let loaf = false;
    try {
      loaf = this.loaf.start(win);
    } catch (e) {
      deps.debug('loaf start', e);
    }
    this.outside = loaf ? { longFrames: 0, forcedMs: 0, measuredMs: 0 } : undefined;
    if (!loaf) deps.degrade('no Long Animation Frames in this browser: no outside measurement');
  }

  uninstall(): void {
    const deps = this.deps;
    this.active = false;
    this.depth = 0;
    const kept = this.wrappers.uninstall();
    if (kept.length > 0) deps.debug('left in place (the page redefined them after us):', kept);
    this.loaf.stop();
    if (this.statusTimer !== null) clearTimeout(this.statusTimer);
    this.statusTimer = null;
    this.byOwner.clear();
    this.countByOwner.clear();
    this.total = 0;
    this.notified = false;
    this.decls = null;
    this.nativeRect = null;
    this.spans.clear();
    this.ticks.clear();
    this.stacks.reset();
    this.outside = undefined;
  }

  take(into: Map<number, number>, counts?: Map<number, number>): number {
    for (const [id, ms] of this.byOwner) into.set(id, (into.get(id) ?? 0) + ms);
    this.byOwner.clear();
    if (counts) for (const [id, n] of this.countByOwner) counts.set(id, (counts.get(id) ?? 0) + n);
    this.countByOwner.clear();
    const total = this.total;
    this.total = 0;
    this.notified = false;
    return total;
  }

  pause(): void {
    this.depth++;
  }

  resume(): void {
    if (this.depth > 0) this.depth--;
  }

  loopRan(startMs: number, ms: number): void {
    this.ticks.push(startMs, ms);
    if (this.loaf.foreignSince === Infinity) this.loaf.foreignSince = startMs;
  }

  done(self: unknown, t0: number, owner: OwnerKind): void {
    const ms = this.now() - t0;
    const inBurst = this.burst.inBurst(t0);
    this.burst.note(ms >= this.threshold);
    if (ms < (inBurst ? this.burstThreshold : this.threshold)) return;
    try {
      const node = this.nodeFor(self, owner);
      const id = node === null ? 0 : this.deps.ownerOf(node);
      this.byOwner.set(id, (this.byOwner.get(id) ?? 0) + ms);
      this.countByOwner.set(id, (this.countByOwner.get(id) ?? 0) + 1);
      this.total += ms;
      this.spans.push(t0, ms);
      this.deps.onSpan?.(id, t0, ms);
      const sampled = this.stacks.want(t0);
      const after = this.deps.onFlushed?.(id, sampled);
      if (sampled) this.deps.post('stack', { id, ms, stack: this.stacks.capture(), after });
      if (!this.notified) {
        this.notified = true;
        this.deps.onForced();
      }
    } catch (e) {
      this.deps.debug('forced reflow', e);
    }
  }

  layoutNow(el: Element): void {
    const rect = this.nativeRect;
    if (rect !== null) rect(el);
    else el.getBoundingClientRect();
  }

  preflush(self: unknown, owner: OwnerKind): void {
    const rect = this.nativeRect;
    if (rect === null || !(self instanceof this.deps.win.Element)) return;
    this.depth++;
    const t0 = this.now();
    try {
      rect(self);
    } catch (e) {
      this.deps.debug('preflush', e);
    } finally {
      this.depth--;
    }
    this.done(self, t0, owner);
  }

  remember(decl: unknown, element: unknown): void {
    try {
      if (this.decls !== null && typeof decl === 'object' && decl !== null && element instanceof this.deps.win.Node) {
        this.decls.set(decl, element);
      }
    } catch (e) {
      this.deps.debug('remember', e);
    }
  }

  private nodeFor(self: unknown, owner: OwnerKind): Node | null {
    const N = this.deps.win.Node;
    let n: unknown = null;
    switch (owner) {
      case OwnerKind.Self: n = self; break;
      case OwnerKind.RangeStart: n = (self as Range).startContainer; break;
      case OwnerKind.ShadowHost: n = (self as ShadowRoot).host; break;
      case OwnerKind.Declaration: n = typeof self === 'object' && self !== null ? this.decls?.get(self) : null; break;
      case OwnerKind.EventTarget: n = (self as Event).target; break;
      default: n = null;
    }
    return n instanceof N ? n : null;
  }

  private onLoaf(t: LoafTotals): void {
    const deps = this.deps;
    if (!this.active) return;
    const o: OutsideMeasurement | undefined = this.outside;
    if (o) {
      o.longFrames = t.longFrames;
      o.forcedMs = t.forcedMs;
      o.measuredMs = t.measuredMs;
    }
    if (t.foreignRafRow >= FOREIGN_RAF_REPORT_FRAMES && !this.foreignRafReported) {
      this.foreignRafReported = true;
      deps.degrade('rAF-phase work ran outside the frame loop in a long frame (a native requestAnimationFrame kept by the page?): its layout is not measured');
    }
    if (this.statusTimer === null) {
      this.statusTimer = setTimeout(() => {
        this.statusTimer = null;
        if (this.active) deps.announce();
      }, STATUS_INTERVAL_MS);
    }
  }
}
