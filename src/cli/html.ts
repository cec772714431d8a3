/**
 * report.html for `layout-cost audit`: one self-contained file (the
 * screenshot inlined as a data: URL, styles inline, no script, a CSP that
 * allows nothing else), readable without the extension. Everything from the
 * page (URL, component names, keys) is escaped text.
 */
import type { AuditReport, Check, Dist, TypeReport } from './report';

export function htmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const TOP = 30;

const ms = (v: number): string => (v === 0 ? '0' : v < 0.01 ? '<0.01' : v < 10 ? v.toFixed(2) : v.toFixed(1));
const count = (v: number | null): string => (v === null ? '–' : v.toLocaleString('en-US'));
const ratio = (v: number | null): string => (v === null ? '–' : `${v.toFixed(1)}×`);
const dist = (d: Dist): string => `<td class="n">${ms(d.p50)}</td><td class="n">${ms(d.p95)}</td><td class="n">${ms(d.max)}</td>`;

function checkRow(c: Check): string {
  const warned = c.pass && c.level === 'warn' && c.value > c.limit;
  const state = !c.pass ? 'fail' : warned ? 'warn' : 'pass';
  const label = !c.pass ? 'over' : warned ? 'warning' : 'within';
  return `<tr class="${state}"><td><span class="badge ${state}">${label}</span></td><td>${htmlEscape(c.name)}</td>`
    + `<td>${htmlEscape(c.metric)}${c.stat ? ` <small>${c.stat}</small>` : ''}</td><td class="n">${htmlEscape(String(c.value))}</td>`
    + `<td class="n">${htmlEscape(String(c.limit))}</td><td class="msg">${htmlEscape(c.message)}</td></tr>`;
}

function typeRow(t: TypeReport): string {
  return `<tr><td class="name">${htmlEscape(t.name)}${t.instances > 1 ? ` <small>× ${t.instances.toLocaleString('en-US')}</small>` : ''}</td>`
    + `${dist(t.layoutMs)}<td class="n">${ms(t.styleMs.p95)}</td><td class="n">${ms(t.forcedMs.p95)}</td>`
    + `<td class="n">${count(t.forcedCount)}</td><td class="n">${count(t.rendered)}</td><td class="n">${count(t.authored)}</td>`
    + `<td class="n">${ratio(t.inflation)}</td></tr>`;
}

/** A share (0‥1) as a percentage: "75.0 %". */
export const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;
const factor = (f: number | null): string => (f === null ? '–' : `×${f.toFixed(2)}`);

/** The pass cost the replays were weighed with: measured on the page, or the figure the overlay's probes use. */
function passCost(c: NonNullable<AuditReport['calibration']>): string {
  const ms = `${(Number.isFinite(c.passMs) ? c.passMs : 0).toFixed(2)} ms`;
  return c.passRounds > 0 ? `${ms} (measured on the page, ${count(c.passRounds)} rounds)` : `${ms} (not measured on the page: the overlay's figure)`;
}

/** `--calibrate`: the shares the figures below were scaled to. */
function calibrationSection(r: AuditReport): string {
  const c = r.calibration;
  if (!c) return '';
  const rows = c.types.filter((t) => t.layoutShare + t.styleShare + t.overlayLayoutShare + t.overlayStyleShare > 0).slice(0, TOP)
    .map((t) => `<tr><td class="name">${htmlEscape(t.name)}</td><td class="n">${pct(t.overlayLayoutShare)}</td><td class="n">${pct(t.layoutShare)}</td>`
      + `<td class="n">${factor(t.layoutFactor)}</td><td class="n">${pct(t.overlayStyleShare)}</td><td class="n">${pct(t.styleShare)}</td>`
      + `<td class="n">${factor(t.styleFactor)}</td></tr>`).join('\n');
  const skipped = Object.entries(c.skipped).map(([k, v]) => `${v} (${htmlEscape(k)})`).join(', ');
  return `<h2>Calibrated</h2>
<p>The figures below are scaled to a second pass (<code>--calibrate</code>) that replayed each batch of DOM changes one component
at a time under Chrome's trace: ${count(c.measured)} of ${count(c.batches)} batches replayed${skipped ? `, skipped: ${skipped}` : ''}${c.lostWindows ? `, ${count(c.lostWindows)} windows lost from the trace` : ''}${c.broken ? `; the pass stopped: ${htmlEscape(c.broken)}` : ''}; each replay that laid out weighs ${passCost(c)} more, what a frame's layout pass costs beyond a replay.</p>
${rows ? `<table><thead><tr><th>Type</th><th class="n">Layout share, overlay</th><th class="n">calibrated</th><th class="n">factor</th><th class="n">Style share, overlay</th><th class="n">calibrated</th><th class="n">factor</th></tr></thead>
<tbody>
${rows}
</tbody></table>` : '<p>No component changed the DOM during the pass.</p>'}`;
}

