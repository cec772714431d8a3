/**
 * One frame's drawing decisions, as data: which meters go where, which
 * outlines, where the pinned caption hangs, which bounds to ask the agent
 * for next, and whether the cap cut anything. Pure, so the renderer's every
 * choice is unit-testable against plain objects.
 */
import { meterAnchor, pageAnchor, clampToViewport, METER_INSET_PX, METER_WIDTH_PX, type Point } from './anchor';
import { capLargestFirst, MAX_METERS } from './cap';
import { collapseCoinciding, type Placed } from './collapse';
import { coveringFor, declutter } from './declutter';
import { HEATMAP_TOP_N, rankHeatmap, type HeatRamps } from './heatmap';
import { buildTree, chooseInTree, type ComponentTree, type SurfaceRules } from './surface';
import type { CostNode, Rect, Viewport } from './types';

export type DrawMode = 'components' | 'heatmap' | 'inspect';

export interface PlanInput<N extends CostNode> {
  mode: DrawMode;
  nodes: Iterable<N>;
  get(id: number): N | undefined;
  /** The `<page>` bucket (id 0): drawn only in Heatmap, at the viewport's corner. */
  page: N;
  viewport: Viewport;
  rtl: boolean;
  rules: SurfaceRules & HeatRamps;
  pinned: number | null;
  /** Inspect mode: the component under the pointer. */
  hovered: number | null;
  /** The panel's hovered table row. */
  highlighted: number | null;
  maxMeters?: number;
  topN?: number;
  /** What the page stacks over its content (dialogs, menus, the top layer), bottom to top. */
  occluders?: readonly Rect[];
  /** `nodes` as a tree, when the caller keeps one between mounts (Components mode builds one otherwise). */
  tree?: ComponentTree<N>;
  /**
   * Components that get no meter of their own in Components and Heatmap modes (a library's or the framework's, unless
   * the user shows them, issue 44): their cost stays in their ancestors' inclusive figures, and their own components
   * below are compared with the nearest shown ancestor as usual. The pinned and hovered ones are drawn whatever it says.
   */
  skip?: (n: N) => boolean;
  /**
   * A layout shift shown on the page for a moment (issue 46): its cause and the components it moved, outlined in
   * colours of their own whatever the mode. The same object while it lasts (the placement is kept while it is).
   */
  flash?: ShiftFlash | null;
}

/** A layout shift's components, outlined for a moment: the one that caused it and the ones it moved. */
export interface ShiftFlash {
  cause: number | null;
  moved: readonly number[];
}

export interface PlannedMeter<N extends CostNode> {
  node: N;
  at: Point;
  /** Components folded into this meter, shallowest first (length 1 when nothing collapsed). */
  chain: N[];
  /** Text drawn beside the meter (the `<page>` bucket is labelled). */
  label: string | null;
}

export interface Caption<N extends CostNode> {
  node: N;
  /** The meter's top-left it hangs from (or where the meter would be when there is no room for one). */
  at: Point;
  pinned: boolean;
  /** A flashed shift's cause: the caption says so (in the cause's colour). */
  shiftCause?: boolean;
}

export interface Plan<N extends CostNode> {
  meters: PlannedMeter<N>[];
  /** Meters left out because no free slot was left or an occluder covers them. */
  hidden: number;
  /** Each outline with the occluders above it (to be clipped out). */
  outlines: Rect[];
  outlineCovers: (readonly Rect[])[];
  /** The pinned component's outline (drawn in the pin color). */
  pinOutline: Rect | null;
  /** Outlines for the Inspect hover and the panel's hovered row (drawn in the accent color). */
  accentOutlines: Rect[];
  /** Text captions: the pinned component's, in Inspect the hovered one's, and a flashed shift's cause. */
  captions: Caption<N>[];
  /** A flashed shift: the cause's outline and the moved components' (empty when none is shown). */
  causeOutlines: Rect[];
  movedOutlines: Rect[];
  wantBounds: number[];
  capped: boolean;
}

