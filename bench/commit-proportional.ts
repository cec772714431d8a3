/**
 * SPEC §6: "the injected script's per-commit work grows with what changed,
 * not with the tree: a commit that touches 10 of 4 900 cells costs about
 * what it costs on a 100-cell page." Measured literally.
 *
 *   npx tsx bench/commit-proportional.ts [--sizes 100,4900] [--changed 10] [--steps 60] [--warmup 10] [--doc] [--no-build]
 *     [--base <dist>] [--classes] [--zoo]
 *
 * tests/fixtures/proportional.html?cells=N is the StressGrid pattern (the
 * grid holds every value in its state; one memoised Cell per value), with a
 * tick that changes exactly `--changed` cells. Overlay on (Components), one
 * browser per size so that every page stays live, cross-origin isolated
 * (5 µs timers). Per tick, in the page: the time inside the hook's
 * onCommitFiberRoot (the agent's whole commit walk: adapter, registry,
 * records), and the tick's total from the click to after the microtasks the
 * commit queued (React's render and commit, the hook, the agent's
 * MutationObserver callback). Ticks alternate between the sizes, with two
 * frames and 20 ms between ticks, so the frame-end measurement and flush fall
 * outside the timed spans. React's own commit time (total − hook) is the
 * yardstick: React also visits every child of the re-rendered grid.
 *
 * `--base <dist>` runs another build beside this one (a browser per build and
 * size, ticks alternating over all of them) and prints, per size, the median
 * of the tick-by-tick differences of the hook time (this − base) with its 95 %
 * interval: a change to the commit walk is judged there. The verdict is this
 * build's.
 */
import type { Page } from 'puppeteer-core';
import { commandLine, comparedBuilds, comparedNote, enableOverlay, launchBrowser, machineNote, numArg, parseArgs, prepareBuild,
  sleep, startServer, waitFor, type BenchBrowser } from './lib/env';
import { mdTable, median, medianCI, quantile, table } from './lib/stats';
import { passFail, today, writeSection } from './lib/doc';
import { recordStatus } from './lib/status';
import { installHookTimer } from './lib/hook-timer';

const args = parseArgs();
const SIZES = (args.get('sizes') ?? '100,4900').split(',').map(Number);
const CHANGED = numArg(args, 'changed', 10);
const STEPS = numArg(args, 'steps', 60);
const WARMUP = numArg(args, 'warmup', 10);
/** Each changed cell swaps its class too, as the demo's cells do (a class and a text change per host). */
const CLASSES = args.get('classes') === 'true';
/** A dozen other elements of as many prop shapes re-render with every tick (as an app's header beside a grid). */
const ZOO = args.get('zoo') === 'true';
/** "About what it costs": the hook's median at the big size within this factor of the small size's (issue 10: 1.2×). */
const ABOUT = 1.2;

interface Tick {
  hook: number;
  total: number;
  ok: boolean;
}

/** Runs in the page once (after installHookTimer): the button whose click runs a tick. */
function pageSetup(): boolean {
  const w = window as any;
  const button = document.createElement('button');
  w.__benchButton = button;
  w.__benchChanged = 0;
  button.addEventListener('click', () => w.__prop.tick(w.__benchChanged));
  return crossOriginIsolated;
}

/** Runs in the page per tick: one timed tick of `changed` cells (lib/hook-timer.ts). */
async function pageTick(changed: number): Promise<Tick> {
  const w = window as any;
  w.__benchChanged = changed;
  const c0 = w.__prop.commits;
  const t = await w.__timedClick();
  return { hook: t.hookMs, total: t.t1 - t.t0, ok: w.__prop.commits === c0 + 1 };
}

async function open(b: BenchBrowser, origin: string, cells: number): Promise<Page> {
  const page = await b.newPage();
  await page.goto(`${origin}/proportional.html?coi=1&cells=${cells}${CLASSES ? '&classes=1' : ''}${ZOO ? '&zoo=1' : ''}`, { waitUntil: 'load' });
  await waitFor(() => page.evaluate(() => ((window as any).__prop?.commits ?? 0) >= 1), 'the grid');
  await enableOverlay(page, cells);
  await sleep(500);
  await page.evaluate(installHookTimer);
  if (!(await page.evaluate(pageSetup))) throw new Error('the page is not cross-origin isolated: timings would be 100 µs coarse');
  return page;
}

const f = (x: number, d = 3): string => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');