export function reportHtml(r: AuditReport, screenshotPng: Buffer | null): string {
  const checks = [...r.checks].sort((a, b) => Number(a.pass) - Number(b.pass));
  const verdict = r.passed
    ? `Every budget holds (${r.checks.length} check${r.checks.length === 1 ? '' : 's'}${r.warnings ? `, ${r.warnings} warning${r.warnings === 1 ? '' : 's'}` : ''})`
    : `${r.failures} of ${r.checks.length} budget check${r.checks.length === 1 ? '' : 's'} failed`;
  const shot = screenshotPng
    ? `<figure><img alt="The page with Layout Cost's meters at the end of the run" src="data:image/png;base64,${screenshotPng.toString('base64')}"><figcaption>The page at the end of the run, with Layout Cost's meters (ms of style + layout per frame, rendered ÷ authored).</figcaption></figure>`
    : '<p>No screenshot.</p>';
  const self = r.self
    ? `${ms(r.self.msPerFrame)} ms per frame (${(r.self.mainThreadShare * 100).toFixed(1)} % of the main thread)` : 'not measured';
  const instances = r.instances.slice(0, TOP).map((i) => `<tr><td class="name">${htmlEscape(i.path)}${i.key !== null ? ` <small>key ${htmlEscape(JSON.stringify(i.key))}</small>` : ''}</td>`
    + `${dist(i.layoutMs)}<td class="n">${ms(i.styleMs.p95)}</td><td class="n">${ms(i.forcedMs.p95)}</td><td class="n">${count(i.forcedCount)}</td>`
    + `<td class="n">${count(i.rendered)}</td><td class="n">${ratio(i.inflation)}</td></tr>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Layout Cost audit — ${htmlEscape(r.url)}</title>
<style>
:root { color-scheme: light dark; --fg: #1f1f1f; --dim: #5f6368; --bg: #fff; --alt: #f6f8fa; --line: #d0d7de;
  --fail: #c5221f; --warn: #b06000; --pass: #188038; font: 14px/1.45 system-ui, sans-serif; }
@media (prefers-color-scheme: dark) { :root { --fg: #e8eaed; --dim: #9aa0a6; --bg: #202124; --alt: #292a2d; --line: #3c4043;
  --fail: #f28b82; --warn: #fdd663; --pass: #81c995; } }
body { margin: 0 auto; max-width: 1200px; padding: 16px 24px 48px; color: var(--fg); background: var(--bg); }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 28px 0 8px; }
.meta { color: var(--dim); overflow-wrap: anywhere; }
.verdict { margin: 16px 0; padding: 10px 14px; border-radius: 6px; font-weight: 600; border: 1px solid var(--line); }
.verdict.fail { color: var(--fail); border-color: var(--fail); } .verdict.pass { color: var(--pass); border-color: var(--pass); }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--alt); font-weight: 600; position: sticky; top: 0; } td.n, th.n { text-align: right; white-space: nowrap; }
td.name { overflow-wrap: anywhere; } td.msg { color: var(--dim); } small { color: var(--dim); }
.badge { display: inline-block; padding: 0 6px; border-radius: 8px; font-size: 12px; font-weight: 600; border: 1px solid currentColor; }
.badge.fail { color: var(--fail); } .badge.warn { color: var(--warn); } .badge.pass { color: var(--pass); }
figure { margin: 0; } img { max-width: 100%; border: 1px solid var(--line); } figcaption { color: var(--dim); font-size: 12px; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; } dt { color: var(--dim); } dd { margin: 0; }
</style>
</head>
<body>
<h1>Layout Cost audit</h1>
<div class="meta">${htmlEscape(r.url)}<br>${htmlEscape(r.date)} · ${htmlEscape(r.browser)} · ${r.seconds.toFixed(1)} s · ${r.frames} measured frames${r.droppedFrames ? ` (${r.droppedFrames} older frames dropped)` : ''} · layout-cost ${htmlEscape(r.tool.version)}</div>
<div class="verdict ${r.passed ? 'pass' : 'fail'}">${htmlEscape(verdict)}</div>
<h2>Budgets</h2>
${checks.length ? `<table><thead><tr><th></th><th>Component</th><th>Figure</th><th class="n">Value</th><th class="n">Budget</th><th>What it means</th></tr></thead>
<tbody>
${checks.map(checkRow).join('\n')}
</tbody></table>` : '<p>No budget checks.</p>'}
<h2>The page</h2>
<dl>
<dt>Layout per frame</dt><dd>p50 ${ms(r.page.layoutMsPerFrame.p50)} · p95 ${ms(r.page.layoutMsPerFrame.p95)} · max ${ms(r.page.layoutMsPerFrame.max)} ms</dd>
<dt>Style per frame</dt><dd>p50 ${ms(r.page.styleMsPerFrame.p50)} · p95 ${ms(r.page.styleMsPerFrame.p95)} · max ${ms(r.page.styleMsPerFrame.max)} ms</dd>
<dt>Forced reflows</dt><dd>${count(r.page.forcedCount)} (p95 ${ms(r.page.forcedMsPerFrame.p95)} ms per frame)</dd>
<dt>Interactions</dt><dd>${count(r.page.interactions ?? 0)}${r.page.inp !== null && r.page.inp !== undefined ? `, INP ${ms(r.page.inp)} ms` : ''}</dd>
<dt>Layout shifts</dt><dd>${count(r.page.shifts ?? 0)}${r.page.cls !== null && r.page.cls !== undefined ? `, CLS ${r.page.cls.toFixed(3)}` : ''}</dd>
<dt>DOM elements</dt><dd>${count(r.page.domElements)}</dd>
<dt>React components</dt><dd>${count(r.page.components)}</dd>
<dt>Layout Cost itself</dt><dd>${self}</dd>
</dl>
${shot}
${calibrationSection(r)}
<h2>Component types, costliest first</h2>
<table><thead><tr><th>Type</th><th class="n">Layout p50</th><th class="n">p95</th><th class="n">max</th><th class="n">Style p95</th><th class="n">Forced p95</th><th class="n">Forced reflows</th><th class="n">Rendered</th><th class="n">Authored</th><th class="n">Inflation</th></tr></thead>
<tbody>
${r.types.slice(0, TOP).map(typeRow).join('\n')}
</tbody></table>
${r.types.length > TOP ? `<p><small>${r.types.length - TOP} more types in report.json.</small></p>` : ''}
<h2>Instances that carried cost</h2>
${r.instances.length ? `<table><thead><tr><th>Instance</th><th class="n">Layout p50</th><th class="n">p95</th><th class="n">max</th><th class="n">Style p95</th><th class="n">Forced p95</th><th class="n">Forced reflows</th><th class="n">Rendered</th><th class="n">Inflation</th></tr></thead>
<tbody>
${instances}
</tbody></table>` : '<p>No component carried style or layout cost during the run.</p>'}
<p><small>Per-frame figures are inclusive (a component and everything under it) over every measured frame of the run; a frame in which a component carried no cost counts as 0 for it. Figures in report.json; the format is in layout-cost's docs/CI.md.</small></p>
</body>
</html>
`;
}
