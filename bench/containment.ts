/**
 * Containment experiments against Chrome's trace, where containment helps
 * and where it does not (issue 12): the same 90 × 18 px ticker, its text
 * changing every frame, in the first cell of a 1 500-row table, in a
 * 4 000-item CSS grid, and in a card that is contained already
 * (`contain: strict`) above a flowed article of 3 000 paragraphs.
 *
 *   npx tsx bench/containment.ts [--frames 120] [--doc] [--no-build]
 *
 * For each, `__LAYOUT_COST__.experiment(ticker, { css: 'contain: layout' })`
 * runs under Chrome's trace; the trace's UpdateLayoutTree + Layout inside
 * the experiment's own blocks (mapped through a performance.mark) gives the
 * truth for each side. Expected: faster in the table and the grid, no gain
 * in the contained card. Passes when each verdict is the expected one and each
 * side's per-frame figure is within 10 % of the trace (or 0.15 ms: the
 * clock's resolution and the post-layout steps the trace's Layout leaves out,
 * docs/DIAGNOSE.md). A missing measurement is a failure.
 */
import { commandLine, enableOverlay, launchBrowser, machineNote, numArg, parseArgs, prepareBuild, startServer, waitFor } from './lib/env';
import { passFail, today, writeSection } from './lib/doc';
import { recordStatus } from './lib/status';
import { mdTable, table } from './lib/stats';

interface TraceEvent { name: string; cat: string; ph: string; ts: number; dur?: number; pid: number; tid: number }
interface Side { frames: number; styleMs: number; layoutMs: number; forcedMs: number }
interface Result {
  verdict: string; speedup: number | null; reason: string; before: Side; after: Side;
  blocks: { applied: boolean; start: number; end: number; frames: number }[];
}

const args = parseArgs();
const FRAMES = numArg(args, 'frames', 120);
const CASES = [
  { layout: 'table', label: 'a 1 500-row table', expect: 'faster' },
  { layout: 'grid', label: 'a 4 000-item CSS grid', expect: 'faster' },
  { layout: 'article', label: 'a contained card above 3 000 paragraphs', expect: 'no-gain' },
];

const total = (s: Side): number => s.styleMs + s.layoutMs + s.forcedMs;
const f2 = (x: number): string => x.toFixed(2);

/** UpdateLayoutTree + Layout inside [from, to] (trace µs) on one thread, outermost events only. */
function styleLayout(events: readonly TraceEvent[], pid: number, tid: number, from: number, to: number): number {
  const picked = events.filter((e) => e.ph === 'X' && (e.name === 'UpdateLayoutTree' || e.name === 'Layout') && e.pid === pid
    && e.tid === tid && e.ts >= from && e.ts <= to).sort((a, b) => a.ts - b.ts);
  let ms = 0, coverEnd = -Infinity;
  for (const e of picked) {
    const end = e.ts + (e.dur ?? 0);
    if (end <= coverEnd) continue;
    coverEnd = Math.max(coverEnd, end);
    ms += (e.dur ?? 0) / 1000;
  }
  return ms;
}

