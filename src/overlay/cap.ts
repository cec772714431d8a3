/**
 * Capping (issue 4 §5): a page with 50 000 components must stay smooth, so
 * the overlay reads bounds for, and draws, at most a few hundred meters —
 * the largest subtrees first. "Largest" is the rendered element count, not
 * the on-screen area: it is known before any bounds are read (bounds are
 * only read for what the cap lets through) and it does not reshuffle the
 * set while the page scrolls.
 */
import type { CostNode } from './types';

/** Most meters (and bounds reads) per frame. The flush benchmark sizes this: see docs/PERFORMANCE.md. */
export const MAX_METERS = 300;

export interface CapResult<N> {
  kept: N[];
  capped: boolean;
}

/** Largest first: more rendered elements, then shallower, then lower id (stable between frames). */
export function compareSize(a: CostNode, b: CostNode): number {
  return b.rendered - a.rendered || a.depth - b.depth || a.id - b.id;
}

export function capLargestFirst<N extends CostNode>(nodes: N[], max = MAX_METERS): CapResult<N> {
  if (nodes.length <= max) return { kept: nodes.slice().sort(compareSize), capped: false };
  return { kept: nodes.slice().sort(compareSize).slice(0, max), capped: true };
}
