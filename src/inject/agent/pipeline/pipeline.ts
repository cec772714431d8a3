/**
 * The agent's pipeline while the overlay is on: adapter → registry → ring →
 * (flush, ≤ 30 Hz) → content script. Owns the frame loop, the frame-end
 * measurement, bounds reading and the MutationObserver for DOM the
 * framework did not change. Off means off: `stop()` detaches every wrapper,
 * observer and listener and frees the state.
 */
import { MAX_COPIED_RECORDS, MAX_WRITERS, PLACE_INTERVAL_MS, RecordKind, type ContentToPage } from '../../../protocol';
import { CHANGE_ADDED, CHANGE_BOX, CHANGE_CHILDREN, CHANGE_RESIZE, CHANGE_TEXT, type FrameworkAdapter } from '../adapter';
import { Adapters } from '../adapters';
import type { DebugHint } from '../../../protocol/sources';
import type { AgentLink } from '../../boot/link';
import type { NativeReaders } from '../natives';
import type { Reasons } from '../reasons';
import { RingBuffer } from '../ring-buffer';
import { Geometry } from './geometry';
import { attribute, attributeAlike, type CostSink } from './attribution';
import { Causes } from './causes';
import { Probes } from './probes';
import { noteSeen, weigh, type Weights } from './weigh';
import { animationKind } from './animations';
import { PerfTrack, type FrameShare } from '../timing/perf-track';
import { DomCounter } from './dom-counts';
import { FrameLoop } from './frame-loop';
import { Interner, KeyBatch } from './interner';
import { MutationTracker, WRITER_RECORDS } from './mutations';
import { boundaryOf } from '../experiment/experiment';
import { DirtiedTracker } from './dirtied';
import { CAUSED, GONE, Registry, LOGGED, type Entry } from './registry';
import { ForcedReflowTimer, type ForcedSource } from '../timing/forced-reflow';
import { SelfClock } from '../self-clock';
import { faultText, Healer } from './heal';
import { flushWait } from './flush-cadence';
import { findEarlierRoots } from './shadow-walk';
import { VitalsObserver } from '../vitals/observer';
import { MAX_CHANGED } from '../vitals/frame-log';
import { fontUserAbove, imageLoadedAt } from '../vitals/shifts';

/** What runs on the measured frames (experiment/experiment.ts through the agent). */
export interface FrameWatcher {
  /** True while it puts its own declaration on the page: the pinned component's boundary is not read then. */
  busy(): boolean;
  /** Each measured frame's own figures, as they are measured. */
  frame(styleMs: number, layoutMs: number, forcedMs: number, end: number): void;
  /** The pipeline stopped (off, or a resync): whatever runs on it must end. */
  stopped(): void;
}

const IDLE_WATCHER: FrameWatcher = { busy: () => false, frame: () => undefined, stopped: () => undefined };

/**
 * A tab that gets no frames (hidden, or a throttled frame) still hands its records over this long after the change
 * that dirtied it, when it had no frame for as long (frames: flush-cadence.ts).
 */
const BACKSTOP_MS = PLACE_INTERVAL_MS * 3;
/**
 * While frames come, their ends hand the records over; this timer only makes sure of it should they stop right after
 * a change (a tab hidden just then). One timer a second at most: a timer set in the page costs 25–50 µs there
 * (docs/PERFORMANCE.md, "Thirty-seventh session").
 */
const SLOW_BACKSTOP_MS = 1_000;
// 16 384 × 48 B = 768 KB. A bigger burst (a large back-fill) is handed over early by
// the registry's high-water mark, so the ring never has to hold a whole tree.
const RING_CAPACITY = 1 << 14;
/** What dirtied the pinned component goes to the content script at most this often. */
const DIRTIED_INTERVAL_MS = 250;
/** CHANGE_* bits of the changes that can cost layout. */
const LAYOUT_CHANGES = CHANGE_TEXT | CHANGE_CHILDREN | CHANGE_RESIZE | CHANGE_BOX | CHANGE_ADDED;
/** Running animations looked at a frame, at most (a page with more: the first ones). */
const MAX_ANIMATIONS = 256;
/**
 * A frame with this much layout and no known cause, or this much more than 1.5 times what its probed causes account
 * for, starts a discovery of foreign writers soon (mutations.ts).
 */
const UNEXPLAINED_LAYOUT_MS = 0.3;
/**
 * Probe ms a frame may spend measuring the places it is the first to need (probes.ts `first`), at least; at most what
 * the frame's own layout took when that is more. Without them the frames before the background batch lands (seven
 * frames of 70 ms on a page whose 4 200 cells relayout beside three one-line texts) were split alike: each text took a
 * quarter of the cells' layout.
 */
const FIRST_PROBE_MS = 8;