async function main(): Promise<void> {
  const dist = prepareBuild(args);
  const server = await startServer();
  const b = await launchBrowser({ dist });
  const version = await b.browser.version();
  const rows: string[][] = [];
  let allPass = true;
  try {
    for (const c of CASES) {
      const page = await b.newPage();
      await page.goto(`${server.origin}/experiment-r19.html?layout=${c.layout}`, { waitUntil: 'load' });
      await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), 'the fixture');
      await enableOverlay(page, 2);
      const ticker = await waitFor(() => page.evaluate(async () => {
        const s = await (window as any).__LAYOUT_COST__.snapshot();
        return (s.components as { id: number; name: string }[]).find((x) => x.name === 'Ticker')?.id ?? null;
      }), 'the Ticker component');
      await page.evaluate(() => (window as any).__work.start('ticker'));
      await new Promise((r) => setTimeout(r, 1500)); // warm up
      await page.tracing.start({ categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'] });
      const ref = await page.evaluate(() => performance.mark('lc-containment-ref').startTime);
      const res = await page.evaluate((id, frames) => (window as any).__LAYOUT_COST__.experiment(id, { css: 'contain: layout', frames })
        .catch((e: Error) => ({ error: e.message })), ticker, FRAMES) as Result & { error?: string };
      const raw = await page.tracing.stop();
      await page.evaluate(() => (window as any).__work.stop());
      await page.close();
      if (res.error || !raw) {
        allPass = false;
        rows.push([c.label, 'n/a', 'n/a', 'n/a', res.error ?? 'no trace', c.expect, 'FAIL']);
        continue;
      }
      const parsed = JSON.parse(Buffer.from(raw).toString('utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
      const events = Array.isArray(parsed) ? parsed : parsed.traceEvents ?? [];
      const mark = events.find((e) => e.name === 'lc-containment-ref' && e.cat.includes('user_timing'));
      if (!mark) {
        allPass = false;
        rows.push([c.label, 'n/a', 'n/a', 'n/a', 'the reference mark is not in the trace', c.expect, 'FAIL']);
        continue;
      }
      const toTrace = (ms: number): number => mark.ts + (ms - ref) * 1000;
      const truth = { before: 0, after: 0 };
      for (const bl of res.blocks) truth[bl.applied ? 'after' : 'before'] += styleLayout(events, mark.pid, mark.tid, toTrace(bl.start), toTrace(bl.end));
      const tb = truth.before / Math.max(1, res.before.frames), ta = truth.after / Math.max(1, res.after.frames);
      const near = (ours: number, trace: number): boolean => Math.abs(ours - trace) <= Math.max(0.1 * trace, 0.15);
      const ok = res.verdict === c.expect && near(total(res.before), tb) && near(total(res.after), ta)
        && res.before.frames > 0 && res.after.frames > 0;
      allPass &&= ok;
      rows.push([
        c.label, `${f2(total(res.before))} → ${f2(total(res.after))}`, `${f2(tb)} → ${f2(ta)}`,
        `×${(res.speedup ?? 0).toFixed(1)} / ×${(ta > 0 ? tb / ta : 0).toFixed(1)}`, res.verdict, c.expect, ok ? 'pass' : 'FAIL',
      ]);
    }
  } finally {
    await b.close();
    await server.close();
  }
  const header = ['ticker in', 'ours: style + layout ms/frame, without → with', 'trace (same blocks)', 'speedup ours / trace',
    'verdict', 'expected', 'check'];
  console.log(`\ncontain: layout on a ticker, ${FRAMES} frames per experiment (${version})`);
  console.log(table(header, rows));
  if (!allPass) process.exitCode = 1;
  if (args.has('doc')) {
    recordStatus('containment', commandLine('bench/containment.ts'), [{
      budget: 'containment experiments vs the trace', target: 'agree; no-gain said', figure: `${rows.length} placements judged`,
      verdict: allPass ? 'pass' : 'FAIL', paths: ['src/inject/agent/experiment'],
    }]);
    writeSection('containment', `## Containment experiments against the trace

${today()}, \`${commandLine('bench/containment.ts')}\`, ${version}, ${machineNote()}.

\`contain: layout\` on the same 90 × 18 px ticker (its text changes every frame) in three places, measured by
\`__LAYOUT_COST__.experiment()\` over ${FRAMES} of the page's frames, with Chrome's UpdateLayoutTree + Layout inside the
experiment's own blocks beside it (docs/DIAGNOSE.md). Containment pays in the table and the grid; in a card that an
ancestor already contains (\`contain: strict\`) it gains nothing, and the experiment must say so. Verdict: ${passFail(allPass)}.

Issue 12 also cites the ticker in a flowed article as a no-gain case (LayoutNG's cache). That did not reproduce here:
inline in the first of 3 000 paragraphs, or as a fixed-size clipped block above them, the ticker's change cost 5–8 ms
a frame and \`contain: layout\` took it to 0.6–0.9 ms, by our figures and by the trace alike (scratch runs of this
bench, 2026-11-23). Which is the point of measuring on the page rather than guessing.

${mdTable(header, rows)}`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(2); // an error of the bench itself (run-all.ts): not a budget's failure
});
