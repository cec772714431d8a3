/**
 * The frame loop while the overlay is on. The page's requestAnimationFrame
 * callbacks are queued here and run from one native callback (`tick`); a
 * second native callback registered right behind it (`measure`) then
 * measures the frame (style flush, then layout) and reads bounds while layout
 * is clean. Two callbacks, not one: the browser runs a microtask checkpoint
 * after each native callback, and what the page's callbacks leave there —
 * React's synchronous re-render after a store update in rAF (Redux's
 * auto-batch timer in recharts), promise continuations — commits DOM in that
 * checkpoint. With one native callback that work came after our measurement,
 * escaped it, and the Long Animation Frames cross-check took it for a foreign
 * rAF (issue 9). Frames are requested only while something is dirty or the
 * page asked for one: an idle page stays idle.
 *
 * Semantics kept (HTML "run the animation frame callbacks"): callbacks run
 * in request order with the frame's timestamp and `this` undefined; a
 * callback registered during a frame runs in the next one; cancel works
 * until the callback runs, including for a callback later in the frame being
 * run; one throwing callback is reported (like an uncaught error) and does
 * not stop the others; a non-function is rejected by the native, with its
 * own TypeError.
 *
 * Handover: callbacks requested while off went to the native and run there
 * (cancel passes their handles through). Such a callback may run in the
 * first frame after install before our native callback does, and request its
 * successor through us; were our callback already due in that frame, the
 * successor would run in the same frame as its parent — twice in one frame.
 * So install first "arms": a native callback registered at install runs in
 * the next frame after every natively queued one, and only then may our
 * first tick be requested (for the frame after). On uninstall the queued callbacks still run, once,
 * in the next frame, then the tap goes away ("draining"); callbacks requested
 * meanwhile go to the native. A callback never runs twice or not at all
 * because of us; across a switch it may run one frame late.
 */
import type { FrameTap, RafState } from '../../boot/link';

/** Our handles start high so they never collide with native ones (small integers). */
const HANDLE_BASE = 0x40000000;

/**
 * One frame's callbacks. Handles are handed out in order and only to the queue, so a batch holds the contiguous
 * range [start, start + n): a handle finds its slot by subtraction. Plain indexed slots, no Map and no array
 * methods: the page can replace those built-ins (issue 11: a replaced Map.prototype.set made 193 of the page's own
 * rAF calls throw), not index reads and writes on our own arrays.
 */
interface Batch {
  start: number;
  cbs: (FrameRequestCallback | null)[];
  n: number;
  /** Slots still holding a callback. */
  live: number;
}

function newBatch(): Batch {
  return { start: 0, cbs: [], n: 0, live: 0 };
}

export class FrameLoop implements FrameTap {
  /** Callbacks for the next frame; swapped with `running` at each frame (no allocation per frame). */
  private queue = newBatch();
  /** Callbacks of the frame being run, removed as they run (so cancel can still reach the rest). */
  private running = newBatch();
  private nextHandle = HANDLE_BASE;
  private native = 0;
  /** The pending `measure` callback (0: none). */
  private measureNative = 0;
  /** `tick` ran the page's callbacks and its `measure` has not run yet. */
  private ticked = false;
  private draining = false;
  /** Installed, the arming callback not yet run (see Handover above). */
  private arming = false;
  /** A frame was asked for while arming. */
  private wanted = false;
  /** Callbacks run in the last frame (0 = the frame was ours alone). */
  lastCallbacks = 0;
  /** When the last native callback began (performance.now() ms). */
  tickStartMs = 0;
  private readonly report: (e: unknown) => void;
  private readonly now: () => number;
  /** `Reflect.apply` as it was at document_start (the page may have replaced it, or `.call`, since). */
  private readonly apply: typeof Reflect.apply;

  constructor(
    private readonly raf: RafState,
    private readonly win: Window & typeof globalThis,
    private readonly onFrame: (ts: number) => void,
  ) {
    const apply = raf.apply;
    this.apply = apply;
    const perf = win.performance;
    const now = perf.now;
    this.now = () => apply(now, perf, []) as number;
    // Captured now: a page that later replaces reportError does not change how its own errors surface.
    const reportError = win.reportError;
    this.report = typeof reportError === 'function'
      ? (e) => apply(reportError, win, [e])
      : (e) => win.setTimeout(() => { throw e; }, 0);
  }

  install(): void {
    this.draining = false;
    this.raf.tap = this;
    // A tick already pending (re-enabled while draining) was registered before any native page callback: keep it.
    if (this.native !== 0) return;
    this.arming = true;
    this.wanted = false;
    this.native = this.apply(this.raf.nativeRaf, this.win, [this.arm]) as number;
  }

