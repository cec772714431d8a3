/**
 * Paints meters and outlines onto a 2D context in device pixels, batched:
 * one path and one fill per color for all meters at once, instead of a
 * fill per bar per meter, because canvas call count — not pixel count —
 * is what the 1 ms flush budget for 200 meters is spent on.
 */
import { METER_HEIGHT_PX, METER_WIDTH_PX } from './anchor';
import { emitBars, emitSparkline, emitStrip, GREY } from './meter';
import { AUTHORED_COLOR, LEVEL_COLORS, Level, type Ramp } from './ramps';
import { hairline, snapRect } from './snap';
import type { DrawContext, Rect } from './types';

export const BOX_FILL = 'rgba(30,30,30,0.78)';
export const BOX_BORDER = 'rgb(80,80,80)';
export const BOX_RADIUS_PX = 2;
export const OUTLINE_COLOR = 'rgba(96,165,250,0.9)';
export const PIN_COLOR = 'rgb(236,72,153)';
/** Inspect hover and the panel's hovered row: a solid blue line over a light blue wash, visible on light and dark pages. */
export const HOVER_COLOR = 'rgb(37,99,235)';
export const HOVER_FILL = 'rgba(59,130,246,0.16)';

export interface MeterDraw {
  /** Top-left in viewport CSS px (already anchored and clamped). */
  x: number;
  y: number;
  layoutMs: number;
  authored: number;
  rendered: number;
  /** Sparkline ring and the index of its oldest bucket; null = no history (flat). */
  spark: ArrayLike<number> | null;
  sparkOldest: number;
}

export interface PaintStyle {
  meterStyle: 'sparkline' | 'bars';
  msRamp: Ramp;
  inflationRamp: Ramp;
  colorBlind: boolean;
  /** A pattern (or color) laid over orange and red fills when colorBlind is on. */
  stripeFill: unknown;
}

/** Adds a rounded rect to the current path (arcTo works on every canvas and on the test fake). */
export function roundRectPath(ctx: DrawContext, x: number, y: number, w: number, h: number, r: number): void {
  const rr = Math.max(0, Math.min(r, w / 2, h / 2));
  ctx.moveTo(x + rr, y);
  ctx.arcTo(x + w, y, x + w, y + h, rr);
  ctx.arcTo(x + w, y + h, x, y + h, rr);
  ctx.arcTo(x, y + h, x, y, rr);
  ctx.arcTo(x, y, x + w, y, rr);
  ctx.closePath();
}

// Per-color rect lists reused across flushes: [x, y, w, h, x, y, w, h, …].
const buckets: number[][] = [[], [], [], [], []];
const GREY_BUCKET = 4;

function collect(x: number, y: number, w: number, h: number, color: number): void {
  const b = buckets[color === GREY ? GREY_BUCKET : color];
  b.push(x, y, w, h);
}

function fillBucket(ctx: DrawContext, b: number[], fill: unknown): void {
  if (b.length === 0) return;
  ctx.fillStyle = fill;
  ctx.beginPath();
  for (let i = 0; i < b.length; i += 4) ctx.rect(b[i], b[i + 1], b[i + 2], b[i + 3]);
  ctx.fill();
}

export function paintMeters(ctx: DrawContext, meters: readonly MeterDraw[], dpr: number, style: PaintStyle): void {
  if (meters.length === 0) return;
  const lw = hairline(dpr);
  const r = BOX_RADIUS_PX * dpr;
  ctx.beginPath();
  for (const m of meters) {
    const b = snapRect({ x: m.x, y: m.y, width: METER_WIDTH_PX, height: METER_HEIGHT_PX }, dpr);
    roundRectPath(ctx, b.x, b.y, b.width, b.height, r);
  }
  ctx.fillStyle = BOX_FILL;
  ctx.fill();
  // The border is stroked on whole device pixels: a path inset by half the line width.
  ctx.beginPath();
  for (const m of meters) {
    const b = snapRect({ x: m.x, y: m.y, width: METER_WIDTH_PX, height: METER_HEIGHT_PX }, dpr);
    roundRectPath(ctx, b.x + lw / 2, b.y + lw / 2, b.width - lw, b.height - lw, Math.max(0, r - lw / 2));
  }
  ctx.strokeStyle = BOX_BORDER;
  ctx.lineWidth = lw;
  ctx.stroke();

  for (const b of buckets) b.length = 0;
  for (const m of meters) {
    if (style.meterStyle === 'bars') {
      emitBars(m.x, m.y, dpr, m.layoutMs, m.authored, m.rendered, style.msRamp, style.inflationRamp, collect);
    } else {
      if (m.spark) emitSparkline(m.x, m.y, dpr, m.spark, m.sparkOldest, style.msRamp, collect);
      emitStrip(m.x, m.y, dpr, m.authored, m.rendered, style.inflationRamp, collect);
    }
  }
  fillBucket(ctx, buckets[GREY_BUCKET], AUTHORED_COLOR);
  for (let level = Level.Green; level <= Level.Red; level++) fillBucket(ctx, buckets[level], LEVEL_COLORS[level]);
  if (style.colorBlind && style.stripeFill !== null) {
    fillBucket(ctx, buckets[Level.Orange], style.stripeFill);
    fillBucket(ctx, buckets[Level.Red], style.stripeFill);
  }
}

/** 1 px outlines on whole device pixels, one fill for all of them. */
export function paintOutlines(ctx: DrawContext, rects: readonly Rect[], dpr: number, color = OUTLINE_COLOR): void {
  if (rects.length === 0) return;
  const t = hairline(dpr);
  ctx.beginPath();
  for (const r of rects) {
    const d = snapRect(r, dpr);
    if (d.width <= 0 || d.height <= 0) continue;
    if (d.width <= 2 * t || d.height <= 2 * t) {
      ctx.rect(d.x, d.y, d.width, d.height);
      continue;
    }
    ctx.rect(d.x, d.y, d.width, t);
    ctx.rect(d.x, d.y + d.height - t, d.width, t);
    ctx.rect(d.x, d.y + t, t, d.height - 2 * t);
    ctx.rect(d.x + d.width - t, d.y + t, t, d.height - 2 * t);
  }
  ctx.fillStyle = color;
  ctx.fill();
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

/** Side of the square stripe tile in device px (a pattern repeats it). */
export function stripeTileSize(dpr: number): number {
  return Math.max(4, Math.round(6 * dpr));
}

/**
 * Draws one tile of the color-blind pattern: dark 45° stripes that tile
 * seamlessly, so orange and red read as "hatched" without relying on hue.
 */
export function paintStripeTile(ctx: DrawContext, dpr: number): void {
  const s = stripeTileSize(dpr);
  ctx.clearRect(0, 0, s, s);
  ctx.strokeStyle = 'rgba(0,0,0,0.55)';
  ctx.lineWidth = Math.max(1, Math.round(1.5 * dpr));
  ctx.beginPath();
  for (const o of [-s, 0, s]) {
    ctx.moveTo(o, s);
    ctx.lineTo(o + s, 0);
  }
  ctx.stroke();
}
