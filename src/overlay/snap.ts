/**
 * Device-pixel snapping (seed 003): the canvas draws in device pixels, and
 * every rectangle edge lands on a whole device pixel, so fills and 1 px lines
 * stay crisp at 100, 125, 150 and 200 % zoom instead of smearing across two
 * pixel rows. Edges are rounded independently (not x and width), so two rects
 * that share an edge in CSS px share it on screen too.
 */
import type { Rect } from './types';

/** A CSS-px coordinate on the device-pixel grid. */
export function snap(v: number, dpr: number): number {
  return Math.round(v * dpr);
}

/** A CSS-px rect as whole device pixels; width and height never go negative. */
export function snapRect(r: Rect, dpr: number): Rect {
  const x0 = snap(r.x, dpr), y0 = snap(r.y, dpr);
  const x1 = snap(r.x + r.width, dpr), y1 = snap(r.y + r.height, dpr);
  return { x: x0, y: y0, width: Math.max(0, x1 - x0), height: Math.max(0, y1 - y0) };
}

/** Thickness of a "1 px" line in device px: one CSS px rounded, never thinner than one device pixel. */
export function hairline(dpr: number): number {
  return Math.max(1, Math.round(dpr));
}

/**
 * A 1 px outline as four filled rects inside `r` (device px): filled rects
 * on whole pixels cannot antialias, where a stroked path would straddle a
 * pixel boundary at odd line widths. Returns [] when the rect is too small
 * to hold two lines, in which case it is filled whole.
 */
export function outlineRects(r: Rect, dpr: number): Rect[] {
  const d = snapRect(r, dpr);
  const t = hairline(dpr);
  if (d.width <= 0 || d.height <= 0) return [];
  if (d.width <= 2 * t || d.height <= 2 * t) return [d];
  return [
    { x: d.x, y: d.y, width: d.width, height: t },
    { x: d.x, y: d.y + d.height - t, width: d.width, height: t },
    { x: d.x, y: d.y + t, width: t, height: d.height - 2 * t },
    { x: d.x + d.width - t, y: d.y + t, width: t, height: d.height - 2 * t },
  ];
}

/**
 * Where to put a stroked path so a line of `lineWidth` device px covers whole
 * pixels: odd widths sit on pixel centres (+0.5), even widths on edges.
 */
export function strokeInset(lineWidth: number): number {
  return lineWidth % 2 === 1 ? 0.5 : 0;
}
