/**
 * Text on the canvas: the pinned component's caption, the mode caption, the
 * `<page>` label and the legend. Page-supplied names only ever reach
 * `fillText` (never markup), are stripped of control characters and cut to
 * a readable length.
 */
import { clampToViewport, METER_HEIGHT_PX, METER_WIDTH_PX, type Point } from './anchor';
import { nodeInflation } from './ramps';
import { snap } from './snap';
import type { DrawContext, Rect, Viewport } from './types';

export const FONT_PX = 11;
export const LINE_HEIGHT_PX = 15;
export const TEXT_PAD_PX = 5;
export const MAX_NAME_CHARS = 40;
export const TEXT_BG = 'rgba(20,20,20,0.88)';
export const TEXT_FG = 'rgb(215,215,215)';
/** Title lines (mode caption, legend heading): brighter than body text. */
export const TITLE_FG = 'rgb(255,255,255)';
const FONT_FAMILY = 'system-ui, -apple-system, "Segoe UI", sans-serif';

/** A run of text with an optional color (a swatch when `swatch` is set). */
export interface Segment {
  text: string;
  color?: string;
  swatch?: boolean;
}
export type Line = string | Segment[];

export function cleanName(name: string): string {
  // eslint-disable-next-line no-control-regex
  // Control characters and bidi controls (embeddings, overrides, isolates, marks): a name must not reorder what
  // the caption says around it.
  const s = name.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').trim() || 'Anonymous';
  return s.length > MAX_NAME_CHARS ? `${s.slice(0, MAX_NAME_CHARS - 1)}…` : s;
}

