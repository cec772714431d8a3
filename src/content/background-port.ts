/**
 * The content script's line to the service worker, opened only while there
 * is something to say: the overlay is on, a DevTools panel is open on the
 * tab, or a message is being sent (a key press, an API call). A page where
 * the overlay stays off says one portless hello at start (to learn the tab's
 * mode) and otherwise holds no port, so Chrome's idle stop of the worker
 * sticks (issue 11). While portless it hears the worker's broadcasts
 * (`tabs.sendMessage`: mode and panel changes) and opens the port when one
 * makes it wanted. The long-lived port reconnects after a worker stop only
 * while wanted (ReconnectingPort).
 */
import browser from 'webextension-polyfill';
import {
  envelope, parseMessage, PORT_NAME_CONTENT, Source, type ContentToBackground, type MessageFrom,
} from '../protocol';
import { ReconnectingPort } from '../protocol/reconnecting-port';

export type BackgroundMessage = MessageFrom<typeof Source.Background>;

/** A port nobody wants any more is let go this long after the last reason to keep it. */
const RELEASE_AFTER_MS = 1000;

export class BackgroundPort {
  private readonly port: ReconnectingPort;
  private releaseTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly onMessage: (msg: BackgroundMessage) => void,
    private readonly hello: () => ContentToBackground['hello'],
    private readonly wanted: () => boolean,
  ) {
    this.port = new ReconnectingPort(
      () => browser.runtime.connect({ name: PORT_NAME_CONTENT }),
      (raw) => this.receive(raw),
      () => envelope(Source.Content, 'hello', hello()),
      () => {},
      wanted,
    );
    // Broadcasts from the worker reach every frame of the tab, ported or not.
    browser.runtime.onMessage.addListener((raw: unknown, sender: browser.Runtime.MessageSender) => {
      if (sender.id !== browser.runtime.id) return undefined;
      this.receive(raw);
      return undefined;
    });
    void this.greet();
  }

  /** One portless hello: the tab's mode and whether a panel is open (answered as a helloAck). */
  private async greet(): Promise<void> {
    try {
      this.receive(await browser.runtime.sendMessage(envelope(Source.Content, 'hello', this.hello())));
    } catch {
      // No worker to answer (the extension is being reloaded): a key press or the API will connect.
      this.port.drops.drop();
    }
  }

  private receive(raw: unknown): void {
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
