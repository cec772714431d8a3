/**
 * inject.js: the MAIN-world boot script, at document_start in every frame,
 * before the page's first script. It is always on, so it holds only what must
 * exist before the page runs and what the page may call at any time:
 * - the React hook (renderers and roots only), the rAF pass-through and the
 *   attachShadow tap (hook.ts, raf.ts, shadow.ts);
 * - the private channel to the content script (channel.ts) and
 *   `window.__LAYOUT_COST__` (api.ts);
 * - `window.__LAYOUT_COST_OFFER__`, through which the agent (agent/, injected
 *   only when the overlay is first enabled) is handed a typed link (link.ts).
 * Nothing else, and nothing of agent/ (the build enforces it): every byte here
 * is compiled on every page load (docs/PERFORMANCE.md).
 */
import type { PageStatus } from '../../protocol';
import { type ApiHandle, installApi } from './api';
import { type ContentMessage, openChannel } from './channel';
import { installHook } from './hook';
import { type AgentHandle, type AgentLink, type AgentStart, type BootNatives, DEBUG, OFFER_KEY, VERSION } from './link';
import { installRaf } from './raf';
import { shadowTap } from './shadow';

/** Offers kept until the content script names the one to accept (page code may offer too). */
const MAX_OFFERS = 16;

function main(win: Window & typeof globalThis): void {
  if (Object.prototype.hasOwnProperty.call(win, OFFER_KEY)) return;
  // Before the page's first script: the agent reads component source text and error stacks with these, never with the
  // page's own. SpiderMonkey's errors read `stack` through a getter on Error.prototype: the engine's own, taken now.
  const ownDescriptor = win.Object.getOwnPropertyDescriptor;
  const natives: BootNatives = {
    fnToString: win.Function.prototype.toString, reflectApply: win.Reflect.apply, NativeError: win.Error, ownDescriptor,
    protoStack: (ownDescriptor(win.Error.prototype, 'stack')?.get ?? null) as BootNatives['protoStack'],
  };
  const debug = (...args: unknown[]): void => {
    if (DEBUG) console.debug('[layout-cost]', ...args);
  };
  const report = (e: unknown): void => debug('error', e);
  const raf = installRaf(win);
  const apply = raf.apply;
  // The attachShadow tap goes in when React first reads the hook or registers (or on enable): not at load (shadow.ts).
  const shadow = shadowTap(win, report);
  const hook = installHook(win, report, shadow.tap);
  const setTimeoutNative = win.setTimeout;
  const notes: string[] = [];
  /** The content script's last `config`, as it came: the agent checks it (null: none yet, the overlay is off). */
  let config: unknown = null;
  let agent: AgentHandle | null = null;
  // A null-prototype record, not a Map: offer() is called by page code, and nothing it reaches may be a built-in the
  // page can have replaced (Map.prototype.set) or a setter on a prototype (Array.prototype[0]).
  let offers: Record<number, AgentStart> = Object.create(null) as Record<number, AgentStart>;
  let offerCount = 0;
  /** Status goes out only once the content script's main part has said it listens (its first `state`). */
  let announcing = false;
  let api: ApiHandle | null = null;
  const apiWaiters = new Map<number, (result: unknown) => void>();

  function status(): PageStatus {
    // A hook installed after ours (React DevTools) gets chained here at the latest.
    hook.adopt();
    let roots = 0;
    for (const set of hook.roots.values()) roots += set.size;
    // Measured from the names the agent has seen (not React's build: a production React with readable app names is
    // not "minified"); false until the overlay has run.
    const minified = agent !== null && agent.namesMinified();
    const outside = agent?.outside();
    return {
      renderers: hook.renderers.size,
      roots,
      agent: agent !== null,
      minified,
      degraded: [...notes, ...(agent?.degraded() ?? [])].slice(0, 16),
      timerResolutionMs: win.crossOriginIsolated ? 0.005 : 0.1,
      url: String(win.location.href).slice(0, 2048),
      outside: outside ? { ...outside } : undefined,
    };
  }
  const announce = (): void => {
    if (announcing) channel.post('status', status());
  };

  function accept(token: number): void {
    const start = offers[token];
    if (agent !== null || typeof start !== 'function') return;
    offers = Object.create(null) as Record<string, AgentStart>;
    const link: AgentLink = {
      version: VERSION, hook, raf, shadow, config, notes, debug, announce,
      post: (type, payload, transfer) => channel.post(type, payload, transfer),
      natives,
    };
    agent = start(link);
  }

  /**
   * The boot script acts on three types itself and checks their few fields here; the rest are the agent's, which
   * checks them with the protocol's validators (channel.ts).
   */
  function onMessage(msg: ContentMessage): void {
    const p = (typeof msg.payload === 'object' && msg.payload !== null ? msg.payload : {}) as Record<string, unknown>;
    switch (msg.type) {
      case 'state':
        api?.setState(p);
        if (!announcing) {
          // The content script's main part is here: from now on it hears of React (and answers it at once).
          announcing = true;
          announce();
        }
        break;
      case 'apiResult': {
        const w = typeof p.reqId === 'number' ? apiWaiters.get(p.reqId) : undefined;
        if (w) {
          apiWaiters.delete(p.reqId as number);
          w(p.result);
        }
        break;
      }
      case 'accept':
        if (typeof p.token === 'number') accept(p.token);
        break;
      case 'experiment':
        if (agent !== null) agent.receive(msg);
        // EXPERIMENT_OVERLAY_OFF's words (protocol/experiment-request.ts), written out: importing a string from that module
        // would put the whole module, validators and all, in this script (+0.5 KB; docs/PERFORMANCE.md, always on).
        else if (typeof p.seq === 'number') {
          channel.post('experimentResult', { seq: p.seq, outcome: { ok: false, error: 'the overlay is off: enable it (Ctrl+Shift+L) to run experiments' } });
        }
        break;
      case 'config':
        // Kept for the agent's start; the agent checks it.
        config = msg.payload;
        agent?.receive(msg);
        break;
      default:
        agent?.receive(msg);
    }
  }

  const channel = openChannel(win, apply, natives, onMessage, report, (what) => {
    notes.push(`this page replaced ${what}'s built-ins before Layout Cost connected to it: the private channel uses `
      + 'only the browser\'s own, so the overlay cannot read this page');
  });

  let announceQueued = false;
  hook.onRenderer = () => {
    agent?.renderer();
    if (announceQueued || !announcing) return;
    announceQueued = true;
    apply(setTimeoutNative, win, [() => {
      announceQueued = false;
      announce();
    }, 0]);
  };

  /**
   * The agent bundle calls this with its start function; the returned number is the bundle's completion value, which
   * only the worker sees (link.ts). It needs no secrecy: page code may offer too, but the number our own bundle's call
   * returned is ours, and only the content script, over the private port, can name the offer to accept.
   */
  function offer(start: unknown): number {
    if (typeof start !== 'function') return 0;
    const token = ++offerCount;
    // The oldest of MAX_OFFERS goes: a page that floods offers can delay an enable, never take the agent's place.
    if (token > MAX_OFFERS) delete offers[token - MAX_OFFERS];
    offers[token] = start as AgentStart;
    return token;
  }
  Object.defineProperty(win, OFFER_KEY, { value: Object.freeze(offer), enumerable: false, configurable: false, writable: false });

  api = installApi(win, {
    version: VERSION,
    // An API call reads the content script's tables: the commit counts the agent held back go first, on the same port.
    post: (type, payload) => {
      agent?.flushCommits();
      channel.post(type, payload);
    },
    status,
    notes,
    nodeOf: (id) => agent?.nodeOf(id) ?? null,
    fillKeys: (r) => agent?.fillKeys(r),
    internals: () => ({
      channel: channel.connected,
      agent: agent !== null,
      rafTapped: raf.tap !== null,
      shadowTapped: shadow.tapped,
      rafBroken: raf.broken,
      hookChained: hook.chained,
      ...(agent?.stats() ?? {}),
    }),
  }, apiWaiters);
}

try {
  main(window);
} catch (e) {
  // Never throw into the page.
  void e;
}
