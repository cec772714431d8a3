/**
 * agent.js: injected into the MAIN world by the service worker when the
 * overlay is first enabled in a frame (never at document_start), so a page
 * where the overlay stays off pays only for the boot script. Evaluating the
 * bundle does nothing but offer `start` to the boot script
 * (`__LAYOUT_COST_OFFER__(start)`, webpack's jsonp library output; see
 * boot/link.ts): the boot script calls it with the link once the content
 * script names this offer's token. From then on it follows the content
 * script's config: mode off stops everything, any other mode runs the
 * pipeline.
 */
import { fillKeys } from './api-keys';
import type { PixelAnswer } from '../../protocol';
import { contentToPage } from '../../protocol/content-to-page';
import type { ExperimentOutcome, ExperimentRequest } from '../../protocol/experiment';
import { EXPERIMENT_OVERLAY_OFF } from '../../protocol/experiment-request';
import { INVALID } from '../../protocol/validate';
import type { ContentMessage } from '../boot/channel';
import type { AgentConfig, AgentHandle, AgentLink } from '../boot/link';
import { ExperimentRunner } from './experiment/experiment';
import { nativeReaders } from './natives';
import { Pipeline } from './pipeline/pipeline';
import { ReactAdapter } from './react/adapter';
import { Reasons } from './reasons';
import { TypeSourcer } from './types';

/** Component types are looked at this often while on (never on the commit path). */
const TYPES_INTERVAL_MS = 1000;
/** Before the content script's first config, or if it did not check out: off. */
const OFF: AgentConfig = { mode: 'off', wantBounds: [], pinned: null, track: false, commits: false };

export default function start(link: AgentLink): AgentHandle {
  const win = window as Window & typeof globalThis;
  const reasons = new Reasons();
  const readers = nativeReaders(link.natives);
  const pipeline: Pipeline = new Pipeline(link, readers, reasons, win,
    () => (link.hook.renderers.size > 0 ? new ReactAdapter(link.hook, pipeline.clock) : null));
  // Screenshot steps of experiments: asked of the content script, answered by `captured` with the same seq.
  const captures = new Map<number, (a: PixelAnswer) => void>();
  let captureSeq = 0;
  const capture = (step: number, rect: number[]): Promise<PixelAnswer> => new Promise((resolve) => {
    const seq = ++captureSeq;
    captures.set(seq, resolve);
    setTimeout(() => {
      if (captures.delete(seq)) resolve({ ok: false, error: 'no screenshot came', pixelsCompared: 0, pixelsChanged: 0 });
    }, 15_000);
    link.post('capture', { seq, step, rect });
  });
  const experiments = new ExperimentRunner({
    win, now: () => performance.now(), hostsOf: (id) => pipeline.hostsOf(id), capture,
    pause: () => pipeline.pauseForced(), resume: () => pipeline.resumeForced(), debug: (...args) => link.debug(...args),
  });
  pipeline.onMeasured = (styleMs, layoutMs, forcedMs, end) => {
    if (experiments.busy) experiments.frame({ styleMs, layoutMs, forcedMs }, end);
  };
  pipeline.experimenting = () => experiments.busy;
  pipeline.onStop = () => experiments.abort('the overlay stopped during the experiment (turned off, or restarted after a lost message)');
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
    debugOf: (h) => pipeline.debugOf(h, readers.stackOf),
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
    try {
      pipeline.clock.run(() => experiments.start(req, pixels, once));
    } catch (e) {
      link.debug('agent experiment', e);
      experiments.abort('the experiment failed on this page');
      once({ ok: false, error: 'the experiment failed on this page' });
    }
  };
  // The content script's messages come to the agent with their envelope checked (boot/channel.ts); their payloads are
  // checked here, so that the boot script, compiled on every page load, carries none of these validators.
  const table = contentToPage().table;
  const receive = (msg: ContentMessage): void => {
    switch (msg.type) {
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
        const w = captures.get(a.seq);
        if (!w) break;
        captures.delete(a.seq);
        w({ ok: a.ok, error: a.error, pixelsCompared: a.pixelsCompared, pixelsChanged: a.pixelsChanged });
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
    receive,
    // A renderer that registers after enable (lazy-loaded React): attach then.
    renderer: () => guard('renderer', () => pipeline.attachAdapter()),
    flushCommits: () => guard('flushCommits', () => pipeline.flushCommits()),
    degraded: () => reasons.all,
    namesMinified: () => sourcer.namesMinified,
    outside: () => (pipeline.isRunning ? pipeline.forced?.outside : undefined),
    // The types passes' own cost (issue 15, docs/PERFORMANCE.md): off the commit path, on a timer.
    stats: () => ({ ...pipeline.stats(), typePasses, typeMs: Math.round(typeMs * 100) / 100, typeMaxMs: Math.round(typeMaxMs * 100) / 100 }),
    nodeOf: (id) => pipeline.nodeOf(id),
    fillKeys: (result) => guard('fillKeys', () => fillKeys(result, (id) => pipeline.registry.keyOf(id))),
  };
  const first = link.config === null ? OFF : table.config(link.config);
  guard('start', () => apply(first === INVALID ? OFF : first));
  return handle;
}
