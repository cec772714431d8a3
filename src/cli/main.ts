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
import { buildReport } from './report';
import { runAudit } from './run';

const USAGE = `Usage: layout-cost audit <url> [options]

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
  --chrome PATH   the browser (default: CHROME_PATH, then the usual places)
  --headful       show the browser window
  -h, --help      this text
  -v, --version   the version

Exit status: 0 every budget holds, 1 a budget is exceeded, 2 usage or run error.`;

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
    if (e instanceof RunError || e instanceof BudgetError) {
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
        'wait-react': { type: 'string' }, chrome: { type: 'string' }, headful: { type: 'boolean' }, help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'v' },
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
  if (positionals[0] !== 'audit') throw new UsageError(positionals.length === 0 ? 'no command (audit <url>)' : `unknown command ${JSON.stringify(positionals[0])} (audit <url>)`);
  if (positionals.length !== 2) throw new UsageError(positionals.length < 2 ? 'audit needs a URL' : `one URL, not ${positionals.length - 1}`);
  let url: URL;
  try {
    url = new URL(positionals[1]);
  } catch {
    // A path to a local file is a URL too.
    const file = path.resolve(positionals[1]);
    if (!fs.existsSync(file)) throw new UsageError(`${JSON.stringify(positionals[1])} is not a URL (http://…, https://…, file://…) or a file`);
    url = new URL(`file://${file}`);
  }
  if (!['http:', 'https:', 'file:'].includes(url.protocol)) throw new UsageError(`${url.protocol} URLs are not supported (http, https, file)`);
  let seconds = 5;
  if (v.seconds !== undefined) {
    seconds = Number(v.seconds);
    if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600) throw new UsageError(`--seconds must be a number of seconds (0‥3600], not ${JSON.stringify(v.seconds)}`);
  }
  let waitReact = 15;
  if (v['wait-react'] !== undefined) {
    waitReact = Number(v['wait-react']);
    if (!Number.isFinite(waitReact) || waitReact <= 0 || waitReact > 600) throw new UsageError(`--wait-react must be a number of seconds (0‥600], not ${JSON.stringify(v['wait-react'])}`);
  }
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
  const chrome = v.chrome ?? findChrome();
  if (!chrome || !fs.existsSync(chrome)) {
    throw new RunError(v.chrome ? `--chrome: no browser at ${v.chrome}`
      : process.env.CHROME_PATH ? `CHROME_PATH is ${process.env.CHROME_PATH}, but there is no browser there`
        : 'no Chrome or Chromium found: install one, set CHROME_PATH, or pass --chrome PATH');
  }
  const outDir = path.resolve(v.out ?? 'layout-cost-report');
  const started = Date.now();
  const run = await runAudit({
    url: url.href, chrome, extension: path.join(ROOT, 'dist-all-sites'), seconds, waitReactMs: waitReact * 1000, steps: v.steps ?? null, headful: v.headful === true,
    log: (line) => io.err(`layout-cost: ${line}`),
  });
  const report = buildReport({
    url: url.href, browser: run.browser, toolVersion: version, seconds: run.seconds, recording: run.recording,
    snapshot: run.snapshot, domElements: run.domElements,
  }, budget);
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(path.join(outDir, 'junit.xml'), junitXml(report, (Date.now() - started) / 1000));
  fs.writeFileSync(path.join(outDir, 'report.html'), reportHtml(report, run.screenshot));
  fs.writeFileSync(path.join(outDir, 'screenshot.png'), run.screenshot);

  const top = report.types.filter((t) => t.layoutMs.max + t.styleMs.max + t.forcedMs.max > 0).slice(0, 5).map((t) => `  ${t.name}${t.instances > 1 ? ` ×${t.instances}` : ''}: layout p95 ${t.layoutMs.p95.toFixed(2)} ms, max ${t.layoutMs.max.toFixed(2)} ms`);
  io.out(`${report.frames} frames measured in ${run.seconds.toFixed(1)} s; ${report.page.components} components, ${report.page.domElements} DOM elements`);
  if (report.frames === 0) io.out('no frame was measured: nothing on the page changed during the run (interact with --steps, or watch longer)');
  else if (top.length) io.out(`costliest:\n${top.join('\n')}`);
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
