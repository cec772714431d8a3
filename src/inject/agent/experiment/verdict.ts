/**
 * An experiment's figures and verdict from its per-frame samples. Pure, so
 * it is unit-tested (tests/unit/experiment-verdict.test.ts).
 *
 * A frame's cost is its frame-end style + layout plus the forced style and
 * layout of page scripts since the previous frame. The two conditions are
 * compared by their means (what the trace sums, and what a developer pays
 * over time), with a two-standard-error margin on the difference:
 * - `changes-rendering` whenever a box or a pixel differed: never `faster`;
 * - `inconclusive` when either side has fewer than `minFrames` frames (the
 *   page was idle: nothing to measure) or the margin is too wide to say
 *   either way (a noisy page or machine);
 * - `faster` when the cost fell by more than the margin and by at least
 *   MIN_SPEEDUP, means and medians both;
 * - `no-gain` when the margin is narrow enough to say it did not.
 */
import type { ConditionFigures, Verdict } from '../../../protocol/experiment';

export interface FrameSample {
  styleMs: number;
  layoutMs: number;
  forcedMs: number;
}

/** Less than this is not worth a declaration in the page's CSS. */
export const MIN_SPEEDUP = 1.1;
/** "No gain" needs the margin within this share of the cost (or within FLAT_MS)… */
const NO_GAIN_MARGIN = 0.1;
/** …or within this, for pages that spend almost nothing. */
const FLAT_MS = 0.05;

const total = (s: FrameSample): number => s.styleMs + s.layoutMs + s.forcedMs;

export function figures(samples: readonly FrameSample[]): ConditionFigures {
  const n = samples.length;
  if (n === 0) return { frames: 0, styleMs: 0, layoutMs: 0, forcedMs: 0, medianMs: 0 };
  let st = 0, la = 0, fo = 0;
  for (const s of samples) {
    st += s.styleMs;
    la += s.layoutMs;
    fo += s.forcedMs;
  }
  return { frames: n, styleMs: st / n, layoutMs: la / n, forcedMs: fo / n, medianMs: median(samples.map(total)) };
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function meanVar(xs: readonly number[]): [number, number] {
  const n = xs.length;
  let m = 0;
  for (const x of xs) m += x;
  m /= n;
  let v = 0;
  for (const x of xs) v += (x - m) * (x - m);
  return [m, n > 1 ? v / (n - 1) : 0];
}

export interface Judgement {
  verdict: Verdict;
  speedup: number | null;
  reason: string;
}

export function judge(
  before: readonly FrameSample[], after: readonly FrameSample[], minFrames: number, boxesChanged: number, pixelsChanged: number | null,
): Judgement {
  const a = before.map(total), b = after.map(total);
  const enough = a.length >= minFrames && b.length >= minFrames;
  const [ma, va] = a.length > 0 ? meanVar(a) : [0, 0];
  const [mb, vb] = b.length > 0 ? meanVar(b) : [0, 0];
  const speedup = enough && mb > 0 ? ma / mb : enough && ma === 0 ? 1 : null;
  const f = (x: number): string => x.toFixed(2);
  if (boxesChanged > 0 || (pixelsChanged ?? 0) > 0) {
    const n = pixelsChanged ?? 0;
    const what = [boxesChanged > 0 ? `${boxesChanged} of its boxes moved or resized` : '',
      n > 0 ? `${n} pixel${n === 1 ? '' : 's'} of its area changed` : ''].filter(Boolean).join(' and ');
    return { verdict: 'changes-rendering', speedup, reason: `it changes what the page shows: with it, ${what}` };
  }
  if (!enough) {
    return {
      verdict: 'inconclusive', speedup,
      reason: `the page drew ${a.length} frames without it and ${b.length} with it (${minFrames} each needed): was it idle?`,
    };
  }
  const margin = 2 * Math.sqrt(va / a.length + vb / b.length);
  const diff = ma - mb;
  const mda = median(a), mdb = median(b);
  if (diff > margin && ma >= MIN_SPEEDUP * mb && mda >= MIN_SPEEDUP * mdb) {
    return { verdict: 'faster', speedup, reason: `${f(ma)} → ${f(mb)} ms of style and layout per frame (± ${f(margin)})` };
  }
  if (margin <= Math.max(NO_GAIN_MARGIN * ma, FLAT_MS)) {
    return { verdict: 'no-gain', speedup, reason: `${f(ma)} → ${f(mb)} ms per frame (± ${f(margin)}): no gain worth the declaration` };
  }
  return { verdict: 'inconclusive', speedup, reason: `${f(ma)} → ${f(mb)} ms per frame, ± ${f(margin)}: too noisy to tell; try more frames` };
}
