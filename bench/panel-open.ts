/**
 * Our own cost while the DevTools panel is open (StressGrid, overlay on):
 * the content script feeds the panel its component table twice a second.
 * From a CPU profile of the page (lib/profile.ts, as bench/overhead.ts), per
 * build: the extension's share of the page's busy main-thread time, the
 * content script's (where the feed runs) and the agent's, our own timers'
 * figure (`state().self`, what the panel's status line shows), and what the
 * panel received (table updates and rows per update, counted in the panel).
 *
 *   npx tsx bench/panel-open.ts [--base <dist of another build>] [--rounds 3] [--pct 10] [--window 6] [--settle 3]
 *                               [--doc] [--no-build]
 *
 * With `--base`, the rounds alternate between that build and this one (the
 * order flips every round), each in a fresh browser, all in this process.
 */
import type { CDPSession } from 'puppeteer-core';
import { openLayoutCostPanel } from '../scripts/devtools-panel';
import { ROW_VALUES } from '../src/protocol';
import { commandLine, comparedBuilds, enableOverlay, launchBrowser, lc, machineNote, numArg, parseArgs, prepareBuild, roundOrder,
  sleep, startServer, waitFor } from './lib/env';
import { attribute, BuildNames, mergeFunctions, profileFor, type Attribution } from './lib/profile';
import { f2, mdTable, median, spread, table } from './lib/stats';
import { today, writeSection } from './lib/doc';

const args = parseArgs();
const ROUNDS = numArg(args, 'rounds', 3);
const PCT = numArg(args, 'pct', 10);
const WINDOW_MS = numArg(args, 'window', 6) * 1000;
const SETTLE_MS = numArg(args, 'settle', 3) * 1000;
const GRID_CELLS = 4900;

interface Run {
  build: string;
  dist: string;
  prefix: string;
  a: Attribution;
  extPct: number;
  contentPct: number;
  agentPct: number;
  selfPct: number;
  updates: number;
  rowsPerUpdate: number;
  panelRows: number;
}

/** In the panel: counts the table updates and rows it receives from now on (`rowValues`: TableMessage's ROW_VALUES). */
function countTables(rowValues: number): void {
  const w = window as any;
  const m = w.__panelState;
  w.__benchTables = { updates: 0, rows: 0 };
  const apply = m.onTable.bind(m);
  m.onTable = (t: { rows: unknown[]; values?: unknown[] }) => {
    w.__benchTables.updates++;
    // Whole rows plus rows sent as values (the build before them has no `values`).
    w.__benchTables.rows += t.rows.length + (t.values?.length ?? 0) / rowValues;
    return apply(t);
  };
}

async function measure(dist: string, label: string, origin: string): Promise<Run> {
  const b = await launchBrowser({ dist });
  let cdp: CDPSession | null = null;
  try {
    const page = await b.newPage();
    await page.goto(`${origin}/demo/?pct=${PCT}&seed=1`, { waitUntil: 'load' });
    await waitFor(() => page.evaluate(() => ((window as any).__demo?.commits ?? 0) > 3), 'the grid ticking');
    await enableOverlay(page, GRID_CELLS);
    const { panel } = await openLayoutCostPanel(page, b.extensionId as string);
    await waitFor(() => panel.evaluate(() => ((window as any).__panelState?.table?.rows.length ?? 0) >= 4900), 'the panel\'s table', 30_000);
    await sleep(SETTLE_MS);
    await panel.evaluate(countTables, ROW_VALUES);
    cdp = await page.createCDPSession();
    const profile = await profileFor(cdp, WINDOW_MS);
    const self = (await lc.state(page)).self as { mainThreadShare: number } | null;
    const counted = await panel.evaluate(() => (window as any).__benchTables as { updates: number; rows: number });
    const panelRows = await panel.evaluate(() => (window as any).__panelState.table.rows.length as number);
    const prefix = `chrome-extension://${b.extensionId}/`;
    const a = attribute(profile, {
      passThrough: (owner, api, caller) => owner.url.startsWith(prefix) && owner.functionName === api && !caller.url.startsWith(prefix),
    });
    let ext = 0, content = 0, agent = 0;
    for (const [u, ms] of a.byUrl) {
      if (!u.startsWith(prefix)) continue;
      ext += ms;
      if (u.endsWith('/content-agent.js')) content += ms;
      if (u.endsWith('/agent.js')) agent += ms;
    }
    const pct = (ms: number): number => (a.busyMs > 0 ? (100 * ms) / a.busyMs : NaN);
    return {
      build: label, dist, prefix, a, extPct: pct(ext), contentPct: pct(content), agentPct: pct(agent),
      selfPct: self ? 100 * self.mainThreadShare : NaN,
      updates: counted.updates, rowsPerUpdate: counted.updates > 0 ? counted.rows / counted.updates : NaN, panelRows,
    };
  } finally {
    await cdp?.detach().catch(() => undefined);
    await b.close();
  }
}

