/**
 * Splits one frame's style and layout time among the components whose DOM
 * was dirtied since the previous frame, weighted by element counts; with no
 * live component dirtied the frame goes to `<page>` (id 0): document-level
 * style changes, CSS animations, DOM no component owns. Forced reflows
 * arrive already per owner and are added to the same Cost records; a forced
 * reflow whose owner has unmounted since goes to `<page>`. Writes self-cost
 * records only: the content script rolls them up to subtree-inclusive cost
 * along the component tree.
 *
 * The weight of a dirtied component is its subtree's element count less the
 * subtrees of dirtied components below it (each of those weighs for itself).
 * Plain subtree counts would count a dirtied child's elements twice when its
 * parent is dirtied too — and React 19 flags every re-rendered host element
 * as updated, so a parent whose own DOM did not change would take half the
 * frame from the child that did. Weights are at least 1, so a component whose
 * count is not known yet still gets a share.
 *
 * Shares too small to mean anything on their own (below MIN_SHARE_MS: the
 * clock's resolution is 0.1 ms on ordinary pages) are folded into the nearest
 * ancestor's self cost instead: a tick that touches 490 of 4 900 cells gives
 * each about 0.03 ms, and writing, shipping and rolling up 490 records per
 * frame cost more than the information is worth. Subtree-inclusive figures
 * are unchanged by the fold; only the split below a parent gets coarser.
 *
 * Per frame, not per event: runs once at frame end and allocates nothing
 * once its scratch tables have grown.
 */
import { RecordKind } from '../../../protocol';

export interface Dirtied {
  id: number;
  /** Elements in the component's subtree (cached count). */
  rendered: number;
  parent: Dirtied | null;
  /** The owner's bit flags; exclusiveWeights sets WEIGHING in it while it runs, and clears it before it returns. */
  marks: number;
}

/** The bit of `Dirtied.marks` that exclusiveWeights borrows (the registry's own bits are below it). */
export const WEIGHING = 16;

/** Where Cost records go (the ring buffer in the agent; a recorder in tests). */
export interface CostSink {
  write(kind: number, a: number, b?: number, c?: number, d?: number, e?: number): void;
}

const MAX_DEPTH = 10_000;
/** A component's share of one frame below this goes to its parent (see above). */
export const MIN_SHARE_MS = 0.05;
const always = (): boolean => true;
const NO_COUNTS = new Map<number, number>();
// Scratch tables reused frame after frame.
const live: Dirtied[] = [];
const nestedCount = new Map<Dirtied, number>();
const weights: number[] = [];
const foldStyle = new Map<number, number>();
const foldLayout = new Map<number, number>();

/**
 * Fills `weights` (index-aligned with `dirtied`, 0 for dead entries) and returns their sum. Live dirtied entries are
 * flagged in their own `marks` for the call (a field read per ancestor, where a Set cost a hash lookup: this runs for
 * every dirtied component of every frame). `goneMark`: the owner's bit for an unmounted entry, when it has one — read
 * instead of asking `isLive` by id (a table look-up per dirtied component).
 */
export function exclusiveWeights(
  dirtied: readonly Dirtied[], isLive: (id: number) => boolean, out: number[], goneMark = 0,
): number {
  nestedCount.clear();
  live.length = 0;
  try {
    for (const d of dirtied) {
      if ((d.marks & WEIGHING) === 0 && (goneMark !== 0 ? (d.marks & goneMark) === 0 : isLive(d.id))) {
        d.marks |= WEIGHING;
        live.push(d);
      }
    }
    for (const d of live) {
      let p = d.parent;
      for (let g = 0; p !== null && g < MAX_DEPTH; g++, p = p.parent) {
        if ((p.marks & WEIGHING) !== 0) {
          nestedCount.set(p, (nestedCount.get(p) ?? 0) + Math.max(0, d.rendered));
          break;
        }
      }
    }
    let total = 0;
    out.length = dirtied.length;
    // Siblings dirtied under a quiet parent (a grid's cells) nest in nothing: no look-up each then.
    const nested = nestedCount.size > 0;
    for (let i = 0; i < dirtied.length; i++) {
      const d = dirtied[i];
      const w = (d.marks & WEIGHING) !== 0 ? Math.max(1, d.rendered - (nested ? nestedCount.get(d) ?? 0 : 0)) : 0;
      out[i] = w;
      total += w;
    }
    return total;
  } finally {
    for (const d of live) d.marks &= ~WEIGHING;
    live.length = 0;
    nestedCount.clear();
  }
}