function place<N extends CostNode>(n: N, vp: Viewport, rtl: boolean): Placed<N> | null {
  if (!n.bounds) return null;
  const at = meterAnchor(n.bounds, vp, rtl);
  return at ? { node: n, at } : null;
}

/**
 * The O(n) half of a plan: which components may get a meter at all —
 * Components: the surface-through survivors, capped largest first; Heatmap:
 * the hottest few, `<page>` included, ranked. It depends on numbers that
 * move slowly (EMAs), so the renderer may reuse it for a few flushes while
 * `placeFrame` follows positions and sparklines every flush.
 */
export interface Choice<N extends CostNode> {
  mode: DrawMode;
  /** Components: largest first. Heatmap: hottest first (may hold the `<page>` bucket). */
  chosen: N[];
  capped: boolean;
}

export function chooseFrame<N extends CostNode>(input: PlanInput<N>): Choice<N> {
  if (input.mode === 'components') {
    const shown = chooseInTree(input.tree ?? buildTree(input.nodes), input.rules, input.skip);
    const cap = capLargestFirst(shown, input.maxMeters ?? MAX_METERS);
    return { mode: 'components', chosen: cap.kept, capped: cap.capped };
  }
  if (input.mode === 'heatmap') {
    // Rank a few spares: some will be off screen, too small or folded into a chain.
    const topN = input.topN ?? HEATMAP_TOP_N;
    const nodes = input.skip ? without(input.nodes, input.skip) : input.nodes;
    return { mode: 'heatmap', chosen: rankHeatmap(iterateWithPage(nodes, input.page), input.rules, topN * 3), capped: false };
  }
  return { mode: 'inspect', chosen: [], capped: false };
}

/** A whole plan in one go (what tests and the benchmark's worst case use). */
export function planFrame<N extends CostNode>(input: PlanInput<N>): Plan<N> {
  return placeFrame(input, chooseFrame(input));
}

