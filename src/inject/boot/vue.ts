/**
 * Vue 3 announces itself on window: `target.__VUE__ = true` as its first renderer is made, in every build
 * (vue:runtime-core/src/renderer.ts#L357 in vue/internals.ts's terms). The boot keeps that assignment behind an
 * accessor of its own, so that the page's status says "Vue" before the agent exists, and an agent that is on when Vue
 * arrives attaches its Vue adapter then (issue 63). What Vue wrote reads back the same (Vue DevTools reads it).
 */
import type { VueState } from './link';

/** `first`: what Vue's arrival sets going at once, as React's does (the attachShadow tap: boot/shadow.ts). */
export function vueTrap(win: Window & typeof globalThis, define: typeof Object.defineProperty, report: (e: unknown) => void,
  first: () => void): VueState {
  const state: VueState = { seen: false, onSeen: null };
  let value: unknown;
  try {
    define(win, '__VUE__', {
      configurable: true,
      enumerable: false,
      get: () => value,
      set: (v: unknown) => {
        value = v;
        if (!v || state.seen) return;
        state.seen = true;
        try {
          first();
          state.onSeen?.();
        } catch (e) {
          report(e);
        }
      },
    });
  } catch (e) {
    // A page that made window's own property unconfigurable first (not at document_start): Vue is found on enable.
    report(e);
  }
  return state;
}
