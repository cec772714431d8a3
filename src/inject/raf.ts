/**
 * requestAnimationFrame / cancelAnimationFrame are taken over at
 * document_start, before any page script can keep the native ones. While the
 * overlay is off the wrappers are a bare pass-through; while on, the agent's
 * FrameTap queues callbacks and runs them from one native callback so that it
 * can time the frame's style and layout right after them.
 */
import type { RafState } from './internal';

export function installRaf(win: Window & typeof globalThis): RafState {
  const nativeRaf = win.requestAnimationFrame;
  const nativeCaf = win.cancelAnimationFrame;
  const state: RafState = {
    nativeRaf,
    nativeCaf,
    wrappedRaf: nativeRaf,
    wrappedCaf: nativeCaf,
    tap: null,
  };
  // Named like the originals so page code that checks `.name` is not surprised.
  const wrappers = {
    requestAnimationFrame(cb: FrameRequestCallback): number {
      const tap = state.tap;
      return tap === null ? nativeRaf.call(win, cb) : tap.request(cb);
    },
    cancelAnimationFrame(handle: number): void {
      const tap = state.tap;
      if (tap === null) nativeCaf.call(win, handle);
      else tap.cancel(handle);
    },
  };
  state.wrappedRaf = wrappers.requestAnimationFrame;
  state.wrappedCaf = wrappers.cancelAnimationFrame;
  win.requestAnimationFrame = state.wrappedRaf;
  win.cancelAnimationFrame = state.wrappedCaf;
  return state;
}