  /** Stops taking new callbacks; the queued ones still run in the next frame, then the tap goes away. */
  uninstall(): void {
    if (this.queue.live === 0 && this.running.live === 0) {
      if (this.raf.tap === this) this.raf.tap = null;
      if (this.native !== 0) this.apply(this.raf.nativeCaf, this.win, [this.native]);
      if (this.measureNative !== 0) this.apply(this.raf.nativeCaf, this.win, [this.measureNative]);
      this.native = 0;
      this.measureNative = 0;
      this.ticked = false;
      this.draining = false;
      this.arming = false;
      this.wanted = false;
    } else {
      this.draining = true;
    }
  }

  request(cb: FrameRequestCallback): number {
    // The native validates (and throws its own TypeError for a non-function); so do we, by asking it.
    if (this.draining || typeof cb !== 'function') return this.apply(this.raf.nativeRaf, this.win, [cb]) as number;
    const handle = this.nextHandle++;
    const q = this.queue;
    if (q.n === 0) q.start = handle;
    q.cbs[q.n++] = cb;
    q.live++;
    this.ensureFrame();
    return handle;
  }

  cancel(handle: number): void {
    if (!takeOut(this.queue, handle) && !takeOut(this.running, handle)) this.apply(this.raf.nativeCaf, this.win, [handle]);
  }

  /**
   * Asks for a native frame if none is pending: `tick`, then `measure` behind it. A `measure` still pending
   * (this frame's: we are between the two) registers the next one itself when it has run, behind the new tick.
   */
  ensureFrame(): void {
    if (this.native === 0) {
      this.native = this.apply(this.raf.nativeRaf, this.win, [this.tick]) as number;
      if (this.measureNative === 0) this.measureNative = this.apply(this.raf.nativeRaf, this.win, [this.measure]) as number;
    } else if (this.arming) this.wanted = true;
  }

  /** A native frame is asked for (a page callback or something dirty waits for it): this frame is not the last. */
  get frameComing(): boolean {
    return this.native !== 0 && !this.draining;
  }

  private readonly arm = (): void => {
    this.native = 0;
    this.arming = false;
    if (this.draining) this.finishDrain();
    else if (this.wanted || this.queue.live > 0) this.ensureFrame();
    this.wanted = false;
  };

  private readonly tick = (ts: number): void => {
    this.tickStartMs = this.now();
    this.native = 0;
    const run = this.queue;
    this.queue = this.running;
    this.running = run;
    this.lastCallbacks = run.live;
    // Slots are read afresh each turn: a callback may cancel a later one (its slot turns null).
    for (let i = 0; i < run.n; i++) {
      const cb = run.cbs[i];
      if (cb === null) continue;
      run.cbs[i] = null;
      run.live--;
      try {
        this.apply(cb, undefined, [ts]);
      } catch (e) {
        // Report like an uncaught exception in a native rAF callback, and go on.
        try {
          this.report(e);
        } catch {
          // reportError itself failed (it should not): the page's error already surfaced as far as it can.
        }
      }
    }
    run.n = 0;
    run.live = 0;
    run.cbs.length = 0;
    if (this.draining) this.finishDrain();
    else this.ticked = true;
  };

  private readonly measure = (ts: number): void => {
    this.measureNative = 0;
    if (this.ticked) {
      this.ticked = false;
      this.onFrame(ts);
    }
    // A tick is pending for the next frame (requested during this one): its measure goes behind it.
    if (this.native !== 0 && !this.arming && this.measureNative === 0) {
      this.measureNative = this.apply(this.raf.nativeRaf, this.win, [this.measure]) as number;
    }
  };

  /** The tap goes away; anything still queued (only possible mid-handover) goes to the native loop, once. */
  private finishDrain(): void {
    this.draining = false;
    if (this.raf.tap === this) this.raf.tap = null;
    const q = this.queue;
    for (let i = 0; i < q.n; i++) {
      const cb = q.cbs[i];
      if (cb !== null) this.apply(this.raf.nativeRaf, this.win, [cb]);
    }
    q.n = 0;
    q.live = 0;
    q.cbs.length = 0;
  }
}

/** Empties the slot of `handle` if this batch holds it; true when it did. */
function takeOut(b: Batch, handle: number): boolean {
  const i = handle - b.start;
  if (i < 0 || i >= b.n || b.cbs[i] === null) return false;
  b.cbs[i] = null;
  b.live--;
  return true;
}
