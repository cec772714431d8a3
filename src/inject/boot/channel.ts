/**
 * The MAIN world's end of the private channel to the content script.
 *
 * At load, before any page script exists, this module reads the secret the
 * content script's boot (run just before it) left in `window.status`, puts
 * back what was there, and registers a capture listener on window for the
 * channel's offer, an event whose type carries the secret
 * (`OFFER_EVENT + secret`): no page script can name that type, so none can
 * listen for it or dispatch it. When the channel is wanted (on enable, a
 * panel, a call of the API) the content script's main part creates the
 * `MessageChannel` in its isolated world and dispatches the offer on the
 * window: a MessageEvent with one end. The listener takes the port, cancels
 * the event (that tells the content script) and keeps the port in this
 * closure only. Until then what this world would send is kept (the latest
 * 64), and the first call dispatches WAKE_EVENT, on which the content boot
 * asks for its main part.
 *
 * What it calls after load goes through `Reflect.apply` kept at load, and is
 * either a method of window's own kept at load (addEventListener,
 * removeEventListener, dispatchEvent: `EventTarget`'s, which the window
 * already has) or the engine's own function, checked when the offer comes:
 * the event's `ports` and `data` getters, its `preventDefault`, the port's
 * `postMessage` and `start`. Reading those at load instead would make Blink
 * create the `Event`, `MessageEvent` and `MessagePort` interfaces on every
 * page load (≈ 0.2 ms; docs/PERFORMANCE.md, always on). A function is the
 * engine's own when the `Function.prototype.toString` kept at load prints it
 * as native code under its own name: a page's wrapper, a bound function or a
 * proxy prints otherwise. If the page replaced any of them before the offer
 * came, the offer is not taken (the content script closes it) and the API's
 * `state().degraded` says why: a page can keep the overlay out, never take
 * or read the channel. The argument is in docs/ARCHITECTURE.md (security
 * model).
 */
import type { PageToContent } from '../../protocol';
import { OFFER_EVENT, PROTOCOL_VERSION, SECRET_END, SECRET_MARK, Source, WAKE_EVENT } from '../../protocol/constants';
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

export interface Channel {
  post: PagePost;
  readonly connected: boolean;
}

/** Built-ins kept at load that the channel checks others with (index.ts has them for the agent too). */
export interface ChannelNatives {
  fnToString: (this: unknown) => string;
  ownDescriptor: typeof Object.getOwnPropertyDescriptor;
}

export function openChannel(
  win: Window & typeof globalThis,
  apply: typeof Reflect.apply,
  natives: ChannelNatives,
  onMessage: (msg: ContentMessage) => void,
  report: (e: unknown) => void,
  refused: (why: string) => void,
): Channel {
  // Kept before any page script runs: window's own (EventTarget's, which exists with the window) and the engine's.
  const addListener = win.addEventListener;
  const removeListener = win.removeEventListener;
  const dispatch = win.dispatchEvent;
  const protoOf = win.Object.getPrototypeOf;
  const { fnToString, ownDescriptor } = natives;

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
  const offerType = secret === null ? null : OFFER_EVENT + secret;

  /**
   * `holder`'s own `key` (its getter with `getter`), if it is the engine's own function of that name, else null. Only
   * operators and functions kept at load run here: nothing a page script may have replaced since. A descriptor
   * without the field reads it from Object.prototype, where a page's getter can only hand over a function that must
   * pass the same check.
   */
  function engineOwn(holder: unknown, key: string, getter: boolean): ((...a: never[]) => unknown) | null {
    if ((typeof holder !== 'object' && typeof holder !== 'function') || holder === null) return null;
    const d = ownDescriptor(holder, key);
    const f: unknown = d === undefined ? undefined : getter ? d.get : d.value;
    if (typeof f !== 'function') return null;
    const text = apply(fnToString, f, []) as unknown;
    // V8's form (a getter named `get ports`) and SpiderMonkey's (named `ports`).
    return text === 'function ' + (getter ? 'get ' : '') + key + '() { [native code] }'
      || text === 'function ' + key + '() {\n    [native code]\n}' ? f as (...a: never[]) => unknown : null;
  }

  let port: MessagePort | null = null;
  let portPost: ((...a: never[]) => unknown) | null = null;
  let dataOf: ((...a: never[]) => unknown) | null = null;
  let woken = false;
  const pending: { type: string; payload: unknown; transfer?: Transferable[] }[] = [];

  function send(type: string, payload: unknown, transfer?: Transferable[]): void {
    if (port === null || portPost === null) {
      // Until the content script's port is here, keep the latest few. A call of the API is answered by the content
      // script's main part: say so once (it makes the channel and asks for main). The event carries nothing: a page
      // that replaced `Event` only keeps its own calls unanswered.
      if (pending.length >= 64) pending.shift();
      pending.push({ type, payload, transfer });
      if (type === 'api' && !woken && secret !== null) {
        woken = true;
        try {
          apply(dispatch, win, [new win.Event(WAKE_EVENT)]);
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
      data = apply(dataOf as (...a: never[]) => unknown, e, []);
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
    try {
      // Only our content script can dispatch this type; what it carries is read with the engine's own functions.
      const proto = protoOf(e) as unknown;
      const portsOf = engineOwn(proto, 'ports', true);
      const data = engineOwn(proto, 'data', true);
      const cancel = engineOwn(protoOf(proto) as unknown, 'preventDefault', false);
      if (portsOf === null || data === null || cancel === null) {
        refused('MessageEvent');
        return;
      }
      const ports = apply(portsOf, e, []) as readonly MessagePort[];
      if (ports.length !== 1) return;
      const p = ports[0];
      const portProto = protoOf(p) as unknown;
      const post = engineOwn(portProto, 'postMessage', false);
      const start = engineOwn(portProto, 'start', false);
      if (post === null || start === null) {
        refused('MessagePort');
        return;
      }
      // Ours: this listener goes, and the cancel tells the content script.
      apply(cancel, e, []);
      apply(removeListener, win, [offerType, onOffer, true]);
      apply(addListener, p, ['message', onPortMessage]);
      apply(start, p, []);
      dataOf = data;
      portPost = post;
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
  // Capture, registered before any page script. Without a secret (the content boot did not run in this frame) no
  // offer can be taken.
  if (offerType !== null) apply(addListener, win, [offerType, onOffer, true]);

  return {
    post: send as PagePost,
    get connected() {
      return port !== null;
    },
  };
}
