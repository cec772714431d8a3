/**
 * `layout-cost compare BASE_DIR HEAD_DIR` (issues 47 and 65; docs/CI.md, "Comparing two runs"): per route and
 * component type, base against head, on the type's own style + layout ms in its typical frame — each run's median
 * over the frames in which it did work, one figure per run (reports without their frames: the p95 each run states).
 * Pure (two report sets in, the comparison out); main.ts reads and writes the files.
 *
 * The method: a figure under 0.1 ms reads 0.1 (the floor: a component that costs nothing on one side is not
 * "infinitely" slower on the other). The ratio is head's geometric mean of the runs' figures over base's. Its
 * uncertainty is a hierarchical bootstrap (stats.ts, bootstrapRatio): runs resampled, and each run's frames resampled
 * for its median, so the hundreds of frames a run holds weigh, with runs as the unit of repetition. The median, not the
 * p95 a report states: a short run's p95 is one of its worst frames, and one frame preempted by the machine moved a
 * whole run (docs/CI.md, "The verdict": on the same 20 A/A rounds and 42 heads of real audits beside a CPU hog, no
 * false positive either way, and heads at 2× the cells flagged 21 of 21 against 13). Each comparison's
 * one-sided p-value — of "no slower than the threshold" where head is slower, of "no faster than its inverse" where it
 * is faster — goes through Holm's step-down at 5 %, regressions and improvements each a family of their own: the chance
 * that a pull request fails on noise (any regression called) stays under 5 %, but a component that clearly moved is not
 * held to the full Bonferroni level of the dozens that did not. A regression is significant when Holm rejects it and
 * its one-sided bound (at the level it was tested at) lies above the threshold; an improvement likewise under
 * 1 / threshold. (Two-sided, one family, until 2026-11-29: a regression paid for a tail it is never flagged in.) With
 * one run on a side nothing is significant: `--runs 3` or more on each side.
 */
import { htmlEscape } from './html';
import { xmlEscape } from './junit';
import { bootstrapRatio, drawQuantile, hashString, holm, normalQuantile, runQuantile, type RunSample } from './stats';

export const FLOOR_MS = 0.1;
export const FAMILY_ALPHA = 0.05;
/** Bootstrap draws per comparison: the tail quantile at 0.05 / 2m for m = 40 is then the 6th draw. */
export const DRAWS = 10_000;
/** The power "detectable" and "runs that would settle it" are worked out for. */
export const POWER = 0.8;
/** A ratio at least this large that did not clear is listed as "large but not significant". */
export const LARGE = 2;

/** What compare reads of a route's report.json. */
export interface RouteRuns {
  /** Each run's own ms per frame (p95) by component type, and (written since issue 65) its frames' values. */
  runs: { own: Record<string, number>; frames?: number; ownFrames?: Record<string, number[]>; ownFrameCounts?: Record<string, number> }[];
}

export interface Change {
  route: string;
  component: string;
  /** Geometric means over the runs, ms per frame (floored). */
  base: number;
  head: number;
  ratio: number;
  /**
   * The corrected interval on the ratio (null: fewer than two runs on a side): its bound toward 1 is the one-sided bound
   * at `confidence` (a regression's `low`, an improvement's `high`), so the interval holds 1 − 2 × (1 − confidence).
   */
  low: number | null;
  high: number | null;
  significant: boolean;
  /**
   * One-sided p-value (bootstrap) of "no slower than the threshold" for a regression, "no faster than its inverse" for an
   * improvement, and the confidence its bound toward 1 is at (Holm's level in its family).
   */
  p?: number;
  confidence?: number;
  /** A slower one that did not clear: runs a side that would settle it at this spread (80 % power; null: no spread). */
  runsToSettle?: number | null;
}

/** Per route: the spread of its runs, and the smallest change this many runs could have detected there. */
export interface RouteSensitivity {
  route: string;
  /** Median over the route's components of the runs' pooled standard deviation of log figures. */
  spread: number;
  /** The smallest ratio flagged with 80 % power at that spread, these runs and the strictest level (null: no spread). */
  detectable: number | null;
}

export interface Comparison {
  kind: 'layout-cost-compare';
  version: 1;
  threshold: number;
  /** The per-comparison confidence the intervals are at (1 − 0.05 / comparisons). */
  confidence: number;
  comparisons: number;
  runs: { base: number; head: number };
  regressions: Change[];
  improvements: Change[];
  added: { route: string; component: string | null }[];
  removed: { route: string; component: string | null }[];
  /** Routes that could not be audited on a side: the comparison is an error (exit 2). */
  errors: { route: string; side: 'base' | 'head'; error: string }[];
  /** The statistics used (issue 65). */
  method?: string;
  /** Each run's figure the verdict compares: `median` (of its frames), `p95` (reports without frames), or `mixed`. */
  statistic?: string;
  /** What each route's runs could see (issue 65). */
  routes?: RouteSensitivity[];
}