export class Pipeline {
  readonly ring = new RingBuffer(RING_CAPACITY);
  readonly strings = new Interner();
  private readonly keys = new KeyBatch();
  readonly registry: Registry;
  /** The drawn components' bounds and what the page stacks over them (geometry.ts). */
  private readonly geometry: Geometry;
  readonly loop: FrameLoop;
  private readonly mutations: MutationTracker;
  /** How much layout a change at a place costs, measured on the page (probes.ts). */
  readonly probes: Probes;
  /** `mutations.found` when the frame before looked. */
  private foundWriters = 0;
  /** The frame's causes weighed (weigh.ts), reused frame after frame. */
  private readonly weights: Weights<Entry> = { owners: [], layout: [], style: [], explainedMs: -1, bySeen: false };
  /** The first owners of an alike frame's log, for the frame log (vitals/frame-log.ts keeps MAX_CHANGED). */
  private readonly changedScratch: Entry[] = [];
  /** What each animation animates (K_* bits), by animation. */
  private animationKinds = new WeakMap<Animation, number>();
  private adapter: Adapters | null = null;
  private running = false;
  private dirty = false;
  private frameNo = 0;
  private lastFlush = 0;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  /** When the pending flushTimer fires (performance.now() time). */
  private flushAt = 0;
  /** Flushes when no frame did for BACKSTOP_MS (a hidden tab: markDirty), or SLOW_BACKSTOP_MS while frames come. */
  private backstopTimer: ReturnType<typeof setTimeout> | null = null;
  private pinned: number | null = null;
  /** What dirtied the pinned component (dirtied.ts). */
  private readonly dirtied: DirtiedTracker;
  private lastDirtiedPost = 0;
  /** Frames in which only the pinned component (or DOM below it) changed, and their layout ms (EMA). */
  private alone = { frames: 0, layoutMs: 0 };
  private lastBoundary: string | null = null;
  private forcedById = new Map<number, number>();
  private forcedCountById = new Map<number, number>();
  /** Forced reflows in the page's scripts, timed by wrappers of the layout-reading built-ins. */
  readonly forced: ForcedSource;
  private rafReplacedReported = false;
  private rafBrokenReported = false;
  /** Records handed over since the agent started (`stats()`). */
  private recordsPosted = 0;
  /** Frames whose causes were split alike, and weighed (`stats()`). */
  private framesAlike = 0;
  private framesSplit = 0;
  /** Records batches posted (the content script sees a gap as a loss and asks for a resync). */
  private seq = 0;
  private readonly onTopLayer = (): void => {
    this.geometry.topLayerChanged();
    this.markDirty();
  };
  private readonly now: () => number;
  /** Our own main-thread time (records batches carry it: the panel's "Layout Cost itself"). */
  readonly clock: SelfClock;
  /** Rebuilds the view after a fault of ours (heal.ts, issue 67). */
  readonly healer: Healer;
  /** A rebuild's stop and start (the healer's state outlives them). */
  private healing = false;
  private readonly isLive = (id: number): boolean => this.registry.entries.has(id);
  /** The Performance panel's "Layout Cost" track group (timing/perf-track.ts), while the setting allows. */
  readonly track: PerfTrack;
  /** This frame's Cost records by component, for the track (filled only while it is on). */
  private readonly shares = new Map<number, FrameShare>();
  /** Interactions and layout shifts (vitals/observer.ts), with the frame log they look back in. */
  readonly vitals: VitalsObserver;
  /** The animation time of the frame being measured (the rAF timestamp). */
  private frameTs = 0;
  /** The ring, and the track's shares and the frame log while they are on. */
  private readonly shareSink: CostSink = {
    write: (kind, a, b = 0, c = 0, d = 0, e = 0) => {
      this.ring.write(kind, a, b, c, d, e);
      if (kind !== RecordKind.Cost) return;
      if (this.vitals.log.on) this.vitals.log.write(kind, a, b, c, d);
      if (!this.track.enabled) return;
      const s = this.shares.get(a);
      if (s) {
        s.styleMs += b;
        s.layoutMs += c;
      } else this.shares.set(a, { id: a, styleMs: b, layoutMs: c });
    },
  };
  /** What runs on the measured frames (an experiment): told each frame's figures and when the pipeline stops. */
  private watcher: FrameWatcher = IDLE_WATCHER;

