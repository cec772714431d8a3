/**
 * Memory (SPEC §6): bytes of extension state per tracked DOM element
 * (≤ 64 B) and a mount/unmount soak (memory flat; the spec's run is 10
 * minutes: `--seconds 600`).
 *
 *   npx tsx bench/memory.ts [--rounds 3] [--small 500] [--large 4000] [--per 4] [--seconds 60]
 *                           [--cycle-ms 100] [--doc] [--no-build]
 *
 * Heap figures are CDP `Runtime.getHeapUsage` after two forced full
 * collections (`HeapProfiler.collectGarbage`): V8's used heap plus array
 * buffer backing stores (the agent's typed arrays, the ring) — "JS" below —
 * and Blink's own heap (DOM, observers, canvas objects) — "embedder". The
 * page's isolate holds both the MAIN world (the agent) and the content
 * script's isolated world (the rollup store), so the figures are the
 * extension's state in both, an upper bound for the agent's alone.
 *
 * Per element: on tests/fixtures/soak.html (rows of a `Row` component, each
 * a div and per − 1 spans), heap with the overlay on minus heap in the same
 * page before enabling, at two sizes; the slope between them is the
 * marginal state per tracked DOM element (and per component), the
 * intercept the fixed cost (code, ring buffer, canvas). StressGrid (paused)
 * gives the all-in figure on the demo, fixed costs included.
 *
 * Soak: the same fixture with `--soak-rows` rows remounted with fresh keys
 * every `--cycle-ms` (one commit unmounts every row and mounts as many new
 * ones), overlay on, then the same with the extension installed but off;
 * every 5 s the cycling pauses on a mounted list, the heap is collected and
 * sampled. Reported: the least-squares heap slope after a 10 s warm-up, and
 * the agent's own table sizes at the end (they must equal what is mounted).
 */
import type { CDPSession, Page } from 'puppeteer-core';
import { commandLine, enableOverlay, launchBrowser, lc, machineNote, numArg, parseArgs, prepareBuild, sleep, startServer,
  waitFor, type BenchBrowser } from './lib/env';
import { mdTable, median, slope, slopeStdErr, table } from './lib/stats';
import { passFail, today, writeSection } from './lib/doc';
import { recordStatus } from './lib/status';

const BYTES_PER_ELEMENT_BUDGET = 64;
/** "Flat": the on-minus-off heap slope projected over 10 minutes stays under this. */
const SOAK_GROWTH_BUDGET_BYTES = 1024 * 1024;
const SAMPLE_EVERY_MS = 5000;
const WARMUP_MS = 10_000;

const args = parseArgs();
const ROUNDS = numArg(args, 'rounds', 3);
const SMALL = numArg(args, 'small', 500);
const LARGE = numArg(args, 'large', 4000);
const PER = numArg(args, 'per', 4);
const SECONDS = numArg(args, 'seconds', 60);
const CYCLE_MS = numArg(args, 'cycle-ms', 100);
const SOAK_ROWS = numArg(args, 'soak-rows', 1000);
/** Reads per per-element heap figure (the least is taken, see heap()). */
const HEAP_READS = 3;

interface Heap {
  js: number;
  embedder: number;
}

async function heapOnce(cdp: CDPSession): Promise<Heap> {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const u = await cdp.send('Runtime.getHeapUsage') as { usedSize: number; backingStorageSize?: number; embedderHeapUsedSize?: number };
  return { js: u.usedSize + (u.backingStorageSize ?? 0), embedder: u.embedderHeapUsedSize ?? 0 };
}

/**
 * The heap after collection, each part's least of `reads` reads 150 ms apart. With the overlay on, its idle tick
 * (5 a second) repaints the canvas, which allocates in Blink's heap (≈ 0.1–0.5 MB on the 4 000-row page, collected
 * only in part): one read right after collection saw that or not, and the embedder figure was bimodal between
 * rounds. The least read is the state that outlives the ticks.
 */
