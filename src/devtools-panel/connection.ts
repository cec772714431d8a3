/**
 * The panel's port to the service worker (reconnects after the worker is
 * stopped; see ReconnectingPort), with the panel → worker message types.
 * DevTools closing simply ends this page; reopening starts a fresh
 * connection.
 */
import browser from 'webextension-polyfill';
import {
  envelope, parseMessage, PORT_NAME_PANEL, Source, type MessageFrom, type PanelToBackground,
} from '../protocol';
import { ReconnectingPort } from '../protocol/reconnecting-port';

export type BackgroundMessage = MessageFrom<typeof Source.Background>;

export class PanelConnection {
  private readonly port: ReconnectingPort;

  constructor(
    tabId: number,
    onMessage: (msg: BackgroundMessage) => void,
    onConnection: (connected: boolean) => void,
  ) {
    this.port = new ReconnectingPort(
      () => browser.runtime.connect({ name: PORT_NAME_PANEL }),
      (raw) => {
        const msg = parseMessage(raw, Source.Background);
        if (msg === null) this.port.drops.drop();
        else onMessage(msg);
      },
      () => envelope(Source.Panel, 'hello', { tabId }),
      onConnection,
    );
  }

  get connected(): boolean {
    return this.port.connected;
  }

  get drops(): ReconnectingPort['drops'] {
    return this.port.drops;
  }

  connect(): void {
    this.port.connect();
  }

  send<T extends keyof PanelToBackground>(type: T, payload: PanelToBackground[T]): void {
    this.port.send(envelope(Source.Panel, type, payload));
  }
}
