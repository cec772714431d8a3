/**
 * content-hello.js: registered by the service worker for every frame at
 * document_start only while some tab is being inspected (the overlay on or a
 * panel open: src/background/index.ts). It asks the worker once, without a
 * port, whether this tab's overlay is on or a panel is open on it, and hears
 * its broadcasts until the content agent starts; when the frame is wanted, it asks
 * for the content agent (content-agent.js, which then says its own hello). So a
 * new document in an inspected tab turns on, and in every other page load
 * nothing of ours touches the extension APIs.
 */
import { Source } from '../../protocol/constants';
import { HELLO_KEY, AGENT_STARTED } from './handoff';
import { askForAgent, toWorker } from './worker';

type Msg = { source?: unknown; type?: unknown; payload?: unknown } | null;

const g = globalThis as unknown as Record<string | symbol, unknown>;

function heard(raw: unknown): void {
  if (g[AGENT_STARTED] !== undefined) return; // the content agent hears the worker itself
  const m = raw as Msg;
  if (!m || m.source !== Source.Background) return;
  const p = m.payload as { mode?: unknown; panel?: unknown; connected?: unknown } | null;
  // Wanted: the tab's overlay is on, or a DevTools panel is open on it.
  const wanted = ((m.type === 'mode' || m.type === 'helloAck') && p && p.mode !== 'off')
    || (m.type === 'panel' && p && p.connected === true) || (m.type === 'helloAck' && p && p.panel === true);
  if (wanted) askForAgent();
}

if (g[HELLO_KEY] === undefined && g[AGENT_STARTED] === undefined) {
  g[HELLO_KEY] = true;
  try {
    // The worker's broadcasts reach every frame of the tab (tabs.sendMessage), ported or not.
    chrome.runtime.onMessage.addListener((raw: unknown, sender: chrome.runtime.MessageSender) => {
      if (sender.id === chrome.runtime.id) heard(raw);
      return undefined;
    });
  } catch {
    // The extension was reloaded or removed.
  }
  void toWorker('hello', { top: window === window.top, mode: 'off', since: performance.timeOrigin }).then(heard);
}