async function heap(cdp: CDPSession, reads = 1): Promise<Heap> {
  let best = await heapOnce(cdp);
  for (let i = 1; i < reads; i++) {
    await sleep(150);
    const h = await heapOnce(cdp);
    best = { js: Math.min(best.js, h.js), embedder: Math.min(best.embedder, h.embedder) };
  }
  return best;
}

/** DOM elements under `selector`, open shadow roots included. */
const countElements = (page: Page, selector: string): Promise<number> => page.evaluate((sel) => {
  const walk = (root: ParentNode): number => {
    let n = 0;
    for (const el of Array.from(root.querySelectorAll('*'))) {
      n++;
      if (el.shadowRoot) n += walk(el.shadowRoot);
    }
    return n;
  };
  const top = document.querySelector(sel);
  return top ? 1 + walk(top) : 0;
}, selector);

interface Delta {
  elements: number;
  components: number;
  js: number;
  embedder: number;
}

async function onMinusOff(b: BenchBrowser, url: string, ready: string, rootSel: string, minComponents: number): Promise<Delta> {
  const page = await b.newPage();
  try {
    await page.goto(url, { waitUntil: 'load' });
    await waitFor(() => page.evaluate(ready), 'the fixture');
    await sleep(500);
    const cdp = await page.createCDPSession();
    await cdp.send('HeapProfiler.enable');
    const off = await heap(cdp, HEAP_READS);
    await enableOverlay(page, minComponents);
    await sleep(1500);
    const snap = await lc.frames(page);
    const on = await heap(cdp, HEAP_READS);
    const elements = await countElements(page, rootSel);
    await cdp.detach();
    return { elements, components: snap.components, js: on.js - off.js, embedder: on.embedder - off.embedder };
  } finally {
    await page.close().catch(() => undefined);
  }
}

interface SoakResult {
  samples: { t: number; js: number; embedder: number }[];
  slopeJs: number;
  slopeEmbedder: number;
  /** Standard error of the slope of JS + embedder (bytes/s). */
  slopeErr: number;
  cycles: number;
  agentStats: Record<string, number> | null;
  mountedComponents: number;
}

async function soak(b: BenchBrowser, origin: string, on: boolean, keys: 'fresh' | 'stable'): Promise<SoakResult> {
  const page = await b.newPage();
  try {
    await page.goto(`${origin}/soak.html?rows=${SOAK_ROWS}&per=${PER}&keys=${keys}`, { waitUntil: 'load' });
    await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), 'the fixture');
    if (on) await enableOverlay(page, SOAK_ROWS);
    const cdp = await page.createCDPSession();
    await cdp.send('HeapProfiler.enable');
    const samples: SoakResult['samples'] = [];
    const start = Date.now();
    const end = start + SECONDS * 1000;
    const run = (ms: number): Promise<void> => page.evaluate((cycleMs, forMs) => new Promise<void>((resolve) => {
      const s = (window as any).__soak;
      const id = setInterval(() => s.cycle(), cycleMs);
      setTimeout(() => {
        clearInterval(id);
        // Stop on a mounted list, so every sample sees the same live tree.
        if (s.elements === 0) s.cycle();
        setTimeout(resolve, 50);
      }, forMs);
    }), CYCLE_MS, ms);
    for (;;) {
      await sleep(300);
      const h = await heap(cdp);
      samples.push({ t: (Date.now() - start) / 1000, ...h });
      const left = end - Date.now();
      if (left <= 0) break;
      await run(Math.min(SAMPLE_EVERY_MS, left));
    }
    const cycles = await page.evaluate(() => (window as any).__soak.cycles as number);
    const agentStats = await page.evaluate(() => {
      const api = (window as any).__LAYOUT_COST__;
      return api && typeof api.internals === 'function' ? api.internals() as Record<string, number> : null;
    });
    const mountedComponents = on ? (await lc.frames(page)).components : 0;
    await cdp.detach();
    const warm = samples.filter((s) => s.t >= WARMUP_MS / 1000);
    const use = warm.length >= 3 ? warm : samples;
    return {
      samples, cycles, agentStats, mountedComponents,
      slopeJs: slope(use.map((s) => s.t), use.map((s) => s.js)),
      slopeEmbedder: slope(use.map((s) => s.t), use.map((s) => s.embedder)),
      slopeErr: slopeStdErr(use.map((s) => s.t), use.map((s) => s.js + s.embedder)),
    };
  } finally {
    await page.close().catch(() => undefined);
  }
}

