/**
 * Wrapper chains (providers, layout shells, HOCs) share one box, so their
 * meters would stack on one corner. Meters whose anchors coincide (within
 * 8 px on both axes) along an ancestor chain collapse into one (SPEC §3):
 * the deepest component still holding ≥ 90 % of the shallowest one's layout
 * ms and rendered count wins, and the whole chain is reported so the panel
 * can name it. Unrelated components whose meters happen to touch (overlapping
 * siblings) are left alone: neither "owns" the other's numbers.
 */
import type { Point } from './anchor';
import type { CostNode } from './types';

export const COINCIDE_PX = 8;
export const COLLAPSE_KEEP_FRACTION = 0.9;

export interface Placed<N extends CostNode = CostNode> {
  node: N;
  at: Point;
}

export interface Collapsed<N extends CostNode = CostNode> {
  node: N;
  at: Point;
  /** Every component folded into this meter, shallowest first (the winner included). */
  chain: N[];
}

/** True when `a` is a proper ancestor of `d` (walks parent links, bounded against cycles). */
export function isAncestor(a: CostNode, d: CostNode, parentOf: (id: number) => CostNode | undefined): boolean {
  let cur = d.parentId === null ? undefined : parentOf(d.parentId);
  for (let guard = 0; cur && guard < 10_000; guard++) {
    if (cur.id === a.id) return true;
    cur = cur.parentId === null ? undefined : parentOf(cur.parentId);
  }
  return false;
}

/** The chain member that keeps the meter: deepest one holding ≥ 90 % of the shallowest's numbers. */
export function chainWinner<N extends CostNode>(chain: N[], keep = COLLAPSE_KEEP_FRACTION): N {
  const top = chain[0];
  let best = top;
  for (const n of chain) {
    if (n.layout >= keep * top.layout && n.rendered >= keep * top.rendered && n.depth > best.depth) best = n;
  }
  return best;
}

export function collapseCoinciding<N extends CostNode>(
  items: Placed<N>[], parentOf: (id: number) => CostNode | undefined, tolPx = COINCIDE_PX, keep = COLLAPSE_KEEP_FRACTION,
): Collapsed<N>[] {
  const order = items.slice().sort((a, b) => a.node.depth - b.node.depth || a.node.id - b.node.id);
  // Spatial hash with tolPx cells: coinciding anchors are in the same or a neighbouring cell.
  // Numeric keys (anchors are clamped into the viewport, so cells are small non-negative integers).
  const cell = (v: number): number => Math.floor(v / tolPx) + 1;
  const key = (cx: number, cy: number): number => cx * 1_000_003 + cy;
  const grid = new Map<number, Placed<N>[]>();
  for (const p of order) {
    const k = key(cell(p.at.x), cell(p.at.y));
    const list = grid.get(k);
    if (list) list.push(p);
    else grid.set(k, [p]);
  }
  const atOf = new Map<N, Point>();
  for (const p of items) atOf.set(p.node, p.at);
  const taken = new Set<Placed<N>>();
  const out: Collapsed<N>[] = [];
  for (const s of order) {
    if (taken.has(s)) continue;
    taken.add(s);
    const cx = cell(s.at.x), cy = cell(s.at.y);
    let chain: N[] | null = null;
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        const list = grid.get(key(cx + dx, cy + dy));
        if (!list) continue;
        for (const q of list) {
          if (q === s || taken.has(q) || Math.abs(q.at.x - s.at.x) > tolPx || Math.abs(q.at.y - s.at.y) > tolPx) continue;
          if (!isAncestor(s.node, q.node, parentOf)) continue;
          taken.add(q);
          (chain ??= [s.node]).push(q.node);
        }
      }
    }
    if (chain === null) {
      // The common case: nothing coincides.
      out.push({ node: s.node, at: s.at, chain: [s.node] });
      continue;
    }
    chain.sort((a, b) => a.depth - b.depth || a.id - b.id);
    const winner = chainWinner(chain, keep);
    out.push({ node: winner, at: atOf.get(winner) ?? s.at, chain });
  }
  return out;
}
