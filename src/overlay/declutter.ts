/**
 * Meters never overlap, and nothing is drawn over what covers it (issue 9).
 *
 * Placement: meters are placed one by one, most important first, each at its
 * anchor (the box's top inline-end corner) or, when that spot is taken, at the
 * next free slot along the box's top edge, then down its inline-end edge, always
 * inside its own box and the viewport. A meter with no free slot is left out and
 * counted (`hidden`): the panel's table still lists the component.
 *
 * Importance: the pinned and hovered components first, then more layout ms
 * (above the noise floor), then more inflation (own elements ÷ authored), then
 * more elements, then shallower. A library's internal component that costs
 * nothing and inflates nothing therefore yields its corner to the developer's
 * component that does; repeated siblings of one type rank by their own numbers.
 *
 * Occlusion: `occluders` are what the page stacks over its content — dialogs,
 * menus, tooltips rendered through portals, the top layer — in stacking order;
 * a component with `layer` L sits in occluder L's content (0: the page itself)
 * and is covered by occluders L+1 and above. A meter on a covering occluder is
 * not drawn; outlines are clipped to the uncovered part (`coveringFor`).
 */
import { METER_HEIGHT_PX, METER_WIDTH_PX, type Point } from './anchor';
import { nodeInflation } from './ramps';
import { MS_NOISE_FLOOR } from './surface';
import type { CostNode, Rect, Viewport } from './types';

/** Free space kept between two meters. */
export const METER_GAP_PX = 2;
/** Alternative slots tried along each edge before a meter is left out. */
const SLOTS_PER_EDGE = 4;

export interface Placeable<N extends CostNode> {
  node: N;
  at: Point;
}

export interface DeclutterResult<T> {
  kept: T[];
  /** Meters left out: no free slot, or covered. */
  hidden: number;
}

function layerOf(n: CostNode): number {
  return n.layer ?? 0;
}

/** The occluders above a component's layer (occluder i is layer i + 1). */
export function coveringFor(layer: number, occluders: readonly Rect[]): readonly Rect[] {
  return layer <= 0 ? occluders : occluders.slice(layer);
}

function overlaps(a: Rect, b: Rect, gap = 0): boolean {
  return a.x < b.x + b.width + gap && b.x < a.x + a.width + gap && a.y < b.y + b.height + gap && b.y < a.y + a.height + gap;
}

/** Most important first (see the file comment); `first` are the pinned and hovered ids. */
export function compareImportance(a: CostNode, b: CostNode): number {
  const la = a.layout >= MS_NOISE_FLOOR ? a.layout : 0, lb = b.layout >= MS_NOISE_FLOOR ? b.layout : 0;
  if (la !== lb) return lb - la;
  const ia = nodeInflation(a), ib = nodeInflation(b);
  if (ia !== ib) return ib - ia;
  return b.rendered - a.rendered || a.depth - b.depth || a.id - b.id;
}

function* slots(at: Point, box: Rect | null, rtl: boolean): Iterable<Point> {
  yield at;
  if (!box) return;
  const stepX = METER_WIDTH_PX + METER_GAP_PX, stepY = METER_HEIGHT_PX + METER_GAP_PX;
  for (let k = 1; k <= SLOTS_PER_EDGE; k++) {
    const x = rtl ? at.x + k * stepX : at.x - k * stepX;
    if (x < box.x || x + METER_WIDTH_PX > box.x + box.width) break;
    yield { x, y: at.y };
  }
  for (let k = 1; k <= SLOTS_PER_EDGE; k++) {
    const y = at.y + k * stepY;
    if (y + METER_HEIGHT_PX > box.y + box.height) break;
    yield { x: at.x, y };
  }
}

/**
 * Places meters so that none overlaps another or a covering occluder. Returns
 * the kept items (with their final `at`) in importance order.
 */
export function declutter<N extends CostNode, T extends Placeable<N>>(
  items: readonly T[], vp: Viewport, rtl: boolean, occluders: readonly Rect[], first: readonly number[] = [],
): DeclutterResult<T> {
  const rank = (n: N): number => {
    const i = first.indexOf(n.id);
    return i < 0 ? first.length : i;
  };
  const order = items.slice().sort((a, b) => rank(a.node) - rank(b.node) || compareImportance(a.node, b.node));
  const placed: Rect[] = [];
  const kept: T[] = [];
  let hidden = 0;
  for (const item of order) {
    const covering = coveringFor(layerOf(item.node), occluders);
    let spot: Rect | null = null;
    for (const p of slots(item.at, item.node.bounds, rtl)) {
      const r = { x: p.x, y: p.y, width: METER_WIDTH_PX, height: METER_HEIGHT_PX };
      if (r.x < 0 || r.y < 0 || r.x + r.width > vp.width || r.y + r.height > vp.height) continue;
      if (placed.some((q) => overlaps(r, q, METER_GAP_PX)) || covering.some((o) => overlaps(r, o))) continue;
      spot = r;
      break;
    }
    if (spot === null) {
      hidden++;
      continue;
    }
    placed.push(spot);
    kept.push(spot.x === item.at.x && spot.y === item.at.y ? item : { ...item, at: { x: spot.x, y: spot.y } });
  }
  return { kept, hidden };
}
