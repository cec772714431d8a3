/**
 * What `layout-cost audit` writes to report.json (issue 14; docs/CI.md): from
 * one recording of the run and the snapshot at its end, per component
 * instance and per type the p50 / p95 / max style, layout and forced ms per
 * frame, forced reflows, rendered, authored and inflation; the page's totals;
 * the tool's own cost; and each budget check with its verdict. Pure, so it is
 * unit-tested; the browser side is run.ts.
 *
 * Per-frame figures are over every frame of the recording: a frame in which
 * an instance carried no cost counts as 0 for it (a component that lays out
 * 40 ms once in 300 frames has p95 0 and max 40 — budget it at "max").
 */
import type { Recording } from '../protocol/recording';
import type { SelfCost, Snapshot } from '../protocol/snapshot';
import { budgetFor, METRICS, type Budget, type Metric, type Stat } from './budget';
import type { CalibrationReport } from './calibrate';

export const REPORT_VERSION = 1;
/** Instances listed in the report, costliest first (every type is listed). */
export const MAX_INSTANCES = 2000;
const MAX_TYPES = 5000;
const MAX_PATH = 6;

export interface Dist {
  p50: number;
  p95: number;
  max: number;
}

/** A component's figures over the run: per-frame ms, forced reflows, and its counts at the end. */
export interface Figures {
  styleMs: Dist;
  layoutMs: Dist;
  forcedMs: Dist;
  forcedCount: number;
  /** At the end of the run (null: unmounted by then). */
  rendered: number | null;
  authored: number | null;
  inflation: number | null;
  /** Its own layout + forced ms in an interaction, p95 over the run's interactions (0 in one it had no part in). */
  interactionLayoutMs: number;
  /** The layout shift it caused: the sum of the values of the shifts whose cause it was. */
  cls: number;
}

export interface InstanceReport extends Figures {
  id: number;
  name: string;
  key: string | null;
  /** Its owners, outermost first (at most 6), then itself: "App › Panel › Heavy". */
  path: string;
}

/** A component type: its worst instance's figures. */
export interface TypeReport extends Figures {
  name: string;
  /** Instances at the end of the run, or seen carrying cost. */
  instances: number;
  /** All instances together: mean inclusive layout ms per frame (outermost instances only). */
  totalLayoutMsPerFrame: number;
  /**
   * Its own style + layout ms per frame, all its instances together (self cost: what its children did is theirs), over
   * every frame of the run: what `layout-cost compare` compares (issue 47; inclusive figures would flag every
   * ancestor of a slower child).
   */
  ownMsPerFrame: Dist;
}

export interface Check {
  /** "Heavy: layoutMs p95" — the JUnit test case's name. */
  id: string;
  target: 'component' | 'page';
  /** The component type, or "page". */
  name: string;
  metric: Metric | 'layoutMsPerFrame' | 'domElements' | 'inp' | 'cls';
  stat: Stat | null;
  value: number;
  limit: number;
  level: 'error' | 'warn';
  pass: boolean;
  /** The budget entry that set it: a key of `components`, "defaults" or "page". */
  entry: string;
  /** The instance that decided it (the worst one). */
  instance: { id: number; key: string | null; path: string } | null;
  message: string;
}

export interface AuditReport {
  kind: 'layout-cost-report';
  version: number;
  tool: { name: 'layout-cost'; version: string };
  url: string;
  browser: string;
  date: string;
  seconds: number;
  frames: number;
  droppedFrames: number;
  page: {
    styleMsPerFrame: Dist;
    layoutMsPerFrame: Dist;
    forcedMsPerFrame: Dist;
    forcedCount: number;
    /** Elements in the document (open shadow roots included, ours left out), by the CLI's own DOM walk. */
    domElements: number;
    components: number;
    /** INP over the run (null: no interaction of 16 ms or more), and how many interactions and shifts there were. */
    inp: number | null;
    cls: number | null;
    interactions: number;
    shifts: number;
  };
  self: SelfCost | null;
  /** `--calibrate`: the pass's shares and the factors the figures below were scaled by (absent: not calibrated). */
  calibration?: CalibrationReport;
  types: TypeReport[];
  instances: InstanceReport[];
  instancesLeftOut: number;
  checks: Check[];
  passed: boolean;
  failures: number;
  warnings: number;
}

