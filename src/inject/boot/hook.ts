/**
 * `__REACT_DEVTOOLS_GLOBAL_HOOK__`: React registers each renderer with it
 * (`inject`) and reports every commit (`onCommitFiberRoot`). While the overlay
 * is off this only remembers renderers and roots; the agent sets `tap` to
 * receive commits.
 *
 * Coexistence:
 * - No hook yet (the usual case at document_start): ours is defined as an
 *   accessor on Window.prototype, not as an own property of window. React
 *   finds it through the global's prototype chain, while React DevTools'
 *   installer (which bails out when window *owns* the property) can still
 *   define its real hook; `adopt()` then chains onto that one.
 * - A hook already there (React DevTools loaded first, react-refresh's stub):
 *   its methods are wrapped in place and keep working.
 */
import type { FiberRootLike, HookState, RendererLike } from './link';

const HOOK_KEY = '__REACT_DEVTOOLS_GLOBAL_HOOK__';
const CHAINED = Symbol.for('layout-cost.chained');

type AnyHook = Record<string | symbol, unknown> & {
  renderers?: Map<number, RendererLike>;
  getFiberRoots?: (id: number) => Set<FiberRootLike>;
};

/**
 * `onReact`: called when React first shows itself (reads the hook, registers a renderer), before it renders; the
 * boot installs the attachShadow tap there (shadow.ts).
 */
export function installHook(win: Window & typeof globalThis, report: (e: unknown) => void, onReact: () => void): HookState {
  // The collection methods as they are at load: React calls the hook at every commit, long after the page may have
  // replaced Map.prototype.set or Set.prototype.add (a polyfill, a monitoring script). Issue 45.
  const apply = Reflect.apply;
  const mGet = Map.prototype.get, mSet = Map.prototype.set, sAdd = Set.prototype.add, sDelete = Set.prototype.delete;
  const get = <K, V>(m: Map<K, V>, k: K): V | undefined => apply(mGet, m, [k]) as V | undefined;
  const put = <K, V>(m: Map<K, V>, k: K, v: V): unknown => apply(mSet, m, [k, v]);
  const state: HookState = {
    renderers: new Map(),
    roots: new Map(),
    tap: null,
    onRenderer: null,
    chained: 0,
    adopt,
    counts() {
      adopt();
      let roots = 0;
      for (const set of state.roots.values()) roots += set.size;
      return { renderers: state.renderers.size, roots };
    },
  };
  let nextRendererId = 1;

  function noteRenderer(id: number, renderer: RendererLike): void {
    onReact();
    put(state.renderers, id, renderer);
    if (get(state.roots, id) === undefined) put(state.roots, id, new Set());
    try {
      state.tap?.renderer(id, renderer);
      state.onRenderer?.();
    } catch (e) {
      report(e);
    }
  }

  function noteCommit(id: number, root: FiberRootLike): void {
    let set = get(state.roots, id);
    if (!set) put(state.roots, id, (set = new Set()));
    // A root whose element is gone has been unmounted (root.render(null) / unmount()).
    const current = root.current as { memoizedState?: { element?: unknown } | null } | null;
    apply(current && current.memoizedState && current.memoizedState.element == null ? sDelete : sAdd, set, [root]);
    if (state.tap !== null) {
      try {
        state.tap.commit(id, root);
      } catch (e) {
        report(e);
      }
    }
  }

  function noteUnmount(id: number, fiber: unknown): void {
    if (state.tap === null) return;
    try {
      state.tap.unmount(id, fiber);
    } catch (e) {
      report(e);
    }
  }

  // Made when something first reads the hook (React, as it loads): a page without React never makes it.
  let ours: Record<string, unknown> | null = null;
  const makeHook = (): Record<string, unknown> => {
    const hook = {
      renderers: new Map<number, RendererLike>(),
      supportsFiber: true,
      inject(renderer: RendererLike): number {
        const id = nextRendererId++;
        put(hook.renderers, id, renderer);
        noteRenderer(id, renderer);
        return id;
      },
      onScheduleFiberRoot(): void {},
      onCommitFiberRoot(id: number, root: FiberRootLike): void {
        noteCommit(id, root);
      },
      onCommitFiberUnmount(id: number, fiber: unknown): void {
        noteUnmount(id, fiber);
      },
      onPostCommitFiberRoot(): void {},
      checkDCE(): void {},
      getFiberRoots(id: number): Set<FiberRootLike> {
        return get(state.roots, id) ?? new Set();
      },
      // Minimal event emitter: React DevTools' backend subscribes through these.
      sub(): () => void {
        return () => {};
      },
      on(): void {},
      off(): void {},
      emit(): void {},
    };
    return hook;
  };

  /** Wrap another hook's methods so that we see what React reports to it. */
  function chain(hook: AnyHook): void {
    if (hook === (ours as unknown) || hook[CHAINED]) return;
    try {
      Object.defineProperty(hook, CHAINED, { value: true });
      state.chained++;
      const wrap = (key: string, before: (...a: never[]) => void, after?: (r: unknown, ...a: never[]) => void) => {
        const orig = hook[key];
        if (typeof orig !== 'function') return;
        hook[key] = function (this: unknown, ...args: never[]) {
          if (!after) before(...args);
          const r = (orig as (...a: unknown[]) => unknown).apply(this, args);
          if (after) after(r, ...args);
          return r;
        };
      };
      wrap('inject', () => {}, (id, renderer) => {
        if (typeof id === 'number') noteRenderer(id, renderer as RendererLike);
      });
      wrap('onCommitFiberRoot', (id: number, root: FiberRootLike) => noteCommit(id, root));
      wrap('onCommitFiberUnmount', (id: number, fiber: unknown) => noteUnmount(id, fiber));
      // Renderers and roots it saw before us.
      if (hook.renderers instanceof Map) {
        for (const [id, r] of hook.renderers) {
          noteRenderer(id, r);
          const roots = typeof hook.getFiberRoots === 'function' ? hook.getFiberRoots(id) : null;
          if (roots) for (const root of roots) state.roots.get(id)?.add(root);
        }
      }
    } catch (e) {
      report(e);
    }
  }

  function adopt(): void {
    try {
      const desc = Object.getOwnPropertyDescriptor(win, HOOK_KEY);
      if (!desc) return;
      const hook = 'value' in desc ? desc.value : desc.get?.call(win);
      if (hook && typeof hook === 'object') chain(hook as AnyHook);
    } catch (e) {
      report(e);
    }
  }

  try {
    if (Object.prototype.hasOwnProperty.call(win, HOOK_KEY)) {
      adopt();
    } else {
      const proto = Object.getPrototypeOf(win) as object;
      Object.defineProperty(proto, HOOK_KEY, {
        configurable: true,
        enumerable: false,
        get: () => {
          onReact();
          return (ours ??= makeHook());
        },
        // A plain assignment (`window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = hook`)
        // lands here: keep the newcomer as an own property and chain onto it.
        set(this: unknown, value: unknown) {
          Object.defineProperty(win, HOOK_KEY, { value, writable: true, configurable: true, enumerable: false });
          if (value && typeof value === 'object') chain(value as AnyHook);
        },
      });
    }
  } catch (e) {
    report(e);
  }
  return state;
}
