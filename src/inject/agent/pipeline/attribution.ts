/**
 * Splits one frame's style and layout time among the components that caused it (issue 43; docs/TIMING.md §2). Each
 * cause arrives weighed (weigh.ts): its layout weight is the engine's own time for a relayout like its change, probed
 * on the live page (probes.ts), in ms; its style weight the elements its changes restyle. The layout ms go by layout
 * weight, the style ms by style weight. A frame with no cause of one kind
 * splits it by the other (a class change whose rules we read as style-only still gets the layout it may have made),
 * and a frame with no cause at all goes to `<page>` (id 0): document-level style, viewport and font changes, DOM no
 * component owns. Forced reflows arrive per
 * owner (the reader) and are added to the same Cost records; a forced reflow whose owner unmounted since goes to
 * `<page>`. Writes self-cost records only: the content script rolls them up along the component tree.
 *
 * Shares too small to mean anything on their own are folded into the nearest ancestor's self cost instead: below
 * MIN_SHARE_MS (the clock's resolution is 0.1 ms on ordinary pages), or, for one of MANY_SIBLINGS or more causes in a
 * row under one parent, below 1/MAX_OWN_SHARES of the frame. A tick that touches 490 of 4 900 cells gives each 1/490 of
 * the frame — 0.03 ms in a 15 ms frame, 0.1 ms in a 50 ms one — and writing, shipping and rolling up 490 records per
 * frame cost more than the information is worth; with the absolute floor alone, whether they did depended on which
 * side of 24.5 ms the frame's layout fell (Chrome's layout of the same grid moves 2× between its regimes). The relative
 * floor makes that the same in every frame, and leaves a lone component's small share its own: a one-line text beside
 * a heavy grid is what a user looks for. Subtree-inclusive figures are unchanged by the fold; only the split below a
 * parent gets coarser.
 *
 * Per frame, not per event: runs once at frame end and allocates nothing once its scratch tables have grown.
 */
import { RecordKind } from '../../../protocol';
import { LAYOUT_BITS, STYLE_BITS } from './causes';

/** A cause's component as the split sees it: its id, its parent (for folds) and the owner's bit flags. */
export interface Caused {
  id: number;
  parent: Caused | null;
  marks: number;
}

/** Where Cost records go (the ring buffer in the agent; a recorder in tests). */
export interface CostSink {
  write(kind: number, a: number, b?: number, c?: number, d?: number, e?: number): void;
}

/** A component's share of one frame below this goes to its parent (see above). */
export const MIN_SHARE_MS = 0.05;
/** A share below this part of the frame (1/MAX_OWN_SHARES) goes to its parent too, when it is one of many siblings. */
export const MAX_OWN_SHARES = 256;
/** Causes in a row under one parent from which the relative floor applies (a list's rows, a grid's cells). */
export const MANY_SIBLINGS = 16;
const always = (): boolean => true;
const NO_COUNTS = new Map<number, number>();
// Scratch tables reused frame after frame.
const foldStyle = new Map<number, number>();
const foldLayout = new Map<number, number>();

function fold(to: number, style: number, layout: number): void {
  foldStyle.set(to, (foldStyle.get(to) ?? 0) + style);
  foldLayout.set(to, (foldLayout.get(to) ?? 0) + layout);
}

/** Writes the shares folded into parents this frame, and empties the fold tables. */
function writeFolds(sink: CostSink, isLive: (id: number) => boolean): void {
  for (const [id, st2] of foldStyle) {
    // The parent may have unmounted this frame: then the share is nobody's.
    sink.write(RecordKind.Cost, isLive(id) ? id : 0, st2, foldLayout.get(id) ?? 0, 0);
  }
  foldStyle.clear();
  foldLayout.clear();
}