/** The O(chosen) half: anchors, collapse, outlines, captions and the bounds to ask for, every flush. */
export function placeFrame<N extends CostNode>(input: PlanInput<N>, choice: Choice<N>): Plan<N> {
  const { mode, viewport: vp, rtl } = input;
  const max = input.maxMeters ?? MAX_METERS;
  const flash = input.flash ?? null;
  const flashIds = flash === null ? [] : [flash.cause, ...flash.moved];
  const extras = [input.pinned, input.hovered, input.highlighted, ...flashIds].filter((id): id is number => id !== null && id !== 0);
  let meters: PlannedMeter<N>[] = [];
  let want: number[] = [];
  const capped = choice.mode === mode && choice.capped;

  if (mode === 'components' && choice.mode === mode) {
    want = choice.chosen.map((n) => n.id);
    const placed: Placed<N>[] = [];
    for (const n of choice.chosen) {
      const p = place(n, vp, rtl);
      if (p) placed.push(p);
    }
    meters = collapseCoinciding(placed, input.get).map((c) => ({ ...c, label: null }));
  } else if (mode === 'heatmap' && choice.mode === mode) {
    const topN = input.topN ?? HEATMAP_TOP_N;
    const ranked = choice.chosen;
    want = ranked.filter((n) => n.id !== 0).map((n) => n.id);
    const rank = new Map<N, number>(ranked.map((n, i) => [n, i]));
    const placed: Placed<N>[] = [];
    let pageMeter: PlannedMeter<N> | null = null;
    for (const n of ranked) {
      if (n.id === 0) {
        pageMeter = { node: n, at: pageAnchor(vp, rtl), chain: [n], label: '<page>' };
        continue;
      }
      const p = place(n, vp, rtl);
      if (p) placed.push(p);
    }
    const all = collapseCoinciding(placed, input.get).map((c): PlannedMeter<N> => ({ ...c, label: null }));
    if (pageMeter) all.push(pageMeter);
    all.sort((a, b) => (rank.get(a.node) ?? 0) - (rank.get(b.node) ?? 0));
    meters = all.slice(0, topN);
  } else if (mode === 'inspect') {
    for (const id of [input.hovered, input.pinned]) {
      const n = id === null ? undefined : input.get(id);
      if (!n || meters.some((m) => m.node === n)) continue;
      const p = place(n, vp, rtl);
      if (p) meters.push({ node: p.node, at: p.at, chain: [n], label: null });
    }
  }

  const occluders = input.occluders ?? [];
  const focus = [input.pinned, input.hovered, input.highlighted].filter((id): id is number => id !== null);
  const placed = declutter(meters, vp, rtl, occluders, focus);
  meters = placed.kept;
  // Paint shallow first so a deeper meter is never hidden under its ancestor's outline.
  meters.sort((a, b) => a.node.depth - b.node.depth || a.node.id - b.node.id);
  const outlines: Rect[] = [];
  const outlineCovers: (readonly Rect[])[] = [];
  for (const m of meters) {
    if (!m.node.bounds) continue;
    outlines.push(m.node.bounds);
    outlineCovers.push(coveringFor(m.node.layer ?? 0, occluders));
  }
  const accentOutlines: Rect[] = [];
  for (const id of [input.hovered, input.highlighted]) {
    const b = id === null || id === input.pinned ? null : input.get(id)?.bounds;
    if (b) accentOutlines.push(b);
  }

  const captions: Caption<N>[] = [];
  const pinned = input.pinned === null ? undefined : input.get(input.pinned);
  const pinOutline = pinned?.bounds ?? null;
  if (pinned) {
    const at = captionAt(pinned, meters, vp, rtl);
    if (at) captions.push({ node: pinned, at, pinned: true });
  }
  // Inspect: the hovered component is named too — it is often a cell too small for a meter.
  const hovered = input.hovered === null || input.hovered === input.pinned ? undefined : input.get(input.hovered);
  if (hovered) {
    const at = captionAt(hovered, meters, vp, rtl);
    if (at) captions.push({ node: hovered, at, pinned: false });
  }

  const causeOutlines: Rect[] = [];
  const movedOutlines: Rect[] = [];
  if (flash !== null) {
    for (const id of flash.moved) {
      const b = id === flash.cause ? null : input.get(id)?.bounds;
      if (b) movedOutlines.push(b);
    }
    const cause = flash.cause === null ? undefined : input.get(flash.cause);
    if (cause?.bounds) {
      causeOutlines.push(cause.bounds);
      const at = captionAt(cause, meters, vp, rtl);
      if (at && !captions.some((c) => c.node === cause)) captions.push({ node: cause, at, pinned: false, shiftCause: true });
    }
  }

  // Pinned, hovered, highlighted and flashed components always get their bounds read, cap or not.
  const wantBounds = [...new Set([...extras, ...want])].slice(0, max + extras.length);
  return {
    meters, hidden: placed.hidden, outlines, outlineCovers, pinOutline, accentOutlines, captions, causeOutlines, movedOutlines,
    wantBounds, capped,
  };
}

function captionAt<N extends CostNode>(n: N, meters: PlannedMeter<N>[], vp: Viewport, rtl: boolean): Point | null {
  const own = meters.find((m) => m.chain.includes(n));
  if (own) return own.at;
  const b = n.bounds;
  if (!b) return null;
  const x = rtl ? b.x + METER_INSET_PX : b.x + b.width - METER_INSET_PX - METER_WIDTH_PX;
  return clampToViewport({ x, y: b.y + METER_INSET_PX }, vp);
}

function* without<N>(nodes: Iterable<N>, skip: (n: N) => boolean): Iterable<N> {
  for (const n of nodes) if (!skip(n)) yield n;
}

function* iterateWithPage<N>(nodes: Iterable<N>, page: N): Iterable<N> {
  yield page;
  yield* nodes;
}
