/**
 * Accuracy (SPEC §6): the extension's per-frame style + layout against
 * Chrome's trace for the same frames, and the ranking on a page where one
 * component is layout-expensive.
 *
 *   npx tsx bench/accuracy.ts [--seconds 5] [--frames 150] [--coi] [--doc] [--no-build]
 *
 * Scenarios: StressGrid at 10 % mutation (`/demo/?pct=10`), and the timing
 * engineer's fixture `timing-load-r19.html` (`Heavy` relayouts 700 cells
 * every frame, three `Light` siblings change one text node each).
 *
 * Per-frame pairing through the extension's own recording (`startRecording` /
 * `stopRecording`, docs/RECORDING.md): each recorded frame carries the page
 * time its frame-end flush began and its style, layout and forced ms. (A page
 * script that wrapped `MessagePort.prototype.postMessage` to copy the records
 * no longer works: the agent refuses a channel whose port methods a page
 * replaced, docs/ARCHITECTURE.md security model.)
 * Chrome's trace (`devtools.timeline`, `disabled-by-default-devtools.timeline`,
 * `blink.user_timing`) is aligned to page time with one `performance.mark`
 * (trace ts / 1000 − the mark's startTime). Outermost `UpdateLayoutTree` and
 * `Layout` events of the renderer main thread are then matched per frame:
 *  - *frame-end*: events starting within the flush (from its stamp to stamp +
 *    the measured style + layout, ± 0.25 ms for the coarse clock) against the
 *    record's style + layout;
 *  - *whole frame*: every event since the previous frame's flush ended,
 *    against style + layout + forced (forced reflows the wrappers timed
 *    between frames) — style/layout the extension did not see shows here.
 * A frame is within budget when |error| ≤ max(0.5 ms, 5 % of the trace's).
 */
import type { Page } from 'puppeteer-core';
import { commandLine, enableOverlay, launchBrowser, lc, machineNote, numArg, parseArgs, prepareBuild, sleep, startServer,
  waitFor } from './lib/env';
import { mdTable, median, quantile, table } from './lib/stats';
import { passFail, today, writeSection } from './lib/doc';
import { recordStatus } from './lib/status';
import type { SnapshotComponent } from '../src/protocol/snapshot';

const TOLERANCE_MS = 0.5;
const TOLERANCE_SHARE = 0.05;
const SLACK_MS = 0.25;

const args = parseArgs();
const SECONDS = numArg(args, 'seconds', 5);
const FRAMES = numArg(args, 'frames', 150);
const COI = args.get('coi') === 'true';

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { data?: { startTime?: number } };
}

interface Recorded {
  /** Page time each recorded frame's frame-end flush began. */
  flushAt: number[];
  /** [frame number, style ms, layout ms, forced ms], one per `flushAt`. */
  frames: [number, number, number, number][];
  markAt: number;
}

interface FrameMatch {
  frameNo: number;
  oursEnd: number;
  truthEnd: number;
  oursWhole: number;
  truthWhole: number;
  /** Wall minus thread time of the script call that ran the flush: the main thread was descheduled (CPU contention). */
  deschedMs: number;
}

interface Scenario {
  name: string;
  frames: FrameMatch[];
  ranking: string | null;
  rankOk: boolean | null;
}

