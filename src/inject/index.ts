/**
 * The MAIN-world script at document_start, in every frame: only what must
 * exist before the page's first script runs. It installs the React hook
 * (renderers and roots only), takes over requestAnimationFrame as a
 * pass-through and wraps attachShadow, and leaves that state on one hidden
 * property of window. Nothing else: no listener, no message, no validator.
 *
 * The private channel to the content script and `window.__LAYOUT_COST__`
 * come from page.js, a second MAIN-world script at document_end; the React
 * adapter, timing and attribution from the agent, injected only when the
 * overlay is first enabled. Every byte here is compiled on every page load
 * (SPEC §6: ≤ 0.3 ms at document_start), so it stays this small.
 */
import { installHook } from './hook';
import { DEBUG, INTERNAL_KEY, VERSION, type Internal } from './internal';
import { installRaf } from './raf';
import { installShadowTap } from './shadow';

function main(win: Window & typeof globalThis): void {
  if (Object.prototype.hasOwnProperty.call(win, INTERNAL_KEY)) return;
  const debug = (...args: unknown[]): void => {
    if (DEBUG) console.debug('[layout-cost]', ...args);
  };
  const report = (e: unknown): void => debug('error', e);
  // post/status are placeholders until page.js opens the channel.
  const internal: Internal = {
    version: VERSION,
    hook: installHook(win, report),
    raf: installRaf(win),
    shadow: installShadowTap(win, report),
    agent: null,
    agentStats: null,
    nodeOf: null,
    config: { mode: 'off', wantBounds: [], pinned: null },
    degraded: [],
    notes: [],
    debug,
    channel: false,
    natives: {
      MessageChannel: win.MessageChannel,
      postMessage: win.postMessage as Internal['natives']['postMessage'],
      addEventListener: win.addEventListener as Internal['natives']['addEventListener'],
      removeEventListener: win.removeEventListener as Internal['natives']['removeEventListener'],
      setTimeout: win.setTimeout as Internal['natives']['setTimeout'],
      bind: Function.prototype.bind,
    },
    post: () => {},
    status: () => null as never,
  };
  Object.defineProperty(win, INTERNAL_KEY, { value: internal, enumerable: false, configurable: false });
}

try {
  main(window);
} catch (e) {
  // Never throw into the page.
  void e;
}
