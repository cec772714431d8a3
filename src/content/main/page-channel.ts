/**
 * The content script's end of the private channel to the MAIN world, once
 * main has loaded. The boot (../boot/index.ts) created the `MessageChannel`,
 * offered one end to the MAIN world's boot script and queued what arrived;
 * this class takes over the port and the queue. Everything that arrives is
 * untrusted data, validated with the protocol's one guard.
 */
import { DropCounter, envelope, parseMessage, Source, type ContentToPage, type MessageFrom } from '../../protocol';
import type { Handoff } from '../boot/handoff';

export type PageMessage = MessageFrom<typeof Source.Page>;

export class PageChannel {
  readonly drops = new DropCounter();

  /** Called (at most once per task) after messages were dropped, so the page can be told. */
  onDrop: () => void = () => {};
  private dropQueued = false;

  constructor(private readonly handoff: Handoff, private readonly onMessage: (msg: PageMessage) => void) {}

  /** Takes over from the boot: the messages it queued first, then every new one. */
  attach(onWorker: (raw: unknown) => void): void {
    for (const raw of this.handoff.pageQueue.splice(0)) this.receive(raw);
    this.handoff.attach((raw) => this.receive(raw), onWorker);
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
      this.handoff.port.postMessage(envelope(Source.Content, type, payload));
    } catch {
      this.drops.drop();
    }
  }
}
