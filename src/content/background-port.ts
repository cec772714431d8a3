/**
 * The long-lived port to the service worker. MV3 stops the worker when idle
 * and the port then disconnects: reconnect on demand (next send) and after a
 * short delay, re-sending `hello` so the worker rebuilds its per-tab state.
 */
import browser from 'webextension-polyfill';
import {
  DropCounter, envelope, parseMessage, PORT_NAME_CONTENT, Source,
  type ContentToBackground, type MessageFrom,
} from '../protocol';

export type BackgroundMessage = MessageFrom<typeof Source.Background>;
const RECONNECT_DELAY_MS = 250;

export class BackgroundPort {
  readonly drops = new DropCounter();
  private port: browser.Runtime.Port | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private dead = false;

  constructor(
    private readonly onMessage: (msg: BackgroundMessage) => void,
    private readonly hello: () => ContentToBackground['hello'],
  ) {
    this.connect();
  }

  private connect(): void {
    if (this.port !== null || this.dead) return;
    try {
      const port = browser.runtime.connect({ name: PORT_NAME_CONTENT });
      this.port = port;
      port.onMessage.addListener((raw: unknown) => {
        const msg = parseMessage(raw, Source.Background);
        if (msg === null) this.drops.drop();
        else this.onMessage(msg);
      });
      port.onDisconnect.addListener(() => {
        this.port = null;
        if (this.timer === null) {
          this.timer = setTimeout(() => {
            this.timer = null;
            this.connect();
          }, RECONNECT_DELAY_MS);
        }
      });
      port.postMessage(envelope(Source.Content, 'hello', this.hello()));
    } catch {
      // The extension was reloaded or removed: this content script is orphaned.
      this.port = null;
      this.dead = true;
      this.drops.drop();
    }
  }

  send<T extends keyof ContentToBackground>(type: T, payload: ContentToBackground[T]): void {
    if (this.port === null) this.connect();
    try {
      this.port?.postMessage(envelope(Source.Content, type, payload));
    } catch {
      this.drops.drop();
    }
  }
}
