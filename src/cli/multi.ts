/**
 * CI at scale (issue 47; docs/CI.md): `audit --config` (every route, `--runs` times, a `--shard` of them),
 * `merge` (shards' report sets into one) and `compare` (base against head). The file work around the pure parts:
 * config.ts, pool.ts, report.ts, compare.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BudgetError, defaultBudget, parseBudget } from './budget';
import { compareExit, compareHtml, compareJunit, compareSets, summaryMarkdown, type RouteRuns, type SideRoute } from './compare';
import { ConfigError, parseConfig, shardRoutes, type RouteConfig } from './config';
import { reportHtml } from './html';
import { junitXml } from './junit';
import { RunError } from './page-api';
import { fixPooledCounts, poolRuns } from './pool';
import { buildReport, ownFramesByName, type AuditInput, type AuditReport } from './report';
import { auditPage, calibratePage, withBrowser, type RunOptions } from './run';
import { calibrateInput, calibrationLine } from './calibrated';

export interface Io {
  out(line: string): void;
  err(line: string): void;
}

/** One run's figures in a route's report (`runs[]`): what compare reads. */
export interface RunFigures {
  frames: number;
  seconds: number;
  passed: boolean;
  failures: number;
  /** Own style + layout ms per frame at p95, by component type (types with none left out). */
  own: Record<string, number>;
  /**
   * The same types' own ms in each frame that had any, ascending (the run's other frames had none): what compare's
   * bootstrap resamples within the run (issue 65). Absent in report sets written before it.
   */
  ownFrames?: Record<string, number[]>;
  /** Types whose values were more than MAX_FRAME_VALUES: how many there were (the kept ones are an even spread). */
  ownFrameCounts?: Record<string, number>;
}

export interface RouteReport extends AuditReport {
  route: { name: string; hash: string };
  runs: RunFigures[];
}

export interface SummaryRoute {
  name: string;
  dir: string;
  url: string;
  hash: string;
  verdict: 'pass' | 'fail' | 'error';
  failures: number;
  frames: number;
  error?: string;
}

export interface Summary {
  kind: 'layout-cost-summary';
  version: 1;
  tool: { name: 'layout-cost'; version: string };
  date: string;
  runs: number;
  shard: string | null;
  routes: SummaryRoute[];
}

const SUMMARY = 'summary.json';

/** A run's frame values kept per type, at most (a longer run keeps an even spread of its sorted values). */
export const MAX_FRAME_VALUES = 2000;

function runFigures(r: AuditReport, input: AuditInput): RunFigures {
  const own: Record<string, number> = {};
  for (const t of r.types) if (t.ownMsPerFrame.p95 > 0) own[t.name] = t.ownMsPerFrame.p95;
  const byName = ownFramesByName(input);
  const ownFrames: Record<string, number[]> = {};
  const counts: Record<string, number> = {};
  for (const name of Object.keys(own)) {
    const v = (byName.get(name) ?? []).slice().sort((a, b) => a - b);
    if (v.length > MAX_FRAME_VALUES) counts[name] = v.length;
    const kept = v.length <= MAX_FRAME_VALUES ? v
      : Array.from({ length: MAX_FRAME_VALUES }, (_, i) => v[Math.floor((i * v.length) / MAX_FRAME_VALUES)]);
    ownFrames[name] = kept.map((x) => Number(x.toFixed(3)));
  }
  return { frames: r.frames, seconds: r.seconds, passed: r.passed, failures: r.failures, own, ownFrames,
    ...(Object.keys(counts).length > 0 ? { ownFrameCounts: counts } : {}) };
}

export interface ConfigRun {
  config: string;
  runs: number;
  /** Browsers at once, each auditing whole routes (`--workers`). */
  workers: number;
  shard: { index: number; count: number } | null;
  outDir: string;
  chrome: string;
  extension: string;
  headful: boolean;
  waitReactMs: number;
  version: string;
  /** After a route's runs, its calibration pass; every run's figures scaled by it (`--calibrate`). */
  calibrate?: boolean;
}

