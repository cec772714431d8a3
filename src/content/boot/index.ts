/**
 * content.js: the content script's boot, at document_start in every frame
 * (isolated world). It is always on, so it does only what cannot wait:
 * - hands the MAIN world's boot script, which runs right after it, the
 *   secret that the private channel's offer will carry when the channel is
 *   made (on enable, a panel, or a call of the page's API);
 * - listens for the user's Ctrl+Shift+L (trusted key presses only).
 * That is all it does at load: no extension API is touched (the first touch
 * of `chrome.runtime` in a frame costs ≈ 1 ms here). Later, and only then:
 * - `hello()`: asks the service worker once, without a port, whether this
 *   tab's overlay is on or a panel is open, and from then on hears its
 *   broadcasts. Said when content-hello.js asks (the worker registers it only
 *   while some tab is being inspected) or when main starts;
 * - when the frame is needed (the overlay on, a panel open, a call of the
 *   page's API), asks the worker to inject content-main.js (the store, the
 *   canvas, the panel feed) and hands it all it heard (handoff.ts); the worker
 *   also injects it into every frame of a tab it turns on.
 * It uses `chrome.*` directly: no polyfill, no validators beyond the shapes
 * it acts on (main validates everything before use).
 */
import { HANDSHAKE_TYPE, OFFER_EVENT, PROTOCOL_VERSION, SECRET_END, SECRET_MARK, Source, WAKE_EVENT } from '../../protocol/constants';
import { HANDOFF_KEY, HELLO_FLAG, type Handoff } from './handoff';
import { isToggleShortcut } from '../../protocol/shortcut';

const MAX_QUEUE = 64;

/** Firefox's content scripts: a copy of an object in the page's scope. */
declare const cloneInto: ((obj: unknown, target: object) => unknown) | undefined;

type Msg = { source?: unknown; v?: unknown; type?: unknown; payload?: unknown } | null;

function envelope(type: string, payload: unknown): object {
  return { source: Source.Content, v: PROTOCOL_VERSION, type, payload };
}

