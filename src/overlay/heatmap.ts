/**
 * Heatmap mode (SPEC §3): meters only on the top N (10) subtrees by layout ms
 * or by inflation ratio over threshold, at any depth, `<page>` included.
 *
 * One ranking serves both axes: a component qualifies when its layout ms is
 * above the noise floor or its inflation ratio is past the green step of the
 * inflation ramp; its heat is the worse of its two ramp levels, so a red
 * inflation outranks a yellow layout time and vice versa; ties go to more
 * layout ms, then the higher ratio, then the lower id (stable frames).
 */
import { nodeInflation, rampLevel, type Ramp } from './ramps';
import { MS_NOISE_FLOOR } from './surface';
import type { CostNode } from './types';

export const HEATMAP_TOP_N = 10;

export interface HeatRamps {
  msRamp: Ramp;
  inflationRamp: Ramp;
}

/** -1 when the node does not qualify; otherwise the worse of its qualifying ramp levels (0..3). */
export function heat(n: CostNode, ramps: HeatRamps): number {
  const ratio = nodeInflation(n);
  const byMs = n.layout >= MS_NOISE_FLOOR ? rampLevel(n.layout, ramps.msRamp) : -1;
  const byRatio = ratio > ramps.inflationRamp[0] ? rampLevel(ratio, ramps.inflationRamp) : -1;
  return Math.max(byMs, byRatio);
}

/** Negative when `a` ranks before `b`. */
export function compareHeat(a: CostNode, ha: number, b: CostNode, hb: number): number {
  if (ha !== hb) return hb - ha;
  if (a.layout !== b.layout) return b.layout - a.layout;
  const ra = nodeInflation(a), rb = nodeInflation(b);
  if (ra !== rb) return rb - ra;
  return a.id - b.id;
}

/**
 * The `k` hottest qualifying nodes, hottest first. A bounded insertion keeps
 * it O(n·k) with no sort of the whole tree (k is tens, n can be 50 000).
 */
export function rankHeatmap<N extends CostNode>(nodes: Iterable<N>, ramps: HeatRamps, k: number): N[] {
  const top: { n: N; h: number }[] = [];
  if (k <= 0) return [];
  for (const n of nodes) {
    const h = heat(n, ramps);
    if (h < 0) continue;
    if (top.length === k && compareHeat(n, h, top[k - 1].n, top[k - 1].h) >= 0) continue;
    let i = top.length < k ? top.length : k - 1;
    if (top.length < k) top.push({ n, h });
    while (i > 0 && compareHeat(n, h, top[i - 1].n, top[i - 1].h) < 0) {
      top[i] = top[i - 1];
      i--;
    }
    top[i] = { n, h };
  }
  return top.map((t) => t.n);
}