export function formatMs(ms: number): string {
  if (!(ms > 0)) return '0 ms';
  if (ms < 0.1) return '<0.1 ms';
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`;
}

/**
 * "Grid · 4.2 ms · 50 → 847 el (16.9×)": name, layout ms, authored → rendered elements and the ratio; elements
 * that other components portaled in are named apart ("· 1 → 78 el (1.0×, 77 portaled in)") and left out of the ratio.
 */
export function pinCaption(name: string, layoutMs: number, authored: number, rendered: number, portaledIn = 0): string {
  const ratio = nodeInflation({ authored, rendered, portaledIn });
  const extra = portaledIn > 0 ? `, ${portaledIn} portaled in` : '';
  return `${cleanName(name)} · ${formatMs(layoutMs)} · ${authored} → ${rendered} el (${ratio.toFixed(1)}×${extra})`;
}

/**
 * Setting `ctx.font` re-parses the font and, on a canvas in the document,
 * makes the browser resolve it against the canvas element's style: it was the
 * overlay's largest own cost on the StressGrid profile. Set it only when it
 * changes (a resized canvas resets its state, which the read-back catches).
 */
function setFont(ctx: DrawContext, dpr: number): string {
  // One weight only: alternating bold titles with regular lines re-set the font twice per box.
  const font = `${Math.round(FONT_PX * dpr)}px ${FONT_FAMILY}`;
  if (lastFont.get(ctx) !== font) {
    ctx.font = font;
    ctx.textBaseline = 'middle';
    lastFont.set(ctx, font);
  }
  return font;
}
const lastFont = new WeakMap<DrawContext, string>();

/** Resizing a canvas resets its context state (font included): call after every resize. */
export function forgetFont(ctx: DrawContext): void {
  lastFont.delete(ctx);
}

/** Text widths by font and text: captions and the legend repeat the same strings every flush. */
const widths = new Map<string, number>();
const MAX_WIDTHS = 512;
function textWidth(ctx: DrawContext, font: string, text: string): number {
  const key = `${font}|${text}`;
  let w = widths.get(key);
  if (w === undefined) {
    w = ctx.measureText(text).width;
    if (widths.size >= MAX_WIDTHS) widths.clear();
    widths.set(key, w);
  }
  return w;
}

const SWATCH_PX = 8;

function segments(line: Line): Segment[] {
  return typeof line === 'string' ? [{ text: line }] : line;
}

/** Size of a text box in CSS px. */
export function measureLines(ctx: DrawContext, lines: readonly Line[], dpr: number): { width: number; height: number } {
  const font = setFont(ctx, dpr);
  let w = 0;
  for (const line of lines) {
    let lw = 0;
    for (const seg of segments(line)) lw += seg.swatch ? SWATCH_PX + 3 : textWidth(ctx, font, seg.text) / dpr;
    w = Math.max(w, lw);
  }
  return { width: Math.ceil(w) + 2 * TEXT_PAD_PX, height: lines.length * LINE_HEIGHT_PX + 2 * TEXT_PAD_PX - 2 };
}

/** Draws a dark box with `lines` at (x, y) CSS px; the first line bold when `title`. */
export function paintLines(
  ctx: DrawContext, lines: readonly Line[], x: number, y: number, dpr: number, opts: { title?: boolean; border?: string } = {},
): Rect {
  const size = measureLines(ctx, lines, dpr);
  const bx = snap(x, dpr), by = snap(y, dpr);
  const bw = snap(x + size.width, dpr) - bx, bh = snap(y + size.height, dpr) - by;
  ctx.fillStyle = TEXT_BG;
  ctx.fillRect(bx, by, bw, bh);
  if (opts.border) {
    ctx.fillStyle = opts.border;
    ctx.fillRect(bx, by, Math.max(1, Math.round(2 * dpr)), bh);
  }
  lines.forEach((line, i) => {
    const font = setFont(ctx, dpr);
    // The title line stands out by colour rather than weight (see setFont).
    const title = opts.title === true && i === 0;
    let cx = x + TEXT_PAD_PX;
    const cy = y + TEXT_PAD_PX + i * LINE_HEIGHT_PX + LINE_HEIGHT_PX / 2 - 1;
    for (const seg of segments(line)) {
      if (seg.swatch) {
        ctx.fillStyle = seg.color ?? TEXT_FG;
        ctx.fillRect(snap(cx, dpr), snap(cy - SWATCH_PX / 2, dpr), snap(cx + SWATCH_PX, dpr) - snap(cx, dpr), snap(cy + SWATCH_PX / 2, dpr) - snap(cy - SWATCH_PX / 2, dpr));
        cx += SWATCH_PX + 3;
        continue;
      }
      ctx.fillStyle = seg.color ?? (title ? TITLE_FG : TEXT_FG);
      ctx.fillText(seg.text, snap(cx, dpr), Math.round(cy * dpr));
      cx += textWidth(ctx, font, seg.text) / dpr;
    }
  });
  return { x, y, width: size.width, height: size.height };
}

/**
 * Where a caption goes: outside the component's box when there is room —
 * just above it, right-aligned with it, else just below it — so it does not
 * cover what the user is looking at; otherwise under the meter (above it at
 * the bottom edge). Always inside the viewport.
 */
export function placeCaption(meter: Point, size: { width: number; height: number }, vp: Viewport, box: Rect | null = null): Point {
  if (box) {
    const x = Math.min(box.x + box.width, vp.width) - size.width;
    const above = Math.min(box.y, vp.height) - 2 - size.height;
    if (above >= 0 && box.y <= vp.height) return clampToViewport({ x, y: above }, vp, size.width, size.height);
    const below = Math.max(box.y + box.height, 0) + 2;
    if (below + size.height <= vp.height && box.y + box.height >= 0) return clampToViewport({ x, y: below }, vp, size.width, size.height);
  }
  const x = meter.x + METER_WIDTH_PX - size.width;
  let y = meter.y + METER_HEIGHT_PX + 2;
  if (y + size.height > vp.height) y = meter.y - 2 - size.height;
  return clampToViewport({ x, y }, vp, size.width, size.height);
}

/** The mode caption: centred near the top of the viewport. */
export function placeModeCaption(size: { width: number; height: number }, vp: Viewport): Point {
  return clampToViewport({ x: Math.round((vp.width - size.width) / 2), y: 12 }, vp, size.width, size.height);
}

/** The legend: bottom-left, 12 px in. */
export function placeLegend(size: { width: number; height: number }, vp: Viewport): Point {
  return clampToViewport({ x: 12, y: vp.height - size.height - 12 }, vp, size.width, size.height);
}
