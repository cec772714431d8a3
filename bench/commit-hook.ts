/**
 * The React hook's cost per commit (issue 3) on StressGrid at 10 % and 100 %
 * mutation, overlay on and off, and the commit's own time with the extension
 * off vs without it.
 *
 *   npx tsx bench/commit-hook.ts [--rounds 4] [--steps 40] [--warmup 8] [--pct 10,100] [--doc] [--no-build]
 *
 * Method. The demo runs paused on a cross-origin-isolated page (`?coi=1`,
 * 5 µs `performance.now()`), and the bench drives exact ticks from a page
 * script:
 *  - t0, then `__demo.step()` inside a `click` event dispatched to a detached
 *    button: React 19 reads `window.event` to pick the update's priority, so
 *    the tick's update is a discrete (SyncLane) update, rendered and committed
 *    in the microtask that follows the dispatch — not in a later scheduler
 *    task, whose queueing delay would swamp the figures;
 *  - the commit's own time = t0 → the grid's layout effect (it increments
 *    `__demo.commits`; the bench turns that property into an accessor that
 *    stamps the time): the tick's computation, React's render and its commit
 *    up to the layout effects;
 *  - the hook's time = time inside `__REACT_DEVTOOLS_GLOBAL_HOOK__.onCommitFiberRoot`
 *    (and `onCommitFiberUnmount`), which React 19 calls after the layout
 *    effects: the bench wraps the hook object's methods (our hook is an
 *    accessor on Window.prototype returning that object) after the page loads;
 *  - total = t0 → after the microtasks the commit queued (the agent's
 *    MutationObserver callback included).
 * Between ticks the page gets two animation frames and 20 ms, so the
 * overlay's frame-end measurement and flush happen outside the timed spans.
 * Configurations (none = a browser without the extension, off, on) are
 * interleaved in rotating order, `--rounds` times, one process.
 */
import type { Page } from 'puppeteer-core';
import { commandLine, enableOverlay, launchBrowser, machineNote, numArg, parseArgs, prepareBuild, sleep, startServer,
  waitFor, type BenchBrowser } from './lib/env';
import { mannWhitneyP, mdTable, median, quantile, table } from './lib/stats';
import { passFail, today, writeSection } from './lib/doc';

const CONFIGS = ['none', 'off', 'on'] as const;
type Config = (typeof CONFIGS)[number];
const CELLS = 4900;
/** Off vs none: medians within this share count as indistinguishable (or a rank test that cannot tell them apart). */
const SAME_MEDIAN_SHARE = 0.03;

interface Samples {
  commit: number[];
  hook: number[];
  total: number[];
  bad: number;
  coi: boolean;
}

const args = parseArgs();
const ROUNDS = numArg(args, 'rounds', 4);
const STEPS = numArg(args, 'steps', 40);
const WARMUP = numArg(args, 'warmup', 8);
const PCTS = (args.get('pct') ?? '10,100').split(',').map(Number);

/** Runs in the page: `n` timed ticks. */
async function pageRun(n: number, warmup: number): Promise<Samples> {
  const w = window as any;
  const api = w.__demo;
  let commits = api.commits as number;
  let commitAt = 0;
  Object.defineProperty(api, 'commits', {
    configurable: true, enumerable: true,
    get: () => commits,
    set: (v: number) => {
      commits = v;
      commitAt = performance.now();
    },
  });
  const hook = w.__REACT_DEVTOOLS_GLOBAL_HOOK__;
  let hookMs = 0;
  const timed = (key: string): void => {
    const orig = hook[key];
    if (typeof orig !== 'function') return;
    hook[key] = function (this: unknown, ...a: unknown[]) {
      const t = performance.now();
      try {
        return orig.apply(this, a);
      } finally {
        hookMs += performance.now() - t;
      }
    };
  };
  if (hook) {
    timed('onCommitFiberRoot');
    timed('onCommitFiberUnmount');
  }
  const button = document.createElement('button');
  button.addEventListener('click', () => api.step());
  const out: Samples = { commit: [], hook: [], total: [], bad: 0, coi: crossOriginIsolated };
  const frames = (): Promise<void> => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 20))));
  await frames();
  for (let i = 0; i < n + warmup; i++) {
    hookMs = 0;
    commitAt = 0;
    const c0 = commits;
    const t0 = performance.now();
    button.dispatchEvent(new MouseEvent('click'));
    // React's microtask (queued during the dispatch) runs before this continuation; the MutationObserver's after it.
    await null;
    await null;
    await null;
    const t1 = performance.now();
    if (commits !== c0 + 1 || commitAt < t0) out.bad++;
    else if (i >= warmup) {
      out.commit.push(commitAt - t0);
      out.hook.push(hookMs);
      out.total.push(t1 - t0);
    }
    await frames();
  }
  return out;
}

async function measure(b: BenchBrowser, origin: string, cfg: Config, pct: number): Promise<Samples> {
  const page: Page = await b.newPage();
  try {
    await page.goto(`${origin}/demo/?coi=1&paused=1&seed=1&pct=${pct}`, { waitUntil: 'load' });
    await waitFor(() => page.evaluate(() => ((window as any).__demo?.commits ?? 0) >= 1), 'the grid');
    if (cfg === 'on') await enableOverlay(page, CELLS);
    await sleep(500);
    return await page.evaluate(pageRun, STEPS, WARMUP);
  } finally {
    await page.close().catch(() => undefined);
  }
}

const f = (x: number, d = 3): string => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');

