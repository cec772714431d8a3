/**
 * Canvas flush time (SPEC §6: ≤ 1 ms for 200 meters), and at the cap.
 *
 *   npx tsx bench/canvas-flush.ts [--samples 300] [--batch 1] [--doc]
 *
 * Runs the overlay's own planner and painters (src/overlay, bundled with
 * esbuild) on a real 2D canvas in headless Chromium — the content script
 * calls exactly these per flush — over synthetic components laid out on a
 * 1280 × 900 viewport, every one inflated enough to surface, so the plan
 * keeps min(n, cap) meters with outlines and a pinned caption.
 *
 * Figures per flush: "paint" is clear + outlines + meters + caption from a
 * ready plan; "plan + paint" places the chosen meters every flush and
 * chooses them (O(all components)) every 8th flush, as the renderer does;
 * "+ raster" reads one pixel back after each flush, which makes the canvas
 * rasterise what was recorded (the work the next frame would otherwise do),
 * plus the read-back itself. The page is cross-origin isolated (5 µs timers),
 * so each sample can time a single flush.
 */
import path from 'node:path';
import { build } from 'esbuild';
import { commandLine, launchBrowser, machineNote, numArg, parseArgs, ROOT, startServer } from './lib/env';
import { passFail, today, writeSection } from './lib/doc';
import { recordStatus } from './lib/status';
import { mdTable, median, quantile, table } from './lib/stats';
import { MAX_METERS } from '../src/overlay/cap';
import type { FlushCase } from './canvas-flush-page';

const BUDGET_MS = 1;
const ROUNDS = 3;

interface Row {
  label: string;
  c: Omit<FlushCase, 'samples' | 'batch'>;
}

async function bundle(): Promise<string> {
  const out = await build({
    entryPoints: [path.join(ROOT, 'bench', 'canvas-flush-page.ts')], bundle: true, write: false, format: 'iife',
    target: 'es2020', minify: true, absWorkingDir: ROOT, logLevel: 'warning',
  });
  return out.outputFiles[0].text;
}