/** `audit --config`: 0 every route's budgets hold, 1 one fails, 2 a route could not be audited. */
export async function auditConfig(o: ConfigRun, io: Io): Promise<number> {
  let text: string;
  try {
    text = fs.readFileSync(o.config, 'utf8');
  } catch {
    throw new ConfigError(`--config: cannot read ${o.config}`);
  }
  const { routes } = parseConfig(text, o.config, (f) => JSON.parse(fs.readFileSync(f, 'utf8')), 5);
  // Every budget checked before a browser starts: a typo fails in a second, not after the first route's run.
  const budgets = new Map(routes.map((r) => {
    try {
      return [r.name, r.budget ? parseBudget(r.budget) : defaultBudget()] as const;
    } catch (e) {
      if (e instanceof BudgetError) throw new BudgetError(`route ${JSON.stringify(r.name)}: ${e.message}`);
      throw e;
    }
  }));
  const mine = shardRoutes(routes, o.shard);
  const workers = Math.max(1, Math.min(o.workers, mine.length));
  io.err(`layout-cost: ${mine.length} of ${routes.length} routes${o.shard ? ` (shard ${o.shard.index + 1}/${o.shard.count})` : ''}, `
    + `${o.runs} run${o.runs === 1 ? '' : 's'} each${workers > 1 ? `, ${workers} browsers at once` : ''}`);
  fs.mkdirSync(o.outDir, { recursive: true });
  const summary: Summary = {
    kind: 'layout-cost-summary', version: 1, tool: { name: 'layout-cost', version: o.version }, date: new Date().toISOString(),
    runs: o.runs, shard: o.shard ? `${o.shard.index + 1}/${o.shard.count}` : null, routes: [],
  };
  // Routes in the config's order, whichever worker finished them first.
  const done: (SummaryRoute | undefined)[] = mine.map(() => undefined);
  const write = (): void => {
    summary.routes = done.filter((r): r is SummaryRoute => r !== undefined);
    writeSummary(o.outDir, summary);
  };
  // Each worker its own browser, taking the next route as it finishes one: a route's runs stay in one browser, one
  // after another (runs side by side would measure each other).
  let next = 0;
  const worker = (): Promise<void> => withBrowser({ chrome: o.chrome, extension: o.extension, headful: o.headful }, async (browser) => {
    for (let i = next++; i < mine.length; i = next++) {
      const r = mine[i];
      const opts = (label: string): RunOptions => ({
        url: r.url, chrome: o.chrome, extension: o.extension, seconds: r.seconds, waitReactMs: o.waitReactMs, steps: r.steps,
        headful: o.headful, log: (line) => io.err(`layout-cost: ${r.name} ${label}: ${line}`),
      });
      done[i] = await auditRoute(r, budgets.get(r.name)!, o, io, (k) => auditPage(browser, { ...opts(`run ${k + 1}`), screenshot: k === o.runs - 1 }),
        o.calibrate ? () => calibratePage(browser, opts('calibration')) : null);
      write();
    }
  });
  if (mine.length > 0) await Promise.all(Array.from({ length: workers }, worker));
  write();
  const errors = summary.routes.filter((r) => r.verdict === 'error').length;
  const fails = summary.routes.filter((r) => r.verdict === 'fail').length;
  io.out(`${summary.routes.length} routes: ${summary.routes.length - errors - fails} pass, ${fails} fail, ${errors} could not be audited`);
  io.out(`summary: ${path.join(o.outDir, SUMMARY)}`);
  return errors > 0 ? 2 : fails > 0 ? 1 : 0;
}

/** A route's runs, written as `outDir/<dir>/`: report.json (pooled, with each run's figures), junit.xml, report.html. */
export function writeRoute(outDir: string, r: Pick<SummaryRoute, 'name' | 'dir' | 'hash'>, inputs: readonly AuditInput[],
  budget: ReturnType<typeof parseBudget>, shot: Buffer | null, seconds: number): AuditReport {
  const perRun = inputs.map((i) => buildReport(i, budget));
  const pooled = fixPooledCounts(buildReport(poolRuns(inputs), budget), perRun);
  const report: RouteReport = { ...pooled, route: { name: r.name, hash: r.hash }, runs: perRun.map((p, i) => runFigures(p, inputs[i])) };
  const dir = path.join(outDir, r.dir);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(path.join(dir, 'junit.xml'), junitXml(pooled, seconds));
  if (shot) {
    fs.writeFileSync(path.join(dir, 'report.html'), reportHtml(pooled, shot));
    fs.writeFileSync(path.join(dir, 'screenshot.png'), shot);
  }
  return pooled;
}