export interface AuditInput {
  url: string;
  browser: string;
  toolVersion: string;
  seconds: number;
  recording: Recording;
  snapshot: Snapshot;
  domElements: number;
  date?: Date;
  /** The recording's figures were scaled by this calibration (calibrated.ts `applyCalibration`). */
  calibration?: CalibrationReport;
}

/** Nearest-rank percentile of `n` values of which `values` are the non-zero ones (the rest are 0). */
export function percentile(values: readonly number[], n: number, p: number): number {
  if (n <= 0 || values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * n));
  const zeros = n - sorted.length;
  return rank <= zeros ? 0 : sorted[Math.min(sorted.length - 1, rank - zeros - 1)];
}

export function dist(values: readonly number[], n: number): Dist {
  return { p50: percentile(values, n, 50), p95: percentile(values, n, 95), max: percentile(values, n, 100) };
}

/**
 * Own (self) style + layout ms by type in each frame it had any: each frame's sum over the type's instances (the other
 * frames of the run are zeros). What compare's figure is the p95 of, and what its bootstrap resamples (issue 65).
 */
export function ownFramesByName(input: AuditInput): Map<string, number[]> {
  const { recording: rec, snapshot: snap } = input;
  const live = new Map(snap.components.map((c) => [c.id, c.name]));
  const nameOf = (id: number): string | undefined => live.get(id) ?? rec.components[String(id)]?.name;
  const ownByName = new Map<string, number[]>();
  for (const f of rec.frames) {
    const inFrame = new Map<string, number>();
    for (const c of f.components) {
      if (c.id === 0) continue;
      const v = c.selfStyleMs + c.selfLayoutMs;
      if (!(v > 0)) continue;
      const name = nameOf(c.id);
      if (name !== undefined) inFrame.set(name, (inFrame.get(name) ?? 0) + v);
    }
    for (const [name, v] of inFrame) {
      const l = ownByName.get(name);
      if (l) l.push(v);
      else ownByName.set(name, [v]);
    }
  }
  return ownByName;
}

const ZERO: Dist = { p50: 0, p95: 0, max: 0 };
const round = (v: number, digits = 3): number => Number(v.toFixed(digits));
const roundDist = (d: Dist): Dist => ({ p50: round(d.p50), p95: round(d.p95), max: round(d.max) });

interface Acc {
  id: number;
  style: number[];
  layout: number[];
  forced: number[];
  forcedCount: number;
  layoutSum: number;
}

