/**
 * The content script's line to the service worker, opened only while there
 * is something to say: the overlay is on, a DevTools panel is open on the
 * tab, or a message is being sent (an API call). Main says the portless
 * hello and hears the worker's broadcasts (`tabs.sendMessage`: mode and panel
 * changes; index.ts) and hands them here (`receive`), and the port opens when
 * one makes it wanted. The long-lived port reconnects after a worker
 * stop only while wanted (ReconnectingPort).
 */
import browser from 'webextension-polyfill';
import {
  envelope, parseMessage, PORT_NAME_CONTENT, Source, type ContentToBackground, type MessageFrom,
} from '../../protocol';
import { ReconnectingPort } from '../../protocol/reconnecting-port';

export type BackgroundMessage = MessageFrom<typeof Source.Background>;

/** A port nobody wants any more is let go this long after the last reason to keep it. */
const RELEASE_AFTER_MS = 1000;

export class BackgroundPort {
  private readonly port: ReconnectingPort;
  private releaseTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly onMessage: (msg: BackgroundMessage) => void,
    hello: () => ContentToBackground['hello'],
    private readonly wanted: () => boolean,
  ) {
    this.port = new ReconnectingPort(
      () => browser.runtime.connect({ name: PORT_NAME_CONTENT }),
      (raw) => this.receive(raw),
      () => envelope(Source.Content, 'hello', hello()),
      () => {},
      wanted,
    );
  }

  /** A worker message: on the port, or a broadcast / the hello's answer (index.ts hands them here). */
  receive(raw: unknown): void {
    const msg = parseMessage(raw, Source.Background);
    if (msg === null) {
      this.port.drops.drop();
      return;
    }
    this.onMessage(msg);
    this.sync();
  }

  get drops(): ReconnectingPort['drops'] {
    return this.port.drops;
  }

  /** Opens the port when wanted; lets it go a little after it stops being wanted. */
  sync(): void {
    if (this.wanted()) {
      if (this.releaseTimer !== null) clearTimeout(this.releaseTimer);
      this.releaseTimer = null;
      this.port.connect();
      return;
    }
    if (this.releaseTimer !== null) return;
    this.releaseTimer = setTimeout(() => {
      this.releaseTimer = null;
      if (!this.wanted()) this.port.close();
    }, RELEASE_AFTER_MS);
  }

  send<T extends keyof ContentToBackground>(type: T, payload: ContentToBackground[T]): void {
    this.port.send(envelope(Source.Content, type, payload));
    this.sync();
  }
}