/** A report set's summary.json in `outDir`. */
export function writeSummary(outDir: string, summary: Summary): void {
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, SUMMARY), `${JSON.stringify(summary, null, 2)}\n`);
}

async function auditRoute(r: RouteConfig, budget: ReturnType<typeof parseBudget>, o: ConfigRun, io: Io,
  run: (k: number) => ReturnType<typeof auditPage>, calibrate: (() => ReturnType<typeof calibratePage>) | null): Promise<SummaryRoute> {
  const base = { name: r.name, dir: r.dir, url: r.url, hash: r.hash };
  const started = Date.now();
  try {
    const inputs: AuditInput[] = [];
    let shot: Buffer | null = null;
    for (let k = 0; k < o.runs; k++) {
      const res = await run(k);
      inputs.push({ url: r.url, browser: res.browser, toolVersion: o.version, seconds: res.seconds, recording: res.recording,
        snapshot: res.snapshot, domElements: res.domElements });
      shot = res.screenshot ?? shot;
    }
    if (calibrate !== null) {
      // One pass for the route, after its runs; each run's figures scaled by its own shares against it.
      const pass = await calibrate();
      for (let k = 0; k < inputs.length; k++) inputs[k] = calibrateInput(inputs[k], pass);
    }
    const pooled = writeRoute(o.outDir, r, inputs, budget, shot, (Date.now() - started) / 1000);
    io.out(`${pooled.passed ? 'pass' : 'FAIL'} ${r.name}: ${pooled.frames} frames over ${o.runs} run${o.runs === 1 ? '' : 's'}`
      + `${pooled.passed ? '' : `, ${pooled.failures} budget check${pooled.failures === 1 ? '' : 's'} failed`}`);
    if (pooled.calibration) io.out(`  ${calibrationLine(pooled.calibration)}`);
    for (const c of pooled.checks) if (!c.pass) io.out(`  FAIL ${c.message}`);
    return { ...base, verdict: pooled.passed ? 'pass' : 'fail', failures: pooled.failures, frames: pooled.frames };
  } catch (e) {
    // Any failure of this route's runs (a RunError, or the browser's protocol giving up on the page) is this route's:
    // the others are still audited, and the run exits 2.
    const message = e instanceof RunError ? e.message : `unexpected: ${String((e as Error)?.message ?? e).split('\n')[0].slice(0, 300)}`;
    io.err(`layout-cost: ${r.name}: ${message}`);
    io.out(`ERROR ${r.name}: ${message}`);
    return { ...base, verdict: 'error', failures: 0, frames: 0, error: message };
  }
}

function readSummary(dir: string): Summary {
  const file = path.join(dir, SUMMARY);
  let v: unknown;
  try {
    v = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    throw new ConfigError(`${dir} holds no report set (no readable ${SUMMARY}; made by audit --config)`);
  }
  const s = v as Partial<Summary>;
  if (s.kind !== 'layout-cost-summary' || !Array.isArray(s.routes)) throw new ConfigError(`${file} is not a layout-cost summary`);
  for (const r of s.routes) {
    if (typeof r?.name !== 'string' || typeof r.dir !== 'string' || typeof r.hash !== 'string' || !/^[A-Za-z0-9._-]+$/.test(r.dir) || /^\.+$/.test(r.dir)) {
      throw new ConfigError(`${file}: a route entry is malformed`);
    }
  }
  return s as Summary;
}

