/**
 * The panel's port to the service worker. MV3 stops an idle worker and the
 * port then disconnects: reconnect after a short delay and say hello again
 * (the worker rebuilds its per-tab routing from it). DevTools closing simply
 * ends this page; reopening starts a fresh connection.
 */
import browser from 'webextension-polyfill';
import {
  DropCounter, envelope, parseMessage, PORT_NAME_PANEL, Source, type MessageFrom, type PanelToBackground,
} from '../protocol';

export type BackgroundMessage = MessageFrom<typeof Source.Background>;

const RECONNECT_DELAY_MS = 250;

export class PanelConnection {
  readonly drops = new DropCounter();
  connected = false;
  /** Bumped on every (re)connect, so the UI can tell a fresh stream from a stale one. */
  generation = 0;
  private port: browser.Runtime.Port | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private dead = false;

  constructor(
    private readonly tabId: number,
    private readonly onMessage: (msg: BackgroundMessage) => void,
    private readonly onConnection: (connected: boolean) => void,
  ) {}

  connect(): void {
    if (this.port !== null || this.dead) return;
    try {
      const port = browser.runtime.connect({ name: PORT_NAME_PANEL });
      this.port = port;
      port.onMessage.addListener((raw: unknown) => {
        const msg = parseMessage(raw, Source.Background);
        if (msg === null) this.drops.drop();
        else this.onMessage(msg);
      });
      port.onDisconnect.addListener(() => {
        if (this.port !== port) return;
        this.port = null;
        this.setConnected(false);
        this.schedule();
      });
      port.postMessage(envelope(Source.Panel, 'hello', { tabId: this.tabId }));
      this.generation++;
      this.setConnected(true);
    } catch {
      // The extension was reloaded or removed: this panel is orphaned until DevTools reopens.
      this.port = null;
      this.dead = true;
      this.drops.drop();
      this.setConnected(false);
    }
  }

  private schedule(): void {
    if (this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.connect();
    }, RECONNECT_DELAY_MS);
  }

  private setConnected(c: boolean): void {
    if (this.connected === c) return;
    this.connected = c;
    this.onConnection(c);
  }

  send<T extends keyof PanelToBackground>(type: T, payload: PanelToBackground[T]): void {
    if (this.port === null) this.connect();
    try {
      this.port?.postMessage(envelope(Source.Panel, type, payload));
    } catch {
      // Posting on a port the worker just dropped: the disconnect handler reconnects.
      this.drops.drop();
    }
  }
}
