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
  return clears(child, rules.layoutFraction * parent.layout, rules.renderedFraction * parent.rendered,
    rules.inflationFactor * nodeInflation(parent));
}

/** The rule against a cover's three thresholds (its layout, rendered count and inflation times the rules' factors). */
function clears(child: CostNode, layout: number, rendered: number, inflation: number): boolean {
  const ms = child.layout;
  return (ms >= MS_NOISE_FLOOR && ms > layout) || child.rendered > rendered || nodeInflation(child) > inflation;
}

/**
 * The mounted components as a tree: in depth-first order (parents before their children, siblings in order) with the
 * position just past each one's subtree — built when components mount or unmount, walked by every choice while only
 * their numbers change (chooseInTree). Kept between choices: 8 B per component (first-child and next-sibling links
 * were 8 B more, docs/PERFORMANCE.md, memory).
 */
export interface ComponentTree<N extends CostNode> {
  /** Every node reached from a root, in depth-first order. */
  readonly list: readonly N[];
  /** `end[i]`: the position after the last of `list[i]`'s descendants (i + 1 for a leaf). */
  readonly end: Int32Array;
}

/**
 * Links every node to its parent. Roots: no parent, a parent that is not
 * mounted, or itself. Parent links that form cycles are never reached from a
 * root (and are left out). A repeated id: the last node wins, in the first one's place.
 */
export function buildTree<N extends CostNode>(nodes: Iterable<N>): ComponentTree<N> {
  const all: N[] = [];
  let maxId = -1;
  let dense = true;
  for (const n of nodes) {
    all.push(n);
    if (n.id > maxId) maxId = n.id;
    if (!(n.id >= 0 && Number.isInteger(n.id))) dense = false;
  }
  // Ids are the agent's small integers: a typed array indexed by id is far cheaper to fill than a Map (0.4 ms for
  // 4 900 components here). Sparse or odd ids (tests, a long-lived page's high ids) take the Map.
  const index = dense && maxId < 4 * all.length + 1024 ? new DenseIndex(maxId) : new MapIndex();
  const nodesAt: N[] = [];
  for (const n of all) {
    const at = index.get(n.id);
    if (at < 0) {
      index.set(n.id, nodesAt.length);
      nodesAt.push(n);
    } else {
      nodesAt[at] = n;
    }
  }
  // Scratch links by position in `nodesAt`, dropped once the order is made.
  const count = nodesAt.length;
  const firstChild = new Int32Array(count).fill(-1);
  const lastChild = new Int32Array(count).fill(-1);
  const nextSibling = new Int32Array(count).fill(-1);
  const parentAt = new Int32Array(count).fill(-1);
  const roots: number[] = [];
  for (let i = 0; i < count; i++) {
    const n = nodesAt[i];
    const p = n.parentId;
    const pi = p === null || p === n.id ? -1 : index.get(p);
    if (pi < 0) {
      roots.push(i);
      continue;
    }
    parentAt[i] = pi;
    if (lastChild[pi] < 0) firstChild[pi] = i;
    else nextSibling[lastChild[pi]] = i;
    lastChild[pi] = i;
  }
  // Depth first, on explicit stacks (a 10 000-deep tree stays off the call stack): `open` holds the positions whose
  // subtrees are not finished, each the parent of the next; a node's parent is always among them.
  const list: N[] = [];
  const end = new Int32Array(count);
  const posOf = lastChild; // reused: position in `list` by position in `nodesAt`
  const todo = new Int32Array(count);
  const open = new Int32Array(count);
  let top = 0;
  let depth = 0;
  for (let r = roots.length - 1; r >= 0; r--) todo[top++] = roots[r];
  while (top > 0) {
    const i = todo[--top];
    const at = list.length;
    const pi = parentAt[i];
    const parentPos = pi < 0 ? -1 : posOf[pi];
    while (depth > 0 && open[depth - 1] !== parentPos) end[open[--depth]] = at;
    posOf[i] = at;
    list.push(nodesAt[i]);
    open[depth++] = at;
    if (nextSibling[i] >= 0) todo[top++] = nextSibling[i];
    if (firstChild[i] >= 0) todo[top++] = firstChild[i];
  }
  while (depth > 0) end[open[--depth]] = list.length;
  return { list, end: list.length === count ? end : end.slice(0, list.length) };
}

