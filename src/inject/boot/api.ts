/**
 * `window.__LAYOUT_COST__`: the automation API for tests, benchmarks and
 * users' own scripts (README, "Automation API"). Every call goes, its
 * arguments copied as the page gave them, to the agent (injected with the
 * content script's agent when the frame is first wanted), which forwards
 * it to the content script over the private port; the content script checks
 * the arguments like everything from the page and answers those that have an
 * answer. A call made before the agent is there is kept and wakes the content
 * script (index.ts). Nothing here checks or builds more than that: this script
 * is compiled on every page load, ≈ 0.05 ms a kilobyte (docs/PERFORMANCE.md,
 * always on).
 */
import type { LayoutCostState } from '../../protocol';
import type { AgentHandle, ApiRequest, HookState, VueState } from './link';

export const API_KEY = '__LAYOUT_COST__';
const SNAPSHOT_TIMEOUT_MS = 10_000;
/** An experiment runs for at most 250 ms per frame asked (agent/experiment/experiment.ts), plus the way there and back. */
const EXPERIMENT_TIMEOUT_MS = 180_000;
/** Calls with nothing to answer (`undefined` at once). */
const TOLD = ['enable', 'disable', 'pin', 'startRecording'] as const;
/** Calls answered with a promise: the content script's `{ ok, result }`, or `{ ok: false, error }` (a rejection). */
const ASKED = ['snapshot', 'experiment', 'stopRecording', 'exportTrace'] as const;

/** What the API needs of the boot script. */
export interface ApiDeps {
  version: string;
  hook: HookState;
  vue: VueState;
  notes: string[];
  /** The agent, once it is there. */
  agent(): AgentHandle | null;
  /** Keeps a call made before the agent is there (and wakes the content script). */
  keep(c: ApiRequest): void;
  /** Diagnostics: the document_start state and the agent's table sizes (tests and bug reports). */
  internals(): Record<string, number | boolean>;
}

export function installApi(win: Window & typeof globalThis, deps: ApiDeps): void {
  const send = (c: ApiRequest): void => {
    const agent = deps.agent();
    if (agent !== null) agent.call(c);
    else deps.keep(c);
  };
  // One that is not plain data (a function, an event: `onclick = api.enable`) goes as null. The page's own
  // `structuredClone` can only spoil its own call.
  const copy = (v: unknown): unknown => {
    try {
      return structuredClone(v);
    } catch {
      return null;
    }
  };
  // Made on first use: a page load that never touches the API does not create its closures.
  const make = () => {
    const api: Record<string, unknown> = {
      version: deps.version,
      state: (): LayoutCostState => {
        const agent = deps.agent();
        if (agent !== null) return agent.state();
        // Before the agent: off, with what the hook saw.
        return {
          enabled: false, mode: 'off', pinned: null, react: deps.hook.counts(), vue: { found: deps.vue.seen, apps: 0 },
          preact: { found: preactRoot(win.document), apps: 0 }, minified: false,
          capped: false, agent: false, degraded: deps.notes.slice(0, 16), droppedMessages: 0, outside: null, self: null,
        };
      },
      /** The first DOM node of a component (for `inspect(__LAYOUT_COST__.node(id))`). */
      node: (id: unknown): Node | null => (typeof id === 'number' ? deps.agent()?.nodeOf(id) ?? null : null),
      /** The id of the component that rendered a DOM node (0: none, or the overlay is off). */
      owner: (n: unknown): number => deps.agent()?.ownerOf(n) ?? 0,
      /** Sizes of the agent's tables and the document_start state: numbers for bug reports and leak tests. */
      internals: () => deps.internals(),
    };
    for (const call of TOLD) {
      api[call] = (a?: unknown, b?: unknown): void => {
        send({ call, args: [copy(a), copy(b)], settle: null });
      };
    }
    for (const call of ASKED) {
      api[call] = (a?: unknown, b?: unknown): Promise<unknown> => new Promise((resolve, reject) => {
        const args = [copy(a), copy(b)];
        const timer = setTimeout(() => reject(new Error('layout-cost: no answer from the extension')),
          call === 'experiment' ? EXPERIMENT_TIMEOUT_MS : SNAPSHOT_TIMEOUT_MS);
        send({
          call, args, settle: (r) => {
            clearTimeout(timer);
            const out = r as { ok?: boolean; result?: unknown; error?: unknown } | null;
            if (out?.ok === true) resolve(out.result);
            else reject(new Error(`layout-cost: ${typeof out?.error === 'string' ? out.error : 'no answer'}`));
          },
        });
      });
    }
    return Object.freeze(api);
  };
  let api: ReturnType<typeof make> | null = null;
  try {
    // An accessor that always returns the same frozen object; like a value, neither writable nor configurable.
    Object.defineProperty(win, API_KEY, { get: () => (api ??= make()), enumerable: false, configurable: false });
  } catch {
    // The page holds the name (a non-configurable property of its own): the extension works without the API.
    deps.notes.push(`the page defined window.${API_KEY} itself: the automation API is unavailable here`);
  }
}

/**
 * Whether a Preact render root is on the page (Preact's production build announces itself nowhere): an element holding
 * the root vnode `render` keeps on its container (`__k`, agent/preact/internals.ts). Asked only by `state()`, before
 * the agent (which scans the same way).
 */
function preactRoot(doc: Document): boolean {
  try {
    const all = doc.querySelectorAll('*');
    for (let i = 0; i < all.length; i++) {
      const r = (all[i] as unknown as { __k?: { type?: unknown; __e?: unknown } }).__k;
      if (typeof r === 'object' && r !== null && typeof r.type === 'function' && '__e' in r) return true;
    }
  } catch {
    // A page that replaced querySelectorAll: not found.
  }
  return false;
}