/**
 * Writes the frame's Cost records: [Cost, id, style, layout, forced ms, forced reflows]. `causes[i]` weighs
 * `layoutW[i]` (ms) and `styleW[i]` (elements); entries marked `goneMark` (unmounted since) or not live weigh
 * nothing. `forcedById` (owner id → forced ms since the last frame) and `counts` (owner id → how many forced
 * reflows) are consumed: empty on return.
 */
export function attribute(
  sink: CostSink, causes: readonly Caused[], layoutW: readonly number[], styleW: readonly number[], styleMs: number,
  layoutMs: number, forcedById: Map<number, number>, isLive: (id: number) => boolean = always,
  counts: Map<number, number> = NO_COUNTS, goneMark = 0,
): void {
  let layoutTotal = 0, styleTotal = 0;
  for (let i = 0; i < causes.length; i++) {
    const c = causes[i];
    if (goneMark !== 0 ? (c.marks & goneMark) !== 0 : !isLive(c.id)) continue;
    layoutTotal += layoutW[i];
    styleTotal += styleW[i];
  }

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
  // Each kind by its own weights; by the other kind's where it has none.
  const lw = layoutTotal > 0 ? layoutW : styleW;
  const lt = layoutTotal > 0 ? layoutTotal : styleTotal;
  const sw = styleTotal > 0 ? styleW : layoutW;
  const st = styleTotal > 0 ? styleTotal : layoutTotal;
  if (lt === 0) {
    if (styleMs > 0 || layoutMs > 0 || pageForced > 0) sink.write(RecordKind.Cost, 0, styleMs, layoutMs, pageForced, pageCount);
  } else {
    const anyForced = forcedById.size > 0;
    const floor = (styleMs + layoutMs) / MAX_OWN_SHARES;
    // The run of causes under one parent that the current one belongs to ends before `siblingsEnd`; `many`: it holds
    // MANY_SIBLINGS or more (found once per run, looking ahead from its first cause).
    let siblingsEnd = 0, many = false;
    // Folded shares gather in a run while consecutive causes share a parent (a grid's cells come in order): one table
    // update per run, not two per component.
    let runTo = -1, runStyle = 0, runLayout = 0;
    for (let i = 0; i < causes.length; i++) {
      const c = causes[i];
      if (i >= siblingsEnd) {
        siblingsEnd = i + 1;
        while (siblingsEnd < causes.length && causes[siblingsEnd].parent === c.parent) siblingsEnd++;
        many = siblingsEnd - i >= MANY_SIBLINGS;
      }
      if (goneMark !== 0 ? (c.marks & goneMark) !== 0 : !isLive(c.id)) continue;
      const style = styleMs * (sw[i] / st);
      const layout = layoutMs * (lw[i] / lt);
      if (style === 0 && layout === 0) continue;
      const forced = anyForced ? forcedById.get(c.id) ?? 0 : 0;
      const share = style + layout;
      if (forced === 0 && c.parent !== null && (share < MIN_SHARE_MS || (many && share < floor))) {
        const to = c.parent.id;
        if (to !== runTo) {
          if (runTo !== -1) fold(runTo, runStyle, runLayout);
          runTo = to;
          runStyle = runLayout = 0;
        }
        runStyle += style;
        runLayout += layout;
        continue;
      }
      if (forced !== 0) forcedById.delete(c.id);
      sink.write(RecordKind.Cost, c.id, style, layout, forced, forced !== 0 ? counts.get(c.id) ?? 0 : 0);
    }
    if (runTo !== -1) fold(runTo, runStyle, runLayout);
    writeFolds(sink, isLive);
    if (pageForced > 0) sink.write(RecordKind.Cost, 0, 0, 0, pageForced, pageCount);
  }
  // Forced reflows of live components that caused nothing at the frame's end.
  for (const [id, ms] of forcedById) if (ms > 0) sink.write(RecordKind.Cost, id, 0, 0, ms, counts.get(id) ?? 0);
  forcedById.clear();
  counts.clear();
}

