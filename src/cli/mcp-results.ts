/**
 * What `layout-cost mcp` answers (issue 66; docs/AGENTS.md): each tool's input and output schemas, and the pure
 * functions that turn an audit's report, recording and snapshot, an experiment's results or a comparison into a
 * tool's result — `structuredContent` (its output schema) and a short text an agent reads first. Errors are results too
 * (`isError`), one line saying what to do. Pure, so it is unit-tested; the server and the browser are mcp.ts.
 */
import { z } from 'zod';
import type { Recording } from '../protocol/recording';
import type { Snapshot } from '../protocol/snapshot';
import type { ExperimentResult } from '../protocol/experiment';
import { cssRule } from '../devtools-panel/experiment-model';
import type { Comparison } from './compare';
import { percentile, type AuditReport } from './report';

/** Components listed by `measure`, costliest first. */
export const MAX_COMPONENTS = 50;
/** Forced-reflow sites (component and stack) listed. */
export const MAX_FORCED = 10;
/** Interactions and shifts listed (the worst). */
export const MAX_VITALS = 10;
/** Components named in a text. */
const TEXT_TOP = 5;
const round = (v: number): number => Math.round(v * 1000) / 1000;

// Inputs.
export const measureInput = {
  url: z.string().describe('The page to load (http, https or file URL): a dev server or a production build'),
  seconds: z.number().positive().max(120).optional().describe('How long to watch the page when there are no steps (default 5)'),
  steps: z.string().optional().describe('An ES module path: export default async (page) => { … } (puppeteer), as `layout-cost audit --steps` takes'),
};
export const diagnoseInput = {
  url: z.string().describe('The page to load'),
  component: z.string().describe('A component name as `measure` lists it'),
  steps: z.string().optional().describe('An ES module path run once before the experiments (to bring the page to the state to diagnose)'),
};
export const compareInput = {
  base: z.string().describe('A report set folder written by `layout-cost audit --config … --out DIR` (the base)'),
  head: z.string().describe('The same for the change (the head)'),
  threshold: z.number().gt(1).max(100).optional().describe('Slower by more than this many times (default 1.2)'),
};

// Outputs.
const componentOut = z.object({
  name: z.string(),
  instances: z.number(),
  layoutMs: z.number().describe('Layout ms per frame, p95, inclusive (itself and its descendants), its worst instance'),
  styleMs: z.number(),
  forcedMs: z.number(),
  selfLayoutMs: z.number().describe('Its own layout ms per frame, p95, all instances (its children not included)'),
  selfStyleMs: z.number(),
  selfForcedMs: z.number(),
  rendered: z.number().nullable().describe('DOM elements it materialises (at the end)'),
  authored: z.number().nullable().describe('Host elements it authored'),
  source: z.string().nullable().describe('file:line of its definition, through source maps where the page has them'),
  kind: z.enum(['own', 'library', 'framework']),
});
const forcedOut = z.object({
  component: z.string(),
  count: z.number(),
  ms: z.number().describe('Sum of the sampled reflows\' ms'),
  stack: z.string(),
  after: z.array(z.string()).describe('Components whose writes the reflow laid out'),
});
const dirtiedOut = z.object({ kind: z.string(), name: z.string(), on: z.string(), source: z.string(), perFrame: z.number() });
export const measureOutput = {
  url: z.string(),
  frames: z.number(),
  seconds: z.number(),
  page: z.object({
    layoutMsPerFrame: z.number(), styleMsPerFrame: z.number(), forcedMsPerFrame: z.number(),
    domElements: z.number(), components: z.number(), inp: z.number().nullable(), cls: z.number().nullable(),
  }),
  components: z.array(componentOut).describe('By their own cost (self layout + style + forced), costliest first'),
  dirtiedBy: z.object({ component: z.string(), items: z.array(dirtiedOut) }).nullable()
    .describe('What dirtied the costliest component (watched for a moment after the run)'),
  forcedReflows: z.array(forcedOut),
  interactions: z.array(z.object({ type: z.string(), duration: z.number(), component: z.string().nullable(), layoutMs: z.number() })),
  shifts: z.array(z.object({ value: z.number(), cause: z.string().nullable(), components: z.array(z.string()) })),
};
const conditionOut = z.object({ frames: z.number(), styleMs: z.number(), layoutMs: z.number(), forcedMs: z.number() });
export const diagnoseOutput = {
  component: z.string(),
  id: z.number(),
  experiments: z.array(z.object({
    css: z.string(),
    verdict: z.enum(['faster', 'no-gain', 'changes-rendering', 'inconclusive', 'failed']),
    speedup: z.number().nullable(),
    before: conditionOut.nullable(),
    after: conditionOut.nullable(),
    boxesCompared: z.number(),
    boxesChanged: z.number().describe('Its boxes that moved or resized with the declaration (0: rendering unchanged)'),
    reason: z.string(),
    rule: z.string().nullable().describe('The CSS rule to copy, when faster'),
  })),
};
const changeOut = z.object({
  route: z.string(), component: z.string(), base: z.number(), head: z.number(), ratio: z.number(),
  low: z.number().nullable(), high: z.number().nullable(), significant: z.boolean(),
});
export const compareOutput = {
  regressions: z.array(changeOut),
  improvements: z.array(changeOut),
  summary: z.string().describe('summary.md as `layout-cost compare` writes it'),
};