  constructor(private readonly link: AgentLink, readers: NativeReaders, private readonly reasons: Reasons,
    private readonly win: Window & typeof globalThis,
    private readonly makeAdapters: (have: readonly string[]) => FrameworkAdapter[]) {
    const perf = win.performance;
    this.now = perf.now.bind(perf);
    this.registry = new Registry(this.ring, this.strings, this.keys, new DomCounter(link.shadow), () => this.adapter,
      new Causes<Entry>(() => styleSheets(win, link.shadow), this.now, CAUSED, LOGGED));
    this.registry.onChange = this.markDirty;
    this.registry.onRingHigh = () => this.postRecords();
    this.geometry = new Geometry(win, this.ring, this.registry, this.now);
    this.registry.onStructure = () => this.geometry.structureChanged();
    this.clock = new SelfClock(this.now);
    this.dirtied = new DirtiedTracker(win, this.clock);
    this.registry.onCommitted = () => this.dirtied.takeReact();
    this.loop = new FrameLoop(link.raf, win, (ts) => this.frame(ts));
    this.clock.onFault = (e) => this.fault(e);
    this.clock.onError = (e) => link.debug('error', e);
    this.healer = new Healer({
      now: this.now,
      later: (fn, ms) => setTimeout(() => this.clock.run(fn), ms),
      cancel: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
      rebuild: () => this.rebuild(),
      recheck: () => this.clock.outer?.recheck?.(),
      changed: () => link.announce(),
    });
    this.mutations = new MutationTracker(link.shadow, (node) => this.adapter?.ownerOf(node) ?? 0, this.registry, this.markDirty,
      this.clock, this.now, (node) => this.adapter?.observes(node) ?? false);
    this.probes = new Probes({
      win, now: this.now, pause: () => this.forced.pause(), resume: () => this.forced.resume(),
      debug: (...args) => link.debug(...args),
    }, (fn) => /\[native code\]/.test(readers.sourceOf(fn) ?? ''));
    this.forced = new ForcedReflowTimer({
      win, sourceOf: readers.sourceOf,
      degrade: (reason) => reasons.add(reason),
      announce: () => link.announce(),
      post: (type, payload, transfer) => link.post(type, payload, transfer),
      debug: (...args) => link.debug(...args),
      ownerOf: (node) => this.adapter?.ownerOf(node) ?? 0, onForced: this.markDirty,
      onFlushed: this.flushedByPage,
      onSpan: (id, t0, ms) => this.track.forced(`${this.registry.nameOf(id)} (forced reflow)`, t0, ms),
    });
    this.track = new PerfTrack(win, link.raf.apply, readers.sourceOf);
    const registry = this.registry;
    this.vitals = new VitalsObserver({
      ownerOf: (node) => this.adapter?.ownerOf(node) ?? 0,
      nameOf: (id) => registry.nameOf(id),
      hostOf: (id) => {
        const e = registry.entries.get(id);
        return e === undefined ? null : registry.hostsOf(e)[0] ?? null;
      },
      now: this.now,
      run: (fn) => this.clock.run(fn),
      wake: (ms) => this.scheduleFlush(ms),
      degrade: (reason) => reasons.add(reason),
      debug: (what, e) => link.debug(what, e),
      markDirty: () => this.markDirty(),
      imageLoadedAt: (t, node) => imageLoadedAt(win.document, win.performance, t, node),
      fontUserAbove: (families, node) => fontUserAbove(win.document, families, node),
      frameworkOf: (id) => {
        const e = registry.entries.get(id);
        return e === undefined ? null : this.adapter?.frameworkOf(e.handle) ?? null;
      },
    });
    registry.log = this.vitals.log;
  }

  /** findShadowRoots ran (once a page). */
  private shadowsFound = false;