export function buildReport(input: AuditInput, budget: Budget): AuditReport {
  const { recording: rec, snapshot: snap } = input;
  const n = rec.frames.length;
  const acc = new Map<number, Acc>();
  const pageStyle: number[] = [], pageLayout: number[] = [], pageForced: number[] = [];
  let pageForcedCount = 0;
  for (const f of rec.frames) {
    if (f.styleMs > 0) pageStyle.push(f.styleMs);
    if (f.layoutMs > 0) pageLayout.push(f.layoutMs);
    if (f.forcedMs > 0) pageForced.push(f.forcedMs);
    for (const c of f.components) {
      if (c.id === 0) {
        pageForcedCount += c.forcedCount;
        continue;
      }
      let a = acc.get(c.id);
      if (!a) acc.set(c.id, (a = { id: c.id, style: [], layout: [], forced: [], forcedCount: 0, layoutSum: 0 }));
      if (c.styleMs > 0) a.style.push(c.styleMs);
      if (c.layoutMs > 0) a.layout.push(c.layoutMs);
      if (c.forcedMs > 0) a.forced.push(c.forcedMs);
      a.forcedCount += c.forcedCount;
      a.layoutSum += c.layoutMs;
    }
  }

  // Names, owners and counts: the snapshot (live at the end) first, the recording for what unmounted meanwhile.
  const live = new Map(snap.components.map((c) => [c.id, c]));
  const info = (id: number): { name: string; parentId: number | null; key: string | null } | null =>
    live.get(id) ?? rec.components[String(id)] ?? null;
  const pathOf = (id: number): string => {
    const names: string[] = [];
    let cur: number | null = id;
    for (let hops = 0; cur !== null && hops <= MAX_PATH; hops++) {
      const i = info(cur);
      if (!i) break;
      names.unshift(i.name);
      cur = i.parentId;
    }
    return names.join(' › ');
  };
  const inflationOf = (rendered: number, portaledIn: number, authored: number): number | null =>
    authored > 0 ? round(Math.max(0, rendered - portaledIn) / authored, 2) : null;

  // Interactions and shifts (issue 46): each instance's own layout + forced ms per interaction, and the shifts it caused.
  const interactions = snap.interactions ?? [];
  const perInteraction = new Map<number, number[]>();
  for (const it of interactions) {
    for (const c of it.components) {
      const v = c.layoutMs + c.forcedMs;
      if (v <= 0) continue;
      const l = perInteraction.get(c.id);
      if (l) l.push(v);
      else perInteraction.set(c.id, [v]);
    }
  }
  const caused = new Map<number, number>();
  for (const sh of snap.shifts ?? []) if (sh.cause) caused.set(sh.cause.id, (caused.get(sh.cause.id) ?? 0) + sh.value);
  const instances: InstanceReport[] = [];
  const ids = new Set<number>([...acc.keys(), ...live.keys(), ...perInteraction.keys(), ...caused.keys()]);
  for (const id of ids) {
    const i = info(id);
    if (!i) continue;
    const a = acc.get(id);
    const s = live.get(id);
    instances.push({
      id, name: i.name, key: i.key, path: pathOf(id),
      styleMs: a ? roundDist(dist(a.style, n)) : ZERO, layoutMs: a ? roundDist(dist(a.layout, n)) : ZERO,
      forcedMs: a ? roundDist(dist(a.forced, n)) : ZERO, forcedCount: a?.forcedCount ?? 0,
      rendered: s ? s.rendered : null, authored: s ? s.authored : null,
      inflation: s ? inflationOf(s.rendered, s.portaledIn, s.authored) : null,
      interactionLayoutMs: round(percentile(perInteraction.get(id) ?? [], interactions.length, 95)),
      cls: round(caused.get(id) ?? 0, 4),
    });
  }

  // Types: the worst instance per figure; the total over outermost instances (one inside another of the same
  // type is already in that one's inclusive figures).
  const byName = new Map<string, InstanceReport[]>();
  for (const r of instances) {
    const list = byName.get(r.name);
    if (list) list.push(r);
    else byName.set(r.name, [r]);
  }
  const nestedInSame = (id: number, name: string): boolean => {
    let p = info(id)?.parentId ?? null;
    for (let hops = 0; p !== null && hops < 10_000; hops++) {
      const i = info(p);
      if (!i) return false;
      if (i.name === name) return true;
      p = i.parentId;
    }
    return false;
  };
  const worst = (list: InstanceReport[], f: (r: InstanceReport) => number | null): number | null => {
    let m: number | null = null;
    for (const r of list) {
      const v = f(r);
      if (v !== null && (m === null || v > m)) m = v;
    }
    return m;
  };
  const worstDist = (list: InstanceReport[], f: (r: InstanceReport) => Dist): Dist => ({
    p50: worst(list, (r) => f(r).p50) ?? 0, p95: worst(list, (r) => f(r).p95) ?? 0, max: worst(list, (r) => f(r).max) ?? 0,
  });
  const ownByName = ownFramesByName(input);
  const types: TypeReport[] = [];
  for (const [name, list] of byName) {
    let total = 0;
    for (const r of list) if (!nestedInSame(r.id, name)) total += acc.get(r.id)?.layoutSum ?? 0;
    types.push({
      name, instances: list.length, styleMs: worstDist(list, (r) => r.styleMs), layoutMs: worstDist(list, (r) => r.layoutMs),
      forcedMs: worstDist(list, (r) => r.forcedMs), forcedCount: worst(list, (r) => r.forcedCount) ?? 0,
      rendered: worst(list, (r) => r.rendered), authored: worst(list, (r) => r.authored), inflation: worst(list, (r) => r.inflation),
      interactionLayoutMs: worst(list, (r) => r.interactionLayoutMs) ?? 0, cls: round(list.reduce((t, r) => t + r.cls, 0), 4),
      totalLayoutMsPerFrame: round(n > 0 ? total / n : 0), ownMsPerFrame: roundDist(dist(ownByName.get(name) ?? [], n)),
    });
  }
  const cost = (d: Figures): number => d.layoutMs.p95 + d.styleMs.p95 + d.forcedMs.p95
    + (d.layoutMs.max + d.styleMs.max + d.forcedMs.max) / 1e3;
  types.sort((a, b) => cost(b) - cost(a) || b.totalLayoutMsPerFrame - a.totalLayoutMsPerFrame || a.name.localeCompare(b.name));

  const checks = [...componentChecks(budget, byName, n), ...pageChecks(budget, input, rec, n)];
  const carried = instances.filter((r) => r.layoutMs.max + r.styleMs.max + r.forcedMs.max > 0 || r.forcedCount > 0
    || r.interactionLayoutMs > 0 || r.cls > 0);
  carried.sort((a, b) => cost(b) - cost(a) || a.id - b.id);
  const failures = checks.filter((c) => !c.pass).length;
  return {
    kind: 'layout-cost-report', version: REPORT_VERSION, tool: { name: 'layout-cost', version: input.toolVersion },
    url: input.url, browser: input.browser, date: (input.date ?? new Date()).toISOString(), seconds: input.seconds,
    frames: n, droppedFrames: rec.droppedFrames,
    page: {
      styleMsPerFrame: roundDist(dist(pageStyle, n)), layoutMsPerFrame: roundDist(dist(pageLayout, n)),
      forcedMsPerFrame: roundDist(dist(pageForced, n)),
      forcedCount: pageForcedCount + [...acc.values()].reduce((t, a) => t + (info(a.id)?.parentId == null ? a.forcedCount : 0), 0),
      domElements: input.domElements, components: snap.components.length,
      inp: snap.inp?.value ?? null, cls: snap.cls === null || snap.cls === undefined ? null : round(snap.cls, 4),
      interactions: interactions.length, shifts: (snap.shifts ?? []).length,
    },
    self: snap.self ? { msPerFrame: round(snap.self.msPerFrame), mainThreadShare: round(snap.self.mainThreadShare, 4) } : null,
    ...(input.calibration ? { calibration: input.calibration } : {}),
    types: types.slice(0, MAX_TYPES), instances: carried.slice(0, MAX_INSTANCES), instancesLeftOut: Math.max(0, carried.length - MAX_INSTANCES),
    checks, passed: failures === 0, failures, warnings: checks.filter((c) => c.level === 'warn' && c.value > c.limit).length,
  };
}

