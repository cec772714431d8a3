/**
 * The boot scripts' portless line to the service worker (content.js and content-hello.js): the protocol's envelope
 * written here, so that neither imports more of the protocol than its constants.
 */
import { PROTOCOL_VERSION, Source } from '../../protocol/constants';
import { REQUESTED_KEY } from './handoff';

/** One message to the worker; its answer, or undefined when nobody answers (`onFail` is told). */
export function toWorker(type: string, payload: unknown, onFail?: () => void): Promise<unknown> {
  try {
    return chrome.runtime.sendMessage({ source: Source.Content, v: PROTOCOL_VERSION, type, payload }).catch(() => {
      onFail?.();
      return undefined;
    });
  } catch {
    // The extension was reloaded or removed: this frame's scripts are orphans.
    onFail?.();
    return Promise.resolve(undefined);
  }
}

/** Asks the worker for content-agent.js, once per frame (the boot and content-hello.js share the flag). */
export function askForAgent(onFail?: () => void): void {
  const g = globalThis as unknown as Record<string, unknown>;
  if (g[REQUESTED_KEY] === true) return;
  g[REQUESTED_KEY] = true;
  void toWorker('needContent', {}, onFail);
}
