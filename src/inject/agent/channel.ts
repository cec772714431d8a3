/**
 * The MAIN world's end of the private channel to the content script, taken
 * from the channel's offer: the event the content script's agent
 * dispatches on window with the other end of its `MessageChannel`, of a type
 * that carries the secret and this agent's offer number (boot/index.ts,
 * boot/link.ts). No page script can name that type, so none can listen for it
 * or dispatch it; this code runs inside the dispatch, from the boot's
 * listener.
 *
 * It reads the event and the port with the engine's own functions, checked
 * here: the event's `ports` and `data` getters, its `preventDefault`, the
 * port's `postMessage` and `start`, each taken from the offer's own prototypes
 * only if the boot's `Function.prototype.toString` (kept at load) prints it as
 * native code under its own name — a page's wrapper, a bound function or a
 * proxy prints otherwise. Reading them at load instead would make Blink create
 * the `Event`, `MessageEvent` and `MessagePort` interfaces on every page load
 * (≈ 0.2 ms; docs/PERFORMANCE.md, always on). If the page replaced any of them
 * before, the offer is not taken (the content script sees it uncancelled and
 * closes its end) and `state().degraded` says why: a page can keep the overlay
 * out, never take or read the channel (docs/ARCHITECTURE.md, security model).
 * The port is heard through `addEventListener` + `start`, not `onmessage`
 * (zone.js wraps that).
 */
import type { PageToContent } from '../../protocol';
import { PROTOCOL_VERSION, Source } from '../../protocol/constants';
import type { Parsed } from '../../protocol/guard';
import type { BootLink } from '../boot/link';

/**
 * A content → page message, its envelope checked (source, version, a type). Its payload is checked by the part that
 * acts on it (agent/index.ts) with the protocol's validators (protocol/content-to-page.ts). The port's only other
 * holder is the content script.
 */
export interface ContentMessage {
  type: string;
  payload: unknown;
}

/** Posts to the content script. */
export type PagePost = <T extends keyof PageToContent>(type: T, payload: PageToContent[T], transfer?: Transferable[]) => void;

/**
 * Takes the offer's port, or returns null and says why through `refused` (the page replaced a built-in the channel
 * needs). Runs inside the offer's dispatch.
 */
export function openChannel(
  link: BootLink,
  offer: Event,
  onMessage: (msg: ContentMessage) => void,
  report: (e: unknown) => void,
  refused: (what: string) => void,
): PagePost | null {
  const apply = link.raf.apply;
  const { fnToString, ownDescriptor } = link.natives;
  const { add, protoOf } = link.events;

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

  const proto = protoOf(offer) as unknown;
  const portsOf = engineOwn(proto, 'ports', true);
  const dataOf = engineOwn(proto, 'data', true);
  const cancel = engineOwn(protoOf(proto) as unknown, 'preventDefault', false);
  if (portsOf === null || dataOf === null || cancel === null) {
    refused('MessageEvent');
    return null;
  }
  const ports = apply(portsOf, offer, []) as readonly MessagePort[];
  if (ports.length !== 1) return null;
  const port = ports[0];
  const portProto = protoOf(port) as unknown;
  const portPost = engineOwn(portProto, 'postMessage', false);
  const start = engineOwn(portProto, 'start', false);
  if (portPost === null || start === null) {
    refused('MessagePort');
    return null;
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

  // Ours: the cancel tells the content script.
  apply(cancel, offer, []);
  apply(add, port, ['message', onPortMessage]);
  apply(start, port, []);
  return (type, payload, transfer) => {
    try {
      // The protocol's envelope (protocol/guard.ts), written here.
      const m: Parsed = { source: Source.Page, v: PROTOCOL_VERSION, type, payload };
      apply(portPost as (...a: never[]) => unknown, port, [m, transfer ?? []] as never[]);
    } catch (e) {
      report(e);
    }
  };
}