/** The content script's costliest functions over a build's runs, named through its source maps. */
function topContent(runs: Run[], n: number): string[][] {
  const merged = mergeFunctions(runs.map((r) => r.a));
  const busy = runs.reduce((x, r) => x + r.a.busyMs, 0);
  const names = new BuildNames(runs[0].dist);
  return [...merged.values()]
    .filter((f) => f.url.endsWith('/content-agent.js'))
    .sort((x, y) => y.ms - x.ms).slice(0, n)
    .map((f) => {
      const { name, source } = names.of(f);
      return [f2((100 * f.ms) / busy), name, source];
    });
}

async function main(): Promise<void> {
  const dist = prepareBuild(args);
  const builds = comparedBuilds(args, dist);
  const server = await startServer();
  const runs: Run[] = [];
  try {
    for (let r = 0; r < ROUNDS; r++) {
      for (const [label, d] of roundOrder(builds, r)) {
        const run = await measure(d, label, server.origin);
        runs.push(run);
        console.log(`round ${r + 1} ${label}: extension ${f2(run.extPct)} % (content ${f2(run.contentPct)}, agent ${f2(run.agentPct)}), own timers ${f2(run.selfPct)} %, ${run.updates} updates × ${f2(run.rowsPerUpdate)} rows, panel shows ${run.panelRows}`);
      }
    }
  } finally {
    await server.close();
  }
  const header = ['build', 'extension % of busy (median [range])', 'content-agent.js %', 'agent.js %', 'own timers %', 'rows per table update', 'rows the panel shows'];
  const rows = builds.map(([label]) => {
    const rs = runs.filter((x) => x.build === label);
    const m = (k: keyof Run): number => median(rs.map((x) => x[k] as number));
    return [label, spread(rs.map((x) => x.extPct), 2), f2(m('contentPct')), f2(m('agentPct')), f2(m('selfPct')),
      f2(m('rowsPerUpdate')), `${Math.min(...rs.map((x) => x.panelRows))}`];
  });
  console.log(table(header, rows));
  const topHeader = ['% busy', 'function', 'source'];
  const tops = builds.map(([label]) => [label, topContent(runs.filter((x) => x.build === label), 8)] as const);
  for (const [label, t] of tops) console.log(`\ncontent-agent.js, costliest functions (${label}):\n${table(topHeader, t)}`);
  if (args.get('doc') === 'true') {
    writeSection('panel-open', `## With the DevTools panel open

Command: \`${commandLine('bench/panel-open.ts')}\` — run ${today()}, ${machineNote()}.

StressGrid at ${PCT} % mutation, overlay on (Components), the Layout Cost panel open in DevTools and showing the whole
table (${GRID_CELLS} components); ${ROUNDS} rounds${builds.length > 1 ? ', alternating with the base build' : ''}, each a fresh browser:
a ${WINDOW_MS / 1000} s CPU profile of the page after ${SETTLE_MS / 1000} s. Shares are of the page's busy main-thread
time (lib/profile.ts attribution, as in the overhead section); "own timers" is \`state().self\`, the panel's own line.
Rows per update are counted in the panel.

${mdTable(header, rows)}

${tops.map(([label, t]) => `The content script's costliest functions (${label}, all rounds):\n\n${mdTable(topHeader, t)}`).join('\n\n')}
`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(2); // an error of the bench itself (run-all.ts): not a budget's failure
});
