/**
 * The private channel to the MAIN world: accepts the one handshake that
 * carries a MessagePort, then validates every message on that port with
 * the protocol's one guard. Everything that arrives here is untrusted data.
 */
import {
  DropCounter, envelope, HANDSHAKE_TYPE, parseMessage, PROTOCOL_VERSION, Source,
  type ContentToPage, type MessageFrom,
} from '../protocol';

export type PageMessage = MessageFrom<typeof Source.Page>;

export class PageChannel {
  readonly drops = new DropCounter();
  private port: MessagePort | null = null;

  /** Called (at most once per task) after messages were dropped, so the page can be told. */
  onDrop: () => void = () => {};
  private dropQueued = false;

  constructor(private readonly onMessage: (msg: PageMessage) => void, private readonly onConnect: () => void) {
    const onWindowMessage = (e: MessageEvent): void => {
      if (e.source !== window || this.port !== null) return;
      const d = e.data as { source?: unknown; v?: unknown; type?: unknown } | null;
      if (!d || d.source !== Source.Page || d.type !== HANDSHAKE_TYPE) return;
      if (d.v !== PROTOCOL_VERSION || e.ports.length !== 1) {
        this.drops.drop();
        return;
      }
      window.removeEventListener('message', onWindowMessage);
      this.port = e.ports[0];
      this.port.onmessage = (ev) => {
        const msg = parseMessage(ev.data, Source.Page);
        if (msg === null) this.dropped();
        else this.onMessage(msg);
      };
      this.onConnect();
    };
    window.addEventListener('message', onWindowMessage);
    // page.js (MAIN world, document_end) offers the port as soon as it runs; asking
    // as well covers a page.js that ran before this listener existed (it answers
    // asks until one of its ports is taken).
    const ask = (): void => {
      if (this.port === null) window.postMessage({ source: Source.Content, v: PROTOCOL_VERSION, type: HANDSHAKE_TYPE }, '*');
    };
    ask();
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', ask, { once: true });
  }

  private dropped(): void {
    this.drops.drop();
    if (this.dropQueued) return;
    this.dropQueued = true;
    setTimeout(() => {
      this.dropQueued = false;
      this.onDrop();
    }, 0);
  }

  get connected(): boolean {
    return this.port !== null;
  }

  send<T extends keyof ContentToPage>(type: T, payload: ContentToPage[T]): void {
    try {
      this.port?.postMessage(envelope(Source.Content, type, payload));
    } catch {
      this.drops.drop();
    }
  }
}
