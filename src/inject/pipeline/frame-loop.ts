/**
 * The frame loop while the overlay is on. The page's requestAnimationFrame
 * callbacks are queued here and run from one native callback; after the
 * last of them the pipeline measures the frame (style flush, then layout)
 * and reads bounds while layout is clean. Frames are requested only while
 * something is dirty or the page asked for one: an idle page stays idle.
 *
 * Semantics kept: callbacks run in request order with the frame's
 * timestamp; a callback registered during a frame runs in the next one;
 * cancel works until the callback runs; one throwing callback is reported
 * (like an uncaught error) and does not stop the others.
 */
import type { FrameTap, RafState } from '../internal';

/** Our handles start high so they never collide with native ones (small integers). */
const HANDLE_BASE = 0x40000000;

export class FrameLoop implements FrameTap {
  private queue = new Map<number, FrameRequestCallback>();
  private nextHandle = HANDLE_BASE;
  private native = 0;
  private draining = false;
  /** Callbacks run in the last frame (0 = the frame was ours alone). */
  lastCallbacks = 0;

  constructor(
    private readonly raf: RafState,
    private readonly win: Window & typeof globalThis,
    private readonly onFrame: (ts: number) => void,
  ) {}

  install(): void {
    this.draining = false;
    this.raf.tap = this;
  }

  /** Stops taking new callbacks; the queued ones still run in the next frame, then the tap goes away. */
  uninstall(): void {
    if (this.queue.size === 0) {
      if (this.raf.tap === this) this.raf.tap = null;
      if (this.native !== 0) this.raf.nativeCaf.call(this.win, this.native);
      this.native = 0;
    } else {
      this.draining = true;
    }
  }

  request(cb: FrameRequestCallback): number {
    if (this.draining) return this.raf.nativeRaf.call(this.win, cb);
    const handle = this.nextHandle++;
    this.queue.set(handle, cb);
    this.ensureFrame();
    return handle;
  }

  cancel(handle: number): void {
    if (!this.queue.delete(handle)) this.raf.nativeCaf.call(this.win, handle);
  }

  /** Asks for a native frame if none is pending. */
  ensureFrame(): void {
    if (this.native === 0) this.native = this.raf.nativeRaf.call(this.win, this.tick);
  }

  private readonly tick = (ts: number): void => {
    this.native = 0;
    const run = this.queue;
    this.queue = new Map();
    this.lastCallbacks = run.size;
    for (const cb of run.values()) {
      try {
        cb.call(this.win, ts);
      } catch (e) {
        // Report like an uncaught exception in a native rAF callback, and go on.
        this.win.reportError(e);
      }
    }
    if (this.draining) {
      this.draining = false;
      if (this.raf.tap === this) this.raf.tap = null;
      // Callbacks queued during the drain frame still belong to us: hand them to the native loop.
      for (const cb of this.queue.values()) this.raf.nativeRaf.call(this.win, cb);
      this.queue.clear();
      return;
    }
    this.onFrame(ts);
  };
}
