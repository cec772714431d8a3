/**
 * `window.__LAYOUT_COST__`: the automation API for tests, benchmarks and
 * users' own scripts. Calls are forwarded to the content script over the
 * private port; `state()` answers synchronously from the last state the
 * content script pushed (plus the hook's own counts).
 */
import type { ContentToPage, LayoutCostState, Mode, PageStatus, SelfCost } from '../../protocol';
import { MODES } from '../../protocol/constants';
import type { PagePost } from './channel';

export const API_KEY = '__LAYOUT_COST__';
const SNAPSHOT_TIMEOUT_MS = 10_000;

/** What the API needs of the boot script. */
export interface ApiDeps {
  version: string;
  post: PagePost;
  status(): PageStatus;
  nodeOf(id: number): Node | null;
  /** Diagnostics: the agent's table sizes and the document_start state (tests and bug reports). */
  internals(): Record<string, number | boolean>;
  notes: string[];
}

export interface ApiHandle {
  setState(state: ContentToPage['state']): void;
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

  const api = Object.freeze({
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
      const reqId = nextReq++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(reqId);
          reject(new Error('layout-cost: no answer from the extension'));
        }, SNAPSHOT_TIMEOUT_MS);
        waiters.set(reqId, (result) => {
          clearTimeout(timer);
          resolve(result);
        });
        deps.post('api', { reqId, call: 'snapshot', mode: null, id: null });
      });
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
  try {
    Object.defineProperty(win, API_KEY, { value: api, enumerable: false, configurable: false, writable: false });
  } catch {
    // The page holds the name (a non-configurable property of its own): the extension works without the API.
    deps.notes.push(`the page defined window.${API_KEY} itself: the automation API is unavailable here`);
  }

  return {
    setState(st) {
      mode = st.mode;
      pinned = st.pinned;
      capped = st.capped;
      dropped = st.dropped;
      self = st.self;
    },
  };
}
