/**
 * The extension's own JavaScript per React commit, overlay on, StressGrid —
 * the part of the overlay-on cost (issue 10, target 2) that our code decides.
 *
 *   npx tsx bench/own-js.ts [--base <dist of another build>] [--rounds 4] [--pct 10,100] [--window 8] [--settle 6]
 *                           [--top 8] [--app react|vue|preact] [--doc] [--no-build]
 *
 * bench/overhead.ts judges the budget: all the time charged to us less the
 * style and layout we only move, a difference of two large figures whose
 * rounds spread by about a point. This bench reads the smaller figure that
 * changes when our code does: the self time of our own functions in a CPU
 * profile of the page (lib/profile.ts; native calls they make — the frame-end
 * flush's getBoundingClientRect, canvas drawing — excluded), per React commit
 * of the grid, so that a round with fewer commits does not look cheaper. Beside
 * it: the records and batches the agent handed over (`internals().recordsPosted`, `batchesPosted`,
 * absent in builds before it) and the costliest functions, named through each
 * build's source maps, and all of it split by room (ROOMS in lib/profile.ts:
 * the agent's React adapter, its pipeline and timing, the boot, the drawing,
 * the store and relay, the protocol's checks) — the share the drawing takes is
 * the most that drawing off the page's main thread could save.
 *
 * With `--base`, both builds run in this process, a browser launched for each measurement (and closed before the next:
 * one browser kept per build repeats one draw of its launch's spread in every round, bench/overhead.ts), the order
 * flipping every round, and the run is judged: this build's median per commit at each
 * share no higher than the base's costliest round (issue 43's cost target against the build before attribution); a
 * miss exits 1 and, with `--doc`, is a FAIL row of the status table.
 *
 * `--app vue|preact`: the same grid in Vue 3 or Preact 10 (build/vue/stress.html, build/preact/stress.html, as
 * bench/overhead.ts `--app`), per commit of that grid: the figure that moves when the DOM-commit adapters' record
 * reading does (dom-commits.ts), with a round's spread far below the overhead bench's. Printed and judged only: `--doc`
 * records React's rows alone.
 */
import type { CDPSession } from 'puppeteer-core';
import { commandLine, comparedBuilds, comparedNote, describeBuild, enableOverlay, inFreshBrowser, lc, machineNote, numArg, parseArgs, prepareBuild,
  roundOrder, sleep, startServer, waitFor, type BenchBrowser } from './lib/env';
import { attribute, BuildNames, mergeFunctions, profileFor, roomOf, ROOMS, type Attribution } from './lib/profile';
import { f2, f3, mdTable, median, spread, table } from './lib/stats';
import { today, writeSection } from './lib/doc';
import { recordStatus } from './lib/status';

const args = parseArgs();
const ROUNDS = numArg(args, 'rounds', 4);
const PCTS = (args.get('pct') ?? '10,100').split(',').map(Number);
/** As bench/overhead.ts: 6 s for the agent's code to tier up, then an 8 s profile. */
const WINDOW_MS = numArg(args, 'window', 8) * 1000;
const SETTLE_MS = numArg(args, 'settle', 6) * 1000;
const GRID_CELLS = 4900;
const TOP_N = numArg(args, 'top', 8);
const APP = args.get('app') === 'vue' ? 'vue' : args.get('app') === 'preact' ? 'preact' : 'react';
const GRID_PATH = APP === 'vue' ? '/build/vue/stress.html' : APP === 'preact' ? '/build/preact/stress.html' : '/demo/';
const LABEL = `${APP === 'vue' ? 'Vue ' : APP === 'preact' ? 'Preact ' : ''}StressGrid`;

interface Run {
  build: string;
  dist: string;
  pct: number;
  a: Attribution;
  commits: number;
  /** Own JS: self time of our functions, their native calls excluded. */
  ownMs: number;
  records: number;
  /** Batches the agent handed over in the window (NaN: a build before `batchesPosted`). */
  batches: number;
}