function fold(to: number, style: number, layout: number): void {
  foldStyle.set(to, (foldStyle.get(to) ?? 0) + style);
  foldLayout.set(to, (foldLayout.get(to) ?? 0) + layout);
}

/**
 * Writes the frame's Cost records: [Cost, id, style, layout, forced ms, forced reflows]. `forcedById` (owner id →
 * forced ms since the last frame) and `counts` (owner id → how many forced reflows) are consumed: empty on return.
 * `goneMark` as for exclusiveWeights (ids, for forced reflows and folds, are still asked through `isLive`).
 */
export function attribute(
  sink: CostSink, dirtied: readonly Dirtied[], styleMs: number, layoutMs: number, forcedById: Map<number, number>,
  isLive: (id: number) => boolean = always, counts: Map<number, number> = NO_COUNTS, goneMark = 0,
): void {
  const total = exclusiveWeights(dirtied, isLive, weights, goneMark);
  let pageForced = forcedById.get(0) ?? 0;
  let pageCount = counts.get(0) ?? 0;
  forcedById.delete(0);
  // Forced reflows of components gone since: nobody owns that DOM any more.
  for (const [id, ms] of forcedById) {
    if (!isLive(id)) {
      pageForced += ms;
      pageCount += counts.get(id) ?? 0;
      forcedById.delete(id);
    }
  }
  if (total === 0) {
    if (styleMs > 0 || layoutMs > 0 || pageForced > 0) sink.write(RecordKind.Cost, 0, styleMs, layoutMs, pageForced, pageCount);
  } else {
    const anyForced = forcedById.size > 0;
    // Folded shares gather in a run while consecutive dirtied components share a parent (a grid's cells come in
    // order): one table update per run, not two per component.
    let runTo = -1, runStyle = 0, runLayout = 0;
    for (let i = 0; i < dirtied.length; i++) {
      if (weights[i] === 0) continue;
      const d = dirtied[i];
      const w = weights[i] / total;
      const forced = anyForced ? forcedById.get(d.id) ?? 0 : 0;
      if (forced === 0 && d.parent !== null && (styleMs + layoutMs) * w < MIN_SHARE_MS) {
        const to = d.parent.id;
        if (to !== runTo) {
          if (runTo !== -1) fold(runTo, runStyle, runLayout);
          runTo = to;
          runStyle = runLayout = 0;
        }
        runStyle += styleMs * w;
        runLayout += layoutMs * w;
        continue;
      }
      if (forced !== 0) forcedById.delete(d.id);
      sink.write(RecordKind.Cost, d.id, styleMs * w, layoutMs * w, forced, forced !== 0 ? counts.get(d.id) ?? 0 : 0);
    }
    if (runTo !== -1) fold(runTo, runStyle, runLayout);
    for (const [id, st] of foldStyle) {
      // The parent may have unmounted this frame: then the share is nobody's.
      sink.write(RecordKind.Cost, isLive(id) ? id : 0, st, foldLayout.get(id) ?? 0, 0);
    }
    foldStyle.clear();
    foldLayout.clear();
    if (pageForced > 0) sink.write(RecordKind.Cost, 0, 0, 0, pageForced, pageCount);
  }
  // Forced reflows of live components that were not dirtied this frame.
  for (const [id, ms] of forcedById) if (ms > 0) sink.write(RecordKind.Cost, id, 0, 0, ms, counts.get(id) ?? 0);
  forcedById.clear();
  counts.clear();
}
