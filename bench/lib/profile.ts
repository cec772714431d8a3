/**
 * Attribution of a CDP CPU profile (Profiler.stop) to scripts, as SPEC §6 and
 * TESTING.md prescribe:
 *  - each sample is charged to the nearest frame (itself or an ancestor) that
 *    has a script URL: V8 puts native work (getBoundingClientRect,
 *    getAnimations, canvas calls, observers) in URL-less nodes named after
 *    the API, so a script pays for the native work it asks for;
 *  - `(program)` (the browser's own style/layout/paint outside any script)
 *    and `(garbage collector)` stay unattributed; `(idle)` is idle;
 *  - a sample lasts until the next one (timeDeltas), so a coarse or irregular
 *    sampler still sums to wall time.
 */
import path from 'node:path';
import type { CDPSession } from 'puppeteer-core';
import { SourceMap } from './sourcemap';

export interface CallFrame {
  functionName: string;
  scriptId: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
export interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** Self cost of one function (native work it called included). */
export interface FunctionCost {
  url: string;
  functionName: string;
  lineNumber: number;
  columnNumber: number;
  /** Charged ms: JS self time plus `nativeMs`. */
  ms: number;
  /** Of which native (URL-less callee) work, by API name. */
  nativeMs: number;
  natives: Map<string, number>;
  /** Charged ms by calling frame (the nearest URL frame above this one), keyed like `functions`. */
  callers: Map<string, number>;
}

export interface Attribution {
  /** Profile window (ms). */
  windowMs: number;
  idleMs: number;
  /** Everything but idle. */
  busyMs: number;
  programMs: number;
  gcMs: number;
  /** Native work with no script anywhere above it. */
  unattributedMs: number;
  /** Native work a pass-through wrapper did for its caller, charged to the caller instead (see `AttributeOptions`). */
  passedMs: number;
  /** Charged ms per script URL. */
  byUrl: Map<string, number>;
  /** Per function (key: url:line:col:name). */
  functions: Map<string, FunctionCost>;
  samples: number;
}

/** `url:line:column:name`, 0-based line and column as in the profile. */
export function frameKey(cf: CallFrame): string {
  return `${cf.url}:${cf.lineNumber}:${cf.columnNumber}:${cf.functionName}`;
}

/** Inverse of frameKey (URLs contain ':', names may too: split from the URL's end). */
export function parseFrameKey(key: string): CallFrame | null {
  const m = /^(.*):(-?\d+):(-?\d+):(.*)$/.exec(key);
  return m ? { url: m[1], lineNumber: Number(m[2]), columnNumber: Number(m[3]), functionName: m[4], scriptId: '' } : null;
}

const IDLE = '(idle)';
const PROGRAM = '(program)';
const GC = '(garbage collector)';
const ROOT = '(root)';

export interface AttributeOptions {
  /**
   * True when `owner` is a pass-through wrapper that called the native `api`
   * for `caller` (the page's own call, forwarded): the sample is charged to
   * the caller, as it would have been without the wrapper.
   */
  passThrough?(owner: CallFrame, api: string, caller: CallFrame): boolean;
}

/**
 * The profile with each sample charged at most `factor` times the median interval. `attribute` charges a sample the
 * time to the next one; about 300 times in an 8 s window of the 100 % grid the next sample comes more than 1 ms later
 * (a tenth of the window in all), and what the thread did meanwhile is not known. Those gaps follow JavaScript far more
 * often than the rendering step (a third of our JS's charge, a sixth of the page's, 3–5 % of `(program)`'s:
 * docs/PERFORMANCE.md, "Thirty-fifth session"), so a few of them decided a round's own time. Bounded, each sample
 * counts about alike: the spread of one build's rounds shrinks several-fold. Shown beside the charged figure, not
 * judged.
 */
export function capGaps(profile: CpuProfile, factor = 3): CpuProfile {
  const deltas = profile.timeDeltas ?? [];
  if (deltas.length < 2) return profile;
  const sorted = [...deltas].sort((x, y) => x - y);
  const cap = factor * sorted[sorted.length >> 1];
  // timeDeltas[i] is the time from sample i−1 to sample i: sample i−1's charge. The first one (from the start) stays.
  const capped = deltas.map((d, i) => (i === 0 ? d : Math.min(d, cap)));
  let t = profile.startTime, last = profile.startTime;
  for (let i = 0; i < deltas.length; i++) {
    t += capped[i];
    last += deltas[i];
  }
  // The last sample's charge runs to the end of the window: bounded alike.
  return { ...profile, timeDeltas: capped, endTime: t + Math.max(0, Math.min(profile.endTime - last, cap)) };
}

export function attribute(profile: CpuProfile, opts: AttributeOptions = {}): Attribution {
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const n of profile.nodes) byId.set(n.id, n);
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  /** Nearest node with a URL (itself or an ancestor), memoised; null if none. */
  const ownerMemo = new Map<number, ProfileNode | null>();
  const ownerOf = (id: number): ProfileNode | null => {
    const hit = ownerMemo.get(id);
    if (hit !== undefined) return hit;
    const n = byId.get(id);
    let r: ProfileNode | null = null;
    if (n) {
      if (n.callFrame.url) r = n;
      else {
        const p = parent.get(id);
        r = p === undefined ? null : ownerOf(p);
      }
    }
    ownerMemo.set(id, r);
    return r;
  };

  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  const ts = new Array<number>(samples.length);
  let t = profile.startTime;
  for (let i = 0; i < samples.length; i++) {
    t += deltas[i] ?? 0;
    ts[i] = t;
  }

