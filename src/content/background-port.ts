/**
 * The content script's long-lived port to the service worker (reconnects
 * after the worker is stopped; see ReconnectingPort), with the content →
 * worker message types.
 */
import browser from 'webextension-polyfill';
import {
  envelope, parseMessage, PORT_NAME_CONTENT, Source, type ContentToBackground, type MessageFrom,
} from '../protocol';
import { ReconnectingPort } from '../protocol/reconnecting-port';

export type BackgroundMessage = MessageFrom<typeof Source.Background>;

export class BackgroundPort {
  private readonly port: ReconnectingPort;

  constructor(onMessage: (msg: BackgroundMessage) => void, hello: () => ContentToBackground['hello']) {
    this.port = new ReconnectingPort(
      () => browser.runtime.connect({ name: PORT_NAME_CONTENT }),
      (raw) => {
        const msg = parseMessage(raw, Source.Background);
        if (msg === null) this.port.drops.drop();
        else onMessage(msg);
      },
      () => envelope(Source.Content, 'hello', hello()),
    );
    this.port.connect();
  }

  get drops(): ReconnectingPort['drops'] {
    return this.port.drops;
  }

  send<T extends keyof ContentToBackground>(type: T, payload: ContentToBackground[T]): void {
    this.port.send(envelope(Source.Content, type, payload));
  }
}
