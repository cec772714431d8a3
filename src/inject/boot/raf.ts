/**
 * requestAnimationFrame / cancelAnimationFrame are taken over at
 * document_start, before any page script can keep the native ones. While the
 * overlay is off the wrappers are a bare pass-through; while on, the agent's
 * FrameTap queues callbacks and runs them from one native callback so that it
 * can time the frame's style and layout right after them.
 */
import type { RafState } from './link';

export function installRaf(win: Window & typeof globalThis): RafState {
  const nativeRaf = win.requestAnimationFrame;
  const nativeCaf = win.cancelAnimationFrame;
  // Kept now, before any page script: a page that later replaces Function.prototype.call must not break its own rAF.
  const apply = Reflect.apply;
  const state: RafState = {
    nativeRaf,
    nativeCaf,
    wrappedRaf: nativeRaf,
    wrappedCaf: nativeCaf,
    tap: null,
    broken: 0,
    apply,
  };
  // Named like the originals so page code that checks `.name` is not surprised.
  const wrappers = {
    requestAnimationFrame(cb: FrameRequestCallback): number {
      const tap = state.tap;
      // A non-function gets the native's own TypeError.
      if (tap === null || typeof cb !== 'function') return apply(nativeRaf, win, [cb]) as number;
      try {
        return tap.request(cb);
      } catch {
        // The frame loop broke (a page that replaced a built-in it uses): never throw into the page's call;
        // the callback goes to the native, and from now on every call does (the tap is dropped).
        state.tap = null;
        state.broken++;
        return apply(nativeRaf, win, [cb]) as number;
      }
    },
    cancelAnimationFrame(handle: number): void {
      const tap = state.tap;
      if (tap !== null) {
        try {
          tap.cancel(handle);
          return;
        } catch {
          state.tap = null;
          state.broken++;
        }
      }
      apply(nativeCaf, win, [handle]);
    },
  };
  state.wrappedRaf = wrappers.requestAnimationFrame;
  state.wrappedCaf = wrappers.cancelAnimationFrame;
  win.requestAnimationFrame = state.wrappedRaf;
  win.cancelAnimationFrame = state.wrappedCaf;
  return state;
}