const geomean = (xs: readonly number[]): number => Math.exp(xs.reduce((t, x) => t + Math.log(x), 0) / xs.length);

/** A type's floored figure in each run. */
const figures = (r: RouteRuns, name: string): number[] => r.runs.map((run) => Math.max(FLOOR_MS, run.own[name] ?? 0));

/** A type's runs as the bootstrap takes them: the figure, and the frames' values when the report has them. */
const samples = (r: RouteRuns, name: string): RunSample[] => r.runs.map((run) => {
  const figure = run.own[name] ?? 0;
  // A run that kept its frames but none for this type: it did no work in any of them.
  const values = run.ownFrames === undefined ? undefined : run.ownFrames[name] ?? [];
  if (!values || !(typeof run.frames === 'number' && run.frames >= 1)) return { figure };
  return { figure, frames: run.frames, values, count: run.ownFrameCounts?.[name] };
});

/** Runs a side for a ratio to clear the threshold with POWER at this spread and level (both sides alike). */
export function runsToSettle(ratio: number, threshold: number, spread: number, level: number): number | null {
  if (!(spread > 0) || !(ratio > threshold)) return null;
  const z = normalQuantile(1 - level) + normalQuantile(POWER);
  return Math.max(2, Math.ceil(2 * ((z * spread) / Math.log(ratio / threshold)) ** 2));
}

/** The smallest ratio these runs detect with POWER at this spread and level. */
export function detectableRatio(threshold: number, spread: number, runs: { base: number; head: number }, level: number): number | null {
  if (!(spread > 0) || runs.base < 2 || runs.head < 2) return null;
  const z = normalQuantile(1 - level) + normalQuantile(POWER);
  return threshold * Math.exp(z * spread * Math.sqrt(1 / runs.base + 1 / runs.head));
}

export interface SideRoute {
  name: string;
  verdict: 'pass' | 'fail' | 'error';
  error?: string;
  report: RouteRuns | null;
}

/** How the bootstrap is drawn (the defaults are compare's; bench/ compares the others on the same audits). */
export interface CompareOptions {
  frames?: boolean;
  widen?: boolean;
  /**
   * Each run's figure: this quantile of the frames in which the type did work (default: the median, where the runs kept
   * their frames).
   */
  quantile?: number;
  /**
   * The method before 2026-11-29: one two-sided test of "within the threshold" per comparison, Holm over them all
   * (bench/compare-variants.ts measures the two against each other).
   */
  twoSided?: boolean;
}

/** compare's run figure (issue 65): the median frame. */
const MEDIAN = 0.5;