/** A frame's log of changes as causes.ts keeps it. */
export interface ChangeLog<C extends Caused> {
  readonly changes: number;
  loggedOwner(i: number): C;
  loggedHow(i: number): number;
  /** The owner's parent, read when the change was logged. */
  loggedParent(i: number): { readonly id: number } | null;
  /** Entries whose change restyles (STYLE_BITS) and relayouts (LAYOUT_BITS). */
  readonly styleChanges: number;
  readonly layoutChanges: number;
  /** The one parent of every entry's owner, when they share it; else undefined. */
  readonly soleParent: { readonly id: number } | null | undefined;
}

/**
 * `attribute` for a frame whose changes all weigh alike (causes.ts `alike`: a grid's cells under their grid), read
 * straight from the log: one for style if a change restyles, one for layout if it relayouts, as weigh.ts's alike
 * branch gives them, and the same records `attribute` writes from those weights. Only when no owner logged this
 * frame has unmounted since and no forced reflow waits (the caller checks): then no owner is read but the few
 * written on their own, and the frame-end pass reads the log's arrays alone — each owner read at the frame's end,
 * after the page's layout went through memory, was a cache miss a changed cell (issue 61).
 */
export function attributeAlike<C extends Caused>(sink: CostSink, log: ChangeLog<C>, styleMs: number, layoutMs: number,
  isLive: (id: number) => boolean = always): void {
  const m = log.changes;
  const layoutTotal = log.layoutChanges, styleTotal = log.styleChanges;
  const lBits = layoutTotal > 0 ? LAYOUT_BITS : STYLE_BITS;
  const lt = layoutTotal > 0 ? layoutTotal : styleTotal;
  const sBits = styleTotal > 0 ? STYLE_BITS : LAYOUT_BITS;
  const st = styleTotal > 0 ? styleTotal : layoutTotal;
  if (lt === 0) {
    if (styleMs > 0 || layoutMs > 0) sink.write(RecordKind.Cost, 0, styleMs, layoutMs, 0, 0);
    return;
  }
  // One change's part, as `attribute` computes it from a weight of one.
  const styleOne = styleMs * (1 / st), layoutOne = layoutMs * (1 / lt);
  const floor = (styleMs + layoutMs) / MAX_OWN_SHARES;
  const sole = log.soleParent;
  if (sole !== undefined && sole !== null && m >= MANY_SIBLINGS && styleOne + layoutOne < Math.max(MIN_SHARE_MS, floor)) {
    // Siblings, each below the floor: every part folds into their parent, and the parts add up to the frame.
    sink.write(RecordKind.Cost, isLive(sole.id) ? sole.id : 0, styleMs, layoutMs, 0);
    return;
  }
  let siblingsEnd = 0, many = false;
  let runTo: { readonly id: number } | null = null, runStyle = 0, runLayout = 0;
  for (let i = 0; i < m; i++) {
    const parent = log.loggedParent(i);
    if (i >= siblingsEnd) {
      siblingsEnd = i + 1;
      while (siblingsEnd < m && log.loggedParent(siblingsEnd) === parent) siblingsEnd++;
      many = siblingsEnd - i >= MANY_SIBLINGS;
    }
    const how = log.loggedHow(i);
    const style = (how & sBits) !== 0 ? styleOne : 0;
    const layout = (how & lBits) !== 0 ? layoutOne : 0;
    if (style === 0 && layout === 0) continue;
    const share = style + layout;
    if (parent !== null && (share < MIN_SHARE_MS || (many && share < floor))) {
      if (parent !== runTo) {
        if (runTo !== null) fold(runTo.id, runStyle, runLayout);
        runTo = parent;
        runStyle = runLayout = 0;
      }
      runStyle += style;
      runLayout += layout;
      continue;
    }
    sink.write(RecordKind.Cost, log.loggedOwner(i).id, style, layout, 0, 0);
  }
  if (runTo !== null) fold(runTo.id, runStyle, runLayout);
  writeFolds(sink, isLive);
}