  const out: Attribution = {
    windowMs: (profile.endTime - profile.startTime) / 1000,
    idleMs: 0, busyMs: 0, programMs: 0, gcMs: 0, unattributedMs: 0, passedMs: 0,
    byUrl: new Map(), functions: new Map(), samples: samples.length,
  };
  for (let i = 0; i < samples.length; i++) {
    const next = i + 1 < samples.length ? ts[i + 1] : profile.endTime;
    const ms = Math.max(0, next - ts[i]) / 1000;
    const leaf = byId.get(samples[i]);
    if (!leaf) continue;
    const name = leaf.callFrame.functionName;
    if (!leaf.callFrame.url) {
      if (name === IDLE) { out.idleMs += ms; continue; }
      if (name === PROGRAM || name === ROOT) { out.programMs += ms; out.busyMs += ms; continue; }
      if (name === GC) { out.gcMs += ms; out.busyMs += ms; continue; }
    }
    out.busyMs += ms;
    let owner = ownerOf(leaf.id);
    if (owner === null) {
      out.unattributedMs += ms;
      continue;
    }
    if (owner !== leaf && opts.passThrough) {
      const up = parent.get(owner.id);
      const caller = up === undefined ? null : ownerOf(up);
      if (caller !== null && opts.passThrough(owner.callFrame, name, caller.callFrame)) {
        owner = caller;
        out.passedMs += ms;
      }
    }
    const cf = owner.callFrame;
    out.byUrl.set(cf.url, (out.byUrl.get(cf.url) ?? 0) + ms);
    const key = frameKey(cf);
    let f = out.functions.get(key);
    if (!f) {
      f = { url: cf.url, functionName: cf.functionName, lineNumber: cf.lineNumber, columnNumber: cf.columnNumber,
        ms: 0, nativeMs: 0, natives: new Map(), callers: new Map() };
      out.functions.set(key, f);
    }
    f.ms += ms;
    const up = parent.get(owner.id);
    const caller = up === undefined ? null : ownerOf(up);
    const ck = caller === null ? '(none)' : frameKey(caller.callFrame);
    f.callers.set(ck, (f.callers.get(ck) ?? 0) + ms);
    if (owner !== leaf) {
      f.nativeMs += ms;
      const api = name || '(anonymous native)';
      f.natives.set(api, (f.natives.get(api) ?? 0) + ms);
    }
  }
  return out;
}

