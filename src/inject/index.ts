/**
 * The MAIN-world script at document_start, in every frame. Kept tiny: it
 * installs the React hook (renderers and roots only), takes over
 * requestAnimationFrame as a pass-through, wraps attachShadow, opens the
 * private channel to the content script and defines `window.__LAYOUT_COST__`.
 * Everything else (the React adapter, timing, attribution) is the agent,
 * injected by the extension only when the overlay is first enabled.
 */
import { envelope, HANDSHAKE_TYPE, parseMessage, Source, type Mode, type PageStatus } from '../protocol';
import { installApi } from './api';
import { installHook } from './hook';
import { DEBUG, INTERNAL_KEY, VERSION, type Internal } from './internal';
import { installRaf } from './raf';
import { installShadowTap } from './shadow';

function main(win: Window & typeof globalThis): void {
  if (Object.prototype.hasOwnProperty.call(win, INTERNAL_KEY)) return;
  const debug = (...args: unknown[]): void => {
    if (DEBUG) console.debug('[layout-cost]', ...args);
  };
  const report = (e: unknown): void => debug('error', e);

  let port: MessagePort | null = null;
  let acked = false;
  let stopListening = (): void => {};
  const pending: { type: string; payload: unknown; transfer?: Transferable[] }[] = [];
  const apiWaiters = new Map<number, (result: unknown) => void>();

  const internal: Internal = {
    version: VERSION,
    hook: installHook(win, report),
    raf: installRaf(win),
    shadow: installShadowTap(win, report),
    agent: null,
    agentStats: null,
    nodeOf: null,
    config: { mode: 'off', wantBounds: [], pinned: null },
    degraded: [],
    debug,
    post(type, payload, transfer) {
      if (port === null || !acked) {
        // Until the content script answers the handshake, keep the latest few.
        if (pending.length < 64) pending.push({ type, payload, transfer });
        return;
      }
      try {
        port.postMessage(envelope(Source.Page, type, payload), transfer ?? []);
      } catch (e) {
        report(e);
      }
    },
    status(): PageStatus {
      // A hook installed after ours (React DevTools) gets chained here at the latest.
      internal.hook.adopt();
      let roots = 0;
      for (const set of internal.hook.roots.values()) roots += set.size;
      let minified = false;
      for (const r of internal.hook.renderers.values()) if (r.bundleType === 0) minified = true;
      return {
        renderers: internal.hook.renderers.size,
        roots,
        agent: internal.agent !== null,
        minified,
        degraded: internal.degraded.slice(0, 16),
        timerResolutionMs: win.crossOriginIsolated ? 0.005 : 0.1,
        url: String(win.location.href).slice(0, 2048),
        outside: internal.outside ? { ...internal.outside } : undefined,
      };
    },
  };
  Object.defineProperty(win, INTERNAL_KEY, { value: internal, enumerable: false, configurable: false });

  const api = installApi(win, internal, apiWaiters);

  function onPortMessage(from: MessagePort, e: MessageEvent): void {
    if (acked && from !== port) return;
    const msg = parseMessage(e.data, Source.Content);
    if (msg === null) return;
    switch (msg.type) {
      case 'state':
        if (!acked) {
          // The first port the content script answers on wins; the others close.
          acked = true;
          stopListening();
          port = from;
          for (const c of candidates) if (c !== from) c.close();
          candidates.length = 0;
          for (const p of pending.splice(0)) internal.post(p.type, p.payload, p.transfer);
        }
        api.setState(msg.payload.mode as Mode, msg.payload.pinned, msg.payload.capped, msg.payload.dropped);
        break;
      case 'apiResult': {
        const w = apiWaiters.get(msg.payload.reqId);
        if (w) {
          apiWaiters.delete(msg.payload.reqId);
          w(msg.payload.result);
        }
        break;
      }
      case 'config':
        internal.config = msg.payload;
        internal.agent?.('config', msg.payload);
        break;
      case 'hitTest':
        internal.agent?.('hitTest', msg.payload);
        break;
      default:
        break;
    }
  }

  /** Hand a private port to the content script (once, or again if it asks before acking). */
  const candidates: MessagePort[] = [];
  function handshake(): void {
    if (acked || candidates.length >= 4) return;
    const channel = new MessageChannel();
    const p1 = channel.port1;
    p1.onmessage = (e) => onPortMessage(p1, e);
    candidates.push(p1);
    win.postMessage({ source: Source.Page, v: 1, type: HANDSHAKE_TYPE }, '*', [channel.port2]);
  }
  // The content script asks again if it missed the first handshake.
  // Removed once acknowledged, so the page's own postMessage traffic never reaches us.
  const onRequest = (e: MessageEvent): void => {
    if (e.source !== win) return;
    const d = e.data as { source?: unknown; type?: unknown } | null;
    if (d && d.source === Source.Content && d.type === HANDSHAKE_TYPE) handshake();
  };
  win.addEventListener('message', onRequest);
  stopListening = () => win.removeEventListener('message', onRequest);
  handshake();
  // Announce React (or its absence) once the page has had a chance to load it,
  // and again whenever a renderer registers.
  const announce = (): void => internal.post('status', internal.status());
  let announceQueued = false;
  internal.hook.onRenderer = () => {
    if (announceQueued) return;
    announceQueued = true;
    setTimeout(() => {
      announceQueued = false;
      announce();
    }, 0);
  };
  win.addEventListener('DOMContentLoaded', announce, { once: true });
  win.addEventListener('load', announce, { once: true });
}

try {
  main(window);
} catch (e) {
  // Never throw into the page.
  void e;
}