  /** The one watcher of the measured frames (the agent's experiment runner). */
  watch(w: FrameWatcher): void {
    this.watcher = w;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** The component's own function or class (adapter.typeOf), null without an adapter. */
  typeOf(handle: object): unknown {
    return this.adapter?.typeOf(handle) ?? null;
  }

  /** The framework's debug information on where the component's first element was created (adapter.debugOf). */
  debugOf(handle: object, stackOf: (e: unknown) => string | null): DebugHint | null {
    return this.adapter?.debugOf?.(handle, stackOf) ?? null;
  }

  /** The roots (Vue and Preact: apps) the adapter of a framework measures now. */
  rootsOf(name: string): number {
    return this.adapter?.rootsOf(name) ?? 0;
  }

  get adapterName(): string | null {
    return this.adapter?.name ?? null;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.reasons.clear();
    this.rafReplacedReported = false;
    this.rafBrokenReported = false;
    try {
      this.checkRaf(false);
      this.ring.write(RecordKind.Reset, 0);
      this.loop.install();
    } catch (e) {
      // No half a start (issue 11): undo what was done, say why, and let the next enable try again.
      this.stop();
      this.reasons.add(`the overlay could not start on this page (${faultText(e)})`);
      this.failedStart(e);
      return;
    }
    // What the frame timing and counts can do without: each failure is said, and the rest runs.
    this.optional('counting inside shadow roots', () => this.findShadowRoots());
    this.optional('forced-reflow timing', () => this.forced.install());
    this.optional('interactions and layout shifts', () => this.vitals.start(this.win));
    this.optional('the MutationObserver (DOM changes React did not make)', () => this.mutations.start());
    this.probes.start();
    this.startListening();
    try {
      this.attachAdapter();
    } catch (e) {
      this.stop();
      this.reasons.add(`the React adapter could not attach (${faultText(e)})`);
      this.failedStart(e);
      return;
    }
    this.markDirty();
  }

  /**
   * The attachShadow tap goes in on the first enable if React has not put it in yet (boot/shadow.ts); the open roots
   * attached before it are found once. From then on the tap sees every new root.
   */
  private findShadowRoots(): void {
    if (this.shadowsFound) return;
    this.shadowsFound = true;
    this.link.shadow.tap();
    findEarlierRoots(this.win.document, this.link.shadow);
  }

  private optional(what: string, step: () => void): void {
    try {
      step();
    } catch (e) {
      this.reasons.add(`${what} is off on this page (${faultText(e)})`);
    }
  }

  private startListening(): void {
    this.win.addEventListener('scroll', this.markDirty, { capture: true, passive: true });
    this.win.addEventListener('resize', this.markDirty, { passive: true });
    // Dialogs and popovers fire `toggle` (and dialogs `close`) when they enter or leave the top layer; neither bubbles.
    this.win.addEventListener('toggle', this.onTopLayer, { capture: true, passive: true });
    this.win.addEventListener('close', this.onTopLayer, { capture: true, passive: true });
    this.geometry.topLayerChanged();
  }

  /**
   * Attach to each framework on the page once it is there (now, or when it arrives later: a renderer registering, Vue
   * making its first): one adapter each, behind one (adapters.ts).
   */
  attachAdapter(): void {
    if (!this.running) return;
    const fresh = this.makeAdapters(this.adapter?.names ?? []);
    if (fresh.length === 0) return;
    if (this.adapter === null) {
      this.adapter = new Adapters(fresh);
      this.adapter.attach(this.registry);
    } else for (const a of fresh) this.adapter.add(a);
    this.mutations.setWholeDocument(!this.adapter.observesAll);
  }

  stop(): void {
    // Off (not a rebuild's stop): nothing pending either, a start that failed included (it is not tried again).
    if (!this.healing) {
      this.healer.reset();
      this.revive = false;
    }
    if (!this.running) return;
    this.running = false;
    this.watcher.stopped();
    this.adapter?.detach();
    this.adapter = null;
    this.loop.uninstall();
    this.forced.uninstall();
    this.vitals.stop();
    this.mutations.stop();
    this.win.removeEventListener('scroll', this.markDirty, { capture: true });
    this.win.removeEventListener('resize', this.markDirty);
    this.win.removeEventListener('toggle', this.onTopLayer, { capture: true });
    this.win.removeEventListener('close', this.onTopLayer, { capture: true });
    this.geometry.clear();
    if (this.flushTimer !== null) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (this.backstopTimer !== null) clearTimeout(this.backstopTimer);
    this.backstopTimer = null;
    this.registry.clear();
    this.ring.clear();
    this.strings.reset();
    this.keys.clear();
    this.dirtied.stop();
    this.probes.clear();
    this.animationKinds = new WeakMap();
    this.forcedById.clear();
    this.forcedCountById.clear();
    this.frameNo = 0;
  }

  configure(cfg: ContentToPage['config']): void {
    // Every drawn component's bounds are written again (and the table holds only the drawn ones).
    this.geometry.setWanted(cfg.wantBounds);
    this.track.enabled = cfg.track;
    // Interactions are built only while something reads them (the same readers); a reader now gets those waiting.
    this.vitals.wanted = cfg.commits;
    this.vitals.flash = cfg.flash;
    if (cfg.commits !== this.registry.wantCommits) {
      this.registry.wantCommits = cfg.commits;
      // Keys go to the same readers as commit counts (registry `wantKeys`).
      this.registry.wantKeys = cfg.commits;
      // What reads them now (a panel's table, a recording) starts from current totals, with the held keys before them.
      if (cfg.commits) {
        this.registry.sendKeys();
        this.flushCommits();
      }
    }
    if (cfg.pinned !== this.pinned) {
      this.pinned = cfg.pinned;
      this.trackDirtied(true);
    }
    this.markDirty();
  }

  readonly markDirty = (): void => {
    if (!this.running) return;
    this.dirty = true;
    this.loop.ensureFrame();
    // Hidden tabs get no frames: make sure records still reach the content script. A timer of its own, armed at most
    // once per interval, so that it never moves the frame's cadence timer; while frames come (their ends hand the
    // records over), a slow one, in case they stop.
    if (this.backstopTimer === null) {
      this.backstopTimer = setTimeout(this.backstop, this.framesStalled(performance.now()) ? BACKSTOP_MS : SLOW_BACKSTOP_MS);
    }
  };

  /** No frame for BACKSTOP_MS: a hidden tab, a throttled frame, or a page busy elsewhere. */
  private framesStalled(now: number): boolean {
    return now - this.loop.tickStartMs > BACKSTOP_MS;
  }

  /**
   * Hands over what is pending once no flush did for BACKSTOP_MS; when one did since, waits the rest of the interval.
   * While frames come, nothing: their ends hand the records over (the next change arms it again).
   */
  private readonly backstop = (): void => {
    this.backstopTimer = null;
    if (!this.running || (this.ring.length === 0 && this.registry.pendingRecounts === 0)) return;
    const now = performance.now();
    if (!this.framesStalled(now)) return;
    const since = now - this.lastFlush;
    if (since >= BACKSTOP_MS) this.clock.run(this.timedFlush);
    else this.backstopTimer = setTimeout(this.backstop, BACKSTOP_MS - since);
  };

  private frame(ts: number): void {
    if (!this.running) return;
    this.frameTs = ts;
    // A frame after the last one logged began: a shift stamped later is not that one's (frame-log.ts `around`).
    this.clock.enter();
    try {
      if (this.vitals.log.on) this.vitals.log.tick(this.loop.tickStartMs);
      this.measureFrame();
    } catch (e) {
      this.fault(e);
    } finally {
      this.clock.leave();
      // The whole native callback is ours (flush included): the Long Animation
      // Frames cross-check must not mistake any of it for foreign rAF work.
      try {
        this.forced.loopRan(this.loop.tickStartMs, this.now() - this.loop.tickStartMs);
      } catch (e) {
        this.fault(e);
      }
    }
  }

  private measureFrame(): void {
    const ranPage = this.loop.lastCallbacks > 0;
    if (!this.dirty && !ranPage) {
      if (this.ring.length > 0) this.handOver();
      return;
    }
    this.dirty = false;
    const forced = this.forced;
    // Everything below is the agent's own reading: not a page forced reflow.
    forced?.pause();
    try {
      this.checkRaf();
      // Frame-end measurement: the page's callbacks have run; flush style, then layout. A read of the
      // root's computed style would force nothing when the root is clean; getAnimations() flushes the
      // document's style. Both only move this frame's own work earlier (SPEC §5.2).
      const doc = this.win.document;
      const t0 = this.now();
      const animations = doc.getAnimations();
      const t1 = this.now();
      if (forced) forced.layoutNow(doc.documentElement);
      else doc.documentElement.getBoundingClientRect();
      const t2 = this.now();
      // What a framework that reports its commits through the DOM (Vue) changed, before the records nobody reported.
      this.adapter?.flush();
      this.mutations.drain();
      // Counts current before they weigh the split (a subtree mounted this frame has none yet); only when
      // structure changed, so that Stats records still go out at the flush rate on ordinary frames.
      if (this.registry.pendingRecounts > 0) this.registry.flushStats();
      const forcedMs = forced ? forced.take(this.forcedById, this.forcedCountById) : 0;
      this.frameNo++;
      const animating = this.animationCauses(animations);
      const causes = this.registry.causes;
      const w = this.weights;
      // A place the split needs and has never measured is measured now, up to what the frame's own layout took.
      this.probes.firstMay(Math.max(FIRST_PROBE_MS, t2 - t1));
      if (causes.changes > 0) {
        if (causes.alike()) this.framesAlike++;
        else this.framesSplit++;
      }
      // A foreign writer found since the last frame: the places' own figures so far held its writes (probes.ts).
      if (this.foundWriters !== this.mutations.found) {
        this.foundWriters = this.mutations.found;
        this.probes.forgetSeen();
      }
      // A place whose changes are the frame's only ones: the frame's layout is its cost (no probe of it while recent).
      if (forcedMs === 0 && this.probes.usable) noteSeen(causes, this.probes, t2 - t1);
      // An alike frame is split straight from the log (attribution.ts `attributeAlike`): no weights, no owner read.
      const straight = this.pinned === null && this.forcedById.size === 0 && !causes.anyGone && causes.alike();
      if (straight) w.explainedMs = -1;
      else weigh(causes, this.probes.usable ? this.probes : null, w, t2 - t1);
      this.probes.firstDone();
      // Its layout against what the estimates explain: a page whose layout changed regime has them measured again. Not
      // when a place was weighed by its own recent frame: that one is of the regime now, and the rest are small beside
      // it (a grid's readout), refreshed on their own schedule.
      if (w.explainedMs > 0 && !w.bySeen) this.probes.observe(t2 - t1, w.explainedMs);
      this.noteAlone(w, t2 - t1 + forcedMs);
      const shared = this.track.enabled || this.vitals.log.on;
      const sink = shared ? this.shareSink : this.ring;
      if (straight) attributeAlike(sink, causes, t1 - t0, t2 - t1, this.isLive);
      else attribute(sink, w.owners, w.layout, w.style, t1 - t0, t2 - t1, this.forcedById, this.isLive, this.forcedCountById, GONE);
      if (shared) {
        if (this.track.enabled) this.track.frame(t0, t1, t2, [...this.shares.values()], (id) => this.registry.nameOf(id));
        this.shares.clear();
        if (this.vitals.log.on) {
          const changed = straight ? causes.firstOwners(MAX_CHANGED, this.changedScratch) : w.owners;
          this.vitals.log.close(this.frameTs, t2, t1 - t0, t2 - t1, forcedMs, changed, (e) => causes.committed(e));
          this.changedScratch.length = 0;
        }
      }
      // Layout no known cause accounts for (none at all, or far more than the probed causes make): someone else wrote.
      const layoutMs = t2 - t1;
      const unexplained = forcedMs === 0 && layoutMs >= UNEXPLAINED_LAYOUT_MS
        && (causes.changes === 0 || (w.explainedMs >= 0 && layoutMs > 1.5 * w.explainedMs + UNEXPLAINED_LAYOUT_MS));
      causes.clear();
      w.owners.length = 0;
      this.ring.write(RecordKind.Frame, this.frameNo, t1 - t0, t2 - t1, forcedMs, t0);
      // The page's own style and layout, only moved earlier: not ours.
      this.clock.exclude(t2 - t0);
      this.geometry.read();
      // Layout is clean: measure the places the split needed and did not know yet (our own time).
      this.probes.run();
      this.mutations.endFrame(unexplained);
      this.trackDirtied(false);
      this.watcher.frame(t1 - t0, t2 - t1, forcedMs, this.now());
      // A running animation that restyles or relayouts makes frames of its own: measure them too.
      if (animating) this.markDirty();
    } catch (e) {
      this.link.debug('frame', e);
      this.fault(e);
    } finally {
      forced?.resume();
    }
    this.handOver();
  }

  /**
   * At a frame's end: the records go now when due (flush-cadence.ts). Else, when another frame is coming (the page
   * asked for one, or something is dirty), its end looks again: no timer set and cleared a frame (each setTimeout
   * cost the page 25–50 µs, docs/PERFORMANCE.md); when none is, a timer hands them over when due.
   */
  private handOver(): void {
    const wait = flushWait(this.now(), this.lastFlush, this.ring);
    if (wait <= 0) this.flush();
    else if (!this.loop.frameComing) this.scheduleFlush(wait);
  }

  /**
   * A frame in which React changed only the pinned component's subtree: all of its layout (frame-end and forced) was
   * caused by it, inside its subtree or spread beyond it (issue 12, item 2).
   */
  private noteAlone(w: Weights<Entry>, layoutMs: number): void {
    const id = this.pinned;
    if (id === null) return;
    let any = false;
    for (let i = 0; i < w.owners.length; i++) {
      if (w.layout[i] === 0) continue;
      any = true;
      let e: Entry | null = w.owners[i];
      for (let g = 0; e !== null && e.id !== id && g < 10_000; g++) e = e.parent;
      if (e === null || e.id !== id) return;
    }
    if (!any) return;
    const a = this.alone;
    a.frames++;
    a.layoutMs += (a.frames === 1 ? 1 : 0.2) * (layoutMs - a.layoutMs);
  }

  /**
   * The page's code forced a flush (timing/forced-reflow.ts): the style and layout of everything changed before it is
   * done and paid by the reader (docs/TIMING.md §3). What was pending is no cause of the frame's end any more; with
   * `names`, the components whose changes it laid out are named for the sampled stack. A commit whose layout effect
   * read is reported first (React tells the hook after its layout effects); other code's attribute and text writes are
   * read only to name their writers (the first WRITER_RECORDS), else let go (mutations.ts `drain`).
   */
  private readonly flushedByPage = (reader: number, names: boolean): string[] | undefined => {
    let out: string[] | undefined;
    try {
      this.adapter?.catchUp?.();
      this.mutations.drain(names ? WRITER_RECORDS : 0);
      const causes = this.registry.causes;
      if (names) {
        const list: string[] = [];
        for (let i = 0; i < causes.changes && list.length < MAX_WRITERS; i++) {
          const owner = causes.loggedOwner(i);
          if ((causes.loggedHow(i) & LAYOUT_CHANGES) === 0 || owner.id === reader) continue;
          const name = this.registry.nameOf(owner.id);
          if (!list.includes(name)) list.push(name);
        }
        if (list.length > 0) out = list;
      }
      causes.clear();
    } catch (e) {
      this.link.debug('flushed', e);
      this.fault(e);
    }
    return out;
  };

  /**
   * Running animations and transitions whose properties restyle or relayout (a composited transform or opacity does
   * neither on the main thread): causes of their target's component. Returns whether any runs, so that its frames are
   * measured too.
   */
  private animationCauses(list: readonly Animation[]): boolean {
    const adapter = this.adapter;
    if (adapter === null || list.length === 0) return false;
    let any = false;
    for (let i = 0; i < list.length && i < MAX_ANIMATIONS; i++) {
      const a = list[i];
      let kind = this.animationKinds.get(a);
      if (kind === undefined) {
        kind = animationKind(a);
        this.animationKinds.set(a, kind);
      }
      if (kind === 0 || a.playState !== 'running') continue;
      const target = (a.effect as KeyframeEffect | null)?.target;
      if (!target) continue;
      any = true;
      const e = this.registry.entries.get(adapter.ownerOf(target));
      if (e !== undefined) this.registry.causes.kind(e, target, kind);
    }
    return any;
  }

  /**
   * At frame end: closes the pinned component's dirtied tally for this frame and (re)watches its top elements for
   * the next; says what it found at most every DIRTIED_INTERVAL_MS, and at once when the pin changed.
   */
  private trackDirtied(pinChanged: boolean): void {
    const id = this.pinned;
    const d = this.dirtied;
    if (!pinChanged && d.id !== 0) d.endFrame();
    const entry = id === null ? undefined : this.registry.entries.get(id);
    if (pinChanged) this.alone = { frames: 0, layoutMs: 0 };
    if (entry === undefined) {
      if (d.id !== 0 || pinChanged) {
        d.stop();
        this.link.post('dirtied', { id: 0, items: [], boundary: null, alone: { ...this.alone } });
      }
      return;
    }
    const hosts = this.registry.hostsOf(entry);
    d.watch(entry.id, hosts);
    const now = this.now();
    if (pinChanged || now - this.lastDirtiedPost >= DIRTIED_INTERVAL_MS) {
      this.lastDirtiedPost = now;
      let boundary = this.lastBoundary;
      // During an experiment the computed style would show its declaration, not the page's.
      if (pinChanged || !this.watcher.busy()) {
        // At frame end style is clean and this forces nothing; on a pin change it may: ours either way, not the page's.
        this.forced.pause();
        try {
          boundary = hosts.length > 0 ? boundaryOf(this.win, hosts) : null;
        } catch (e) {
          this.link.debug('boundary', e);
        } finally {
          this.forced.resume();
        }
        this.lastBoundary = boundary;
      }
      this.link.post('dirtied', { id: entry.id, items: d.tally.top(), boundary, alone: { ...this.alone } });
    }
  }

  /** A page that swaps requestAnimationFrame (at enable or later) bypasses the frame loop: say so once. */
  private checkRaf(announce = true): void {
    const { raf } = this.link;
    if (raf.broken > 0 && !this.rafBrokenReported) {
      this.rafBrokenReported = true;
      this.reasons.add('a built-in the frame loop uses failed (replaced by the page?): requestAnimationFrame passes straight through, frame timing misses its callbacks');
      if (announce) this.link.announce();
    }
    if (this.rafReplacedReported) return;
    if (this.win.requestAnimationFrame === raf.wrappedRaf && this.win.cancelAnimationFrame === raf.wrappedCaf) return;
    this.rafReplacedReported = true;
    this.reasons.add('the page replaced requestAnimationFrame: frame timing may miss its callbacks');
    // Outside start() nobody else posts status: tell the content script now (even before the first frame is
    // counted: a replacement seen in that frame was once never said).
    if (announce) this.link.announce();
  }

  private scheduleFlush(delayMs: number): void {
    const at = performance.now() + Math.max(0, delayMs);
    if (this.flushTimer !== null) {
      // A numbers-only wait pending, and now something that places a meter: the sooner one wins.
      if (this.flushAt <= at) return;
      clearTimeout(this.flushTimer);
    }
    this.flushAt = at;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      this.clock.run(this.timedFlush);
    }, Math.max(0, delayMs));
  }

  /** A flush from a timer of ours: part of the frame's handling (an error in it is a fault). */
  private readonly timedFlush = (): void => {
    try {
      this.flush();
    } catch (e) {
      this.fault(e);
    }
  };

  /** An error caught in commit or frame handling (self-clock.ts): the view is suspect, and rebuilt (heal.ts). */
  fault(e: unknown): void {
    this.link.debug('fault', e);
    if (this.running || this.healing) this.healer.fault(e);
  }

  /** A start that failed (its reason said): tried again as a rebuild, backing off, until it holds or the overlay goes off. */
  private revive = false;

  private failedStart(e: unknown): void {
    this.revive = true;
    this.healer.fault(e);
  }

  /**
   * The view again from the frameworks' roots (the walk `enable` does), every per-frame structure made afresh, the
   * ids of components that still exist kept: what a fault may have left half-done is gone, and no second copy stays.
   * The content script hears a Reset, then every component (its running figures start again, as after a lost batch).
   */
  private rebuild(): void {
    if (!this.running && !this.revive) return;
    const wanted = this.geometry.wanted;
    const adapter = this.adapter;
    this.registry.keepIds((h) => adapter?.twinOf?.(h) ?? null);
    this.healing = true;
    try {
      this.stop();
      this.start();
    } finally {
      this.healing = false;
      this.registry.keepIds(null);
    }
    if (this.running) this.revive = false;
    this.geometry.setWanted(wanted);
    this.markDirty();
  }

  /**
   * Sends everything again (a batch was lost on the way): Reset, then a back-fill of every mounted component — the
   * rebuild a fault gets, ids kept.
   */
  resync(): void {
    this.rebuild();
  }

  /** Recounts what changed, then hands the records over. */
  flush(releaseHeld = false): void {
    if (!this.running) return;
    this.lastFlush = performance.now();
    // A cadence timer still pending would only find the ring this flush empties.
    if (this.flushTimer !== null) {
      clearTimeout(this.flushTimer);
      this.flushTimer = null;
    }
    this.registry.flushStats();
    if (this.registry.pendingRecounts > 0) this.scheduleFlush(PLACE_INTERVAL_MS);
    // Behind everything written before them, in the same batch.
    if (releaseHeld) this.registry.releaseCommits();
    this.postRecords();
  }

  /**
   * Hands the drained ring to the content script (buffer transferred). Never recounts. Public for a message that must
   * reach the content script after the mounts it names (the agent's `types`).
   */
  postRecords(): void {
    const vitals = this.vitals.take(this.apiFlush);
    this.apiFlush = false;
    if (this.ring.length === 0 && vitals === undefined) return;
    const count = this.ring.length;
    this.recordsPosted += count;
    // A small batch is copied by the post; a large one's buffer is transferred (MAX_COPIED_RECORDS).
    const copied = count <= MAX_COPIED_RECORDS;
    const buffer = copied ? this.ring.drainToArray() : this.ring.drain().buffer as ArrayBuffer;
    const { strings, stringBase } = this.strings.take();
    const t0 = vitals === undefined ? 0 : this.now();
    this.link.post('records', {
      buffer, count, strings, stringBase, dropped: this.ring.dropped, keys: this.keys.take(), seq: ++this.seq,
      selfMs: this.clock.take(), ...(vitals === undefined ? {} : { vitals }),
    }, copied ? undefined : [buffer as ArrayBuffer]);
    // A batch that carries interactions or shifts: all of its post counts as theirs (an upper bound when records rode too).
    if (vitals !== undefined) this.vitals.ownMs += this.now() - t0;
  }

  hitTest(x: number, y: number): number | null {
    if (!this.adapter) return null;
    // Our own read: not a page forced reflow.
    this.forced.pause();
    let el: Element | null;
    try {
      el = this.win.document.elementFromPoint(x, y);
    } finally {
      this.forced.resume();
    }
    if (!el) return null;
    const id = this.adapter.ownerOf(el);
    if (id <= 0) return null;
    // elementFromPoint just left layout clean: send the hovered component's box
    // now, so Inspect does not wait a frame for it.
    this.forced.pause();
    try {
      this.geometry.write(id);
    } finally {
      this.forced.resume();
    }
    this.postRecords();
    return id;
  }

  /** Sizes of every table the agent keeps, for leak tests. */
  stats(): Record<string, number> {
    return {
      running: this.running ? 1 : 0,
      entries: this.registry.entries.size,
      ring: this.ring.length,
      /** The ring's buffer: 0 while off (given back on stop). */
      ringBytes: this.ring.bytes,
      dropped: this.ring.dropped,
      /** Records handed to the content script so far (bench/own-js.ts counts them per commit). */
      recordsPosted: this.recordsPosted,
      /** Batches handed over so far (flush-cadence.ts decides how often). */
      batchesPosted: this.seq,
      /** Frames with causes: split alike straight from the log (one parent, nothing weighing apart), or weighed. */
      framesAlike: this.framesAlike,
      framesSplit: this.framesSplit,
      ...this.geometry.stats(),
      hostsTracked: this.link.shadow.hosts.length,
      pendingRecounts: this.registry.pendingRecounts,
      portals: this.adapter?.portalCount ?? 0,
      floating: this.registry.floating.length,
      /** Interactions and layout shifts: entries handled, our ms on them in all, the most one entry took (ms). */
      vitalsEntries: this.vitals.handled,
      vitalsMs: this.vitals.ownMs,
      /** Of vitalsMs: the input listener's, the observer's callbacks' and the records batches' (bench/vitals-cost.ts). */
      vitalsInputMs: this.vitals.split.input,
      vitalsEntriesMs: this.vitals.split.entries,
      vitalsTakeMs: this.vitals.split.take,
      // Shifts noted or settled, their causes not looked for yet (nothing read them).
      vitalsShiftsWaiting: this.vitals.shifts.pending.length + this.vitals.shifts.settled.length,
      /** 1 while shifts are read as they come (a panel, a recording, the outline): their causes looked for at once. */
      vitalsShiftsRead: this.vitals.shiftsRead ? 1 : 0,
      vitalsMaxMs: this.vitals.maxMs,
      /** 1 while the Performance panel track is written (DevTools open on the tab and the setting on). */
      track: this.track.enabled ? 1 : 0,
      /** 1 while components' keys go to the content script (a panel or a recording shows them; registry `wantKeys`). */
      keys: this.registry.wantKeys ? 1 : 0,
      /** Layout probes made since enable (probes.ts: each is two forced layouts of ours) and their ms. */
      probes: this.probes.made,
      probeMs: Math.round(this.probes.spentMs * 100) / 100,
      probeFirsts: this.probes.firsts,
      /** Batches made because the frames' layout drifted from what the estimates explained (probes.ts `observe`). */
      probeDrifts: this.probes.drifts,
      /** Places weighed by a frame of their own instead of a probe (probes.ts `seen`), since enable. */
      probeSeen: this.probes.seenUsed,
      /** Components watched for attribute and text writes other code made (mutations.ts). */
      foreignWatched: this.mutations.watched,
      /** Their attribute and text records read since start (those pending at a page's forced read are let go). */
      foreignRecords: this.mutations.read,
    };
  }

  /**
   * A flush with the commit counts held back (registry.releaseCommits) written behind everything else: a mount goes out
   * with its counts as at any flush (posting the ring alone sent mounts not yet counted, which a panel's table then
   * showed at 0), and no record written before the release can arrive after it.
   */
  flushCommits(): void {
    this.flush(true);
  }

  /** Before an API call goes to the content script: what it reads is current (commit counts, interactions built). */
  flushForApi(): void {
    this.apiFlush = true;
    this.flush(true);
    this.apiFlush = false;
  }

  private apiFlush = false;

  nodeOf(id: number): Node | null {
    const e = this.registry.entries.get(id);
    return e ? (this.registry.hostsOf(e)[0] ?? null) : null;
  }

  /**
   * `__LAYOUT_COST__.owner(node)`: the mounted component that rendered a node, or 0. The page passes anything: an
   * object that is not one of this document's nodes (a getter that throws, a proxy) answers 0.
   */
  ownerOfNode(node: unknown): number {
    try {
      if (this.adapter === null || typeof node !== 'object' || node === null) return 0;
      if (typeof (node as Node).nodeType !== 'number' || (node as Node).ownerDocument !== document) return 0;
      const id = this.adapter.ownerOf(node as Node);
      return this.registry.entries.has(id) ? id : 0;
    } catch {
      return 0;
    }
  }

  /** A copy of a component's top host elements (empty when it is not mounted). */
  hostsOf(id: number): Element[] {
    const e = this.registry.entries.get(id);
    return e ? this.registry.hostsOf(e).slice() : [];
  }

  /** Our own layout reads (an experiment's box comparison) run between these: not the page's forced reflows. */
  pauseForced(): void {
    this.forced.pause();
  }

  resumeForced(): void {
    this.forced.resume();
  }
}

/** Every style sheet the page's elements may match: the document's, adopted ones, and those of the shadow roots we know. */
function* styleSheets(win: Window & typeof globalThis, shadow: AgentLink['shadow']): Generator<CSSStyleSheet> {
  const doc = win.document;
  for (let i = 0; i < doc.styleSheets.length; i++) yield doc.styleSheets[i];
  yield* doc.adoptedStyleSheets ?? [];
  for (const ref of shadow.hosts) {
    const host = ref.deref();
    const root = host ? shadow.rootOf.get(host) ?? host.shadowRoot : null;
    if (!root) continue;
    for (let i = 0; i < root.styleSheets.length; i++) yield root.styleSheets[i];
    yield* root.adoptedStyleSheets ?? [];
  }
}
