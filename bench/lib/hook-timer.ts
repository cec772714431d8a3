/**
 * Page-side helpers for the per-commit benchmarks (commit-hook.ts,
 * commit-proportional.ts). `installHookTimer` is passed to `page.evaluate`
 * once the page has loaded, so it must stay self-contained. It wraps the
 * hook object's commit callbacks to time them (our hook is an accessor on
 * Window.prototype returning that object), and defines
 * `window.__timedClick()`: one discrete update (a click dispatched to the
 * detached button in `window.__benchButton`, whose handler runs the tick;
 * React 19 commits it in the microtask after the dispatch), timed from the
 * dispatch to after the microtasks the commit queued, then two animation
 * frames and 20 ms of quiet so the overlay's frame-end work falls outside the
 * next tick.
 */
export interface TimedClick {
  t0: number;
  t1: number;
  hookMs: number;
}

export function installHookTimer(): void {
  const w = window as any;
  const timer = { ms: 0 };
  const hook = w.__REACT_DEVTOOLS_GLOBAL_HOOK__;
  if (hook) {
    for (const key of ['onCommitFiberRoot', 'onCommitFiberUnmount']) {
      const orig = hook[key];
      if (typeof orig !== 'function') continue;
      hook[key] = function (this: unknown, ...a: unknown[]) {
        const t = performance.now();
        try {
          return orig.apply(this, a);
        } finally {
          timer.ms += performance.now() - t;
        }
      };
    }
  }
  w.__timedClick = async (): Promise<TimedClick> => {
    timer.ms = 0;
    const t0 = performance.now();
    w.__benchButton.dispatchEvent(new MouseEvent('click'));
    // React's microtask (queued during the dispatch) runs before this continuation; the MutationObserver's after it.
    await null;
    await null;
    await null;
    const out = { t0, t1: performance.now(), hookMs: timer.ms };
    await new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 20))));
    return out;
  };
}