async function main(): Promise<void> {
  const dist = prepareBuild(args);
  const server = await startServer();
  const withExt = await launchBrowser({ dist });
  const without = await launchBrowser();
  const version = await withExt.browser.version();
  const data = new Map<string, Samples>();
  const key = (cfg: Config, pct: number): string => `${cfg}/${pct}`;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const pct of PCTS) {
        const order = CONFIGS.map((_, i) => CONFIGS[(i + round) % CONFIGS.length]);
        for (const cfg of order) {
          const s = await measure(cfg === 'none' ? without : withExt, server.origin, cfg, pct);
          if (!s.coi) throw new Error('the demo page is not cross-origin isolated: timings would be 100 µs coarse');
          const acc = data.get(key(cfg, pct)) ?? { commit: [], hook: [], total: [], bad: 0, coi: true };
          acc.commit.push(...s.commit);
          acc.hook.push(...s.hook);
          acc.total.push(...s.total);
          acc.bad += s.bad;
          data.set(key(cfg, pct), acc);
          console.log(`round ${round + 1}/${ROUNDS} ${String(pct).padStart(3)} % ${cfg.padEnd(4)} commit median ${f(median(s.commit), 2)} ms`
            + `  hook median ${f(median(s.hook))} ms  total ${f(median(s.total), 2)} ms${s.bad ? `  (${s.bad} ticks not committed synchronously)` : ''}`);
        }
      }
    }
  } finally {
    await withExt.close();
    await without.close();
    await server.close();
  }

  const header = ['share', 'config', 'n', 'commit median', 'commit p90', 'hook median', 'hook p90', 'hook / commit',
    'hook µs per changed cell', 'total median'];
  const rows: string[][] = [];
  const cmpHeader = ['share', 'commit median none → off', 'Δ median', 'commit p90 none → off', 'rank test p', 'verdict'];
  const cmpRows: string[][] = [];
  let allSame = true;
  for (const pct of PCTS) {
    for (const cfg of CONFIGS) {
      const s = data.get(key(cfg, pct));
      if (!s) continue;
      const ratio = s.hook.map((h, i) => h / s.commit[i]);
      const changed = Math.round((CELLS * pct) / 100);
      rows.push([`${pct} %`, cfg, String(s.commit.length), `${f(median(s.commit), 2)} ms`, `${f(quantile(s.commit, 0.9), 2)} ms`,
        cfg === 'none' ? '—' : `${f(median(s.hook))} ms`, cfg === 'none' ? '—' : `${f(quantile(s.hook, 0.9))} ms`,
        cfg === 'none' ? '—' : `${f(100 * median(ratio), 2)} %`,
        cfg === 'none' ? '—' : f((1000 * median(s.hook)) / changed, 3),
        `${f(median(s.total), 2)} ms`]);
    }
    const none = data.get(key('none', pct));
    const off = data.get(key('off', pct));
    if (none && off) {
      const mn = median(none.commit);
      const mo = median(off.commit);
      const p = mannWhitneyP(none.commit, off.commit);
      const same = Math.abs(mo - mn) <= SAME_MEDIAN_SHARE * mn || p >= 0.05;
      if (!same) allSame = false;
      cmpRows.push([`${pct} %`, `${f(mn, 2)} → ${f(mo, 2)} ms`, `${f((100 * (mo - mn)) / mn, 1)} %`,
        `${f(quantile(none.commit, 0.9), 2)} → ${f(quantile(off.commit, 0.9), 2)} ms`, f(p, 3), same ? 'indistinguishable' : 'DIFFERENT']);
    }
  }
  console.log(`\nPer commit on StressGrid (cross-origin isolated, 5 µs timers), ${ROUNDS} interleaved rounds × ${STEPS} ticks`);
  console.log(table(header, rows));
  console.log('\nCommit own time, installed-but-off vs no extension');
  console.log(table(cmpHeader, cmpRows));

  if (args.get('doc') === 'true') {
    writeSection('commit-hook', `## Hook cost per commit (StressGrid)

Command: \`${commandLine('bench/commit-hook.ts')}\` — run ${today()}, ${version}, ${machineNote()}.

Method: the demo paused on a cross-origin-isolated page (\`/demo/?coi=1&paused=1\`, 5 µs timers); each tick is
\`__demo.step()\` called inside a \`click\` event dispatched to a detached button, so React 19 (which reads
\`window.event\` for the update priority) renders and commits it synchronously in the next microtask. *Commit* = from
just before the dispatch to the grid's layout effect (the tick's computation, React's render and commit up to layout
effects); *hook* = time inside \`__REACT_DEVTOOLS_GLOBAL_HOOK__.onCommitFiberRoot\`/\`onCommitFiberUnmount\` (React calls
it after the layout effects; the bench wraps the hook object's methods from a page script); *total* = to after the
commit's microtasks (MutationObserver callback included). Two animation frames and 20 ms between ticks keep the
overlay's per-frame work out of the spans. ${ROUNDS} interleaved rounds × ${STEPS} ticks (after ${WARMUP} warm-up ticks)
per configuration; "none" is a browser without the extension (no hook at all).

${mdTable(header, rows)}

Installed but off vs no extension — the commit's own time (budget: indistinguishable, i.e. medians within
${SAME_MEDIAN_SHARE * 100} % or a Mann–Whitney rank test that cannot tell them apart at p ≥ 0.05):
${allSame ? passFail(true) : passFail(false)}

${mdTable(cmpHeader, cmpRows)}
`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
