/**
 * Components mode (SPEC §3): a parent's meter hides its descendants' meters
 * unless a descendant "surfaces through" — its layout ms > 50 % of the
 * parent's, or its rendered count > 50 % of the parent's, or its inflation
 * ratio > 2× the parent's. "The parent" is the nearest ancestor whose meter is
 * itself shown, so a hotspot three levels down still punches through a quiet
 * chain of hidden wrappers, and the comparison is always against the meter
 * that would otherwise cover it.
 */
import { nodeInflation } from './ramps';
import type { CostNode } from './types';

export interface SurfaceRules {
  layoutFraction: number;
  renderedFraction: number;
  inflationFactor: number;
}

/**
 * Below this an EMA is timer noise (performance.now() is 0.1 ms coarse on
 * most pages), so the ms criterion ignores it; counts still apply.
 */
export const MS_NOISE_FLOOR = 0.05;

export function surfacesThrough(child: CostNode, parent: CostNode, rules: SurfaceRules): boolean {
  if (child.layout >= MS_NOISE_FLOOR && child.layout > rules.layoutFraction * parent.layout) return true;
  if (child.rendered > rules.renderedFraction * parent.rendered) return true;
  return nodeInflation(child) > rules.inflationFactor * nodeInflation(parent);
}

/**
 * The components whose meters Components mode shows, parents before
 * children. Roots (no parent, or a parent that is not mounted) always show.
 * O(n) time and memory; parent links that form cycles are never reached
 * from a root and so are skipped rather than looped on.
 */
export function chooseComponents<N extends CostNode>(nodes: Iterable<N>, rules: SurfaceRules): N[] {
  const byId = new Map<number, N>();
  for (const n of nodes) byId.set(n.id, n);
  const children = new Map<number, N[]>();
  const roots: N[] = [];
  for (const n of byId.values()) {
    const p = n.parentId;
    if (p === null || p === n.id || !byId.has(p)) {
      roots.push(n);
      continue;
    }
    const list = children.get(p);
    if (list) list.push(n);
    else children.set(p, [n]);
  }
  const shown: N[] = [];
  // Explicit stack: a 10 000-deep tree must not overflow the call stack.
  const stack: { node: N; cover: N | null }[] = [];
  for (let i = roots.length - 1; i >= 0; i--) stack.push({ node: roots[i], cover: null });
  while (stack.length > 0) {
    const { node, cover } = stack.pop()!;
    // A dialog's, menu's or tooltip's content is a surface of its own: nothing of the page covers it.
    const show = cover === null || node.surfaceRoot === true || surfacesThrough(node, cover, rules);
    if (show) shown.push(node);
    const kids = children.get(node.id);
    if (!kids) continue;
    const nextCover = show ? node : cover;
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ node: kids[i], cover: nextCover });
  }
  return shown;
}
