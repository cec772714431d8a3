/**
 * The content script's end of the private channel to the MAIN world. Made
 * here, when the content agent starts (the frame is wanted: the overlay on, a panel open,
 * a call of the page's API): one `MessageChannel`, whose other end is offered
 * to the agent the worker injected into the MAIN world just before, through
 * the boot there, with the secret the content boot handed it at load and the
 * agent's offer number (../boot/handoff.ts; the argument is
 * docs/ARCHITECTURE.md's security model). The API calls the MAIN boot kept
 * come over it then.
 * Everything that arrives is untrusted data, validated with the protocol's
 * one guard.
 */
import { DropCounter, envelope, parseMessage, Source, type ContentToPage, type MessageFrom } from '../../protocol';
import { OFFER_EVENT } from '../../protocol/constants';

export type PageMessage = MessageFrom<typeof Source.Page>;

export class PageChannel {
  readonly drops = new DropCounter();

  /** Called (at most once per task) after messages were dropped, so the page can be told. */
  onDrop: () => void = () => {};
  private dropQueued = false;
  readonly port: MessagePort;
  /** The agent took the offer (false: no boot or agent in this frame, or the page replaced built-ins the channel needs). */
  readonly taken: boolean;

  constructor(secret: string, agent: number | undefined, private readonly onMessage: (msg: PageMessage) => void) {
    const channel = new MessageChannel();
    this.port = channel.port1;
    this.port.onmessage = (e) => this.receive(e.data);
    // Nobody else may hold the other end of an offer the agent did not take (no boot or agent there, or refused).
    this.taken = typeof agent === 'number' && offer(OFFER_EVENT + secret + ':' + agent, channel.port2);
    if (!this.taken) this.port.close();
  }

  private receive(raw: unknown): void {
    const msg = parseMessage(raw, Source.Page);
    if (msg === null) this.dropped();
    else this.onMessage(msg);
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

  send<T extends keyof ContentToPage>(type: T, payload: ContentToPage[T]): void {
    try {
      this.port.postMessage(envelope(Source.Content, type, payload));
    } catch {
      this.drops.drop();
    }
  }
}

/**
 * Offers `port` in a MessageEvent dispatched on the window, of a type that carries the secret and the agent's offer
 * number: synchronous, and only the MAIN boot's listener for that offer, registered when the agent offered itself, can
 * hear it. The agent takes the port and cancels the event: true.
 */
function offer(type: string, port: MessagePort): boolean {
  try {
    return !window.dispatchEvent(new MessageEvent(type, { ports: [port], cancelable: true }));
  } catch {
    return false;
  }
}