export function compareSets(base: readonly SideRoute[], head: readonly SideRoute[], threshold: number, options: CompareOptions = {}): Comparison {
  const out: Comparison = {
    kind: 'layout-cost-compare', version: 1, threshold, confidence: 1, comparisons: 0, runs: { base: 0, head: 0 },
    regressions: [], improvements: [], added: [], removed: [], errors: [],
  };
  const b = new Map(base.map((r) => [r.name, r])), h = new Map(head.map((r) => [r.name, r]));
  for (const r of base) if (r.verdict === 'error' || !r.report) out.errors.push({ route: r.name, side: 'base', error: r.error ?? 'no report' });
  for (const r of head) if (r.verdict === 'error' || !r.report) out.errors.push({ route: r.name, side: 'head', error: r.error ?? 'no report' });
  for (const r of head) if (!b.has(r.name)) out.added.push({ route: r.name, component: null });
  for (const r of base) if (!h.has(r.name)) out.removed.push({ route: r.name, component: null });
  // The pairs compared: types on both sides with a figure above the floor on at least one of them.
  const pairs: { route: string; component: string; base: RunSample[]; head: RunSample[] }[] = [];
  for (const hr of head) {
    const br = b.get(hr.name);
    if (!br?.report || !hr.report) continue;
    out.runs.base = Math.max(out.runs.base, br.report.runs.length);
    out.runs.head = Math.max(out.runs.head, hr.report.runs.length);
    const names = (r: RouteRuns): Set<string> => new Set(r.runs.flatMap((run) => Object.keys(run.own)));
    const inBase = names(br.report), inHead = names(hr.report);
    for (const c of inHead) if (!inBase.has(c)) out.added.push({ route: hr.name, component: c });
    for (const c of inBase) if (!inHead.has(c)) out.removed.push({ route: hr.name, component: c });
    for (const c of inHead) {
      if (!inBase.has(c)) continue;
      const bv = figures(br.report, c), hv = figures(hr.report, c);
      if (bv.every((x) => x <= FLOOR_MS) && hv.every((x) => x <= FLOOR_MS)) continue;
      pairs.push({ route: hr.name, component: c, base: samples(br.report, c), head: samples(hr.report, c) });
    }
  }
  out.comparisons = pairs.length;
  out.confidence = pairs.length > 0 ? 1 - FAMILY_ALPHA / pairs.length : 1 - FAMILY_ALPHA;
  // The typical frame: each run's median over the frames in which the type did work, where every run of both sides kept
  // them (a report since issue 65); else the p95 each run states (docs/CI.md, "The figure").
  const quantiles = pairs.map((p) => (options.quantile !== undefined ? options.quantile
    : [...p.base, ...p.head].every((r) => r.values !== undefined && (r.frames ?? 0) >= 1) ? MEDIAN : undefined));
  const stats = new Set(quantiles.map((q) => (q === undefined ? 'p95' : q === MEDIAN ? 'median' : `q${q}`)));
  out.statistic = stats.size === 1 ? [...stats][0] : stats.size === 0 ? 'median' : 'mixed';
  out.method = `hierarchical bootstrap (runs, and frames within runs) of the ratio of geometric means of each run's ${statisticText(out)}`
    + '; one-sided, Holm over the regressions and over the improvements';
  const tested = pairs.map((p, i) => bootstrapRatio(p.base, p.head, {
    floor: FLOOR_MS, threshold, draws: DRAWS, seed: hashString(`${p.route}\u0000${p.component}`), ...options, quantile: quantiles[i],
    active: quantiles[i] !== undefined,
  }));
  const figureOf = (r: RunSample, i: number): number => Math.max(FLOOR_MS, quantiles[i] === undefined ? r.figure : runQuantile(r, quantiles[i]!, true));
  const one = options.twoSided !== true;
  const levels = holm(tested.map((t) => t.p), FAMILY_ALPHA);
  const slower = holm(tested.map((t) => t.pSlower), FAMILY_ALPHA), faster = holm(tested.map((t) => t.pFaster), FAMILY_ALPHA);
  const strictest = FAMILY_ALPHA / Math.max(1, pairs.length);
  pairs.forEach((p, i) => {
    const t = tested[i];
    // A ratio above 1 is a regression's to test, below 1 an improvement's: each family's own Holm.
    const slowerSide = t.ratio >= 1;
    const { level, rejected } = !one ? levels[i] : slowerSide ? slower[i] : faster[i];
    const tail = one ? level : level / 2;
    const low = t.draws ? Math.exp(drawQuantile(t.draws, tail)) : null;
    const high = t.draws ? Math.exp(drawQuantile(t.draws, 1 - tail)) : null;
    const change = (significant: boolean): Change => ({
      route: p.route, component: p.component, base: round(geomean(p.base.map((r) => figureOf(r, i)))),
      head: round(geomean(p.head.map((r) => figureOf(r, i)))), ratio: round(t.ratio),
      low: low === null ? null : round(low), high: high === null ? null : round(high), significant,
      p: Number((one ? (slowerSide ? t.pSlower : t.pFaster) : t.p).toPrecision(3)), confidence: Number((1 - level).toPrecision(6)),
      ...(significant ? {} : { runsToSettle: runsToSettle(t.ratio, threshold, t.spread, strictest) }),
    });
    if (t.ratio > threshold) out.regressions.push(change(rejected && low !== null && low > threshold));
    else if (t.ratio < 1 / threshold) out.improvements.push(change(rejected && high !== null && high < 1 / threshold));
  });
  const byRoute = new Map<string, number[]>();
  pairs.forEach((p, i) => byRoute.set(p.route, [...(byRoute.get(p.route) ?? []), tested[i].spread]));
  out.routes = [...byRoute].map(([route, spreads]) => {
    const sorted = spreads.slice().sort((a, b) => a - b);
    const spread = sorted[Math.floor((sorted.length - 1) / 2)];
    const detectable = detectableRatio(threshold, spread, out.runs, strictest);
    return { route, spread: round(spread), detectable: detectable === null ? null : round(detectable) };
  });
  const worst = (a: Change, c: Change): number => Number(c.significant) - Number(a.significant) || c.ratio - a.ratio;
  out.regressions.sort(worst);
  out.improvements.sort((a, c) => Number(c.significant) - Number(a.significant) || a.ratio - c.ratio);
  return out;
}