const UNIT: Record<Metric, string> = {
  layoutMs: 'ms of layout per frame', styleMs: 'ms of style per frame', forcedMs: 'ms of forced reflow per frame',
  forcedCount: 'forced reflows', rendered: 'elements rendered', inflation: '× inflation (rendered ÷ authored)',
  interactionLayoutMs: 'ms of its own layout and forced reflows in an interaction at p95', cls: 'of layout shift caused',
};

function fmt(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(v < 10 ? 2 : 1);
}

function componentChecks(budget: Budget, byName: Map<string, InstanceReport[]>, frames: number): Check[] {
  const out: Check[] = [];
  const names = [...byName.keys()].sort((a, b) => a.localeCompare(b));
  for (const name of names) {
    const { budget: b, entry } = budgetFor(budget, name);
    const list = byName.get(name) as InstanceReport[];
    for (const metric of METRICS) {
      const lim = b[metric];
      if (lim === undefined) continue;
      const stat: Stat | null = metric === 'layoutMs' || metric === 'styleMs' || metric === 'forcedMs' ? b.stat ?? 'p95' : null;
      const valueOf = (r: InstanceReport): number | null => {
        if (metric === 'layoutMs' || metric === 'styleMs' || metric === 'forcedMs') return r[metric][stat as Stat];
        return r[metric];
      };
      let top: InstanceReport | null = null;
      let value = 0;
      for (const r of list) {
        const v = valueOf(r);
        if (v !== null && (top === null || v > value)) {
          top = r;
          value = v;
        }
      }
      const pass = value <= lim;
      const at = stat ? ` at ${stat}` : '';
      const which = list.length > 1 && top ? ` (worst of ${list.length} instances${top.key !== null ? `: key ${JSON.stringify(top.key)}` : ''})` : '';
      const from = entry === null ? 'defaults' : `components[${JSON.stringify(entry)}]`;
      out.push({
        id: `${name}: ${metric}${stat ? ` ${stat}` : ''}`, target: 'component', name, metric, stat, value: round(value), limit: lim,
        level: 'error', pass, entry: entry ?? 'defaults',
        instance: top ? { id: top.id, key: top.key, path: top.path } : null,
        message: `${name}: ${fmt(value)} ${UNIT[metric]}${at}${which} ${pass ? 'is within' : 'is over'} its budget of ${fmt(lim)} (${from}`
          + `${frames === 0 && stat ? '; no frames were measured' : ''})`,
      });
    }
  }
  return out;
}

