/**
 * attachShadow wrapper: remembers every shadow root, closed ones included, so
 * that rendered counts can descend into them and the agent's
 * MutationObserver can observe them. While off it only records.
 */
import type { ShadowState } from './link';

/** The host list is pruned of collected hosts whenever it has doubled since the last prune (amortised O(1)). */
const MIN_PRUNE_AT = 1024;

export function installShadowTap(win: Window & typeof globalThis, report: (e: unknown) => void): ShadowState {
  const proto = win.Element.prototype;
  const native = proto.attachShadow;
  // Kept now: a page that later replaces Function.prototype.call must not break (or see) the call.
  const apply = Reflect.apply;
  const state: ShadowState = { rootOf: new WeakMap(), hosts: [], onAttach: null, nativeAttachShadow: native };
  let pruneAt = MIN_PRUNE_AT;
  proto.attachShadow = function attachShadow(this: Element, init: ShadowRootInit): ShadowRoot {
    const root = apply(native, this, [init]) as ShadowRoot;
    try {
      state.rootOf.set(this, root);
      const hosts = state.hosts;
      if (hosts.length >= pruneAt) {
        // Off or on, a page that creates and drops shadow hosts must not grow this list (issue 11: 200 000 → +4.7 MB).
        let w = 0;
        for (let i = 0; i < hosts.length; i++) if (hosts[i].deref() !== undefined) hosts[w++] = hosts[i];
        hosts.length = w;
        pruneAt = Math.max(MIN_PRUNE_AT, 2 * w);
      }
      hosts.push(new WeakRef(this));
      state.onAttach?.(this, root);
    } catch (e) {
      report(e);
    }
    return root;
  };
  return state;
}