async function measure(b: BenchBrowser, build: string, dist: string, origin: string, pct: number): Promise<Run> {
  const page = await b.newPage();
  let cdp: CDPSession | null = null;
  try {
    await page.goto(`${origin}${GRID_PATH}?pct=${pct}&seed=1`, { waitUntil: 'load' });
    await waitFor(() => page.evaluate(() => ((window as any).__demo?.commits ?? 0) > 3), 'the grid ticking');
    await enableOverlay(page, GRID_CELLS);
    await sleep(SETTLE_MS);
    const commitsNow = (): Promise<number> => page.evaluate(() => (window as any).__demo.commits as number);
    const counted = async (): Promise<[number, number]> => {
      const i = await lc.internals(page);
      return [Number(i.recordsPosted ?? NaN), Number(i.batchesPosted ?? NaN)];
    };
    cdp = await page.createCDPSession();
    const c0 = await commitsNow();
    const [r0, n0] = await counted();
    const profile = await profileFor(cdp, WINDOW_MS);
    const c1 = await commitsNow();
    const [r1, n1] = await counted();
    const prefix = `chrome-extension://${b.extensionId}/`;
    const a = attribute(profile, {
      passThrough: (owner, api, caller) => owner.url.startsWith(prefix) && owner.functionName === api && !caller.url.startsWith(prefix),
    });
    let ownMs = 0;
    for (const f of a.functions.values()) if (f.url.startsWith(prefix)) ownMs += f.ms - f.nativeMs;
    const commits = c1 - c0;
    if (commits <= 0) throw new Error(`${build} at ${pct} %: no commit in the window`);
    return { build, dist, pct, a, commits, ownMs, records: r1 - r0, batches: n1 - n0 };
  } finally {
    await cdp?.detach().catch(() => undefined);
    await page.close().catch(() => undefined);
  }
}

/** A build's costliest own functions at one share, µs of own JS per commit, named through its source maps. */
function topFunctions(runs: Run[], n: number): string[][] {
  const merged = mergeFunctions(runs.map((r) => r.a));
  const commits = runs.reduce((x, r) => x + r.commits, 0);
  const names = new BuildNames(runs[0].dist);
  // The page runs no other extension: every chrome-extension:// function is ours.
  return [...merged.values()]
    .filter((f) => f.url.startsWith('chrome-extension://'))
    .map((f) => ({ f, own: f.ms - f.nativeMs }))
    .sort((x, y) => y.own - x.own).slice(0, n)
    .map(({ f, own }) => {
      const { name, source } = names.of(f);
      return [f2((1000 * own) / commits), name, source];
    });
}

/** Own JS per commit (µs) by room, every function of ours counted, for one build at one share. */
function roomsOf(runs: Run[]): Map<string, number> {
  const merged = mergeFunctions(runs.map((r) => r.a));
  const commits = runs.reduce((x, r) => x + r.commits, 0);
  const names = new BuildNames(runs[0].dist);
  const out = new Map<string, number>(ROOMS.map((r) => [r.room, 0]));
  for (const f of merged.values()) {
    if (!f.url.startsWith('chrome-extension://')) continue;
    const room = roomOf(names.of(f).source);
    out.set(room, (out.get(room) ?? 0) + (1000 * (f.ms - f.nativeMs)) / commits);
  }
  return out;
}