const round = (v: number): number => Number(v.toFixed(3));

/** 0 nothing significantly slower, 1 a significant regression, 2 a route that could not be audited (2 wins). */
export function compareExit(c: Comparison): number {
  if (c.errors.length > 0) return 2;
  return c.regressions.some((r) => r.significant) ? 1 : 0;
}

/** Markdown cells: no pipes or line breaks from component or route names. */
const cell = (s: string): string => s.replace(/[|\\\r\n`<>]/g, (ch) => (ch === '|' ? '\\|' : ch === '\\' ? '\\\\' : ' ')).slice(0, 120);
const ms = (v: number): string => (v <= FLOOR_MS ? `≤ ${FLOOR_MS}` : v.toFixed(2));
const interval = (c: Change): string => (c.low === null || c.high === null ? 'needs 2+ runs a side' : `${c.low.toFixed(2)}–${c.high.toFixed(2)}×`);

/** What each run's figure is, in words. */
const statisticText = (c: Comparison): string => (c.statistic === 'p95' ? 'p95 over frames'
  : `median over the frames it did work in${c.statistic === 'mixed' ? ', or p95 over frames where a report kept none' : ''}`);

/** The pull request comment: the worst regressions first, a line per component, with the check's own noise. */
export function summaryMarkdown(c: Comparison): string {
  const sig = c.regressions.filter((r) => r.significant);
  const lines: string[] = [];
  lines.push(c.errors.length > 0 ? '## Layout Cost: could not compare (a route failed to audit)'
    : sig.length > 0 ? `## Layout Cost: ${sig.length} component${sig.length === 1 ? '' : 's'} significantly slower`
      : '## Layout Cost: no component significantly slower');
  lines.push('');
  lines.push(`Own style + layout ms per frame (${statisticText(c)}, one figure per run), ${c.runs.base} base and ${c.runs.head} head runs;`
    + ` ${c.comparisons} component${c.comparisons === 1 ? '' : 's'} compared; threshold ${c.threshold}×; a bootstrap over runs and`
    + ' their frames, one-sided, 95 % over all comparisons (Holm).');
  const seen = (c.routes ?? []).filter((r) => r.detectable !== null);
  if (seen.length > 0) {
    lines.push('', `Smallest change these runs could detect (80 % power): ${seen.slice(0, 10)
      .map((r) => `${cell(r.route)} ${r.detectable!.toFixed(2)}×`).join(', ')}${seen.length > 10 ? ', …' : ''}.`);
  }
  for (const e of c.errors) lines.push('', `- **${cell(e.route)}** (${e.side}): ${cell(e.error)}`);
  const table = (title: string, rows: Change[]): void => {
    if (rows.length === 0) return;
    lines.push('', `### ${title}`, '', '| | Component | Route | base → head ms | ratio | interval |', '|---|---|---|---:|---:|---:|');
    for (const r of rows.slice(0, 50)) {
      lines.push(`| ${r.significant ? '🔴' : '⚪'} | ${cell(r.component)} | ${cell(r.route)} | ${ms(r.base)} → ${ms(r.head)} | ${r.ratio.toFixed(2)}× | ${interval(r)} |`);
    }
    if (rows.length > 50) lines.push('', `…and ${rows.length - 50} more in compare.json.`);
  };
  table('Slower', c.regressions);
  table('Faster', c.improvements);
  const large = c.regressions.filter((r) => !r.significant && r.ratio >= LARGE);
  if (large.length > 0) {
    lines.push('', '### Large but not significant', '',
      `Slower by ${LARGE}× or more, within these runs' noise; runs a side that would settle it at this spread:`, '');
    for (const r of large.slice(0, 20)) {
      lines.push(`- ${cell(r.component)} (${cell(r.route)}): ${r.ratio.toFixed(2)}×, ${r.runsToSettle ? `--runs ${r.runsToSettle}` : 'more runs'}`);
    }
  }
  const listed = (xs: { route: string; component: string | null }[]): string => xs.slice(0, 20)
    .map((x) => (x.component === null ? `route ${cell(x.route)}` : `${cell(x.component)} (${cell(x.route)})`)).join(', ');
  if (c.added.length > 0) lines.push('', `Added: ${listed(c.added)}${c.added.length > 20 ? ', …' : ''}`);
  if (c.removed.length > 0) lines.push('', `Removed: ${listed(c.removed)}${c.removed.length > 20 ? ', …' : ''}`);
  lines.push('', '🔴 significant: the whole interval lies past the threshold. ⚪ past the threshold, within the noise.');
  return `${lines.join('\n')}\n`;
}

