/**
 * The devtools page: creates the "Layout Cost" panel, and holds a port to the
 * worker while DevTools is open on the tab, so that the Performance panel
 * track (inject/agent/timing/perf-track.ts) is written only then: the
 * Performance panel can record only while DevTools is open.
 */
import browser from 'webextension-polyfill';
import { PORT_NAME_DEVTOOLS } from '../protocol/ports';

browser.devtools.panels.create('Layout Cost', 'icons/icon32.png', 'panel.html').catch((e: unknown) => {
  console.warn('[layout-cost] could not create the panel', e);
});

/** Reconnects when the worker restarts (MV3 stops idle workers; the port drops with it). */
function connect(): void {
  try {
    const port = browser.runtime.connect({ name: `${PORT_NAME_DEVTOOLS}:${browser.devtools.inspectedWindow.tabId}` });
    port.onDisconnect.addListener(() => setTimeout(connect, 1000));
  } catch (e) {
    console.warn('[layout-cost] no port to the worker', e);
  }
}
connect();
