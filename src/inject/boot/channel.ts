/**
 * The MAIN world's end of the private channel to the content script.
 *
 * At load, before any page script exists, this module reads the secret the
 * content script's boot (run just before it) left in `window.status`, puts
 * back what was there, and registers the first capture listener on window for
 * the channel's offer (OFFER_EVENT, a type of our own: it never hears the
 * page's window messages). When the channel is wanted (on enable, a panel, a
 * call of the API) the content script's main part creates the
 * `MessageChannel` in its isolated world and dispatches the offer on the
 * window: a MessageEvent with one end and the secret. The listener takes only
 * that offer: it stops and cancels the event there (no page listener ever
 * sees it or the secret; the cancel tells the content script) and keeps the
 * port in this closure only. Until then what this world would send is kept
 * (the latest 64), and the first call dispatches WAKE_EVENT, on which the
 * content boot asks for its main part.
 * Everything it touches after document_start (the event's getters,
 * `stopImmediatePropagation`, `dispatchEvent`, the port's
 * `postMessage`/`onmessage`) is a
 * native kept now, called through a kept `Reflect.apply`: a page that later
 * wraps `MessagePort.prototype.postMessage` or `MessageEvent.prototype.data`
 * sees nothing. The argument that this cannot be taken or read is in
 * docs/ARCHITECTURE.md (security model).
 */
import type { PageToContent } from '../../protocol';
import { HANDSHAKE_TYPE, OFFER_EVENT, PROTOCOL_VERSION, SECRET_END, SECRET_MARK, Source, WAKE_EVENT } from '../../protocol/constants';
import type { Parsed } from '../../protocol/guard';

/**
 * A content → page message, its envelope checked (source, version, a type). Its payload is checked by the part that
 * acts on it: the boot script (index.ts) for the few types it handles, the agent (on enable) for the rest with the
 * protocol's validators (protocol/content-to-page.ts), which are thereby not compiled on every page load. The port's
 * only other holder is the content script.
 */
export interface ContentMessage {
  type: string;
  payload: unknown;
}

/** Posts to the content script; queued (the latest 64) until the port is here. */
export type PagePost = <T extends keyof PageToContent>(type: T, payload: PageToContent[T], transfer?: Transferable[]) => void;

type Getter<T> = (this: unknown) => T;

function getter<T>(proto: object, name: string): Getter<T> {
  const d = Object.getOwnPropertyDescriptor(proto, name);
  if (!d || typeof d.get !== 'function') throw new TypeError(`no ${name} getter`);
  return d.get as Getter<T>;
}

export interface Channel {
  post: PagePost;
  readonly connected: boolean;
}

export function openChannel(
  win: Window & typeof globalThis,
  apply: typeof Reflect.apply,
  onMessage: (msg: ContentMessage) => void,
  report: (e: unknown) => void,
): Channel {
  // Kept before any page script runs.
  const dataOf = getter<unknown>(MessageEvent.prototype, 'data');
  const portsOf = getter<readonly MessagePort[]>(MessageEvent.prototype, 'ports');
  const stop = Event.prototype.stopImmediatePropagation;
  const cancel = Event.prototype.preventDefault;
  const removeListener = EventTarget.prototype.removeEventListener;
  const portPost = MessagePort.prototype.postMessage as (this: MessagePort, m: unknown, t: Transferable[]) => void;
  const d = Object.getOwnPropertyDescriptor(MessagePort.prototype, 'onmessage');
  const setOnMessage = d?.set as ((this: MessagePort, fn: (e: MessageEvent) => void) => void) | undefined;
  if (!setOnMessage) throw new TypeError('no MessagePort.onmessage');
  const dispatch = EventTarget.prototype.dispatchEvent;
  const EventCtor = Event;

  // The secret, and window.status as it was (the content boot wrote its mark in front of it).
  let secret: string | null = null;
  const status = win.status;
  if (status.startsWith(SECRET_MARK)) {
    const end = status.indexOf(SECRET_END, SECRET_MARK.length);
    if (end > SECRET_MARK.length) {
      secret = status.slice(SECRET_MARK.length, end);
      win.status = status.slice(end + SECRET_END.length);
    }
  }

  let port: MessagePort | null = null;
  let woken = false;
  const pending: { type: string; payload: unknown; transfer?: Transferable[] }[] = [];

  function send(type: string, payload: unknown, transfer?: Transferable[]): void {
    if (port === null) {
      // Until the content script's port is here, keep the latest few. A call of the API is answered by the content
      // script's main part: say so once (it makes the channel and asks for main).
      if (pending.length >= 64) pending.shift();
      pending.push({ type, payload, transfer });
      if (type === 'api' && !woken && secret !== null) {
        woken = true;
        try {
          apply(dispatch, win, [new EventCtor(WAKE_EVENT)]);
        } catch (e) {
          report(e);
        }
      }
      return;
    }
    try {
      // The protocol's envelope (protocol/guard.ts), written here: guard.ts's code is not in this script.
      const m: Parsed = { source: Source.Page, v: PROTOCOL_VERSION, type, payload };
      apply(portPost, port, [m, transfer ?? []]);
    } catch (e) {
      report(e);
    }
  }

  function onPortMessage(e: MessageEvent): void {
    let data: unknown;
    try {
      data = apply(dataOf, e, []);
    } catch {
      return;
    }
    try {
      const m = data as { source?: unknown; v?: unknown; type?: unknown; payload?: unknown } | null;
      if (typeof m !== 'object' || m === null || m.source !== Source.Content || m.v !== PROTOCOL_VERSION || typeof m.type !== 'string') return;
      onMessage({ type: m.type, payload: m.payload });
    } catch (err) {
      report(err);
    }
  }

  function onOffer(e: Event): void {
    if (port !== null) return;
    let ports: readonly MessagePort[];
    let data: { source?: unknown; v?: unknown; type?: unknown; secret?: unknown } | null;
    try {
      ports = apply(portsOf, e, []) as readonly MessagePort[];
      data = apply(dataOf, e, []) as typeof data;
    } catch {
      return; // not a MessageEvent: the page's
    }
    try {
      if (ports.length !== 1 || typeof data !== 'object' || data === null || data.source !== Source.Content
        || data.type !== HANDSHAKE_TYPE || data.v !== PROTOCOL_VERSION || data.secret !== secret) return;
      // Ours: nobody else hears of it, and this listener goes. Cancelled, so that the content script knows.
      apply(stop, e, []);
      apply(cancel, e, []);
      apply(removeListener, win, [OFFER_EVENT, onOffer, true]);
      const p = ports[0];
      apply(setOnMessage as (...a: unknown[]) => void, p, [onPortMessage]);
      port = p;
    } catch (err) {
      report(err);
      return;
    }
    try {
      for (const m of pending.splice(0)) send(m.type, m.payload, m.transfer);
    } catch (err) {
      report(err);
    }
  }
  // Capture, registered before any page script: the first listener the offer meets. Without a secret (the content
  // boot did not run in this frame) no offer can be taken.
  if (secret !== null) win.addEventListener(OFFER_EVENT, onOffer, true);

  return {
    post: send as PagePost,
    get connected() {
      return port !== null;
    },
  };
}