async function main(): Promise<void> {
  const dist = prepareBuild(args);
  const builds = comparedBuilds(args, dist);
  const server = await startServer();
  const runs: Run[] = [];
  try {
    for (let r = 0; r < ROUNDS; r++) {
      for (const pct of PCTS) {
        for (const [label, d] of roundOrder(builds, r)) {
          const run = await inFreshBrowser({ dist: d }, (b) => measure(b, label, d, server.origin, pct));
          runs.push(run);
          console.log(`round ${r + 1}/${ROUNDS}  ${String(pct).padStart(3)} %  ${label.padEnd(4)}  own JS ${f3(run.ownMs / run.commits)} ms/commit`
            + `  ${f2((100 * run.ownMs) / run.a.busyMs)} % of busy  ${f2(run.records / run.commits)} records/commit  ${f2(run.batches / (WINDOW_MS / 1000))} batches/s`
            + `  ${f2(run.commits / (WINDOW_MS / 1000))} commits/s`);
        }
      }
    }
  } finally {
    await server.close();
  }

  const header = ['build', 'share', 'own JS ms per commit (median [min–max])', 'own JS % of busy', 'records per commit', 'batches/s', 'commits/s'];
  const rows: string[][] = [];
  for (const pct of PCTS) {
    for (const [label] of builds) {
      const rs = runs.filter((x) => x.build === label && x.pct === pct);
      const perCommit = rs.map((x) => x.ownMs / x.commits);
      rows.push([label, `${pct} %`, spread(perCommit, 3), f2(median(rs.map((x) => (100 * x.ownMs) / x.a.busyMs))),
        f2(median(rs.map((x) => x.records / x.commits))), f2(median(rs.map((x) => x.batches / (WINDOW_MS / 1000)))),
        f2(median(rs.map((x) => x.commits / (WINDOW_MS / 1000))))]);
    }
  }
  console.log(`\nOwn JS per commit, overlay on, ${LABEL} (${ROUNDS} rounds, ${WINDOW_MS / 1000} s windows)`);
  console.log(table(header, rows));
  const roomCols: string[] = [];
  const byRoom: Map<string, number>[] = [];
  for (const pct of PCTS) {
    for (const [label] of builds) {
      roomCols.push(`${label}, ${pct} %`);
      byRoom.push(roomsOf(runs.filter((x) => x.build === label && x.pct === pct)));
    }
  }
  const roomHeader = ['room', ...roomCols.map((c) => `${c}: µs/commit (share)`)];
  const roomRows = ROOMS.map(({ room }) => [room, ...byRoom.map((m) => {
    const total = [...m.values()].reduce((x, y) => x + y, 0);
    const v = m.get(room) ?? 0;
    return `${f2(v)} (${total > 0 ? ((100 * v) / total).toFixed(1) : '–'} %)`;
  })]);
  console.log('\nOwn JS per commit by room (all rounds merged)');
  console.log(table(roomHeader, roomRows));
  const tops: string[] = [];
  for (const pct of PCTS) {
    for (const [label] of builds) {
      const t = topFunctions(runs.filter((x) => x.build === label && x.pct === pct), TOP_N);
      console.log(`\n${label}, ${pct} %: costliest own functions, µs per commit`);
      console.log(table(['µs/commit', 'function', 'source'], t));
      tops.push(`#### ${label}, ${pct} %\n\n${mdTable(['µs per commit', 'function', 'source'], t)}`);
    }
  }

  // Judged only against a base (issue 43's cost target: overlay-on own time within the method's spread of the build
  // before attribution): this build's median no higher than the base's highest round.
  const verdicts = builds.length < 2 ? [] : PCTS.map((pct) => {
    const perCommit = (label: string): number[] => runs.filter((x) => x.build === label && x.pct === pct).map((x) => x.ownMs / x.commits);
    const base = perCommit('base'), mine = perCommit('this');
    const pass = median(mine) <= Math.max(...base);
    console.log(`${pct} %: this ${f3(median(mine))} ms per commit against base ${spread(base, 3)}: ${pass ? 'pass' : 'FAIL'}`);
    return { pct, base, mine, pass };
  });
  if (verdicts.some((v) => !v.pass)) process.exitCode = 1;

  if (args.has('doc') && APP === 'react') {
    if (verdicts.length > 0) {
      // The base by its commit where its BUILD.txt names one (the table's rows stay under 120 characters).
      const against = /\b[0-9a-f]{7,40}\b/.exec(describeBuild(builds[0][1]))?.[0] ?? 'base';
      recordStatus('own-js', commandLine('bench/own-js.ts'), verdicts.map((v) => ({
        budget: `own JS a commit, grid ${v.pct} %`,
        target: `≤ ${against}'s max`,
        figure: `${f3(median(v.mine))} vs ${spread(v.base, 3)} ms`,
        verdict: v.pass ? 'pass' : 'FAIL',
        paths: ['src/inject/agent', 'src/content/agent', 'src/overlay'],
      })));
    }
    writeSection('own-js', `## Own JS per commit (overlay on, StressGrid)

${today()}, \`${commandLine('bench/own-js.ts')}\`, ${machineNote()}.

The self time of the extension's own functions in a CPU profile of the page (100 µs sampling; the native calls they
make — the frame-end flush, canvas drawing — excluded), per React commit of the grid, ${ROUNDS} rounds of
${WINDOW_MS / 1000} s per build and share. It is the part
of bench/overhead.ts's figure that our code decides, without the subtraction of moved style and layout that makes that
figure spread by about a point between rounds. "records per commit" and "batches/s": what the agent handed the content script, and in how many messages.
${comparedNote(builds)}

${mdTable(header, rows)}

By room (every function of ours, all rounds merged; ROOMS in bench/lib/profile.ts): where the drawing's share is the
most that drawing off the page's main thread could save.

${mdTable(roomHeader, roomRows)}

${tops.join('\n\n')}`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(2); // an error of the bench itself (run-all.ts): not a budget's failure
});
