/**
 * inject.js: the MAIN-world boot script, at document_start in every frame,
 * before the page's first script. It is always on, so it holds only what must
 * exist before the page runs and what the page may call at any time:
 * - the React hook (renderers and roots only), the rAF pass-through and the
 *   attachShadow tap (hook.ts, raf.ts, shadow.ts);
 * - the private channel's secret, which the content script's boot left in
 *   `window.status` (read and put back here, before any page script);
 * - `window.__LAYOUT_COST__` (api.ts), whose calls wait here for the agent;
 * - `window.__LAYOUT_COST_OFFER__`, through which the agent (agent/, injected
 *   with the content script's agent when the frame is first wanted) is
 *   handed the document_start state and makes the channel (link.ts).
 * Nothing else, and nothing of agent/ (the build enforces it): every byte here
 * is compiled on every page load (docs/PERFORMANCE.md, always on).
 */
import { OFFER_EVENT, SECRET_END, SECRET_MARK, WAKE_EVENT } from '../../protocol/constants';
import { installApi } from './api';
import { installHook } from './hook';
import { type AgentHandle, type AgentStart, type ApiRequest, type BootLink, type BootNatives, DEBUG, OFFER_KEY, VERSION } from './link';
import { installRaf } from './raf';
import { shadowTap } from './shadow';
import { vueTrap } from './vue';

/**
 * The built-ins on the agent's paths (issue 45), as `holder path:keys` groups ("" for window's own): their values are
 * kept at load (plain reads, nothing allocated but the list) for agent/pristine.ts.
 */
const KEPT = 'Array.prototype:push slice includes indexOf join map filter sort|Map.prototype:get set has delete clear keys values'
  + '|Set.prototype:add has delete clear values|WeakMap.prototype:get set has delete|JSON:stringify'
  + '|:Map Set WeakMap setTimeout clearTimeout setInterval';
/** Offers heard at once (page code may offer too): the oldest goes. */
const MAX_OFFERS = 16;
/** API calls kept until the agent is there: the latest. */
const MAX_KEPT = 64;

