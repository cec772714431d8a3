/**
 * What the overlay costs a page that does nothing: tests/fixtures/soak.html
 * with `--rows` rows (4 elements each), overlay on (Components), nothing
 * changing. Developers leave the overlay on while they read their code; an
 * idle page should stay idle.
 *
 * `--busy`: tests/fixtures/overlay.html instead, with 200 tiles (a meter
 * each) and its Hot component re-rendering and relaying 2 000 items in every
 * animation frame inside a box that does not move — what the overlay costs on
 * a page that changes numbers at the frame rate under many meters (it redraws
 * those at the sparkline's bucket rate, src/content/agent/canvas/cadence.ts
 * NUMBERS_RENDER_MS); its own section of docs/PERFORMANCE.md.
 *
 *   npx tsx bench/idle.ts [--base <dist of another build>] [--rows 4000] [--rounds 3] [--window 5] [--settle 3]
 *                         [--busy] [--doc] [--no-build]
 *
 * Each run: a fresh tab, the overlay enabled, `--settle` s for the back-fill
 * to finish, then a `--window` s CPU profile (100 µs sampling, lib/profile.ts
 * attribution). Reported per second of wall time: everything charged to the
 * extension (its JS and the native calls it makes: canvas drawing, timers),
 * its own JS alone, and the costliest functions, named through the build's
 * source maps. With `--base`, both builds run in this process, one browser
 * each, the order flipping every round.
 */
import type { CDPSession } from 'puppeteer-core';
import { commandLine, comparedBuilds, comparedNote, enableOverlay, launchBrowser, machineNote, numArg, parseArgs, prepareBuild,
  roundOrder, sleep, startServer, waitFor, type BenchBrowser } from './lib/env';
import { attribute, BuildNames, mergeFunctions, profileFor, type Attribution } from './lib/profile';
import { f2, mdTable, median, spread, table } from './lib/stats';
import { today, writeSection } from './lib/doc';
import { recordStatus } from './lib/status';

const args = parseArgs();
const ROWS = numArg(args, 'rows', 4000);
const ROUNDS = numArg(args, 'rounds', 3);
const WINDOW_MS = numArg(args, 'window', 5) * 1000;
const SETTLE_MS = numArg(args, 'settle', 3) * 1000;
const TOP_N = 6;
const BUSY = args.has('busy');
const BUSY_TILES = 200;

interface Run {
  build: string;
  dist: string;
  a: Attribution;
  /** Charged to the extension (its JS and the natives it calls), ms per second of wall time. */
  charged: number;
  /** Its own JS alone, ms per second. */
  own: number;
}

async function measure(b: BenchBrowser, build: string, dist: string, origin: string): Promise<Run> {
  const page = await b.newPage();
  let cdp: CDPSession | null = null;
  try {
    if (BUSY) {
      await page.goto(`${origin}/overlay.html`, { waitUntil: 'load' });
      await page.evaluate((n) => (window as any).__many(n), BUSY_TILES);
      await enableOverlay(page, BUSY_TILES);
      await page.evaluate(() => (window as any).__hot(true));
    } else {
      await page.goto(`${origin}/soak.html?rows=${ROWS}&per=4&keys=stable`, { waitUntil: 'load' });
      await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), 'the fixture');
      await enableOverlay(page, ROWS);
    }
    await sleep(SETTLE_MS);
    cdp = await page.createCDPSession();
    const profile = await profileFor(cdp, WINDOW_MS);
    const prefix = `chrome-extension://${b.extensionId}/`;
    const a = attribute(profile, {});
    let charged = 0;
    let own = 0;
    for (const f of a.functions.values()) {
      if (!f.url.startsWith(prefix)) continue;
      charged += f.ms;
      own += f.ms - f.nativeMs;
    }
    const seconds = a.windowMs / 1000;
    if (!(seconds > 0)) throw new Error(`${build}: an empty profile`);
    return { build, dist, a, charged: charged / seconds, own: own / seconds };
  } finally {
    await cdp?.detach().catch(() => undefined);
    await page.close().catch(() => undefined);
  }
}

