/**
 * The second MAIN-world script, at document_end in every frame: opens the
 * private channel to the content script and defines `window.__LAYOUT_COST__`
 * on the state the document_start script (index.ts) left on window. It runs
 * after the page's parser-blocking scripts, so none of this is paid before
 * the page's first script: only the hook, the rAF pass-through and the
 * attachShadow tap are (SPEC §6's document_start budget).
 *
 * The channel: this script offers a private MessagePort as soon as it runs,
 * and again whenever the content script asks (it asks at its own start,
 * before this script exists, and at DOMContentLoaded). The content script
 * takes the first offer; later offers and their ports are closed.
 */
// Deep imports on purpose: the protocol's index would pull in every validator.
import type { ContentToPage, PageStatus } from '../protocol';
import { HANDSHAKE_TYPE, Source } from '../protocol/constants';
import { contentToPageValidators } from '../protocol/content-to-page';
import { envelope, parseWith } from '../protocol/guard';
import { installApi } from './api';
import { getInternal } from './internal';

function main(win: Window & typeof globalThis): void {
  const found = getInternal();
  // No document_start state (the extension was loaded after this document started), or already done.
  if (found === null || found.channel) return;
  const internal = found;
  const natives = internal.natives;
  internal.channel = true;
  const report = (e: unknown): void => internal.debug('error', e);

  let port: MessagePort | null = null;
  let acked = false;
  const pending: { type: string; payload: unknown; transfer?: Transferable[] }[] = [];
  const apiWaiters = new Map<number, (result: unknown) => void>();

  internal.post = (type, payload, transfer) => {
    if (port === null || !acked) {
      // Until the content script takes the port, keep the latest few.
      if (pending.length < 64) pending.push({ type, payload, transfer });
      return;
    }
    try {
      port.postMessage(envelope(Source.Page, type, payload), transfer ?? []);
    } catch (e) {
      report(e);
    }
  };
  internal.status = (): PageStatus => {
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
      degraded: [...internal.notes, ...internal.degraded].slice(0, 16),
      timerResolutionMs: win.crossOriginIsolated ? 0.005 : 0.1,
      url: String(win.location.href).slice(0, 2048),
      outside: internal.outside ? { ...internal.outside } : undefined,
    };
  };

  const api = installApi(win, internal, apiWaiters);

  function onPortMessage(from: MessagePort, e: MessageEvent): void {
    if (acked && from !== port) return;
    const msg = parseWith(e.data, Source.Content, contentToPageValidators);
    if (msg === null) return;
    switch (msg.type) {
      case 'state': {
        const st = msg.payload as ContentToPage['state'];
        if (!acked) {
          // The first port the content script answers on wins; the others close.
          acked = true;
          natives.removeEventListener.call(win, 'message', onRequest);
          port = from;
          for (const c of candidates) if (c !== from) c.close();
          candidates.length = 0;
          for (const p of pending.splice(0)) internal.post(p.type, p.payload, p.transfer);
          announceWhenLoaded();
        }
        api.setState(st.mode, st.pinned, st.capped, st.dropped);
        break;
      }
      case 'apiResult': {
        const r = msg.payload as ContentToPage['apiResult'];
        const w = apiWaiters.get(r.reqId);
        if (w) {
          apiWaiters.delete(r.reqId);
          w(r.result);
        }
        break;
      }
      case 'config':
        internal.config = msg.payload as ContentToPage['config'];
        internal.agent?.('config', msg.payload);
        break;
      case 'hitTest':
        internal.agent?.('hitTest', msg.payload);
        break;
      case 'resync':
        internal.agent?.('resync', msg.payload);
        break;
      default:
        break;
    }
  }

  /** Offers a private port to the content script: once now, and on each of its asks until one is taken. */
  const candidates: MessagePort[] = [];
  function handshake(): void {
    if (acked || candidates.length >= 4) return;
    const channel = new natives.MessageChannel();
    const p1 = channel.port1;
    p1.onmessage = (e) => onPortMessage(p1, e);
    candidates.push(p1);
    // Posted from a timer with no script of ours on the stack: Blink records the caller's source location for every
    // window.postMessage, and for our lazily compiled closure V8 would re-parse it first (≈ 1 ms, docs/PERFORMANCE.md).
    const post = natives.bind.call(natives.postMessage, win, { source: Source.Page, v: 1, type: HANDSHAKE_TYPE }, '*', [channel.port2]);
    natives.setTimeout.call(win, post as () => void, 0);
  }
  // Removed once acknowledged, so the page's own postMessage traffic never reaches us.
  const onRequest = (e: MessageEvent): void => {
    if (e.source !== win) return;
    const d = e.data as { source?: unknown; type?: unknown } | null;
    if (d && d.source === Source.Content && d.type === HANDSHAKE_TYPE) handshake();
  };
  natives.addEventListener.call(win, 'message', onRequest);
  handshake();
  // Announce React (or its absence) once the channel is up (the document is parsed by then), again at load if it
  // is still to come, and whenever a renderer registers.
  const announce = (): void => internal.post('status', internal.status());
  function announceWhenLoaded(): void {
    announce();
    if (win.document.readyState !== 'complete') natives.addEventListener.call(win, 'load', announce, { once: true });
  }
  let announceQueued = false;
  internal.hook.onRenderer = () => {
    if (announceQueued) return;
    announceQueued = true;
    natives.setTimeout.call(win, () => {
      announceQueued = false;
      announce();
    }, 0);
  };
}

try {
  main(window);
} catch (e) {
  // Never throw into the page.
  void e;
}
