/**
 * `layout-cost audit <url>` (issue 14; docs/CI.md): Layout Cost's
 * measurements in a CI job. Exit status 0 when every budget holds, 1 when one
 * is exceeded, 2 on a usage or run error (one clear line on stderr).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { findChrome, ROOT } from '../../scripts/chrome';
import { BudgetError, defaultBudget, parseBudgetText, type Budget } from './budget';
import { reportHtml } from './html';
import { junitXml } from './junit';
import { RunError } from './page-api';
import { buildReport, type AuditInput } from './report';
import { calibrateInput, calibrationLine } from './calibrated';
import { runAudit, targetUrl } from './run';
import { ConfigError, parseShard } from './config';
import { auditConfig, compareDirs, mergeDirs } from './multi';
import { serveMcp } from './mcp';

const USAGE = `Usage: layout-cost audit <url> [options]
       layout-cost audit --config FILE [--runs N] [--shard I/N] [--out DIR] [options]
       layout-cost merge DIR… [--out DIR]
       layout-cost compare BASE_DIR HEAD_DIR [--out DIR] [--threshold 1.2]
       layout-cost mcp [--chrome PATH] [--headful] [--wait-react N]

Loads <url> in Chrome or Chromium with the Layout Cost extension, records the
style, layout and forced-reflow cost of every React component while it runs
the steps (or watches the page), and checks the budgets.

Options:
  --budget FILE   budgets (JSON; docs/CI.md, budget.schema.json). Default: the
                  page's DOM size against Lighthouse's 818 / 1 400 elements
  --out DIR       where report.json, junit.xml, report.html and screenshot.png
                  go (default layout-cost-report/)
  --seconds N     watch the page this long (default 5) when there are no steps
  --wait-react N  wait this long (default 15 s) for React to render before
                  calling the page not a React page
  --steps FILE    an ES module: export default async (page) => { … } (puppeteer)
  --calibrate     a second pass that replays each batch of DOM changes one
                  component at a time under Chrome's trace; each component
                  type's figures are scaled to its share there (docs/CI.md;
                  with --config: one pass a route, after its runs)
  --chrome PATH   the browser (default: CHROME_PATH, then the usual places)
  --headful       show the browser window
  -h, --help      this text
  -v, --version   the version

Every route (docs/CI.md, "Every route"):
  --config FILE   routes to audit: { "routes": [{ "name", "url", "steps"?,
                  "budget"?, "seconds"? }], "budget"? }; writes DIR/<route>/
                  report.json (all runs pooled, each run in runs[]) and
                  DIR/summary.json
  --runs N        audit every route N times, each in a fresh page (default 1)
  --shard I/N     only the routes at positions k with k mod N = I - 1
  --workers K     K browsers at once, each auditing whole routes (default 1;
                  more only where each has a core of its own)
merge             one report set from several (shards): every route once
compare           per route and component, own style + layout ms per frame,
                  base against head; DIR/compare.json and DIR/summary.md
mcp               a Model Context Protocol server on stdio for coding agents:
                  tools measure, diagnose and compare (docs/AGENTS.md)
  --threshold R   slower by more than R times (default 1.2), beyond the noise
                  of the runs (needs 2+ runs a side; 3+ recommended)

Exit status: 0 every budget holds (compare: nothing significantly slower),
1 a budget is exceeded (compare: a component significantly slower), 2 usage or
run error (a route that could not be audited).`;

export class UsageError extends Error {}

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

export async function main(argv: string[], io: CliIo = { out: (l) => console.log(l), err: (l) => console.error(l) }): Promise<number> {
  try {
    return await audit(argv, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`layout-cost: ${e.message}`);
      io.err('Try layout-cost --help');
      return 2;
    }
    if (e instanceof RunError || e instanceof BudgetError || e instanceof ConfigError) {
      io.err(`layout-cost: ${e instanceof BudgetError ? 'budget: ' : ''}${e.message}`);
      return 2;
    }
    io.err(`layout-cost: unexpected error: ${(e as Error)?.stack ?? String(e)}`);
    return 2;
  }
}

async function audit(argv: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv, allowPositionals: true, strict: true,
      options: {
        budget: { type: 'string' }, out: { type: 'string' }, seconds: { type: 'string' }, steps: { type: 'string' },
        'wait-react': { type: 'string' }, chrome: { type: 'string' }, headful: { type: 'boolean' }, calibrate: { type: 'boolean' }, help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'v' },
        config: { type: 'string' }, runs: { type: 'string' }, shard: { type: 'string' }, workers: { type: 'string' }, threshold: { type: 'string' },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { values: v, positionals } = parsed;
  if (v.help) {
    io.out(USAGE);
    return 0;
  }
  const version = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  if (v.version) {
    io.out(version);
    return 0;
  }
  if (positionals[0] === 'mcp') {
    if (positionals.length !== 1) throw new UsageError('mcp takes no arguments (its tools take the URLs)');
    for (const k of ['budget', 'out', 'seconds', 'steps', 'config', 'runs', 'shard', 'workers', 'threshold', 'calibrate'] as const) {
      if (v[k] !== undefined) throw new UsageError(`--${k} is not an option of mcp (its tools take their inputs)`);
    }
    await serveMcp({
      chrome: browserPath(v.chrome), extension: path.join(ROOT, 'dist-all-sites'), headful: v.headful === true, version,
      waitReactMs: waitReactOf(v['wait-react']) * 1000,
    });
    return 0;
  }
  if (positionals[0] === 'merge') {
    if (positionals.length < 2) throw new UsageError('merge needs the report folders to merge');
    return mergeDirs(positionals.slice(1), path.resolve(v.out ?? 'layout-cost-merged'), io);
  }
  if (positionals[0] === 'compare') {
    if (positionals.length !== 3) throw new UsageError('compare needs BASE_DIR and HEAD_DIR');
    let threshold = 1.2;
    if (v.threshold !== undefined) {
      threshold = Number(v.threshold);
      if (!Number.isFinite(threshold) || threshold <= 1 || threshold > 100) throw new UsageError(`--threshold must be a ratio above 1, not ${JSON.stringify(v.threshold)}`);
    }
    return compareDirs(positionals[1], positionals[2], path.resolve(v.out ?? 'layout-cost-compare'), threshold, io);
  }
  if (positionals[0] !== 'audit') throw new UsageError(positionals.length === 0 ? 'no command (audit <url>)' : `unknown command ${JSON.stringify(positionals[0])} (audit, merge, compare, mcp)`);
  if (v.config !== undefined) return auditWithConfig(v, positionals, version, io);
  if (v.runs !== undefined || v.shard !== undefined || v.workers !== undefined) throw new UsageError('--runs, --shard and --workers go with --config');
  if (positionals.length !== 2) throw new UsageError(positionals.length < 2 ? 'audit needs a URL' : `one URL, not ${positionals.length - 1}`);
  const url = targetUrl(positionals[1], (m) => new UsageError(m));
  let seconds = 5;
  if (v.seconds !== undefined) {
    seconds = Number(v.seconds);
    if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600) throw new UsageError(`--seconds must be a number of seconds (0‥3600], not ${JSON.stringify(v.seconds)}`);
  }
  const waitReact = waitReactOf(v['wait-react']);
  let budget: Budget = defaultBudget();
  if (v.budget !== undefined) {
    let text: string;
    try {
      text = fs.readFileSync(v.budget, 'utf8');
    } catch {
      throw new UsageError(`--budget: cannot read ${v.budget}`);
    }
    try {
      budget = parseBudgetText(text);
    } catch (e) {
      if (e instanceof BudgetError) throw new BudgetError(`${v.budget}: ${e.message}`);
      throw e;
    }
  }
  const chrome = browserPath(v.chrome);
  const outDir = path.resolve(v.out ?? 'layout-cost-report');
  const started = Date.now();
  const run = await runAudit({
    url: url.href, chrome, extension: path.join(ROOT, 'dist-all-sites'), seconds, waitReactMs: waitReact * 1000, steps: v.steps ?? null, headful: v.headful === true,
    calibrate: v.calibrate === true, log: (line) => io.err(`layout-cost: ${line}`),
  });
  let input: AuditInput = {
    url: url.href, browser: run.browser, toolVersion: version, seconds: run.seconds, recording: run.recording,
    snapshot: run.snapshot, domElements: run.domElements,
  };
  if (run.calibration) input = calibrateInput(input, run.calibration);
  const calibration = input.calibration;
  const report = buildReport(input, budget);
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(path.join(outDir, 'junit.xml'), junitXml(report, (Date.now() - started) / 1000));
  fs.writeFileSync(path.join(outDir, 'report.html'), reportHtml(report, run.screenshot));
  if (run.screenshot) fs.writeFileSync(path.join(outDir, 'screenshot.png'), run.screenshot);

  const top = report.types.filter((t) => t.layoutMs.max + t.styleMs.max + t.forcedMs.max > 0).slice(0, 5).map((t) => `  ${t.name}${t.instances > 1 ? ` ×${t.instances}` : ''}: layout p95 ${t.layoutMs.p95.toFixed(2)} ms, max ${t.layoutMs.max.toFixed(2)} ms`);
  io.out(`${report.frames} frames measured in ${run.seconds.toFixed(1)} s; ${report.page.components} components, ${report.page.domElements} DOM elements`);
  if (report.frames === 0) io.out('no frame was measured: nothing on the page changed during the run (interact with --steps, or watch longer)');
  else if (top.length) io.out(`costliest:\n${top.join('\n')}`);
  if (calibration) io.out(calibrationLine(calibration));
  for (const c of report.checks) {
    if (!c.pass) io.out(`FAIL ${c.message}`);
    else if (c.level === 'warn' && c.value > c.limit) io.out(`WARN ${c.message}`);
  }
  io.out(report.passed
    ? `every budget holds (${report.checks.length} check${report.checks.length === 1 ? '' : 's'})`
    : `${report.failures} of ${report.checks.length} budget checks failed`);
  io.out(`report: ${path.join(outDir, 'report.html')}`);
  return report.passed ? 0 : 1;
}

/** `--wait-react N` (seconds; 15 when not given). */
function waitReactOf(given: string | undefined): number {
  if (given === undefined) return 15;
  const n = Number(given);
  if (!Number.isFinite(n) || n <= 0 || n > 600) throw new UsageError(`--wait-react must be a number of seconds (0‥600], not ${JSON.stringify(given)}`);
  return n;
}