async function traced(page: Page, body: () => Promise<void>): Promise<TraceEvent[]> {
  await page.tracing.start({ categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'] });
  try {
    await body();
  } finally {
    const raw = await page.tracing.stop();
    if (raw) {
      const parsed = JSON.parse(Buffer.from(raw).toString('utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
      // eslint-disable-next-line no-unsafe-finally
      return Array.isArray(parsed) ? parsed : parsed.traceEvents ?? [];
    }
  }
  return [];
}

function match(events: TraceEvent[], rec: Recorded, startMark: string, endMark: string): FrameMatch[] {
  const start = events.find((e) => e.name === startMark && e.cat.includes('user_timing'));
  const end = events.find((e) => e.name === endMark && e.cat.includes('user_timing'));
  if (!start || !end) throw new Error('the marks are not in the trace');
  const startTime = start.args?.data?.startTime ?? rec.markAt;
  const offsetMs = start.ts / 1000 - startTime;
  const toPage = (ts: number): number => ts / 1000 - offsetMs;
  const fromMs = toPage(start.ts);
  const toMs = toPage(end.ts);
  // Outermost UpdateLayoutTree / Layout on the page's main thread (the thread that made the mark).
  const picked = events
    .filter((e) => e.ph === 'X' && (e.name === 'UpdateLayoutTree' || e.name === 'Layout') && e.pid === start.pid && e.tid === start.tid)
    .sort((a, b) => a.ts - b.ts);
  const work: { at: number; ms: number }[] = [];
  let coverEnd = -Infinity;
  for (const e of picked) {
    const dur = e.dur ?? 0;
    if (e.ts + dur <= coverEnd) continue;
    coverEnd = Math.max(coverEnd, e.ts + dur);
    work.push({ at: toPage(e.ts), ms: dur / 1000 });
  }
  const sumIn = (a: number, b: number): number => work.filter((w) => w.at >= a && w.at < b).reduce((s, w) => s + w.ms, 0);
  const calls = events
    .filter((e) => e.ph === 'X' && e.name === 'FunctionCall' && e.pid === start.pid && e.tid === start.tid)
    .map((e) => ({ from: toPage(e.ts), to: toPage(e.ts + (e.dur ?? 0)), desched: ((e.dur ?? 0) - (e.tdur ?? e.dur ?? 0)) / 1000 }));
  /** The innermost script call around page time `t`. */
  const callAt = (t: number): { desched: number } | null => {
    let best: { from: number; to: number; desched: number } | null = null;
    for (const c of calls) if (c.from <= t && t <= c.to && (best === null || c.to - c.from < best.to - best.from)) best = c;
    return best;
  };

  const n = Math.min(rec.flushAt.length, rec.frames.length);
  const out: FrameMatch[] = [];
  for (let k = 1; k < n; k++) {
    const at = rec.flushAt[k];
    if (at < fromMs || at > toMs) continue;
    const [frameNo, style, layout, forced] = rec.frames[k];
    const [, pStyle, pLayout] = rec.frames[k - 1];
    const prevEnd = rec.flushAt[k - 1] + pStyle + pLayout + SLACK_MS;
    const flushEnd = at + style + layout + SLACK_MS;
    out.push({
      frameNo,
      oursEnd: style + layout,
      truthEnd: sumIn(at - SLACK_MS, flushEnd),
      oursWhole: style + layout + forced,
      truthWhole: sumIn(prevEnd, flushEnd),
      deschedMs: Math.max(0, callAt(at)?.desched ?? 0),
    });
  }
  return out;
}

const startRecording = (page: Page): Promise<void> => page.evaluate(() => (window as any).__LAYOUT_COST__.startRecording());

/** Stops the recording and keeps each frame's flush time and totals (the components stay in the page). */
const readRecording = (page: Page): Promise<Omit<Recorded, 'markAt'>> =>
  page.evaluate(async () => {
    const r = await (window as any).__LAYOUT_COST__.stopRecording();
    const frames = (r?.frames ?? []) as { frame: number; time: number; styleMs: number; layoutMs: number; forcedMs: number }[];
    return {
      flushAt: frames.map((f) => f.time),
      frames: frames.map((f) => [f.frame, f.styleMs, f.layoutMs, f.forcedMs] as [number, number, number, number]),
    };
  });

async function stressGrid(origin: string, page: Page): Promise<Scenario> {
  await page.goto(`${origin}/demo/?pct=10&seed=1${COI ? '&coi=1' : ''}`, { waitUntil: 'load' });
  await waitFor(() => page.evaluate(() => ((window as any).__demo?.commits ?? 0) > 3), 'the grid ticking');
  await enableOverlay(page, 4900);
  await sleep(2000);
  let markAt = 0;
  await startRecording(page);
  const events = await traced(page, async () => {
    markAt = await page.evaluate(() => {
      performance.mark('lc-acc-start');
      return performance.now();
    });
    await sleep(SECONDS * 1000);
    await page.evaluate(() => performance.mark('lc-acc-end'));
    await sleep(300); // the last frames' records reach the port
  });
  const rec = { ...(await readRecording(page)), markAt };
  return { name: 'StressGrid 10 %', frames: match(events, rec, 'lc-acc-start', 'lc-acc-end'), ranking: null, rankOk: null };
}

type SnapComp = SnapshotComponent;

async function timingLoad(origin: string, page: Page): Promise<Scenario> {
  await page.goto(`${origin}/timing-load-r19.html${COI ? '?coi=1' : ''}`, { waitUntil: 'load' });
  await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), 'the fixture');
  await enableOverlay(page, 3);
  // Warm-up: JIT and the first layouts.
  await page.evaluate(() => (window as any).__work.start());
  await sleep(1500);
  let markAt = 0;
  let comps: SnapComp[] = [];
  await startRecording(page);
  const events = await traced(page, async () => {
    markAt = await page.evaluate(() => {
      performance.mark('lc-acc-start');
      return performance.now();
    });
    const t0 = await page.evaluate(() => (window as any).__work.ticks as number);
    await waitFor(() => page.evaluate((from, n) => (window as any).__work.ticks >= from + n, t0, FRAMES), `${FRAMES} ticks`, 120_000);
    // Rank while the work runs (the EMAs decay once the page is quiet).
    comps = ((await page.evaluate(() => (window as any).__LAYOUT_COST__.snapshot())) as { components: SnapComp[] }).components;
    await page.evaluate(() => (window as any).__work.stop());
    await sleep(300);
    await page.evaluate(() => performance.mark('lc-acc-end'));
    await sleep(300);
  });
  const rec = { ...(await readRecording(page)), markAt };

  // Ranking: the expensive component against everything that is not one of its ancestors (those include its cost).
  const byId = new Map(comps.map((c) => [c.id, c]));
  const heavy = comps.find((c) => c.name === 'Heavy');
  let ranking: string | null = null;
  let rankOk: boolean | null = null;
  if (!heavy) {
    // A missing measurement is a failure, never a pass.
    ranking = `no Heavy component in the snapshot (${comps.length} components)`;
    rankOk = false;
  } else {
    const ancestors = new Set<number>();
    for (let p = heavy.parentId; p !== null && p !== undefined; p = byId.get(p)?.parentId ?? null) ancestors.add(p);
    const cost = (c: SnapComp): number => c.styleMs + c.layoutMs + c.forcedMs;
    const ranked = comps.filter((c) => !ancestors.has(c.id)).sort((a, b) => cost(b) - cost(a));
    rankOk = ranked[0]?.id === heavy.id;
    const parent = heavy.parentId !== null ? byId.get(heavy.parentId) : undefined;
    ranking = ranked.slice(0, 4).map((c) => `${c.name} ${cost(c).toFixed(2)} ms`).join(' > ')
      + (parent ? `; Heavy carries ${((100 * cost(heavy)) / Math.max(1e-9, cost(parent))).toFixed(0)} % of its parent ${parent.name}'s ${cost(parent).toFixed(2)} ms` : '');
  }
  return { name: 'timing-load (one layout-expensive component)', frames: match(events, rec, 'lc-acc-start', 'lc-acc-end'), ranking, rankOk };
}

/** Frames whose flush ran in a script call with more wall than thread time than this were descheduled. */
const DESCHED_MS = 1;

function summarise(name: string, frames: FrameMatch[], kind: 'end' | 'whole', subset: string): { row: string[]; within: number } {
  const ours = frames.map((f) => (kind === 'end' ? f.oursEnd : f.oursWhole));
  const truth = frames.map((f) => (kind === 'end' ? f.truthEnd : f.truthWhole));
  const err = ours.map((o, i) => o - truth[i]);
  const abs = err.map(Math.abs);
  const rel = err.map((e, i) => (truth[i] > 0 ? Math.abs(e) / truth[i] : NaN)).filter(Number.isFinite);
  const ok = err.filter((e, i) => Math.abs(e) <= Math.max(TOLERANCE_MS, TOLERANCE_SHARE * truth[i])).length;
  const within = ok / Math.max(1, err.length);
  const total = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
  return {
    within,
    row: [name, subset, kind === 'end' ? 'frame-end flush' : 'whole frame (+ forced)', String(err.length),
      `${median(truth).toFixed(2)} ms`, `${median(abs).toFixed(3)} ms`, `${quantile(abs, 0.95).toFixed(3)} ms`,
      `${(100 * median(rel)).toFixed(1)} %`, `${(100 * quantile(rel, 0.95)).toFixed(1)} %`,
      `${(100 * within).toFixed(1)} %`, `${total(ours).toFixed(0)} / ${total(truth).toFixed(0)} ms`],
  };
}

async function main(): Promise<void> {
  const dist = prepareBuild(args);
  const server = await startServer();
  const b = await launchBrowser({ dist });
  const version = await b.browser.version();
  const scenarios: Scenario[] = [];
  try {
    for (const run of [stressGrid, timingLoad]) {
      const page = await b.newPage();
      try {
        const s = await run(server.origin, page);
        scenarios.push(s);
        console.log(`${s.name}: ${s.frames.length} frames matched`);
      } finally {
        await lc.disable(page).catch(() => undefined);
        await page.close().catch(() => undefined);
      }
    }
  } finally {
    await b.close();
    await server.close();
  }

  const header = ['page', 'frames used', 'compared', 'n', 'trace median', '|error| median', '|error| p95', 'rel. median', 'rel. p95',
    `within max(${TOLERANCE_MS} ms, ${TOLERANCE_SHARE * 100} %)`, 'Σ ours / Σ trace'];
  const rows: string[][] = [];
  let worst = 1;
  let worstAll = 1;
  for (const s of scenarios) {
    const calm = s.frames.filter((f) => f.deschedMs <= DESCHED_MS);
    for (const kind of ['end', 'whole'] as const) {
      const all = summarise(s.name, s.frames, kind, 'all');
      const undisturbed = summarise(s.name, calm, kind, `not descheduled (${calm.length}/${s.frames.length})`);
      rows.push(all.row, undisturbed.row);
      if (kind === 'whole') {
        worst = Math.min(worst, undisturbed.within);
        worstAll = Math.min(worstAll, all.within);
      }
    }
  }
  // No frame matched in a scenario is a failed measurement.
  const pass = worst >= 0.95 && Number.isFinite(worst) && rows.length > 0;
  const rankLines = scenarios.filter((s) => s.ranking !== null).map((s) => `${s.name}: ${s.ranking} → ${s.rankOk ? 'ranks first' : 'DOES NOT rank first'}`);
  const rankPass = scenarios.every((s) => s.rankOk !== false);
  console.log(`\nPer-frame style + layout, extension vs Chrome's trace${COI ? ' (cross-origin isolated: 5 µs timers)' : ' (100 µs timers)'}`);
  console.log(table(header, rows));
  for (const l of rankLines) console.log(l);
  console.log(`budget: ≥ 95 % of frames within max(${TOLERANCE_MS} ms, ${TOLERANCE_SHARE * 100} %) (whole frame, frames not descheduled): ${pass ? 'pass' : 'FAIL'} (worst page ${(100 * worst).toFixed(1)} %; all frames ${(100 * worstAll).toFixed(1)} %); ranking: ${rankPass ? 'pass' : 'FAIL'}`);
  if (!pass || !rankPass) process.exitCode = 1;

  if (args.get('doc') === 'true') {
    recordStatus('accuracy', commandLine('bench/accuracy.ts'), [{
      budget: 'frame style + layout vs the trace', target: `±${TOLERANCE_SHARE * 100} % or ${TOLERANCE_MS} ms, 95 %`,
      figure: `${(100 * worst).toFixed(1)} % of frames`, verdict: pass && rankPass ? 'pass' : 'FAIL',
      paths: ['src/inject/agent/pipeline/pipeline.ts', 'src/inject/agent/timing'],
    }]);
    writeSection('accuracy', `## Accuracy: per-frame style + layout vs Chrome's trace

Command: \`${commandLine('bench/accuracy.ts')}\` — run ${today()}, ${version}, ${machineNote()}.
Timers: ${COI ? 'cross-origin isolated page, 5 µs' : 'ordinary page, 100 µs with jitter (what users get)'}.

Method: the extension's own recording (\`startRecording\` / \`stopRecording\`) gives each frame the page time its
frame-end flush began and its style, layout and forced ms. Chrome's trace
(\`devtools.timeline\` + \`disabled-by-default-devtools.timeline\`) is aligned to page time with one \`performance.mark\`;
outermost \`UpdateLayoutTree\` + \`Layout\` events of the page's main thread are matched per frame. *Frame-end flush*: the
trace's events inside the flush vs the record's style + layout. *Whole frame*: every style/layout event since the previous
flush vs style + layout + forced — work the extension missed would show here. Pages: StressGrid at 10 % (${SECONDS} s) and
\`timing-load-r19.html\` (one layout-expensive \`Heavy\` among cheap \`Light\` siblings, ${FRAMES} frames).

Frames "not descheduled": the script call that ran the flush (the trace's \`FunctionCall\`) has less than ${DESCHED_MS} ms more wall
time than thread time. On these shared cores the main thread is sometimes descheduled in the middle of the forced flush:
the extension's wall-clock timer then counts the wait, while the trace's \`UpdateLayoutTree\`/\`Layout\` events do not
cover it (seen with the \`blink\` category: \`Document::UpdateStyleAndLayout\` of 4.2 ms wall and 0.06 ms thread time with
no \`Layout\` inside). That is contention, not the method; both subsets are shown.

Budget: per-frame error within ${TOLERANCE_SHARE * 100} % or ${TOLERANCE_MS} ms of the trace for ≥ 95 % of frames (whole frame, frames
not descheduled) — ${passFail(pass)} (worst page ${(100 * worst).toFixed(1)} %; all frames ${(100 * worstAll).toFixed(1)} %); the
layout-expensive component ranks first — ${passFail(rankPass)}.

${mdTable(header, rows)}

${rankLines.map((l) => `- ${l}`).join('\n')}
`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(2); // an error of the bench itself (run-all.ts): not a budget's failure
});
