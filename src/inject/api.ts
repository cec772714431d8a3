/**
 * `window.__LAYOUT_COST__`: the automation API for tests, benchmarks and
 * users' own scripts. Calls are forwarded to the content script over the
 * private port; `state()` answers synchronously from the last state the
 * content script pushed (plus the hook's own counts).
 */
import type { Mode, OutsideMeasurement } from '../protocol';
import { MODES } from '../protocol/constants';
import type { Internal } from './internal';

export const API_KEY = '__LAYOUT_COST__';
const SNAPSHOT_TIMEOUT_MS = 10_000;

export interface LayoutCostState {
  enabled: boolean;
  mode: Mode;
  pinned: number | null;
  react: { renderers: number; roots: number };
  minified: boolean;
  capped: boolean;
  agent: boolean;
  degraded: string[];
  /** Long Animation Frames cross-check of forced-reflow timing while on (docs/TIMING.md); null when unavailable. */
  outside: OutsideMeasurement | null;
  /** Messages from this page that the extension rejected as malformed (cumulative). */
  droppedMessages: number;
}

export interface ApiHandle {
  setState(mode: Mode, pinned: number | null, capped: boolean, dropped: number): void;
}

export function installApi(
  win: Window & typeof globalThis,
  internal: Internal,
  waiters: Map<number, (result: unknown) => void>,
): ApiHandle {
  let mode: Mode = 'off';
  let pinned: number | null = null;
  let capped = false;
  let dropped = 0;
  let nextReq = 1;

  const request = (call: 'enable' | 'disable' | 'pin', m: Mode | null, id: number | null): void => {
    internal.post('api', { reqId: nextReq++, call, mode: m, id });
  };

  const api = Object.freeze({
    version: internal.version,
    enable(m?: unknown): void {
      const want: Mode = typeof m === 'string' && (MODES as readonly string[]).includes(m) && m !== 'off'
        ? (m as Mode) : 'components';
      request('enable', want, null);
    },
    disable(): void {
      request('disable', null, null);
    },
    state(): LayoutCostState {
      const s = internal.status();
      return {
        enabled: mode !== 'off', mode, pinned,
        react: { renderers: s.renderers, roots: s.roots },
        minified: s.minified, capped, agent: s.agent, degraded: s.degraded, droppedMessages: dropped, outside: s.outside ?? null,
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
        internal.post('api', { reqId, call: 'snapshot', mode: null, id: null });
      });
    },
    pin(id: unknown): void {
      const n = typeof id === 'number' && Number.isInteger(id) && id >= 0 ? id : null;
      request('pin', null, n);
    },
    /** The first DOM node of a component (for `inspect(__LAYOUT_COST__.node(id))`). */
    node(id: unknown): Node | null {
      return typeof id === 'number' && internal.nodeOf ? internal.nodeOf(id) : null;
    },
  });
  try {
    Object.defineProperty(win, API_KEY, { value: api, enumerable: false, configurable: false, writable: false });
  } catch {
    // The page holds the name (a non-configurable property of its own): the extension works without the API.
    internal.notes.push(`the page defined window.${API_KEY} itself: the automation API is unavailable here`);
  }

  return {
    setState(m, p, c, d) {
      mode = m;
      pinned = p;
      capped = c;
      dropped = d;
    },
  };
}
