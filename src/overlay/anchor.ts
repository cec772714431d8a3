/**
 * Where a meter goes (SPEC §3): at the top-right corner of the component's
 * subtree box, 4 px inward, clamped so it stays inside the viewport; not at
 * all when the box is under 40 px wide or tall (no room) or wholly off
 * screen. On right-to-left pages the inline-end corner is the left one, so
 * the meter mirrors to the top-left.
 */
import type { Rect, Viewport } from './types';

export const METER_WIDTH_PX = 32;
export const METER_HEIGHT_PX = 14;
export const METER_INSET_PX = 4;
/** Boxes narrower or shorter than this get no meter. */
export const MIN_SUBTREE_PX = 40;

export interface Point {
  x: number;
  y: number;
}

/** True when the box is big enough for a meter (40 px exactly is enough). */
export function roomForMeter(b: Rect): boolean {
  return b.width >= MIN_SUBTREE_PX && b.height >= MIN_SUBTREE_PX;
}

/** True when any part of the box is inside the viewport. */
export function intersectsViewport(b: Rect, vp: Viewport): boolean {
  return b.x < vp.width && b.x + b.width > 0 && b.y < vp.height && b.y + b.height > 0;
}

/** Clamps a meter's top-left so the whole meter stays on screen (top-left wins on a tiny viewport). */
export function clampToViewport(p: Point, vp: Viewport, w = METER_WIDTH_PX, h = METER_HEIGHT_PX): Point {
  return {
    x: Math.max(0, Math.min(p.x, vp.width - w)),
    y: Math.max(0, Math.min(p.y, vp.height - h)),
  };
}

/** Top-left of the meter in viewport CSS px, or null when it is suppressed. */
export function meterAnchor(b: Rect, vp: Viewport, rtl = false): Point | null {
  if (!roomForMeter(b) || !intersectsViewport(b, vp)) return null;
  const x = rtl ? b.x + METER_INSET_PX : b.x + b.width - METER_INSET_PX - METER_WIDTH_PX;
  return clampToViewport({ x, y: b.y + METER_INSET_PX }, vp);
}

/**
 * The `<page>` bucket has no box of its own: its meter sits at the viewport's
 * bottom-right corner (bottom-left on RTL pages), 4 px in — not the top
 * corner, where the root component's meter already sits.
 */
export function pageAnchor(vp: Viewport, rtl = false): Point {
  const x = rtl ? METER_INSET_PX : vp.width - METER_INSET_PX - METER_WIDTH_PX;
  return clampToViewport({ x, y: vp.height - METER_INSET_PX - METER_HEIGHT_PX }, vp);
}
