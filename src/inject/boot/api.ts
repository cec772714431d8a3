/**
 * `window.__LAYOUT_COST__`: the automation API for tests, benchmarks and
 * users' own scripts. Calls are forwarded to the content script over the
 * private port; `state()` answers synchronously from the last state the
 * content script pushed (plus the hook's own counts).
 */
import type { LayoutCostState, Mode, PageStatus, SelfCost } from '../../protocol';
import { MODES } from '../../protocol/constants';
import { DEFAULT_EXPERIMENT_FRAMES } from '../../protocol/experiment-request';
import type { PagePost } from './channel';

export const API_KEY = '__LAYOUT_COST__';
const SNAPSHOT_TIMEOUT_MS = 10_000;
/** An experiment runs for at most 250 ms per frame asked (agent/experiment/experiment.ts), plus the way there and back. */
const EXPERIMENT_TIMEOUT_MS = 180_000;

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

  const request = (call: 'enable' | 'disable' | 'pin', m: Mode | null, id: number | null): void => {
    deps.post('api', { reqId: nextReq++, call, mode: m, id });
  };
  /** `{ ok, result }` → the result; `{ ok: false, error }` → a rejection saying why. */
  const unwrap = (r: unknown): unknown => {
    const out = r as { ok?: boolean; result?: unknown; error?: unknown } | null;
    if (out?.ok === true) return out.result;
    throw new Error(`layout-cost: ${typeof out?.error === 'string' ? out.error : 'no answer'}`);
  };
  /** A call with an answer: resolved by the content script's `apiResult` for its reqId. */
  const ask = (call: 'snapshot' | 'experiment' | 'stopRecording' | 'exportTrace', id: number | null, experiment: unknown,
    timeoutMs: number): Promise<unknown> => {
    const reqId = nextReq++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(reqId);
        reject(new Error('layout-cost: no answer from the extension'));
      }, timeoutMs);
      waiters.set(reqId, (result) => {
        clearTimeout(timer);
        // A snapshot's or a recording's components (fillKeys leaves other answers alone).
        deps.fillKeys(result);
        resolve(result);
      });
      // Checked by the content script like everything from the page (a bad request is answered with why).
      deps.post('api', { reqId, call, mode: null, id, experiment });
    });
  };

  // Made on first use: a page load that never touches the API does not create its dozen closures (docs/PERFORMANCE.md,
  // always on).
  const make = () => Object.freeze({
    version: deps.version,
    enable(m?: unknown): void {
      const want: Mode = typeof m === 'string' && (MODES as readonly string[]).includes(m) && m !== 'off'
        ? (m as Mode) : 'components';
      request('enable', want, null);
    },
    disable(): void {
      request('disable', null, null);
    },
    state(): LayoutCostState {
      const s = deps.status();
      return {
        enabled: mode !== 'off', mode, pinned,
        react: { renderers: s.renderers, roots: s.roots },
        minified: s.minified, capped, agent: s.agent, degraded: s.degraded, droppedMessages: dropped, outside: s.outside ?? null,
        self: self ? { ...self } : null,
      };
    },
    snapshot(): Promise<unknown> {
      return ask('snapshot', null, null, SNAPSHOT_TIMEOUT_MS);
    },
    /**
     * Measures a CSS declaration on a component's top host elements, with and without, over the page's own frames
     * (docs/DIAGNOSE.md). Resolves to the result; rejects when it cannot run (overlay off, unknown id, bad CSS).
     */
    experiment(id: unknown, options?: unknown): Promise<unknown> {
      const o = (typeof options === 'object' && options !== null ? options : {}) as { css?: unknown; frames?: unknown };
      const req = { id: typeof id === 'number' ? id : -1, css: o.css, frames: o.frames ?? DEFAULT_EXPERIMENT_FRAMES };
      return ask('experiment', null, req, EXPERIMENT_TIMEOUT_MS).then(unwrap);
    },
    /**
     * Starts recording every measured frame (docs/RECORDING.md); the overlay must be on for frames to come.
     * `{ maxRows }` lowers the cap on component rows (the oldest frames go past it).
     */
    startRecording(options?: unknown): void {
      deps.post('api', { reqId: nextReq++, call: 'startRecording', mode: null, id: null, options });
    },
    /** Stops and resolves to the recording (`{ kind, version, frames, components, … }`); rejects when none ran. */
    stopRecording(): Promise<unknown> {
      return ask('stopRecording', null, null, SNAPSHOT_TIMEOUT_MS).then(unwrap);
    },
    /** The last recording in Chrome's Trace Event Format (`{ traceEvents }`); rejects when there is none. */
    exportTrace(): Promise<unknown> {
      return ask('exportTrace', null, null, SNAPSHOT_TIMEOUT_MS).then(unwrap);
    },
    pin(id: unknown): void {
      const n = typeof id === 'number' && Number.isInteger(id) && id >= 0 ? id : null;
      request('pin', null, n);
    },
    /** The first DOM node of a component (for `inspect(__LAYOUT_COST__.node(id))`). */
    node(id: unknown): Node | null {
      return typeof id === 'number' ? deps.nodeOf(id) : null;
    },
    /** Sizes of the agent's tables and the document_start state: numbers for bug reports and leak tests. */
    internals(): Record<string, number | boolean> {
      return deps.internals();
    },
  });
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
