/**
 * What the content script's boot (content.js, document_start, every frame)
 * hands to its main part (content-main.js, injected by the service worker into
 * the same isolated world when the frame first needs it). The isolated world's
 * globals are invisible to the page, so one property there is the handoff.
 * main/ imports this module for its types; boot/ imports nothing of main/.
 */
export const HANDOFF_KEY = '__layoutCostContent';
/** Set by content-hello.js when it runs before the boot (../boot/hello.ts). */
export const HELLO_FLAG = '__layoutCostHello';

export interface Handoff {
  /**
   * The content script's end of the private channel: made on first read (and when main is asked for or attaches),
   * its other end offered to the MAIN world's boot script with the secret handed over at load (boot/index.ts).
   */
  readonly port: MessagePort;
  /** Page and worker messages heard before main took over, raw (main validates them). */
  readonly pageQueue: unknown[];
  readonly workerQueue: unknown[];
  /** Messages the boot dropped (queue full, no worker to answer). */
  readonly dropped: number;
  /** Main takes over: from now on every message goes to these (and the hello is said, if it was not). */
  attach(onPage: (raw: unknown) => void, onWorker: (raw: unknown) => void): void;
  /** Asks the worker once whether this tab is being inspected, and starts hearing its broadcasts. */
  hello(): void;
}