function main(): void {
  const g = globalThis as unknown as Record<string, unknown>;
  if (g[HANDOFF_KEY] !== undefined) return;
  let dropped = 0;
  let mainRequested = false;
  const pageQueue: unknown[] = [];
  const workerQueue: unknown[] = [];
  let onPage: ((raw: unknown) => void) | null = null;
  let onWorker: ((raw: unknown) => void) | null = null;

  const send = (type: string, payload: unknown): Promise<unknown> => {
    try {
      return chrome.runtime.sendMessage(envelope(type, payload)).catch(() => {
        dropped++;
      });
    } catch {
      // The extension was reloaded or removed: this frame's scripts are orphans.
      dropped++;
      return Promise.resolve(undefined);
    }
  };
  const needMain = (): void => {
    if (mainRequested) return;
    mainRequested = true;
    connect();
    void send('needContent', {});
  };
  const queue = (q: unknown[], raw: unknown): void => {
    if (q.length >= MAX_QUEUE) {
      q.shift();
      dropped++;
    }
    q.push(raw);
  };

  function fromWorker(raw: unknown): void {
    if (onWorker) return onWorker(raw);
    const m = raw as Msg;
    if (!m || m.source !== Source.Background) return;
    const p = m.payload as { mode?: unknown; panel?: unknown; connected?: unknown } | null;
    queue(workerQueue, raw);
    // Wanted: the tab's overlay is on, or a DevTools panel is open on it.
    if ((m.type === 'mode' || m.type === 'helloAck') && p && p.mode !== 'off') needMain();
    if ((m.type === 'panel' && p && p.connected === true) || (m.type === 'helloAck' && p && p.panel === true)) needMain();
  }

  // The private channel (src/inject/boot/channel.ts), made only when it is wanted. At load this script, listed
  // before the MAIN world's boot script in the manifest and so run just before it, hands that script a secret
  // through `window.status`, a string both worlds share that the page has not read yet and never sees: the MAIN boot
  // reads it, puts back what was there and keeps the secret; from then on it takes a channel's offer only if the
  // offer carries the secret. The secret comes from this world's own Math.random, whose state no page script can
  // observe (crypto would be the first touch of an interface in a fresh world: ≈ 0.2 ms a load). No MessageChannel
  // and no MessageEvent at load (docs/PERFORMANCE.md, always on; docs/ARCHITECTURE.md, security model).
  const secret = Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2);
  window.status = SECRET_MARK + secret + SECRET_END + window.status;

  let port: MessagePort | null = null;
  /**
   * Makes the channel and offers its other end with the secret, in an event of our own type (OFFER_EVENT, a
   * MessageEvent) dispatched on the window: synchronous, and no listener of ours hears the page's own window
   * messages. The MAIN boot's listener for that type was registered before any page script: it takes the offer,
   * stops it there (no page listener sees it, its secret or its port) and cancels it, so we know. In Firefox the MAIN
   * world reads an object made here only as a copy in its own scope (`cloneInto`). An offer not taken (no MAIN boot
   * in this frame) is closed: nobody else may hold its other end.
   */
  function connect(): MessagePort {
    if (port !== null) return port;
    const channel = new MessageChannel();
    const p = (port = channel.port1);
    p.onmessage = (e) => {
      if (onPage) return onPage(e.data);
      const d = e.data as Msg;
      queue(pageQueue, e.data);
      if (d && d.type === 'api') needMain();
    };
    const made = { source: Source.Content, v: PROTOCOL_VERSION, type: HANDSHAKE_TYPE, secret };
    let taken = false;
    try {
      const data = typeof cloneInto === 'function' ? cloneInto(made, window) : made;
      taken = !window.dispatchEvent(new MessageEvent(OFFER_EVENT, { data, ports: [channel.port2], cancelable: true }));
    } catch {
      taken = false;
    }
    if (!taken) {
      dropped++;
      p.close();
    }
    return p;
  }
  // The page called the API before the channel was made (the MAIN boot keeps the call until it is): main answers it.
  // A page can dispatch this too; all it gets is what calling the API gets it.
  window.addEventListener(WAKE_EVENT, () => needMain(), true);

  // Which modifier is the shortcut's is read on the first key press, not on every page load.
  let mac: boolean | null = null;
  window.addEventListener('keydown', (e) => {
    // Only the user's own key press: a page's synthetic keydown must not switch the whole tab.
    if (!e.isTrusted || !e.shiftKey) return;
    mac ??= /Mac|iPhone|iPad/.test(navigator.platform);
    if (!isToggleShortcut(e, mac)) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    void send('toggle', { via: 'key' });
  }, true);

  let helloSaid = false;
  function hello(): void {
    if (helloSaid) return;
    helloSaid = true;
    try {
      // The worker's broadcasts reach every frame of the tab (tabs.sendMessage), ported or not.
      chrome.runtime.onMessage.addListener((raw: unknown, sender: chrome.runtime.MessageSender) => {
        if (sender.id === chrome.runtime.id) fromWorker(raw);
        return undefined;
      });
    } catch {
      dropped++;
    }
    void send('hello', { top: window === window.top, mode: 'off', since: performance.timeOrigin }).then((ack) => {
      if (ack !== undefined) fromWorker(ack);
    });
  }

  const handoff: Handoff = {
    get port() {
      return connect();
    },
    pageQueue,
    workerQueue,
    get dropped() {
      return dropped;
    },
    attach(page, worker) {
      connect();
      onPage = page;
      onWorker = worker;
      hello();
    },
    hello,
  };
  Object.defineProperty(g, HANDOFF_KEY, { value: handoff });
  // content-hello.js ran first (the worker registers it while a tab is being inspected).
  if (g[HELLO_FLAG] === true) hello();
}

try {
  main();
} catch (e) {
  console.warn('[layout-cost] content script failed to start', e);
}