const kb = (x: number): string => `${(x / 1024).toFixed(1)} KB`;
const b1 = (x: number): string => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');

async function main(): Promise<void> {
  const dist = prepareBuild(args);
  const server = await startServer();
  const b = await launchBrowser({ dist });
  const version = await b.browser.version();
  const small: Delta[] = [];
  const large: Delta[] = [];
  const grid: Delta[] = [];
  let soakOn: SoakResult;
  let soakStable: SoakResult;
  let soakOff: SoakResult;
  try {
    const soakUrl = (rows: number): string => `${server.origin}/soak.html?rows=${rows}&per=${PER}`;
    const ready = '(window).__fixtureReady === true';
    for (let r = 0; r < ROUNDS; r++) {
      small.push(await onMinusOff(b, soakUrl(SMALL), ready, '#list', SMALL));
      large.push(await onMinusOff(b, soakUrl(LARGE), ready, '#list', LARGE));
      grid.push(await onMinusOff(b, `${server.origin}/demo/?paused=1&seed=1`, '(window.__demo?.commits ?? 0) >= 1', '#root', 4900));
      const last = (xs: Delta[]): string => `${xs[xs.length - 1].elements} el. +${kb(xs[xs.length - 1].js)} JS +${kb(xs[xs.length - 1].embedder)} embedder`;
      console.log(`round ${r + 1}/${ROUNDS}: soak ${SMALL} rows ${last(small)}; ${LARGE} rows ${last(large)}; StressGrid ${last(grid)}`);
    }
    console.log(`soak: ${SECONDS} s with the overlay on, fresh keys…`);
    soakOn = await soak(b, server.origin, true, 'fresh');
    console.log(`soak: ${SECONDS} s with the overlay on, stable keys…`);
    soakStable = await soak(b, server.origin, true, 'stable');
    console.log(`soak: ${SECONDS} s installed but off, fresh keys…`);
    soakOff = await soak(b, server.origin, false, 'fresh');
  } finally {
    await b.close();
    await server.close();
  }

  const med = (xs: Delta[], k: keyof Delta): number => median(xs.map((x) => x[k]));
  const dEl = med(large, 'elements') - med(small, 'elements');
  const dComp = med(large, 'components') - med(small, 'components');
  const perElJs = (med(large, 'js') - med(small, 'js')) / dEl;
  const perElEmb = (med(large, 'embedder') - med(small, 'embedder')) / dEl;
  const perCompJs = (med(large, 'js') - med(small, 'js')) / dComp;
  const fixedJs = med(small, 'js') - perElJs * med(small, 'elements');
  const gridEl = med(grid, 'elements');
  const gridAll = (med(grid, 'js') + med(grid, 'embedder')) / gridEl;
  const pass = perElJs + Math.max(0, perElEmb) <= BYTES_PER_ELEMENT_BUDGET;

  const perHeader = ['page', 'tracked elements', 'components', 'Δ JS heap (on − off)', 'Δ embedder heap'];
  const perRows = [
    [`soak ${SMALL} rows × ${PER}`, String(med(small, 'elements')), String(med(small, 'components')), kb(med(small, 'js')), kb(med(small, 'embedder'))],
    [`soak ${LARGE} rows × ${PER}`, String(med(large, 'elements')), String(med(large, 'components')), kb(med(large, 'js')), kb(med(large, 'embedder'))],
    ['StressGrid (paused)', String(gridEl), String(med(grid, 'components')), kb(med(grid, 'js')), kb(med(grid, 'embedder'))],
  ];
  console.log(`\nExtension state, overlay on minus off in the same page (median of ${ROUNDS})`);
  console.log(table(perHeader, perRows));
  console.log(`marginal: ${b1(perElJs)} B JS + ${b1(perElEmb)} B embedder per tracked element (${b1(perCompJs)} B JS per component); `
    + `fixed ≈ ${kb(fixedJs)}; StressGrid all-in ${b1(gridAll)} B per element. Budget ≤ ${BYTES_PER_ELEMENT_BUDGET} B/element: ${pass ? 'pass' : 'FAIL'}`);

  const growth = (s: SoakResult): number => s.slopeJs + s.slopeEmbedder;
  // On minus off, projected over 10 minutes, with ±2 standard errors of the two slopes: a short run cannot always tell.
  const verdictOf = (on: SoakResult): { excess: number; err: number; text: string; md: string } => {
    const excess = (growth(on) - growth(soakOff)) * 600;
    const err = 2 * Math.hypot(on.slopeErr, soakOff.slopeErr) * 600;
    const pass = excess + err <= SOAK_GROWTH_BUDGET_BYTES;
    const fail = excess - err > SOAK_GROWTH_BUDGET_BYTES;
    const text = pass ? 'pass' : fail ? 'FAIL' : `inconclusive at ${SECONDS} s (run --seconds 600)`;
    return { excess, err, text, md: pass ? passFail(true) : fail ? passFail(false) : `**inconclusive** at ${SECONDS} s` };
  };
  const vFresh = verdictOf(soakOn);
  const vStable = verdictOf(soakStable);
  const soakHeader = ['run', 'cycles', 'heap at start', 'heap at end', 'slope JS', 'slope embedder', 'projected 10 min (± 2 SE)'];
  const soakRow = (name: string, s: SoakResult): string[] => {
    const first = s.samples[0];
    const last = s.samples[s.samples.length - 1];
    return [name, String(s.cycles), kb(first.js + first.embedder), kb(last.js + last.embedder),
      `${b1(s.slopeJs * 60 / 1024)} KB/min`, `${b1(s.slopeEmbedder * 60 / 1024)} KB/min`,
      `${kb(growth(s) * 600)} ± ${kb(2 * s.slopeErr * 600)}`];
  };
  const soakRows = [soakRow('overlay on, fresh keys', soakOn), soakRow('overlay on, stable keys', soakStable),
    soakRow('installed, off, fresh keys', soakOff)];
  console.log(`\nMount/unmount soak: ${SOAK_ROWS} rows × ${PER} elements remounted every ${CYCLE_MS} ms for ${SECONDS} s (slopes after ${WARMUP_MS / 1000} s)`);
  console.log(table(soakHeader, soakRows));
  console.log(`agent tables at the end: ${JSON.stringify(soakOn.agentStats)}; components in the store: ${soakOn.mountedComponents}`);
  console.log(`on − off over 10 minutes: fresh keys ${kb(vFresh.excess)} ± ${kb(vFresh.err)} → ${vFresh.text}; `
    + `stable keys ${kb(vStable.excess)} ± ${kb(vStable.err)} → ${vStable.text} (budget flat: ≤ ${kb(SOAK_GROWTH_BUDGET_BYTES)})`);
  // A failed budget fails the run; an inconclusive soak (a short run) is said, and is no pass either way.
  if (!pass || vFresh.text === 'FAIL' || vStable.text === 'FAIL') process.exitCode = 1;

  if (args.get('doc') === 'true') {
    const soakVerdict = vFresh.text === 'FAIL' || vStable.text === 'FAIL' ? 'FAIL' : vFresh.text === 'pass' && vStable.text === 'pass' ? 'pass' : 'info';
    recordStatus('memory', commandLine('bench/memory.ts'), [{
      budget: 'state per tracked element', target: `≤ ${BYTES_PER_ELEMENT_BUDGET} B (≤ 32 B)`,
      figure: `${b1(perElJs)} B JS + ${b1(perElEmb)} B Blink`, verdict: pass ? 'pass' : 'FAIL',
      paths: ['src/inject/agent', 'src/content/agent'],
    }, {
      budget: '10-minute mount/unmount soak', target: 'flat',
      figure: `fresh +${Math.round(vFresh.excess / 1024)} ± ${Math.round(vFresh.err / 1024)} KB, stable +${Math.round(vStable.excess / 1024)} ± ${Math.round(vStable.err / 1024)} KB${SECONDS < 600 ? ` (${SECONDS} s)` : ''}`,
      verdict: soakVerdict, paths: ['src/inject/agent', 'src/content/agent'],
    }]);
    writeSection('memory', `## Memory: state per tracked element, mount/unmount soak

Command: \`${commandLine('bench/memory.ts')}\` — run ${today()}, ${version}, ${machineNote()}. The spec's soak is 10 minutes:
\`npx tsx bench/memory.ts --seconds 600\`.

Method: CDP \`Runtime.getHeapUsage\` after two forced full collections (per element: the least of ${HEAP_READS} such reads 150 ms
apart: the overlay's idle repaint, 5 a second, allocates in Blink's heap, and a single read saw that or not); "JS" = V8's used heap + array-buffer backing stores,
"embedder" = Blink's heap. The isolate holds the MAIN world (agent) and the content script's isolated world (rollup
store), so these are the extension's state in both. Per element: \`tests/fixtures/soak.html\` (rows of a \`Row\` component,
a div and ${PER - 1} spans each) with the overlay on minus the same page before enabling, at ${SMALL} and ${LARGE} rows; the slope
between the two sizes is the marginal state per tracked DOM element, the intercept the fixed cost (code, ring buffer,
canvas). Median of ${ROUNDS} rounds.

${mdTable(perHeader, perRows)}

- Marginal state: **${b1(perElJs)} B (JS) + ${b1(perElEmb)} B (embedder) per tracked DOM element** — ${b1(perCompJs)} B JS per
  component at ${PER} elements per component. Budget ≤ ${BYTES_PER_ELEMENT_BUDGET} B per element: ${passFail(pass)}.
- Fixed cost ≈ ${kb(fixedJs)} JS. On StressGrid (1 element per cell component), everything included:
  ${b1(gridAll)} B per element.

Soak: ${SOAK_ROWS} rows × ${PER} elements, a cycle every ${CYCLE_MS} ms for ${SECONDS} s per run. *Fresh keys*: each cycle is one commit
that unmounts every row and mounts as many new ones under never-seen keys (a feed of new items). *Stable keys*: cycles
alternate between unmounting the list and mounting it again under the same keys. Overlay on (both), then installed-but-off
(fresh keys). The heap is sampled every 5 s on a mounted list after collection; slopes are least squares after
${WARMUP_MS / 1000} s. Budget (flat): the on-minus-off slope projected over 10 minutes ≤ ${kb(SOAK_GROWTH_BUDGET_BYTES)}, judged with ± 2
standard errors of the slopes (a short run whose interval straddles the budget is inconclusive) — fresh keys ${vFresh.md}
(${kb(vFresh.excess)} ± ${kb(vFresh.err)}), stable keys ${vStable.md} (${kb(vStable.excess)} ± ${kb(vStable.err)}).

${mdTable(soakHeader, soakRows)}

The agent's tables at the end of the soak: \`${JSON.stringify(soakOn.agentStats)}\` (${soakOn.mountedComponents} components
in the rollup store; ${SOAK_ROWS} rows + \`App\` + \`List\` are mounted).
`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(2); // an error of the bench itself (run-all.ts): not a budget's failure
});