async function main(): Promise<void> {
  const args = parseArgs();
  const samples = numArg(args, 'samples', 300);
  const batch = numArg(args, 'batch', 1);
  const base = { meterStyle: 'sparkline' as const, colorBlind: false, chooseEvery: 0, raster: false, dpr: 1, flushesPerBucket: 3 };
  const rows: Row[] = [
    { label: '200 meters, sparkline, 100 %', c: { ...base, components: 200 } },
    { label: '200 meters, sparkline, 100 %, every sparkline recomputed', c: { ...base, components: 200, flushesPerBucket: 1 } },
    { label: '200 meters, sparkline, 200 %', c: { ...base, components: 200, dpr: 2 } },
    { label: '200 meters, bars + stripes, 100 %', c: { ...base, components: 200, meterStyle: 'bars', colorBlind: true } },
    { label: '200 components, plan + paint', c: { ...base, components: 200, chooseEvery: 8 } },
    { label: 'clear only, + raster (read-back floor)', c: { ...base, components: 200, raster: true, empty: true } },
    { label: '200 meters, sparkline, 100 %, + raster', c: { ...base, components: 200, raster: true } },
    { label: `cap (${MAX_METERS}), sparkline, 100 %`, c: { ...base, components: MAX_METERS } },
    { label: `cap (${MAX_METERS}), sparkline, 200 %, + raster`, c: { ...base, components: MAX_METERS, dpr: 2, raster: true } },
    { label: '4 900 components → cap, plan + paint', c: { ...base, components: 4900, chooseEvery: 8 } },
    { label: '4 900 components → cap, plan + paint, choosing every flush', c: { ...base, components: 4900, chooseEvery: 1 } },
    { label: '50 000 components → cap, plan + paint', c: { ...base, components: 50_000, chooseEvery: 8 } },
  ];
  const script = await bundle();
  const b = await launchBrowser();
  const server = await startServer();
  const results: { label: string; meters: number; p10: number; med: number; p95: number }[] = [];
  try {
    const page = await b.newPage();
    // Cross-origin isolated: 5 µs timers, so single flushes can be timed.
    await page.goto(`${server.origin}/plain.html?coi=1`);
    if (!(await page.evaluate(() => crossOriginIsolated))) throw new Error('page is not cross-origin isolated');
    await page.addScriptTag({ content: script });
    // One throw-away pass: the first case otherwise pays for the browser's own warm-up.
    await page.evaluate((x) => (globalThis as any).runFlushBench(x), { ...rows[0].c, samples: 10, batch });
    // Rounds interleave the cases, so a burst of load from the machine's other users spreads over all of them.
    const all = rows.map(() => ({ meters: 0, samples: [] as number[] }));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, r] of rows.entries()) {
        const n = Math.ceil((r.c.components > 10_000 ? samples / 5 : samples) / ROUNDS);
        const fc: FlushCase = { ...r.c, samples: n, batch };
        const res = await page.evaluate((x) => (globalThis as any).runFlushBench(x), fc) as { meters: number; samplesMs: number[] };
        all[i].meters = res.meters;
        all[i].samples.push(...res.samplesMs);
      }
    }
    for (const [i, r] of rows.entries()) {
      const xs = all[i].samples;
      const row = { label: r.label, meters: all[i].meters, p10: quantile(xs, 0.1), med: median(xs), p95: quantile(xs, 0.95) };
      results.push(row);
      console.log(`${r.label}: ${row.meters} meters, p10 ${row.p10.toFixed(3)}, median ${row.med.toFixed(3)}, p95 ${row.p95.toFixed(3)} ms`);
    }
    const version = await b.browser.version();
    const head = ['case', 'meters', 'p10 ms', 'median ms', 'p95 ms'];
    const body = results.map((r) => [r.label, String(r.meters), r.p10.toFixed(3), r.med.toFixed(3), r.p95.toFixed(3)]);
    console.log(`\n${table(head, body)}`);
    // Judged on the flush that redraws every meter (no cached meter image reused), and only when it drew 200 meters:
    // a missing measurement or fewer meters is a failure, never a pass.
    const judged = results[1];
    const budget = judged !== undefined && judged.meters >= 200 && judged.med <= BUDGET_MS;
    console.log(`\n200 meters, every meter redrawn, ≤ ${BUDGET_MS} ms: ${budget ? 'pass' : 'FAIL'} (${judged?.meters ?? 0} meters, median ${judged?.med.toFixed(3) ?? 'n/a'} ms)`);
    if (!budget) process.exitCode = 1;
    if (args.get('doc') === 'true') {
      recordStatus('canvas-flush', commandLine('bench/canvas-flush.ts'), [{
        budget: 'canvas flush, 200 meters redrawn', target: `≤ ${BUDGET_MS} ms`, verdict: budget ? 'pass' : 'FAIL',
        figure: judged ? `${judged.med.toFixed(3)} ms (${judged.meters} meters)` : 'no measurement', paths: ['src/overlay', 'src/content/agent/canvas'],
      }]);
      writeSection('canvas-flush', `## Canvas flush

Budget (SPEC §6): a canvas flush ≤ ${BUDGET_MS} ms for 200 meters, judged on the flush that redraws every meter
("every sparkline recomputed": no cached meter image reused) — ${passFail(budget)}
(median ${judged?.med.toFixed(3) ?? 'n/a'} ms, ${judged?.meters ?? 0} meters). The cap is ${MAX_METERS} meters (src/overlay/cap.ts).

\`\`\`
${commandLine('bench/canvas-flush.ts')}
\`\`\`

What is timed: the overlay's own planner and painters (src/overlay, what the
content script's Overlay.render() calls) on a real 2D canvas in headless
${version}, 1280 × 900 CSS px. "paint": clear + outlines + meters + the pinned
caption from a ready plan; "plan + paint": placing the chosen meters every
flush (anchors, collapse, captions) and choosing them — surface-through and
the cap over every mounted component — every 8th flush, as the renderer does
(a choice is reused for 250 ms; flushes come every 33 ms); "+ raster": one
pixel read back after each flush, which forces the canvas to rasterise what
was recorded (work the next frame would otherwise do) plus the read-back.
${samples} timed samples of ${batch} flush(es) each per case (a fifth of that
above 10 000 components), in ${ROUNDS} interleaved rounds, on a cross-origin-isolated
page (5 µs timers). The median is wall time on a machine shared with other
engineers' browsers, so it includes time the thread was descheduled; the
10th percentile is close to the undisturbed cost. ${today()}, ${machineNote()}.

${mdTable(head, body)}

Why it is cheap: a meter is a fixed 32 × 14 CSS px image, so it is
rasterised in JS into a slot of one atlas buffer (box, border, body, on
whole device pixels) only when its content changed — a new sparkline bucket
or newest value, new counts, other settings — and blitted with one
drawImage per meter; outlines are one stroke for all; text is drawn only for
the pinned caption, the mode caption and the legend. Rasterising allocates
nothing per meter, and a sparkline's column geometry and the boundaries of
its log scale (the value at which a column grows by a pixel) are found once
per zoom, so a column is a few comparisons (2.17 → 0.86 ms median for the
flush that redraws all 200, 2026-11-23). Drawing the same meters
as canvas paths (a dozen rects and a rounded-rect border each, batched by
color) measured 1.0–1.8 ms for 200 meters here, and its rasterisation in
software canvas several ms more.`);
      console.log('docs/PERFORMANCE.md: Canvas flush section written');
    }
  } finally {
    await b.close();
    await server.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(2); // an error of the bench itself (run-all.ts): not a budget's failure
});