type Shape = Record<string, z.ZodTypeAny>;
export type Out<S extends Shape> = z.infer<z.ZodObject<S>>;
export type MeasureOut = Out<typeof measureOutput>;
export type DiagnoseOut = Out<typeof diagnoseOutput>;
export type CompareOut = Out<typeof compareOutput>;

export interface ToolResult {
  [k: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export function ok(structured: Record<string, unknown>, text: string): ToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/** A failure as a result: its first line, and what to do (never a stack). */
export function failed(e: unknown, hint = ''): ToolResult {
  const first = String((e as Error)?.message ?? e).split('\n')[0].slice(0, 400);
  return { content: [{ type: 'text', text: `${first}${hint ? ` — ${hint}` : ''}` }], isError: true };
}

/** Per type, its instances' own ms per frame summed, p95 over every frame of the recording (a frame without it: 0). */
function selfP95(rec: Recording, names: Map<number, string>): Map<string, { layout: number; style: number; forced: number }> {
  const perType = new Map<string, { layout: number[]; style: number[]; forced: number[] }>();
  const n = rec.frames.length;
  rec.frames.forEach((f, i) => {
    const sums = new Map<string, [number, number, number]>();
    for (const c of f.components) {
      const name = names.get(c.id) ?? rec.components[String(c.id)]?.name;
      if (name === undefined) continue;
      const s = sums.get(name) ?? [0, 0, 0];
      s[0] += c.selfLayoutMs;
      s[1] += c.selfStyleMs;
      s[2] += c.selfForcedMs;
      sums.set(name, s);
    }
    for (const [name, s] of sums) {
      let t = perType.get(name);
      if (t === undefined) perType.set(name, (t = { layout: new Array<number>(n).fill(0), style: new Array<number>(n).fill(0), forced: new Array<number>(n).fill(0) }));
      t.layout[i] = s[0];
      t.style[i] = s[1];
      t.forced[i] = s[2];
    }
  });
  const out = new Map<string, { layout: number; style: number; forced: number }>();
  for (const [name, t] of perType) {
    const p = (v: number[]): number => percentile(v, n, 95);
    out.set(name, { layout: p(t.layout), style: p(t.style), forced: p(t.forced) });
  }
  return out;
}

const where = (s: { file: string; line: number } | null | undefined): string | null => (s ? `${s.file}:${s.line}` : null);
const ownOf = (c: { selfLayoutMs: number; selfStyleMs: number; selfForcedMs: number }): number => c.selfLayoutMs + c.selfStyleMs + c.selfForcedMs;

/** `measure`'s result from one audited run. `dirtied`: the costliest component, watched pinned after the run. */
export function measureResult(report: AuditReport, rec: Recording, snap: Snapshot,
  dirtied: { component: string; items: Snapshot['components'][number]['dirtiedBy'] } | null): ToolResult {
  const names = new Map<number, string>();
  for (const [id, c] of Object.entries(rec.components)) names.set(Number(id), c.name);
  for (const c of snap.components) names.set(c.id, c.name);
  const self = selfP95(rec, names);
  const byName = new Map<string, Snapshot['components'][number]>();
  for (const c of snap.components) if (!byName.has(c.name) || (c.source && !byName.get(c.name)?.source)) byName.set(c.name, c);
  const components = report.types
    .map((t) => {
      const s = self.get(t.name) ?? { layout: 0, style: 0, forced: 0 };
      const c = byName.get(t.name);
      return {
        name: t.name, instances: t.instances,
        layoutMs: round(t.layoutMs.p95), styleMs: round(t.styleMs.p95), forcedMs: round(t.forcedMs.p95),
        selfLayoutMs: round(s.layout), selfStyleMs: round(s.style), selfForcedMs: round(s.forced),
        rendered: t.rendered, authored: t.authored, source: where(c?.source), kind: c?.kind ?? 'own',
      };
    })
    // Its own cost first (the one to fix; an ancestor's inclusive figures hold its children's), inclusive on a tie.
    .sort((a, b) => ownOf(b) - ownOf(a) || b.layoutMs - a.layoutMs)
    .slice(0, MAX_COMPONENTS);
  const sites = new Map<string, MeasureOut['forcedReflows'][number]>();
  for (const f of rec.frames) {
    for (const s of f.stacks) {
      const component = names.get(s.id) ?? (s.id === 0 ? '<page>' : `#${s.id}`);
      const key = `${component}\n${s.stack}`;
      const site = sites.get(key) ?? { component, count: 0, ms: 0, stack: s.stack.slice(0, 2000), after: [] };
      site.count++;
      site.ms = round(site.ms + s.ms);
      for (const a of s.after ?? []) if (!site.after.includes(a) && site.after.length < 5) site.after.push(a);
      sites.set(key, site);
    }
  }
  const forcedReflows = [...sites.values()].sort((a, b) => b.ms - a.ms).slice(0, MAX_FORCED);
  const interactions = [...(rec.interactions ?? [])].sort((a, b) => b.duration - a.duration).slice(0, MAX_VITALS)
    .map((i) => ({ type: i.type, duration: i.duration, component: i.target?.name ?? null, layoutMs: round(i.layoutMs + i.forcedMs) }));
  const shifts = [...(rec.shifts ?? [])].sort((a, b) => b.value - a.value).slice(0, MAX_VITALS)
    .map((s) => ({ value: round(s.value), cause: s.cause ? `${s.cause.name}: ${s.cause.reason}` : null, components: s.shifted.map((x) => x.name).slice(0, 5) }));
  const out: MeasureOut = {
    url: report.url, frames: report.frames, seconds: round(report.seconds),
    page: {
      layoutMsPerFrame: round(report.page.layoutMsPerFrame.p95), styleMsPerFrame: round(report.page.styleMsPerFrame.p95),
      forcedMsPerFrame: round(report.page.forcedMsPerFrame.p95), domElements: report.page.domElements,
      components: report.page.components, inp: report.page.inp, cls: report.page.cls,
    },
    components,
    dirtiedBy: dirtied === null ? null : { component: dirtied.component, items: dirtied.items.map((d) => ({ kind: d.kind, name: d.name, on: d.on, source: d.source, perFrame: round(d.perFrame) })) },
    forcedReflows, interactions, shifts,
  };
  return ok(out, measureText(out));
}

function measureText(m: MeasureOut): string {
  const lines = [`${m.frames} frames measured over ${m.seconds.toFixed(1)} s on ${m.url}; page layout ${m.page.layoutMsPerFrame} ms, style ${m.page.styleMsPerFrame} ms per frame (p95); ${m.page.components} components, ${m.page.domElements} DOM elements.`];
  if (m.frames === 0) lines.push('Nothing changed on the page while it was measured: pass steps that interact with it, or watch longer (seconds).');
  const top = m.components.filter((c) => ownOf(c) > 0).slice(0, TEXT_TOP);
  if (top.length > 0) lines.push('Costliest components by their own cost (ms per frame, p95, all instances together):');
  for (const [i, c] of top.entries()) {
    const forced = c.selfForcedMs > 0 || c.forcedMs > 0;
    lines.push(`${i + 1}. ${c.name}${c.instances > 1 ? ` ×${c.instances}` : ''}: own layout ${c.selfLayoutMs}, style ${c.selfStyleMs}${forced ? `, forced ${c.selfForcedMs}` : ''}`
      + ` (with its children: layout ${c.layoutMs}, style ${c.styleMs}${forced ? `, forced ${c.forcedMs}` : ''}${c.instances > 1 ? ', its costliest instance' : ''});`
      + ` ${c.rendered ?? '?'} elements for ${c.authored ?? '?'} authored${c.source ? `; ${c.source}` : ''}${c.kind !== 'own' ? ` (${c.kind})` : ''}`);
  }
  if (m.dirtiedBy && m.dirtiedBy.items.length > 0) {
    lines.push(`What dirtied ${m.dirtiedBy.component}: ${m.dirtiedBy.items.map((d) => `${d.perFrame.toFixed(1)} ${d.kind === 'attribute' ? `\`${d.name}\`` : d.kind} changes on ${d.on.toUpperCase()} per frame from ${d.source === 'react' ? 'the framework' : 'other code'}`).join('; ')}.`);
  }
  if (m.forcedReflows.length > 0) {
    const f = m.forcedReflows[0];
    lines.push(`Forced reflows: ${m.forcedReflows.reduce((t, x) => t + x.count, 0)} sampled; the worst in ${f.component} (${f.ms} ms over ${f.count})${f.after.length > 0 ? `, laying out writes of ${f.after.join(', ')}` : ''}: ${f.stack.split('\n')[0]}`);
  }
  if (m.page.inp !== null) lines.push(`INP ${m.page.inp} ms over ${m.interactions.length} interactions.`);
  if (m.page.cls !== null) lines.push(`CLS ${m.page.cls.toFixed(3)}${m.shifts[0]?.cause ? `; the largest shift: ${m.shifts[0].cause}` : ''}.`);
  if (top.length > 0) lines.push(`Next: diagnose { url, component: "${top[0].name}" } tries containment on it, measured on the live page.`);
  return lines.join('\n');
}

export interface Tried {
  css: string;
  result: ExperimentResult | null;
  error: string | null;
}

/** `diagnose`'s result: each declaration tried, with the rule to copy for one that was faster. */
export function diagnoseResult(component: string, id: number, tried: readonly Tried[]): ToolResult {
  const experiments: DiagnoseOut['experiments'] = tried.map(({ css, result: r, error }) => {
    if (r === null) {
      return { css, verdict: 'failed', speedup: null, before: null, after: null, boxesCompared: 0, boxesChanged: 0, reason: error ?? 'it did not run', rule: null };
    }
    const cond = (c: ExperimentResult['before']): z.infer<typeof conditionOut> => ({ frames: c.frames, styleMs: round(c.styleMs), layoutMs: round(c.layoutMs), forcedMs: round(c.forcedMs) });
    return {
      css, verdict: r.verdict, speedup: r.speedup === null ? null : round(r.speedup), before: cond(r.before), after: cond(r.after),
      boxesCompared: r.boxesCompared, boxesChanged: r.boxesChanged, reason: r.reason,
      rule: r.verdict === 'faster' ? cssRule(r) : null,
    };
  });
  const out: DiagnoseOut = { component, id, experiments };
  const best = experiments.filter((e) => e.verdict === 'faster').sort((a, b) => (b.speedup ?? 0) - (a.speedup ?? 0))[0];
  const lines = [`${experiments.length} experiments on ${component} (#${id}), each measured A/B on the live page:`];
  for (const e of experiments) {
    lines.push(`- ${e.css}: ${e.verdict}${e.speedup !== null ? ` ×${e.speedup}` : ''}${e.before && e.after ? ` (${(e.before.styleMs + e.before.layoutMs + e.before.forcedMs).toFixed(2)} → ${(e.after.styleMs + e.after.layoutMs + e.after.forcedMs).toFixed(2)} ms per frame)` : ''}; ${e.reason}`);
  }
  lines.push(best ? `Best: ${best.css}, rendering unchanged (${best.boxesChanged} of ${best.boxesCompared} boxes moved). Rule:\n${best.rule}` : 'None was faster with the rendering unchanged.');
  return ok(out, lines.join('\n'));
}

/** `compare`'s result: regressions and improvements past the threshold, and summary.md. */
export function compareResult(c: Comparison, summary: string): ToolResult {
  const change = (x: Comparison['regressions'][number]): CompareOut['regressions'][number] => ({
    route: x.route, component: x.component, base: x.base, head: x.head, ratio: x.ratio, low: x.low, high: x.high, significant: x.significant,
  });
  const out: CompareOut = { regressions: c.regressions.map(change), improvements: c.improvements.map(change), summary };
  const sig = out.regressions.filter((r) => r.significant);
  const text = `${sig.length} significant regression${sig.length === 1 ? '' : 's'}`
    + `${sig.length > 0 ? `: ${sig.slice(0, TEXT_TOP).map((r) => `${r.component} on ${r.route} ×${r.ratio}`).join(', ')}` : ''}; `
    + `${out.improvements.filter((r) => r.significant).length} significant improvements.\n\n${summary.trim()}`;
  return ok(out, text);
}
