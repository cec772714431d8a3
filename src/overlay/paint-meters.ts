/**
 * Paints outlines and washes onto a 2D context in device pixels, one path
 * and one stroke (or fill) for all of them. Meters themselves are blitted
 * from the meter atlas (src/overlay/atlas.ts).
 */
import { hairline, snapRect } from './snap';
import type { DrawContext, Rect } from './types';

export const OUTLINE_COLOR = 'rgba(96,165,250,0.9)';
export const PIN_COLOR = 'rgb(236,72,153)';
/** Inspect hover and the panel's hovered row: a solid blue line over a light blue wash, visible on light and dark pages. */
export const HOVER_COLOR = 'rgb(37,99,235)';
export const HOVER_FILL = 'rgba(59,130,246,0.16)';
/** A flashed layout shift (issue 46): its cause in orange over an orange wash, what it moved in violet. */
export const SHIFT_CAUSE_COLOR = 'rgb(234,88,12)';
export const SHIFT_CAUSE_FILL = 'rgba(234,88,12,0.18)';
export const SHIFT_MOVED_COLOR = 'rgb(124,58,237)';
export const SHIFT_MOVED_FILL = 'rgba(124,58,237,0.10)';

/**
 * 1 px outlines on whole device pixels, one stroke for all of them: a rect
 * path inset by half the line width covers exactly `hairline(dpr)` device
 * pixels along each edge, inside the box (one call per outline, not four).
 */
export function paintOutlines(ctx: DrawContext, rects: readonly Rect[], dpr: number, color = OUTLINE_COLOR): void {
  if (rects.length === 0) return;
  const t = hairline(dpr);
  ctx.beginPath();
  for (const r of rects) {
    const d = snapRect(r, dpr);
    if (d.width <= t || d.height <= t) continue;
    ctx.rect(d.x + t / 2, d.y + t / 2, d.width - t, d.height - t);
  }
  ctx.strokeStyle = color;
  ctx.lineWidth = t;
  ctx.stroke();
}

/**
 * Outlines, each clipped to what its covers (the occluders above it) leave visible: an outline under an open
 * dialog or menu is not drawn across it. Outlines with nothing above them go in one stroke.
 */
export function paintCoveredOutlines(
  ctx: DrawContext, rects: readonly Rect[], covers: readonly (readonly Rect[])[], dpr: number, vp: { width: number; height: number },
  color = OUTLINE_COLOR,
): void {
  const open: Rect[] = [];
  for (let i = 0; i < rects.length; i++) {
    const cover = covers[i] ?? [];
    if (cover.length === 0) {
      open.push(rects[i]);
      continue;
    }
    ctx.save();
    // Each clip intersects the last: the viewport less every cover.
    for (const c of cover) {
      const d = snapRect(c, dpr);
      ctx.beginPath();
      ctx.rect(0, 0, vp.width * dpr, vp.height * dpr);
      ctx.rect(d.x, d.y, d.width, d.height);
      ctx.clip('evenodd');
    }
    paintOutlines(ctx, [rects[i]], dpr, color);
    ctx.restore();
  }
  paintOutlines(ctx, open, dpr, color);
}

/** Fills whole rects (snapped), one fill for all: the wash under a hovered component. */
export function paintFills(ctx: DrawContext, rects: readonly Rect[], dpr: number, fill: unknown): void {
  if (rects.length === 0) return;
  ctx.beginPath();
  for (const r of rects) {
    const d = snapRect(r, dpr);
    if (d.width > 0 && d.height > 0) ctx.rect(d.x, d.y, d.width, d.height);
  }
  ctx.fillStyle = fill;
  ctx.fill();
}
