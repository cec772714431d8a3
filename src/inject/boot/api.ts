/**
 * `window.__LAYOUT_COST__`: the automation API for tests, benchmarks and
 * users' own scripts (README, "Automation API"). Its calls are forwarded as
 * they came to the content script over the private port, which checks their
 * arguments like everything from the page and answers those that have an
 * answer; `state()` answers synchronously from the last state the content
 * script pushed (plus the hook's own counts). Every method here is one of two
 * forwarders, not a function of its own: this script is compiled on every
 * page load, and each kilobyte costs ≈ 0.05 ms there (docs/PERFORMANCE.md,
 * always on).
 */
import type { LayoutCostState, Mode, PageStatus, SelfCost } from '../../protocol';
import { MODES } from '../../protocol/constants';
import type { PagePost } from './channel';

export const API_KEY = '__LAYOUT_COST__';
const SNAPSHOT_TIMEOUT_MS = 10_000;
/** An experiment runs for at most 250 ms per frame asked (agent/experiment/experiment.ts), plus the way there and back. */
const EXPERIMENT_TIMEOUT_MS = 180_000;
/** Calls with nothing to answer (`undefined` at once). */
const TOLD = ['enable', 'disable', 'pin', 'startRecording'] as const;
/** Calls answered with a promise: the content script's `{ ok, result }` or `{ ok: false, error }` (a rejection). */
const ASKED = ['snapshot', 'experiment', 'stopRecording', 'exportTrace'] as const;

/** What the API needs of the boot script. */
export interface ApiDeps {
  version: string;
  post: PagePost;
  status(): PageStatus;
  nodeOf(id: number): Node | null;
  /** Fills in the keys the content script's answer lacks (the agent's, agent/api-keys.ts). Never throws. */
  fillKeys(result: unknown): void;
  /** Diagnostics: the agent's table sizes and the document_start state (tests and bug reports). */
  internals(): Record<string, number | boolean>;
  notes: string[];
}

export interface ApiHandle {
  /** The content script's `state` message, its fields checked here (nothing else of the protocol is in this script). */
  setState(state: Record<string, unknown>): void;
}

export function installApi(
  win: Window & typeof globalThis,
  deps: ApiDeps,
  waiters: Map<number, (result: unknown) => void>,
): ApiHandle {
  let mode: Mode = 'off';
  let pinned: number | null = null;
  let capped = false;
  let dropped = 0;
  let self: SelfCost | null = null;
  let nextReq = 1;
  // Made on first use: a page load that never touches the API does not create its closures (docs/PERFORMANCE.md,
  // always on).
  const make = () => {
    const api: Record<string, unknown> = {
      version: deps.version,
      state(): LayoutCostState {
        const s = deps.status();
        return {
          enabled: mode !== 'off', mode, pinned,
          react: { renderers: s.renderers, roots: s.roots },
          minified: s.minified, capped, agent: s.agent, degraded: s.degraded, droppedMessages: dropped, outside: s.outside ?? null,
          self: self ? { ...self } : null,
        };
      },
      /** The first DOM node of a component (for `inspect(__LAYOUT_COST__.node(id))`). */
      node: (id: unknown): Node | null => (typeof id === 'number' ? deps.nodeOf(id) : null),
      /** Sizes of the agent's tables and the document_start state: numbers for bug reports and leak tests. */
      internals: () => deps.internals(),
    };
    // The arguments go as the page gave them (at most 2), copied now: the content script checks them, and answers a
    // bad one with why where the call has an answer (src/content/main/api-calls.ts). One that is not plain data (a
    // function, an event: `onclick = api.enable`) goes as null. The page's own `structuredClone` can only spoil its own call.
    const copy = (v: unknown): unknown => {
      try {
        return structuredClone(v);
      } catch {
        return null;
      }
    };
    for (const call of TOLD) {
      api[call] = (a?: unknown, b?: unknown): void => {
        deps.post('api', { reqId: nextReq++, call, args: [copy(a), copy(b)] });
      };
    }
    for (const call of ASKED) {
      api[call] = (a?: unknown, b?: unknown): Promise<unknown> => new Promise((resolve, reject) => {
        const args = [copy(a), copy(b)];
        const reqId = nextReq++;
        const timer = setTimeout(() => {
          waiters.delete(reqId);
          reject(new Error('layout-cost: no answer from the extension'));
        }, call === 'experiment' ? EXPERIMENT_TIMEOUT_MS : SNAPSHOT_TIMEOUT_MS);
        waiters.set(reqId, (r) => {
          clearTimeout(timer);
          const out = r as { ok?: boolean; result?: unknown; error?: unknown } | null;
          if (out?.ok !== true) {
            reject(new Error(`layout-cost: ${typeof out?.error === 'string' ? out.error : 'no answer'}`));
            return;
          }
          // A snapshot's or a recording's components (fillKeys leaves other answers alone).
          deps.fillKeys(out.result);
          resolve(out.result);
        });
        deps.post('api', { reqId, call, args });
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

  return {
    setState(st) {
      const m = st.mode;
      mode = typeof m === 'string' && (MODES as readonly string[]).includes(m) ? (m as Mode) : 'off';
      pinned = typeof st.pinned === 'number' ? st.pinned : null;
      capped = st.capped === true;
      dropped = typeof st.dropped === 'number' ? st.dropped : 0;
      const sc = st.self as Partial<SelfCost> | null | undefined;
      self = sc && typeof sc.msPerFrame === 'number' && typeof sc.mainThreadShare === 'number'
        ? { msPerFrame: sc.msPerFrame, mainThreadShare: sc.mainThreadShare } : null;
    },
  };
}
