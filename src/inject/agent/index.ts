/**
 * agent.js: injected into the MAIN world by the service worker with the
 * content script's agent, when the frame is first wanted (the overlay on,
 * a panel open, a call of the page's API; never at document_start), so a page
 * where nothing of that happens pays only for the boot script. Evaluating the
 * bundle does nothing but offer `start` to the boot script
 * (`__LAYOUT_COST_OFFER__(start)`, webpack's jsonp library output; see
 * boot/link.ts). The boot calls it from the channel's offer, which the content
 * script dispatches with this offer's number: the agent takes the channel
 * (./channel.ts), answers the page's API and keeps the page's status current,
 * and follows the content script's config: mode off stops everything, any
 * other mode runs the pipeline.
 */
import { fillKeys } from './api-keys';
import type { LayoutCostState, PageStatus, PixelAnswer } from '../../protocol';
import { contentToPage } from '../../protocol/content-to-page';
import type { ExperimentOutcome, ExperimentRequest } from '../../protocol/experiment';
import { EXPERIMENT_OVERLAY_OFF } from '../../protocol/experiment-request';
import { INVALID } from '../../protocol/validate';
import type { AgentConfig, AgentHandle, AgentLink, ApiRequest, BootLink } from '../boot/link';
import { type ContentMessage, openChannel, type PagePost } from './channel';
import { contentState, NO_STATE, type ContentState } from './content-state';
import { ExperimentRunner } from './experiment/experiment';
import { nativeReaders } from './natives';
import { Pending } from '../../protocol/pending';
import { Pipeline } from './pipeline/pipeline';
import { ReactAdapter } from './react/adapter';
import { VueAdapter } from './vue/adapter';
import { PreactAdapter } from './preact/adapter';
import { Reasons } from './reasons';
import type { Pristine } from './pristine';
import { TypeSourcer } from './types';

/** Component types are looked at this often while on (never on the commit path). */
const TYPES_INTERVAL_MS = 1000;
/** The first pass after the overlay goes on (ms): meters wait for their components to be placed (issue 44). */
const TYPES_FIRST_MS = 50;
/** API calls waiting for an answer, at most (the oldest goes). */
const MAX_WAITERS = 1024;
/** Before the content script's first config: off. */
const OFF: AgentConfig = { mode: 'off', wantBounds: [], pinned: null, track: false, commits: false, flash: false };