function main(win: Window & typeof globalThis): void {
  if (Object.prototype.hasOwnProperty.call(win, OFFER_KEY)) return;
  // Before the page's first script: the agent reads component source text and error stacks with these, never with the
  // page's own. SpiderMonkey's errors read `stack` through a getter on Error.prototype: the engine's own, taken now.
  const ownDescriptor = win.Object.getOwnPropertyDescriptor;
  // The built-ins on the agent's paths (collections, JSON, timers) as they are now: the agent runs on these even where
  // the page wraps them later. window's own addEventListener and removeEventListener are kept below (`add`, `remove`);
  // the agent finds the prototype that holds them when it starts (EventTarget's interface object is not made at load).
  const builtins: unknown[] = [];
  for (const spec of KEPT.split('|')) {
    const [path, keys] = spec.split(':');
    let holder = win as unknown as Record<string, unknown>;
    if (path) for (const p of path.split('.')) holder = holder[p] as Record<string, unknown>;
    for (const k of keys.split(' ')) builtins.push(holder, k, holder[k], path);
  }
  const natives: BootNatives = {
    fnToString: win.Function.prototype.toString, reflectApply: win.Reflect.apply, NativeError: win.Error, ownDescriptor,
    protoStack: (ownDescriptor(win.Error.prototype, 'stack')?.get ?? null) as BootNatives['protoStack'],
    kept: builtins, define: win.Object.defineProperty,
  };
  const debug = (...args: unknown[]): void => {
    if (DEBUG) console.debug('[layout-cost]', ...args);
  };
  const report = (e: unknown): void => debug('error', e);
  const raf = installRaf(win);
  const apply = raf.apply;
  // The attachShadow tap goes in when React first reads the hook or registers (or on enable): not at load (shadow.ts).
  const shadow = shadowTap(win, report);
  const hook = installHook(win, report, shadow.tap);
  const vue = vueTrap(win, natives.define, report, shadow.tap);
  const notes: string[] = [];
  // window's own (EventTarget's, which come with the window), kept before any page script.
  const add = win.addEventListener;
  const remove = win.removeEventListener;
  const dispatch = win.dispatchEvent;
  const link: BootLink = {
    version: VERSION, hook, raf, shadow, vue, notes, debug, natives, events: { add, remove, protoOf: win.Object.getPrototypeOf },
  };

  // The channel's secret, and window.status as it was (the content boot wrote its mark in front of it). Without it (the
  // content boot did not run in this frame) no offer can be heard.
  let secret: string | null = null;
  const status = win.status;
  if (status.startsWith(SECRET_MARK)) {
    const end = status.indexOf(SECRET_END, SECRET_MARK.length);
    if (end > SECRET_MARK.length) {
      secret = status.slice(SECRET_MARK.length, end);
      win.status = status.slice(end + SECRET_END.length);
    }
  }

  let agent: AgentHandle | null = null;
  const kept: ApiRequest[] = [];
  let keptN = 0;
  let woken = false;
  // A null-prototype record, not a Map: offer() is called by page code, and nothing it reaches may be a built-in the
  // page can have replaced (Map.prototype.set) or a setter on a prototype (Array.prototype[0]).
  const heard: Record<number, (e: Event) => void> = Object.create(null) as Record<number, (e: Event) => void>;
  let offers = 0;
  const typeOf = (token: number): string => OFFER_EVENT + secret + ':' + token;

  /**
   * The agent bundle calls this with its start function; the returned number is the bundle's completion value, which
   * only the worker sees (link.ts). The offer is heard through an event whose type carries the secret and that number:
   * only the content script, told the number by the worker, can dispatch it. Page code may offer too; it can delay an
   * agent (the oldest of MAX_OFFERS goes), never take its place.
   */
  function offer(start: unknown): number {
    if (typeof start !== 'function' || secret === null) return 0;
    const token = ++offers;
    const gone = heard[token - MAX_OFFERS];
    if (gone !== undefined) {
      delete heard[token - MAX_OFFERS];
      apply(remove, win, [typeOf(token - MAX_OFFERS), gone, true]);
    }
    const type = typeOf(token);
    const on = (e: Event): void => {
      delete heard[token];
      apply(remove, win, [type, on, true]);
      if (agent !== null) return;
      try {
        agent = (start as AgentStart)(link, e);
        // The ring, oldest first, by index: no array method (issue 45).
        if (agent !== null) for (let i = keptN > MAX_KEPT ? keptN - MAX_KEPT : 0; i < keptN; i++) agent.call(kept[i % MAX_KEPT]);
        kept.length = keptN = 0;
      } catch (err) {
        report(err);
      }
    };
    heard[token] = on;
    // Capture, on window: the content script dispatches the offer there, synchronously.
    apply(add, win, [type, on, true]);
    return token;
  }
  Object.defineProperty(win, OFFER_KEY, { value: Object.freeze(offer), enumerable: false, configurable: false, writable: false });

  installApi(win, {
    version: VERSION, hook, vue, notes,
    agent: () => agent,
    keep: (c) => {
      // A ring written by index, not push/shift: the page may have replaced those since load (issue 45).
      kept[keptN++ % MAX_KEPT] = c;
      // The content script's agent answers the API: the content boot asks for it (and the agent) on this event.
      // It carries nothing: a page that dispatches it gets what calling the API gets it.
      if (woken || secret === null) return;
      woken = true;
      try {
        apply(dispatch, win, [new win.Event(WAKE_EVENT)]);
      } catch (e) {
        report(e);
      }
    },
    internals: () => ({
      // The agent exists only once it has taken the channel.
      channel: agent !== null,
      agent: agent !== null,
      rafTapped: raf.tap !== null,
      shadowTapped: shadow.tapped,
      rafBroken: raf.broken,
      hookChained: hook.chained,
      ...(agent?.stats() ?? {}),
    }),
  });
}

try {
  main(window);
} catch (e) {
  // Never throw into the page.
  void e;
}