const xml = xmlEscape;
const html = htmlEscape;
const describe = (r: Change): string => `${r.component} on ${r.route}: ${ms(r.base)} → ${ms(r.head)} ms of its own style + layout per frame`
  + ` (p95), ${r.ratio.toFixed(2)}× (${interval(r)})`;

/** junit.xml: each regression past the threshold a test case, failed when significant; a route not audited an error. */
export function compareJunit(c: Comparison): string {
  const cases = [...c.regressions, ...c.improvements];
  const failures = c.regressions.filter((r) => r.significant).length;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="layout-cost compare" tests="${cases.length + c.errors.length}" failures="${failures}" errors="${c.errors.length}">`,
    `  <testsuite name="layout-cost compare" tests="${cases.length + c.errors.length}" failures="${failures}" errors="${c.errors.length}" skipped="0">`,
  ];
  for (const r of cases) {
    lines.push(`    <testcase classname="${xml(`layout-cost.compare.${r.route}`)}" name="${xml(r.component)}" time="0">`);
    const slower = c.regressions.includes(r);
    if (slower && r.significant) lines.push(`      <failure message="${xml(`${describe(r)}: significantly slower`)}" type="regression">${xml(describe(r))}</failure>`);
    else lines.push(`      <system-out>${xml(`${describe(r)}${slower ? ': within the noise' : ': faster'}`)}</system-out>`);
    lines.push('    </testcase>');
  }
  for (const e of c.errors) {
    lines.push(`    <testcase classname="layout-cost.compare.${xml(e.route)}" name="${xml(`${e.route} (${e.side})`)}" time="0">`,
      `      <error message="${xml(e.error)}" type="not-audited"/>`, '    </testcase>');
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}

/** report.html: one self-contained file (no script, a CSP that allows nothing else); names are escaped text. */
export function compareHtml(c: Comparison): string {
  const sig = c.regressions.filter((r) => r.significant).length;
  const row = (r: Change, slower: boolean): string => `<tr class="${r.significant ? (slower ? 'bad' : 'good') : ''}">`
    + `<td>${r.significant ? (slower ? 'slower' : 'faster') : 'noise'}</td><td>${html(r.component)}</td><td>${html(r.route)}</td>`
    + `<td class="n">${ms(r.base)}</td><td class="n">${ms(r.head)}</td><td class="n">${r.ratio.toFixed(2)}×</td><td class="n">${html(interval(r))}</td></tr>`;
  const table = (title: string, rows: Change[], slower: boolean): string => (rows.length === 0 ? ''
    : `<h2>${title}</h2><table><tr><th></th><th>Component</th><th>Route</th><th>base ms</th><th>head ms</th><th>ratio</th><th>interval</th></tr>${rows.map((r) => row(r, slower)).join('')}</table>`);
  const list = (title: string, xs: { route: string; component: string | null }[]): string => (xs.length === 0 ? ''
    : `<h2>${title}</h2><ul>${xs.map((x) => `<li>${x.component === null ? `route ${html(x.route)}` : `${html(x.component)} <small>(${html(x.route)})</small>`}</li>`).join('')}</ul>`);
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Layout Cost compare</title><style>
body{font:14px system-ui,sans-serif;margin:24px;color:#1f1f1f}table{border-collapse:collapse;margin:8px 0 16px}td,th{padding:4px 10px;border-bottom:1px solid #ddd;text-align:left}
.n{text-align:right;font-variant-numeric:tabular-nums}tr.bad td:first-child{color:#b3261e;font-weight:600}tr.good td:first-child{color:#1e7b34;font-weight:600}p.method{color:#5f6368;max-width:60em}
</style></head><body>
<h1>${c.errors.length > 0 ? 'Could not compare: a route failed to audit' : sig > 0 ? `${sig} component${sig === 1 ? '' : 's'} significantly slower` : 'No component significantly slower'}</h1>
<p class="method">Own style + layout ms per frame (${statisticText(c)}, one figure per run; under ${FLOOR_MS} ms reads ${FLOOR_MS}), ${c.runs.base} base and ${c.runs.head} head runs,
${c.comparisons} components compared. The ratio is head's geometric mean over base's; its interval is a bootstrap over the runs and the frames within them,
its bound toward 1 at the level Holm's procedure tested it at (one-sided, 95 % over all comparisons). Significant: the whole interval past the threshold of ${c.threshold}×.</p>
${c.errors.map((e) => `<p><b>${html(e.route)}</b> (${e.side}): ${html(e.error)}</p>`).join('')}
${table('Slower', c.regressions, true)}${table('Faster', c.improvements, false)}${list('Added', c.added)}${list('Removed', c.removed)}
</body></html>
`;
}