/** `merge DIR… --out DIR`: every route once; the same route audited two ways is refused (exit 2). */
export function mergeDirs(dirs: string[], outDir: string, io: Io): number {
  if (dirs.length === 0) throw new ConfigError('merge needs the report folders to merge');
  const seen = new Map<string, { from: string; route: SummaryRoute }>();
  const merged: SummaryRoute[] = [];
  let runs = 0, version = '';
  for (const d of dirs) {
    const s = readSummary(d);
    runs = Math.max(runs, s.runs ?? 0);
    version ||= s.tool?.version ?? '';
    for (const r of s.routes) {
      const had = seen.get(r.name);
      if (had) {
        if (had.route.hash !== r.hash) throw new ConfigError(`route ${JSON.stringify(r.name)} was audited two different ways (${had.from} and ${d})`);
        continue;
      }
      seen.set(r.name, { from: d, route: r });
      merged.push(r);
    }
  }
  fs.mkdirSync(outDir, { recursive: true });
  for (const r of merged) {
    const from = path.join(seen.get(r.name)!.from, r.dir);
    if (fs.existsSync(from) && path.resolve(from) !== path.resolve(outDir, r.dir)) fs.cpSync(from, path.join(outDir, r.dir), { recursive: true });
  }
  const summary: Summary = {
    kind: 'layout-cost-summary', version: 1, tool: { name: 'layout-cost', version }, date: new Date().toISOString(), runs, shard: null, routes: merged,
  };
  fs.writeFileSync(path.join(outDir, SUMMARY), `${JSON.stringify(summary, null, 2)}\n`);
  io.out(`${merged.length} routes merged from ${dirs.length} folders into ${outDir}`);
  return 0;
}

const isFigure = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** A run of a report set read back: its figures, and its frames' values where they are sound (else left out). */
function runOf(x: RunFigures): RouteRuns['runs'][number] {
  const own = Object.fromEntries(Object.entries(x.own).filter(([, v]) => isFigure(v)));
  const frames = Number.isInteger(x.frames) && x.frames >= 1 ? x.frames : undefined;
  const ownFrames: Record<string, number[]> = {};
  const ownFrameCounts: Record<string, number> = {};
  if (frames !== undefined && x.ownFrames && typeof x.ownFrames === 'object') {
    for (const [name, v] of Object.entries(x.ownFrames)) {
      if (!(name in own) || !Array.isArray(v) || v.length > MAX_FRAME_VALUES || !v.every(isFigure)) continue;
      const count = x.ownFrameCounts?.[name];
      if (count !== undefined && !(Number.isInteger(count) && count >= v.length && count <= frames)) continue;
      if (count === undefined && v.length > frames) continue;
      ownFrames[name] = v.slice().sort((a, b) => a - b);
      if (count !== undefined) ownFrameCounts[name] = count;
    }
  }
  return { own, ...(frames !== undefined ? { frames, ownFrames, ownFrameCounts } : {}) };
}

/** A report set's routes as compare reads them (validated; a route it cannot read is an error). */
export function sideOf(dir: string): SideRoute[] {
  return readSummary(dir).routes.map((r) => {
    if (r.verdict === 'error') return { name: r.name, verdict: 'error' as const, error: r.error ?? 'not audited', report: null };
    try {
      const rep = JSON.parse(fs.readFileSync(path.join(dir, r.dir, 'report.json'), 'utf8')) as Partial<RouteReport>;
      const runs = Array.isArray(rep.runs) ? rep.runs.filter((x) => x && typeof x.own === 'object' && x.own !== null).map(runOf) : [];
      if (runs.length === 0) return { name: r.name, verdict: 'error' as const, error: 'its report has no runs', report: null };
      return { name: r.name, verdict: r.verdict, report: { runs } };
    } catch {
      return { name: r.name, verdict: 'error' as const, error: `no readable ${path.join(r.dir, 'report.json')}`, report: null };
    }
  });
}

/** `compare BASE HEAD`: compare.json and summary.md; 0, 1 (significantly slower), 2 (a route not audited). */
export function compareDirs(baseDir: string, headDir: string, outDir: string, threshold: number, io: Io): number {
  const c = compareSets(sideOf(baseDir), sideOf(headDir), threshold);
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'compare.json'), `${JSON.stringify(c, null, 2)}\n`);
  const md = summaryMarkdown(c);
  fs.writeFileSync(path.join(outDir, 'summary.md'), md);
  fs.writeFileSync(path.join(outDir, 'junit.xml'), compareJunit(c));
  fs.writeFileSync(path.join(outDir, 'report.html'), compareHtml(c));
  io.out(md.trimEnd());
  return compareExit(c);
}
