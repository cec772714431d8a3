/**
 * The attachShadow tap: remembers every shadow root, closed ones included, so
 * that rendered counts can descend into them and the agent's
 * MutationObserver can observe them. While off it only records.
 *
 * Installed on first need, not at load: touching `Element.prototype` at
 * document_start makes Blink create the `Element` interface in the MAIN world,
 * ≈ 0.25 ms a load on a page that never touches an element itself
 * (docs/PERFORMANCE.md, always on). The hook installs it when React first
 * reads `__REACT_DEVTOOLS_GLOBAL_HOOK__` or registers a renderer (hook.ts),
 * before React renders anything, so React's own components' roots are all
 * seen; the agent installs it on enable on a page without React, and then
 * finds the open roots attached before it (agent/pipeline/shadow-walk.ts).
 * Closed roots attached before either are not seen (docs/REACT-ADAPTER.md, counts).
 */
import type { ShadowState } from './link';

/** The host list is pruned of collected hosts whenever it has doubled since the last prune (amortised O(1)). */
const MIN_PRUNE_AT = 1024;

export function shadowTap(win: Window & typeof globalThis, report: (e: unknown) => void): ShadowState {
  // Kept now: a page that later replaces Function.prototype.call must not break (or see) the call.
  const apply = Reflect.apply;
  // And WeakMap's set: web components attach shadow roots long after the page may have replaced it (issue 45).
  const wmSet = WeakMap.prototype.set;
  let pruneAt = MIN_PRUNE_AT;
  const state: ShadowState = {
    rootOf: new WeakMap(),
    hosts: [],
    onAttach: null,
    tapped: false,
    note(host: Element, root: ShadowRoot): void {
      apply(wmSet, state.rootOf, [host, root]);
      const hosts = state.hosts;
      if (hosts.length >= pruneAt) {
        // Off or on, a page that creates and drops shadow hosts must not grow this list (issue 11: 200 000 → +4.7 MB).
        let w = 0;
        for (let i = 0; i < hosts.length; i++) if (hosts[i].deref() !== undefined) hosts[w++] = hosts[i];
        hosts.length = w;
        pruneAt = Math.max(MIN_PRUNE_AT, 2 * w);
      }
      hosts[hosts.length] = new WeakRef(host);
    },
    tap(): void {
      if (state.tapped) return;
      state.tapped = true;
      try {
        const proto = win.Element.prototype;
        const native = proto.attachShadow;
        proto.attachShadow = function attachShadow(this: Element, init: ShadowRootInit): ShadowRoot {
          const root = apply(native, this, [init]) as ShadowRoot;
          try {
            state.note(this, root);
            state.onAttach?.(this, root);
          } catch (e) {
            report(e);
          }
          return root;
        };
      } catch (e) {
        report(e);
      }
    },
  };
  return state;
}
