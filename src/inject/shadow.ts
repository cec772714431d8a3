/**
 * attachShadow wrapper: remembers every shadow root, closed ones included, so
 * that rendered counts can descend into them and the agent's
 * MutationObserver can observe them. While off it only records.
 */
import type { ShadowState } from './internal';

export function installShadowTap(win: Window & typeof globalThis, report: (e: unknown) => void): ShadowState {
  const proto = win.Element.prototype;
  const native = proto.attachShadow;
  const state: ShadowState = { rootOf: new WeakMap(), hosts: [], onAttach: null, nativeAttachShadow: native };
  proto.attachShadow = function attachShadow(this: Element, init: ShadowRootInit): ShadowRoot {
    const root = native.call(this, init);
    try {
      state.rootOf.set(this, root);
      state.hosts.push(new WeakRef(this));
      state.onAttach?.(this, root);
    } catch (e) {
      report(e);
    }
    return root;
  };
  return state;
}