function pageChecks(budget: Budget, input: AuditInput, rec: Recording, n: number): Check[] {
  const out: Check[] = [];
  const p = budget.page;
  if (p.layoutMsPerFrame !== undefined) {
    const stat = p.stat ?? 'p95';
    const d = dist(rec.frames.filter((f) => f.layoutMs > 0).map((f) => f.layoutMs), n);
    const value = round(d[stat]);
    const pass = value <= p.layoutMsPerFrame;
    out.push({
      id: `page: layoutMsPerFrame ${stat}`, target: 'page', name: 'page', metric: 'layoutMsPerFrame', stat, value,
      limit: p.layoutMsPerFrame, level: 'error', pass, entry: 'page', instance: null,
      message: `The page: ${fmt(value)} ms of layout per frame at ${stat} ${pass ? 'is within' : 'is over'} its budget of ${fmt(p.layoutMsPerFrame)} (page.layoutMsPerFrame)`,
    });
  }
  const snap = input.snapshot;
  const vital = (metric: 'inp' | 'cls', lim: number | undefined, value: number | null, what: string, none: string): void => {
    if (lim === undefined) return;
    const v = value ?? 0;
    const pass = v <= lim;
    out.push({
      id: `page: ${metric}`, target: 'page', name: 'page', metric, stat: null, value: round(v, metric === 'cls' ? 4 : 2), limit: lim,
      level: 'error', pass, entry: 'page', instance: null,
      message: value === null ? `The page: ${none} (page.${metric} ${fmt(lim)} holds)`
        : `The page: ${what} ${fmt(v)} ${pass ? 'is within' : 'is over'} its budget of ${fmt(lim)} (page.${metric})`,
    });
  };
  vital('inp', p.inp, snap.inp?.value ?? null, 'INP', 'no interaction of 16 ms or more in the run (steps that click or type make some)');
  vital('cls', p.cls, snap.cls ?? null, 'CLS', 'no layout shift in the run');
  const dom = p.domElements;
  if (dom && (dom.error !== null || dom.warn !== null)) {
    const v = input.domElements;
    const failed = dom.error !== null && v > dom.error;
    const warned = !failed && dom.warn !== null && v > dom.warn;
    const limit = failed || dom.warn === null ? (dom.error as number) : dom.warn;
    out.push({
      id: 'page: domElements', target: 'page', name: 'page', metric: 'domElements', stat: null, value: v, limit,
      level: failed || dom.warn === null ? 'error' : 'warn', pass: !failed, entry: 'page', instance: null,
      message: `The page has ${v} DOM elements: ${failed ? `over the error threshold of ${dom.error}`
        : warned ? `over the warning threshold of ${dom.warn} (an error above ${dom.error ?? 'no limit'})`
          : `within ${dom.warn !== null ? `the warning threshold of ${dom.warn}` : `the limit of ${dom.error}`}`} (page.domElements)`,
    });
  }
  return out;
}
