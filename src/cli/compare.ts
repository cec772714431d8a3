/**
 * `layout-cost compare BASE_DIR HEAD_DIR` (issue 47; docs/CI.md, "Comparing two runs"): per route and component type,
 * base against head, on the p95 over frames of the type's own style + layout ms per frame, one figure per run. Pure
 * (two report sets in, the comparison out); main.ts reads and writes the files.
 *
 * The method: a figure under 0.1 ms reads 0.1 (the floor: a component that costs nothing on one side is not
 * "infinitely" slower on the other). The ratio is head's geometric mean over base's; its interval is Welch's t on the
 * logs of the runs' figures, two-sided, at 1 − 0.05 / m confidence for m comparisons (Bonferroni: the chance that any
 * of them is called on noise stays under 5 %). A regression is significant when the interval's lower bound lies above
 * the threshold; an improvement when its upper bound lies under 1 / threshold. With one run on a side there is no
 * interval and nothing is significant: `--runs 3` or more on each side.
 */
import { htmlEscape } from './html';
import { xmlEscape } from './junit';
import { ratioInterval } from './stats';

export const FLOOR_MS = 0.1;
export const FAMILY_ALPHA = 0.05;

/** What compare reads of a route's report.json. */
export interface RouteRuns {
  /** Each run's own ms per frame (p95) by component type. */
  runs: { own: Record<string, number> }[];
}

export interface Change {
  route: string;
  component: string;
  /** Geometric means over the runs, ms per frame (floored). */
  base: number;
  head: number;
  ratio: number;
  /** The corrected interval on the ratio (null: fewer than two runs on a side). */
  low: number | null;
  high: number | null;
  significant: boolean;
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
}

const geomean = (xs: readonly number[]): number => Math.exp(xs.reduce((t, x) => t + Math.log(x), 0) / xs.length);

/** A type's floored figure in each run. */
const figures = (r: RouteRuns, name: string): number[] => r.runs.map((run) => Math.max(FLOOR_MS, run.own[name] ?? 0));

export interface SideRoute {
  name: string;
  verdict: 'pass' | 'fail' | 'error';
  error?: string;
  report: RouteRuns | null;
}

export function compareSets(base: readonly SideRoute[], head: readonly SideRoute[], threshold: number): Comparison {
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
  const pairs: { route: string; component: string; base: number[]; head: number[] }[] = [];
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
      pairs.push({ route: hr.name, component: c, base: bv, head: hv });
    }
  }
  out.comparisons = pairs.length;
  out.confidence = pairs.length > 0 ? 1 - FAMILY_ALPHA / pairs.length : 1 - FAMILY_ALPHA;
  for (const p of pairs) {
    const iv = ratioInterval(p.base, p.head, out.confidence);
    const change = (significant: boolean): Change => ({
      route: p.route, component: p.component, base: round(geomean(p.base)), head: round(geomean(p.head)), ratio: round(iv.ratio),
      low: iv.low === null ? null : round(iv.low), high: iv.high === null ? null : round(iv.high), significant,
    });
    if (iv.ratio > threshold) out.regressions.push(change(iv.low !== null && iv.low > threshold));
    else if (iv.ratio < 1 / threshold) out.improvements.push(change(iv.high !== null && iv.high < 1 / threshold));
  }
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

/** The pull request comment: the worst regressions first, a line per component, with the check's own noise. */
export function summaryMarkdown(c: Comparison): string {
  const sig = c.regressions.filter((r) => r.significant);
  const lines: string[] = [];
  lines.push(c.errors.length > 0 ? '## Layout Cost: could not compare (a route failed to audit)'
    : sig.length > 0 ? `## Layout Cost: ${sig.length} component${sig.length === 1 ? '' : 's'} significantly slower`
      : '## Layout Cost: no component significantly slower');
  lines.push('');
  lines.push(`Own style + layout ms per frame (p95 over frames, one figure per run), ${c.runs.base} base and ${c.runs.head} head runs;`
    + ` ${c.comparisons} component${c.comparisons === 1 ? '' : 's'} compared; threshold ${c.threshold}×; intervals at`
    + ` ${(c.confidence * 100).toFixed(c.comparisons > 20 ? 3 : 2)} % each (95 % over all of them, Bonferroni).`);
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
<p class="method">Own style + layout ms per frame (p95 over frames, one figure per run; under ${FLOOR_MS} ms reads ${FLOOR_MS}), ${c.runs.base} base and ${c.runs.head} head runs,
${c.comparisons} components compared. The ratio is head's geometric mean over base's; the interval is Welch's t on the logs at ${(c.confidence * 100).toFixed(2)} % each
(Bonferroni: 95 % over all). Significant: the whole interval past the threshold of ${c.threshold}×.</p>
${c.errors.map((e) => `<p><b>${html(e.route)}</b> (${e.side}): ${html(e.error)}</p>`).join('')}
${table('Slower', c.regressions, true)}${table('Faster', c.improvements, false)}${list('Added', c.added)}${list('Removed', c.removed)}
</body></html>
`;
}