/**
 * chooseInTree's stacks (see there), one entry per open subtree: plain arrays grown to the deepest tree met, not typed
 * arrays of the tree's size made per choice. `openCovered` 0: no shown node covers the subtree (it lies under a skipped
 * root), and what is in it shows as a root does.
 */
const MAX_KEPT_DEPTH = 1024;
const open = { openEnd: [] as number[], openLayout: [] as number[], openRendered: [] as number[], openInflation: [] as number[], openCovered: [] as number[] };

/**
 * The components whose meters Components mode shows, parents before
 * children, siblings in order. Roots always show, unless `skip` says so: a
 * skipped component shows nothing and covers nothing (its children are
 * compared with the nearest shown ancestor). O(n) time.
 */
export function chooseInTree<N extends CostNode>(tree: ComponentTree<N>, rules: SurfaceRules, skip?: (n: N) => boolean): N[] {
  const { list, end } = tree;
  const shown: N[] = [];
  // The open subtrees around the current node: where each ends, and what a node inside must pass to surface through the
  // shown node that covers it (surfacesThrough's three thresholds, worked out once per cover, not once per child: a
  // grid's 4 900 cells share one). Scratch stacks as deep as the tree, shared by every choice.
  const n = list.length;
  const { openEnd, openLayout, openRendered, openInflation, openCovered } = open;
  let depth = 0;
  for (let i = 0; i < n; i++) {
    while (depth > 0 && openEnd[depth - 1] <= i) depth--;
    const node = list[i];
    let show: boolean;
    if (skip !== undefined && skip(node)) show = false;
    // A root, or a dialog's, menu's or tooltip's content: a surface of its own, nothing of the page covers it.
    else if (depth === 0 || openCovered[depth - 1] === 0 || node.surfaceRoot === true) show = true;
    else show = clears(node, openLayout[depth - 1], openRendered[depth - 1], openInflation[depth - 1]);
    if (show) shown.push(node);
    if (end[i] > i + 1) {
      openEnd[depth] = end[i];
      if (show) {
        openCovered[depth] = 1;
        openLayout[depth] = rules.layoutFraction * node.layout;
        openRendered[depth] = rules.renderedFraction * node.rendered;
        openInflation[depth] = rules.inflationFactor * nodeInflation(node);
      } else if (depth > 0) {
        openCovered[depth] = openCovered[depth - 1];
        openLayout[depth] = openLayout[depth - 1];
        openRendered[depth] = openRendered[depth - 1];
        openInflation[depth] = openInflation[depth - 1];
      } else {
        // A skipped root: what is under it is covered by nothing.
        openCovered[depth] = 0;
      }
      depth++;
    }
  }
  // A freak depth (a 20 000-deep chain) is not kept for the choices after.
  if (openEnd.length > MAX_KEPT_DEPTH) for (const a of Object.values(open)) a.length = 0;
  return shown;
}

/**
 * chooseInTree over a tree built from `nodes` on the spot (O(n) time and
 * memory; a renderer that chooses often keeps the tree between mounts).
 */
export function chooseComponents<N extends CostNode>(nodes: Iterable<N>, rules: SurfaceRules): N[] {
  return chooseInTree(buildTree(nodes), rules);
}

/** Position by id, -1 when absent. */
interface IdIndex {
  get(id: number): number;
  set(id: number, at: number): void;
}

class DenseIndex implements IdIndex {
  private readonly at: Int32Array;
  constructor(private readonly maxId: number) {
    this.at = new Int32Array(maxId + 1).fill(-1);
  }
  get(id: number): number {
    return id >= 0 && id <= this.maxId && Number.isInteger(id) ? this.at[id] : -1;
  }
  set(id: number, at: number): void {
    this.at[id] = at;
  }
}

class MapIndex implements IdIndex {
  private readonly at = new Map<number, number>();
  get(id: number): number {
    return this.at.get(id) ?? -1;
  }
  set(id: number, at: number): void {
    this.at.set(id, at);
  }
}