/** A build's costliest functions, charged ms per second, named through its source maps. */
function topFunctions(runs: Run[], n: number): string[][] {
  const merged = mergeFunctions(runs.map((r) => r.a));
  const seconds = runs.reduce((x, r) => x + r.a.windowMs, 0) / 1000;
  const names = new BuildNames(runs[0].dist);
  return [...merged.values()]
    .filter((f) => f.url.startsWith('chrome-extension://'))
    .sort((x, y) => y.ms - x.ms).slice(0, n)
    .map((f) => {
      const { name, source } = names.of(f);
      const natives = [...f.natives].sort((x, y) => y[1] - x[1]).slice(0, 2).map(([k, v]) => `${k} ${f2(v / seconds)}`).join(', ');
      return [f2(f.ms / seconds), name, source, natives];
    });
}

async function main(): Promise<void> {
  const dist = prepareBuild(args);
  const builds = comparedBuilds(args, dist);
  const server = await startServer();
  const browsers = new Map<string, BenchBrowser>();
  const runs: Run[] = [];
  try {
    for (const [label, d] of builds) browsers.set(label, await launchBrowser({ dist: d }));
    for (let r = 0; r < ROUNDS; r++) {
      for (const [label, d] of roundOrder(builds, r)) {
        const run = await measure(browsers.get(label) as BenchBrowser, label, d, server.origin);
        runs.push(run);
        console.log(`round ${r + 1}/${ROUNDS}  ${label.padEnd(4)}  charged ${f2(run.charged)} ms/s  own JS ${f2(run.own)} ms/s`);
      }
    }
  } finally {
    for (const b of browsers.values()) await b.close();
    await server.close();
  }

  const header = ['build', 'charged to the extension, ms per s (median [min–max])', 'its own JS, ms per s'];
  const rows = builds.map(([label]) => {
    const rs = runs.filter((x) => x.build === label);
    return [label, spread(rs.map((x) => x.charged), 2), spread(rs.map((x) => x.own), 2)];
  });
  console.log(`\nOverlay on, ${BUSY ? `a busy page (${BUSY_TILES} tiles` : `idle page (${ROWS} rows`}, ${ROUNDS} rounds, ${WINDOW_MS / 1000} s windows)`);
  console.log(table(header, rows));
  const tops: string[] = [];
  for (const [label] of builds) {
    const t = topFunctions(runs.filter((x) => x.build === label), TOP_N);
    console.log(`\n${label}: costliest functions, charged ms per s`);
    console.log(table(['ms/s', 'function', 'source', 'natives'], t));
    tops.push(`#### ${label}\n\n${mdTable(['ms per s', 'function', 'source', 'natives it calls (ms per s)'], t)}`);
  }

  if (args.has('doc') && BUSY) {
    writeSection('busy', `## Overlay on, many meters whose numbers change every frame

${today()}, \`${commandLine('bench/idle.ts')}\`, ${machineNote()}.

tests/fixtures/overlay.html with ${BUSY_TILES} tiles (a meter each) and its Hot component re-rendering and relaying 2 000 flex
items in every animation frame inside a box that does not move, the overlay on (Components). Hot reads its layout each
frame (\`getBoundingClientRect\`, a forced reflow our timing wrapper passes through), so "charged" is mostly the page's own
layout; "its own JS" is the figure to read; after ${SETTLE_MS / 1000} s a ${WINDOW_MS / 1000} s CPU profile (100 µs
sampling). Charged: the extension's JS and the native calls it makes, per second of wall time; ${ROUNDS} rounds per build.
${comparedNote(builds)}

${mdTable(header, rows)}

${tops.join('\n\n')}`);
  } else if (args.has('doc')) {
    const mine = runs.filter((x) => x.build === 'this').map((x) => x.charged);
    recordStatus('idle', commandLine('bench/idle.ts'), [{
      budget: `overlay on, idle ${ROWS.toLocaleString('en-US').replace(',', ' ')}-row page`, target: '—',
      figure: `${f2(median(mine))} ms/s`, verdict: 'info', paths: ['src/content/agent', 'src/overlay'],
    }]);
    writeSection('idle', `## Overlay on, idle page

${today()}, \`${commandLine('bench/idle.ts')}\`, ${machineNote()}.

tests/fixtures/soak.html with ${ROWS} rows (${ROWS * 4} elements, ${ROWS + 2} components), the overlay on (Components) and
nothing changing; after ${SETTLE_MS / 1000} s a ${WINDOW_MS / 1000} s CPU profile (100 µs sampling). Charged: the extension's JS and
the native calls it makes (canvas drawing, timers), per second of wall time; ${ROUNDS} rounds per build.
${comparedNote(builds)}

${mdTable(header, rows)}

${tops.join('\n\n')}`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(2); // an error of the bench itself (run-all.ts): not a budget's failure
});