/** Sum of charged ms over URLs that satisfy `pred`. */
export function msWhere(a: Attribution, pred: (url: string) => boolean): number {
  let s = 0;
  for (const [u, ms] of a.byUrl) if (pred(u)) s += ms;
  return s;
}

/** Functions whose URL satisfies `pred`, most expensive first. */
export function topFunctions(a: Attribution, pred: (url: string) => boolean, n: number): FunctionCost[] {
  return [...a.functions.values()].filter((f) => pred(f.url)).sort((x, y) => y.ms - x.ms).slice(0, n);
}

/** Merges several attributions (e.g. the repeats of one configuration) for a hot-spot list. */
export function mergeFunctions(list: Attribution[]): Map<string, FunctionCost> {
  const out = new Map<string, FunctionCost>();
  for (const a of list) {
    for (const [k, f] of a.functions) {
      let g = out.get(k);
      if (!g) {
        g = { ...f, ms: 0, nativeMs: 0, natives: new Map(), callers: new Map() };
        out.set(k, g);
      }
      g.ms += f.ms;
      g.nativeMs += f.nativeMs;
      for (const [api, ms] of f.natives) g.natives.set(api, (g.natives.get(api) ?? 0) + ms);
      for (const [c, ms] of f.callers) g.callers.set(c, (g.callers.get(c) ?? 0) + ms);
    }
  }
  return out;
}

/** A CPU profile of the page for `ms` (CDP Profiler, `intervalUs` sampling). */
export async function profileFor(cdp: CDPSession, ms: number, intervalUs = 100): Promise<CpuProfile> {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: intervalUs });
  await cdp.send('Profiler.start');
  await new Promise((r) => setTimeout(r, ms));
  const { profile } = await cdp.send('Profiler.stop') as { profile: CpuProfile };
  return profile;
}

/** Names a build's functions through its source maps (`<dist>/<file>.map`, loaded once each). */
export class BuildNames {
  private readonly maps = new Map<string, SourceMap | null>();
  constructor(private readonly dist: string) {}

  /** The function's original name and `source:line`, or its bundle name and file when the map does not say. */
  of(f: { url: string; functionName: string; lineNumber: number; columnNumber: number }): { name: string; source: string } {
    const file = f.url.slice(f.url.lastIndexOf('/') + 1);
    if (!this.maps.has(file)) this.maps.set(file, SourceMap.load(path.join(this.dist, `${file}.map`)));
    const pos = this.maps.get(file)?.lookup(f.lineNumber, f.columnNumber) ?? null;
    return { name: pos?.name ?? (f.functionName || '(anonymous)'), source: pos ? `${pos.source}:${pos.line}` : file };
  }
}

/**
 * The extension's rooms, for splitting its own JS by where it runs and what it does (bench/own-js.ts): the first
 * whose source path (from the build's source maps, `src/…:line`) starts with one of its prefixes; the last, "other",
 * takes what no source map names (a bundle file: the build's helpers, webpack's runtime).
 */
export const ROOMS: readonly { room: string; prefixes: readonly string[] }[] = [
  { room: 'agent: React adapter (MAIN)', prefixes: ['src/inject/agent/react/'] },
  { room: 'agent: pipeline and timing (MAIN)', prefixes: ['src/inject/agent/'] },
  { room: 'boot: hook, rAF, channel (MAIN)', prefixes: ['src/inject/'] },
  { room: 'drawing: choice, placement, raster (isolated)', prefixes: ['src/overlay/', 'src/content/agent/canvas/'] },
  { room: 'store, panel feed, relay (isolated)', prefixes: ['src/content/'] },
  { room: 'protocol checks (both)', prefixes: ['src/protocol/'] },
  { room: 'other', prefixes: [] },
];

export function roomOf(source: string): string {
  for (const r of ROOMS) if (r.prefixes.some((p) => source.startsWith(p))) return r.room;
  return ROOMS[ROOMS.length - 1].room;
}
