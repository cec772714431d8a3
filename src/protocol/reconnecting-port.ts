/**
 * A long-lived runtime port that comes back. MV3 stops an idle service
 * worker and its ports disconnect; the content script and the panel both
 * reconnect after a short delay (or at their next send) and say hello again,
 * which is how a restarted worker rebuilds its per-tab state — but only while
 * they have something to say (`wanted`): a content script with the overlay
 * off and no panel open lets Chrome's idle stop of the worker stick (issue 11:
 * every frame of every tab woke it 250 ms after any stop). Context-free: the
 * room passes its own `connect` (webextension-polyfill's runtime.connect), so
 * this module has no extension globals.
 */
import { DropCounter } from './messages';

/** The part of runtime.Port this uses. */
export interface PortLike {
  onMessage: { addListener(fn: (raw: unknown) => void): void };
  onDisconnect: { addListener(fn: () => void): void };
  postMessage(msg: unknown): void;
  disconnect(): void;
}

export const RECONNECT_DELAY_MS = 250;

export class ReconnectingPort {
  readonly drops = new DropCounter();
  connected = false;
  private port: PortLike | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private dead = false;

  constructor(
    private readonly open: () => PortLike,
    /** Raw messages; the room parses them with the protocol's guard. */
    private readonly onMessage: (raw: unknown) => void,
    /** The first message on every new port. */
    private readonly hello: () => unknown,
    private readonly onConnection: (connected: boolean) => void = () => {},
    /** Whether to come back after a disconnect (default: always). */
    private readonly wanted: () => boolean = () => true,
  ) {}

  /** Lets the port go on purpose (nothing to say for now); the next send or connect opens a new one. */
  close(): void {
    const port = this.port;
    if (port === null) return;
    this.port = null;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    try {
      port.disconnect();
    } catch {
      this.drops.drop();
    }
    this.setConnected(false);
  }

  connect(): void {
    if (this.port !== null || this.dead) return;
    try {
      const port = this.open();
      this.port = port;
      port.onMessage.addListener((raw) => this.onMessage(raw));
      port.onDisconnect.addListener(() => {
        if (this.port !== port) return;
        this.port = null;
        this.setConnected(false);
        if (this.wanted()) this.schedule();
      });
      port.postMessage(this.hello());
      this.setConnected(true);
    } catch {
      // The extension was reloaded or removed: this context is orphaned for good.
      this.port = null;
      this.dead = true;
      this.drops.drop();
      this.setConnected(false);
    }
  }

  send(msg: unknown): void {
    if (this.port === null) this.connect();
    try {
      this.port?.postMessage(msg);
    } catch {
      // Posting on a port the worker just dropped: the disconnect handler reconnects.
      this.drops.drop();
    }
  }

  private schedule(): void {
    if (this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.wanted()) this.connect();
    }, RECONNECT_DELAY_MS);
  }

  private setConnected(c: boolean): void {
    if (this.connected === c) return;
    this.connected = c;
    this.onConnection(c);
  }
}