function browserPath(given: string | undefined): string {
  const chrome = given ?? findChrome();
  if (!chrome || !fs.existsSync(chrome)) {
    throw new RunError(given ? `--chrome: no browser at ${given}`
      : process.env.CHROME_PATH ? `CHROME_PATH is ${process.env.CHROME_PATH}, but there is no browser there`
        : 'no Chrome or Chromium found: install one, set CHROME_PATH, or pass --chrome PATH');
  }
  return chrome;
}

async function auditWithConfig(v: Record<string, string | boolean | undefined>, positionals: string[], version: string, io: CliIo): Promise<number> {
  if (positionals.length !== 1) throw new UsageError('audit --config takes its URLs from the config, not the command line');
  for (const k of ['budget', 'steps', 'seconds']) if (v[k] !== undefined) throw new UsageError(`--${k} goes in the config's routes with --config`);
  let runs = 1;
  if (v.runs !== undefined) {
    runs = Number(v.runs);
    if (!Number.isInteger(runs) || runs < 1 || runs > 100) throw new UsageError(`--runs must be a whole number 1‥100, not ${JSON.stringify(v.runs)}`);
  }
  let workers = 1;
  if (v.workers !== undefined) {
    workers = Number(v.workers);
    if (!Number.isInteger(workers) || workers < 1 || workers > 16) throw new UsageError(`--workers must be a whole number 1‥16, not ${JSON.stringify(v.workers)}`);
  }
  const shard = typeof v.shard === 'string' ? parseShard(v.shard) : null;
  const waitReact = waitReactOf(typeof v['wait-react'] === 'string' ? v['wait-react'] : undefined);
  return auditConfig({
    config: path.resolve(String(v.config)), runs, workers, shard, outDir: path.resolve(typeof v.out === 'string' ? v.out : 'layout-cost-report'),
    chrome: browserPath(typeof v.chrome === 'string' ? v.chrome : undefined), extension: path.join(ROOT, 'dist-all-sites'),
    headful: v.headful === true, waitReactMs: waitReact * 1000, version, calibrate: v.calibrate === true,
  }, io);
}