export function startAgent(boot: BootLink, offer: Event, pristine: Pristine): AgentHandle | null {
  const win = window as Window & typeof globalThis;
  const report = (e: unknown): void => boot.debug('error', e);
  // The content script's messages go to `receive` (set below; none comes before this dispatch has returned).
  let receive: (msg: ContentMessage) => void = () => {};
  const send: PagePost | null = openChannel(boot, offer, (msg) => pristine.run(() => receive(msg)), report, (what) => {
    boot.notes.push(`this page replaced ${what}'s built-ins before Layout Cost connected to it: the private channel `
      + 'uses only the browser\'s own, so the overlay cannot read this page');
  });
  if (send === null) return null;
  /** Status goes out only once the content script's agent has said it listens (its first `state`). */
  let announcing = false;
  const announce = (): void => {
    if (announcing) send('status', status());
  };
  const link: AgentLink = {
    version: boot.version, hook: boot.hook, raf: boot.raf, shadow: boot.shadow, vue: boot.vue, notes: boot.notes, debug: boot.debug,
    natives: boot.natives, announce, post: send,
  };
  const reasons = new Reasons();
  const readers = nativeReaders(link.natives);
  // Vue is seen by the boot's trap; a page whose window property could not be trapped says so on `__VUE__` alone.
  const vueSeen = (): boolean => link.vue.seen || (win as unknown as { __VUE__?: unknown }).__VUE__ === true;
  // Preact: its adapter counts roots while on; off, a scan (a status is sent rarely: on a panel's connect, on changes).
  const preactSeen = (): boolean => (pipeline.isRunning ? pipeline.rootsOf('preact') > 0 : PreactAdapter.found(document));
  // One adapter for each framework the page has that is not attached yet (pipeline.attachAdapter).
  const pipeline: Pipeline = new Pipeline(link, readers, reasons, win, (have) => {
    const fresh = [];
    if (!have.includes('react') && link.hook.renderers.size > 0) fresh.push(new ReactAdapter(link.hook, pipeline.clock));
    if (!have.includes('vue') && vueSeen()) fresh.push(new VueAdapter(pipeline.clock));
    // Preact announces itself nowhere in production: its render roots are looked for; a page with no framework found
    // gets the adapter anyway (it finds roots that come later as their containers fill).
    if (!have.includes('preact') && (PreactAdapter.found(document) || (have.length === 0 && fresh.length === 0))) {
      fresh.push(new PreactAdapter(pipeline.clock));
    }
    return fresh;
  });
  pipeline.clock.outer = pristine;
  // A built-in the page replaced while the agent ran: what it did on the page's since may be wrong (rebuilt: heal.ts);
  // either way the page's status says what is replaced, and stops saying so once it is put back.
  pristine.onChange = (fresh) => {
    if (fresh !== null && pipeline.isRunning) pipeline.healer.fault(`this page replaced ${fresh} while the overlay was on`);
    announce();
  };
  // Screenshot steps of experiments: asked of the content script, answered by `captured` with the same seq.
  const captures = new Pending<PixelAnswer>();
  const capture = (step: number, rect: number[]): Promise<PixelAnswer> => captures.ask((seq) => link.post('capture', { seq, step, rect }),
    15_000, (): PixelAnswer => ({ ok: false, error: 'no screenshot came', pixelsCompared: 0, pixelsChanged: 0 }));
  const experiments = new ExperimentRunner({
    win, now: () => performance.now(), hostsOf: (id) => pipeline.hostsOf(id), capture,
    pause: () => pipeline.pauseForced(), resume: () => pipeline.resumeForced(), debug: (...args) => link.debug(...args),
  });
  pipeline.watch({
    busy: () => experiments.busy,
    frame: (styleMs, layoutMs, forcedMs, end) => {
      if (experiments.busy) experiments.frame({ styleMs, layoutMs, forcedMs }, end);
    },
    stopped: () => experiments.abort('the overlay stopped during the experiment (turned off, or restarted after a lost message)'),
  });
  const guard = (what: string, fn: () => void): void => {
    try {
      pipeline.clock.run(fn);
    } catch (e) {
      link.debug(`agent ${what}`, e);
    }
  };
  const entries = pipeline.registry.entries;
  const sourcer = new TypeSourcer({
    entry: (id) => entries.get(id), lowestId: () => entries.minId(), get mounts() { return pipeline.registry.mounted; },
    typeOf: (h) => pipeline.typeOf(h), sourceOf: readers.sourceOf, nameOf: (id) => pipeline.registry.nameOf(id),
    debugOf: (h) => pipeline.debugOf(h, readers.stackOf), takeRetyped: () => pipeline.registry.takeRetyped(),
  });
  let typesTimer: ReturnType<typeof setInterval> | null = null;
  let typePasses = 0, typeMs = 0, typeMaxMs = 0;
  const typesPass = (): void => guard('types', () => {
    if (!pipeline.isRunning) return;
    const t0 = performance.now();
    const r = sourcer.pass(() => performance.now());
    const ms = performance.now() - t0;
    // A big page is typed in slices of a few ms, back to back with room for the page between them.
    if (sourcer.more) setTimeout(typesPass, 50);
    typePasses++;
    typeMs += ms;
    typeMaxMs = Math.max(typeMaxMs, ms);
    if (r === null) return;
    if (r.types.length > 0 || r.members.length > 0) {
      // The content script keeps a component's type on the component: its Mount record must be there first.
      pipeline.postRecords();
      link.post('types', { types: r.types, members: r.members });
    }
    // The page status carries it (boot: agent.namesMinified()): send the status when it changed.
    if (r.minified !== minifiedSent) {
      minifiedSent = r.minified;
      link.announce();
    }
  });
  let minifiedSent = false;
  const apply = (cfg: AgentConfig): void => {
    if (cfg.mode === 'off') {
      pipeline.stop();
      if (typesTimer !== null) clearInterval(typesTimer);
      typesTimer = null;
      sourcer.reset();
      minifiedSent = false;
    } else {
      pipeline.start();
      pipeline.configure(cfg);
      // The first pass soon after the back-fill: until a component is typed and placed, the own-only views leave it out.
      if (typesTimer === null) setTimeout(typesPass, TYPES_FIRST_MS);
      typesTimer ??= setInterval(typesPass, TYPES_INTERVAL_MS);
    }
    link.announce();
  };
  const experiment = (seq: number, req: ExperimentRequest, pixels: boolean): void => {
    const done = (outcome: ExperimentOutcome): void => link.post('experimentResult', { seq, outcome });
    if (!pipeline.isRunning) {
      done({ ok: false, error: EXPERIMENT_OVERLAY_OFF });
      return;
    }
    // Answered exactly once, whatever happens: a start that throws half way (a page that broke a built-in) is undone
    // (abort takes our sheet and attribute off) and the caller hears why instead of waiting for its timeout.
    let answered = false;
    const once = (o: ExperimentOutcome): void => {
      if (answered) return;
      answered = true;
      done(o);
    };
    // Timed as ours, but not through `run` (whose errors are faults of the view): a failed experiment is answered.
    pipeline.clock.enter();
    try {
      experiments.start(req, pixels, once);
    } catch (e) {
      link.debug('agent experiment', e);
      experiments.abort('the experiment failed on this page');
      once({ ok: false, error: 'the experiment failed on this page' });
    } finally {
      pipeline.clock.leave();
    }
  };
  // The page's API (boot/api.ts): its calls, numbered here, and the content script's state, which `state()` reads.
  const waiters = new Map<number, (answer: unknown) => void>();
  let nextReq = 1;
  let st: ContentState = NO_STATE;
  /** The view suspect after a fault of ours, until a rebuild converged (pipeline/heal.ts). */
  const healing = (): string[] => {
    const why = pipeline.healer.reason;
    return why === null ? [] : [`an error inside Layout Cost (${why}): rebuilding its view from the framework's tree`];
  };
  function status(): PageStatus {
    // A hook installed after ours (React DevTools) gets chained here at the latest.
    const { renderers, roots } = link.hook.counts();
    const outside = pipeline.isRunning ? pipeline.forced.outside : undefined;
    return {
      renderers,
      roots,
      agent: true,
      // Measured from the names the agent has seen (not React's build: a production React with readable app names is
      // not "minified").
      minified: sourcer.namesMinified,
      degraded: [...link.notes, ...reasons.all, ...healing(), ...(pristine.replaced.length === 0 ? [] : [
        `this page replaced built-ins after load (${pristine.replaced.slice(0, 4).join(', ')}): Layout Cost runs on the `
          + 'browser\'s own while they are']), ...(pristine.stuck.length === 0 ? [] : [
        `this page replaced built-ins and froze them in place (${pristine.stuck.slice(0, 4).join(', ')}): Layout Cost runs on the `
          + 'page\'s, which may drop or change its calls'])].slice(0, 16).map((r) => r.slice(0, 200)),
      timerResolutionMs: win.crossOriginIsolated ? 0.005 : 0.1,
      url: String(win.location.href).slice(0, 2048),
      outside: outside ? { ...outside } : undefined,
      vue: vueSeen() ? { apps: pipeline.isRunning ? pipeline.rootsOf('vue') : 0 } : undefined,
      preact: preactSeen() ? { apps: pipeline.isRunning ? pipeline.rootsOf('preact') : 0 } : undefined,
    };
  }
  let announceQueued = false;
  // Vue's first renderer made after the agent started (an app loaded later): attached then, as a late React renderer.
  link.vue.onSeen = () => link.hook.onRenderer?.();
  link.hook.onRenderer = () => {
    // A renderer that registers after the agent started (lazy-loaded React): attach then.
    guard('renderer', () => pipeline.attachAdapter());
    if (announceQueued || !announcing) return;
    announceQueued = true;
    setTimeout(() => {
      announceQueued = false;
      announce();
    }, 0);
  };
  // The content script's messages come with their envelope checked (./channel.ts); their payloads are checked here.
  const table = contentToPage().table;
  receive = (msg: ContentMessage): void => {
    switch (msg.type) {
      case 'state': {
        st = contentState(msg.payload);
        if (!announcing) {
          // The content script's agent listens: from now on it hears of React (and answers it at once).
          announcing = true;
          announce();
        }
        break;
      }
      case 'apiResult': {
        const a = table.apiResult(msg.payload);
        if (a === INVALID) break;
        const w = waiters.get(a.reqId);
        if (w === undefined) break;
        waiters.delete(a.reqId);
        // A snapshot's or a recording's components: the keys the content script did not have (./api-keys.ts).
        const r = a.result as { ok?: unknown; result?: unknown } | null;
        if (typeof r === 'object' && r !== null && r.ok === true) guard('fillKeys', () => fillKeys(r.result, (id) => pipeline.registry.keyOf(id)));
        w(a.result);
        break;
      }
      case 'config': {
        const cfg = table.config(msg.payload);
        if (cfg !== INVALID) guard('config', () => apply(cfg));
        break;
      }
      case 'resync':
        if (table.resync(msg.payload) !== INVALID) guard('resync', () => pipeline.resync());
        break;
      case 'hitTest': {
        const h = table.hitTest(msg.payload);
        if (h !== INVALID) guard('hitTest', () => link.post('hit', { seq: h.seq, id: pipeline.isRunning ? pipeline.hitTest(h.x, h.y) : null }));
        break;
      }
      case 'captured': {
        const a = table.captured(msg.payload);
        if (a === INVALID) break;
        captures.settle(a.seq, { ok: a.ok, error: a.error, pixelsCompared: a.pixelsCompared, pixelsChanged: a.pixelsChanged });
        break;
      }
      case 'experiment': {
        const x = table.experiment(msg.payload);
        if (x !== INVALID) experiment(x.seq, x.request, x.pixels);
        break;
      }
      default:
        link.debug('agent: no such message', msg.type);
    }
  };
  const handle: AgentHandle = {
    call: (c: ApiRequest): void => pristine.run(() => call(c)),
    state: (): LayoutCostState => pristine.run(() => state()),
    stats: () => pristine.run(() => stats()),
    nodeOf: (id) => pristine.run(() => pipeline.nodeOf(id)),
    ownerOf: (node) => pristine.run(() => pipeline.ownerOfNode(node)),
  };
  function call(c: ApiRequest): void {
    const reqId = nextReq++;
    if (c.settle !== null) {
      // The boot rejects a call that had no answer in time; its waiter goes once MAX_WAITERS newer ones wait.
      if (waiters.size >= MAX_WAITERS) waiters.delete(waiters.keys().next().value as number);
      waiters.set(reqId, c.settle);
    }
    // What the call reads (a snapshot's commits, its interactions) is current: the commit counts held back and the
    // interactions not built yet go first, on the same port.
    guard('flushCommits', () => pipeline.flushForApi());
    // The boot checked nothing: the content script checks the call and its arguments (protocol/messages.ts).
    send!('api', { reqId, call: c.call, args: c.args });
  }
  function state(): LayoutCostState {
    const s = status();
    return {
      enabled: st.mode !== 'off', mode: st.mode, pinned: st.pinned, react: { renderers: s.renderers, roots: s.roots },
      vue: { found: s.vue !== undefined, apps: s.vue?.apps ?? 0 },
      preact: { found: s.preact !== undefined, apps: s.preact?.apps ?? 0 },
      minified: st.minified ?? s.minified, capped: st.capped, agent: true, degraded: s.degraded, droppedMessages: st.dropped,
      outside: s.outside ?? null, self: st.self ? { ...st.self } : null,
    };
  }
  /** The types passes' own cost (issue 15, docs/PERFORMANCE.md): off the commit path, on a timer. */
  function stats(): Record<string, number | boolean> {
    return { ...pipeline.stats(), faults: pipeline.healer.faults, rebuilds: pipeline.healer.rebuilds, typePasses, typeMs: Math.round(typeMs * 100) / 100, typeMaxMs: Math.round(typeMaxMs * 100) / 100 };
  }
  guard('start', () => apply(OFF));
  return handle;
}
