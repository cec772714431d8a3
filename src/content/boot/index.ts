/**
 * content.js: the content script's boot, at document_start in every frame
 * (isolated world), listed first in the manifest so that it runs just before
 * the MAIN world's boot. It is always on, so it does only what cannot wait,
 * in as few bytes as it can (every kilobyte here costs ≈ 0.1 ms a page load,
 * parsed or not: docs/PERFORMANCE.md, always on):
 * - hands the MAIN world's boot the secret that the private channel's offer
 *   will carry when the channel is made (by agent/page-channel.ts);
 * - listens for the user's Ctrl+Shift+L (trusted key presses only) and for
 *   the MAIN world's wake (the page called the API);
 * - on either, asks the worker once: to switch the tab, or to inject
 *   content-agent.js (the store, the canvas, the panel feed, the channel).
 * That is all: no extension API is touched at load (the first touch of
 * `chrome.runtime` in a frame costs ≈ 1 ms here). The hello (is this tab
 * being inspected?) is content-hello.js's, registered by the worker only
 * while some tab is, and the content agent's; the worker also injects the content agent into every
 * frame of a tab it turns on.
 */
import { SECRET_END, SECRET_MARK, WAKE_EVENT } from '../../protocol/constants';
import { HANDOFF_KEY, type Handoff } from './handoff';
import { askForAgent, toWorker } from './worker';
import { isToggleShortcut } from '../../protocol/shortcut';

function main(): void {
  const g = globalThis as unknown as Record<string, unknown>;
  if (g[HANDOFF_KEY] !== undefined) return;
  // The private channel's secret, handed to the MAIN world's boot (src/inject/boot/index.ts), which runs next,
  // through `window.status`: a string both worlds share that no page script has read yet. The MAIN boot reads it,
  // puts back what was there and from then on hears a channel's offer only if its type carries the secret. It comes from
  // this world's own Math.random, whose state no page script can observe (crypto would be the first touch of an
  // interface in a fresh world: ≈ 0.2 ms a load). The channel itself is made only when wanted, by the content agent
  // (docs/ARCHITECTURE.md, security model).
  const secret = Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2);
  window.status = SECRET_MARK + secret + SECRET_END + window.status;
  // What the content agent reads when it starts (./handoff.ts): the secret, and what went unanswered, counted by `failed`.
  const handoff: Handoff = [secret, 0];
  g[HANDOFF_KEY] = handoff;
  const failed = (): void => {
    handoff[1]++;
  };

  // The page called the API before the channel was made (the MAIN boot keeps the call until it is): the content agent answers it.
  // A page can dispatch this too; all it gets is what calling the API gets it.
  window.addEventListener(WAKE_EVENT, () => askForAgent(failed), true);

  // Which modifier is the shortcut's is read on the first key press, not on every page load.
  let mac: boolean | null = null;
  window.addEventListener('keydown', (e) => {
    // Only the user's own key press: a page's synthetic keydown must not switch the whole tab.
    if (!e.isTrusted || !e.shiftKey) return;
    mac ??= /Mac|iPhone|iPad/.test(navigator.platform);
    if (!isToggleShortcut(e, mac)) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    void toWorker('toggle', { via: 'key' }, failed);
  }, true);
}

try {
  main();
} catch (e) {
  console.warn('[layout-cost] content script failed to start', e);
}