async function main(): Promise<void> {
  const dist = prepareBuild(args);
  const builds = comparedBuilds(args, dist);
  const server = await startServer();
  const browsers: BenchBrowser[] = [];
  // One page per build and size, build-major: k = build * SIZES.length + size.
  const pages: Page[] = [];
  const runs = builds.length * SIZES.length;
  // A tick's hook time per run, NaN where it was discarded: the differences between builds are taken tick by tick.
  const byTick: number[][] = Array.from({ length: runs }, () => []);
  const total: number[][] = Array.from({ length: runs }, () => []);
  let bad = 0;
  let version = '';
  try {
    for (const [, d] of builds) {
      for (const cells of SIZES) {
        const b = await launchBrowser({ dist: d });
        browsers.push(b);
        version ||= await b.browser.version();
        pages.push(await open(b, server.origin, cells));
      }
    }
    for (let i = 0; i < STEPS + WARMUP; i++) {
      for (let j = 0; j < runs; j++) {
        const k = (i + j) % runs;
        const t = await pages[k].evaluate(pageTick, CHANGED);
        if (i < WARMUP) continue;
        byTick[k].push(t.ok ? t.hook : NaN);
        if (!t.ok) {
          bad++;
          continue;
        }
        total[k].push(t.total);
      }
    }
  } finally {
    for (const b of browsers) await b.close();
    await server.close();
  }
  // The kept ticks' hook times, in step with `total`.
  const hook = byTick.map((xs) => xs.filter(Number.isFinite));
  const compared = builds.length > 1;
  const header = [...(compared ? ['build'] : []), 'cells', 'changed per commit', 'hook ms (median / p90)', 'tick total ms (median)',
    "React's own ms (total − hook, median)", 'hook / smallest size'];
  const rows: string[][] = [];
  builds.forEach(([label], bi) => {
    const first = median(hook[bi * SIZES.length]);
    SIZES.forEach((cells, s) => {
      const k = bi * SIZES.length + s;
      const react = total[k].map((t, n) => t - hook[k][n]);
      rows.push([...(compared ? [label] : []), `${cells}`, `${CHANGED}`, `${f(median(hook[k]))} / ${f(quantile(hook[k], 0.9))}`,
        f(median(total[k])), f(median(react)), f(median(hook[k]) / first, 2)]);
    });
  });
  console.log(table(header, rows));
  // This build is the last.
  const own = (builds.length - 1) * SIZES.length;
  const base = median(hook[own]);
  const big = median(hook[own + SIZES.length - 1]);
  const ratio = big / base;
  const pass = ratio <= ABOUT;
  console.log(`hook at ${SIZES[SIZES.length - 1]} cells / at ${SIZES[0]} cells = ${f(ratio, 2)} (budget: about the same, ≤ ${ABOUT}×: ${pass ? 'pass' : 'FAIL'}); ${bad} ticks discarded`);
  if (!pass || !Number.isFinite(ratio)) process.exitCode = 1;
  const diffLines: string[] = [];
  if (compared) {
    SIZES.forEach((cells, s) => {
      const a = byTick[s];
      const b = byTick[own + s];
      const d = a.map((x, n) => b[n] - x).filter(Number.isFinite);
      const [lo, hi] = medianCI(d);
      const resolved = lo > 0 || hi < 0;
      diffLines.push(`${cells} cells: this − base ${f(median(d))} ms [${f(lo)}, ${f(hi)}] (${d.length} ticks, 95 %; ${resolved ? 'resolved' : 'not resolved'}), `
        + `${f((median(hook[own + s]) / median(hook[s]) - 1) * 100, 1)} % in the medians`);
    });
    for (const l of diffLines) console.log(l);
  }
  if (args.get('doc') === 'true') {
    recordStatus('commit-proportional', commandLine('bench/commit-proportional.ts'), [{
      budget: `per commit: 10 of ${SIZES[SIZES.length - 1]} cells vs 10 of ${SIZES[0]}`, target: `≤ ${ABOUT}×`, figure: `${f(ratio, 2)}×`,
      verdict: pass && Number.isFinite(ratio) ? 'pass' : 'FAIL', paths: ['src/inject/agent/react', 'src/inject/agent/pipeline/registry.ts'],
    }]);
    writeSection('commit-proportional', `## Per-commit work against the size of the tree

Command: \`${commandLine('bench/commit-proportional.ts')}\` — run ${today()}, ${version}, ${machineNote()}.

SPEC §6 asks that a commit touching 10 of 4 900 cells cost the injected script about what it costs on a 100-cell page.
\`tests/fixtures/proportional.html?cells=N\` is the StressGrid pattern (the grid holds every value in its state, one
memoised \`Cell\` per value) with a tick that changes exactly ${CHANGED} cells; overlay on, one browser per size${compared ? ' and build' : ''}, ticks
alternating between them (${STEPS} each after ${WARMUP} warm-up ticks; ${bad} discarded), cross-origin isolated pages (5 µs timers).
"hook" is the time inside \`onCommitFiberRoot\`: the agent's whole commit walk. "React's own" is the rest of the tick up to
the microtasks the commit queued (render, commit, the agent's MutationObserver callback), for scale: React itself visits
every child of the re-rendered grid. Budget (read as "the big tree's hook time within ${ABOUT}× of the small one's", this
build): ${passFail(pass)} (${f(ratio, 2)}×).${compared ? ` ${comparedNote(builds)}` : ''}

${mdTable(header, rows)}
${compared ? `\nThe hook time, tick by tick (the same moment of the machine), this build minus the base: ${diffLines.join('; ')}.\n` : ''}`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(2); // an error of the bench itself (run-all.ts): not a budget's failure
});
