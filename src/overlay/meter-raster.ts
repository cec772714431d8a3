/**
 * Meters as pixels. A meter is a fixed 32 × 14 CSS px image; rasterising it
 * in JS into an RGBA buffer (a slot of the meter atlas, src/overlay/atlas.ts)
 * and blitting it costs one drawImage per meter, where drawing it as paths
 * cost a dozen canvas calls and their rasterisation. The geometry is the
 * same pure math (box.ts, meter.ts) in a local frame whose origin is the
 * meter's own top-left device pixel, so every edge is a whole device pixel
 * wherever the meter lands.
 */
import { METER_HEIGHT_PX, METER_WIDTH_PX } from './anchor';
import { boxTemplate } from './box';
import { emitBars, emitSparkline, emitStrip, GREY, type RectSink } from './meter';
import { AUTHORED_RGB, isStriped, LEVEL_RGB, type Level, type Ramp } from './ramps';
import { hairline } from './snap';

/** An RGBA (not premultiplied) pixel buffer, as ImageData holds one. */
export interface PixelBuffer {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

export type RGBA = readonly [number, number, number, number];
/** rgba(30,30,30,0.78) and rgb(80,80,80) (SPEC §3). */
export const BOX_RGBA: RGBA = [30, 30, 30, 199];
export const BORDER_RGBA: RGBA = [80, 80, 80, 255];
export const BOX_RADIUS_PX = 2;
/** Color-blind stripes: these pixels of an orange or red fill are darkened to this fraction. */
export const STRIPE_SHADE = 0.55;

export interface MeterData {
  layoutMs: number;
  authored: number;
  rendered: number;
  /** Sparkline ring and the index of its oldest bucket; null = no history (flat). */
  spark: ArrayLike<number> | null;
  sparkOldest: number;
}

export interface MeterStyle {
  meterStyle: 'sparkline' | 'bars';
  msRamp: Ramp;
  inflationRamp: Ramp;
  colorBlind: boolean;
}

/** A meter's size in device px at `dpr`. */
export function meterSize(dpr: number): { width: number; height: number } {
  return { width: Math.round(METER_WIDTH_PX * dpr), height: Math.round(METER_HEIGHT_PX * dpr) };
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([0x01020304]).buffer)[0] === 4;

/** An RGBA color as the 32-bit word a Uint32Array view of the buffer holds. */
export function packRGBA(c: RGBA): number {
  const [r, g, b, a] = c.map((v) => Math.max(0, Math.min(255, Math.round(v))));
  return (LITTLE_ENDIAN ? ((a << 24) | (b << 16) | (g << 8) | r) : ((r << 24) | (g << 16) | (b << 8) | a)) >>> 0;
}

/** 32-bit views of pixel buffers, made once per buffer. */
const views = new WeakMap<Uint8ClampedArray, Uint32Array>();
function words(buf: PixelBuffer): Uint32Array {
  let v = views.get(buf.data);
  if (!v || v.buffer !== buf.data.buffer) {
    v = new Uint32Array(buf.data.buffer, buf.data.byteOffset, buf.data.byteLength >> 2);
    views.set(buf.data, v);
  }
  return v;
}

/**
 * Fills a rect (relative to the slot at sx, sy of size sw × sh, clipped to
 * it) with one packed color; `shade`, when given, is used instead on the
 * color-blind stripes.
 */
export function fillPixels(
  buf: PixelBuffer, sx: number, sy: number, sw: number, sh: number,
  x: number, y: number, w: number, h: number, color: number, stripes: { period: number; width: number; shade: number } | null = null,
): void {
  fillWords(words(buf), buf.width, sx, sy, sw, sh, x, y, w, h, color, stripes === null ? 0 : stripes.period, stripes?.width ?? 0, stripes?.shade ?? 0);
}

/** fillPixels on the buffer's 32-bit view, stripes as plain numbers (period 0: none): the rasteriser's inner call. */
function fillWords(
  d: Uint32Array, stride: number, sx: number, sy: number, sw: number, sh: number,
  x: number, y: number, w: number, h: number, color: number, period: number, stripeWidth: number, shade: number,
): void {
  const x0 = x > 0 ? x : 0, y0 = y > 0 ? y : 0, x1 = x + w < sw ? x + w : sw, y1 = y + h < sh ? y + h : sh;
  if (x1 <= x0 || y1 <= y0) return;
  for (let py = y0; py < y1; py++) {
    const row = (sy + py) * stride + sx;
    if (period === 0) {
      // Sparkline columns are a pixel or two wide: a loop beats fill()'s call overhead there.
      if (x1 - x0 <= 4) for (let i = row + x0; i < row + x1; i++) d[i] = color;
      else d.fill(color, row + x0, row + x1);
      continue;
    }
    for (let px = x0; px < x1; px++) d[row + px] = (px + py) % period < stripeWidth ? shade : color;
  }
}

/** The empty meter (rounded box and border) for one size, copied into each slot row by row. */
const blanks = new Map<string, Uint32Array[]>();
function blankMeter(w: number, h: number, dpr: number): Uint32Array[] {
  const key = `${w}x${h}@${dpr}`;
  let blank = blanks.get(key);
  if (blank) return blank;
  const buf: PixelBuffer = { data: new Uint8ClampedArray(w * h * 4), width: w, height: h };
  const tpl = boxTemplate(w, h, Math.round(BOX_RADIUS_PX * dpr), hairline(dpr));
  for (const q of tpl.fill) fillPixels(buf, 0, 0, w, h, q.x, q.y, q.width, q.height, packRGBA(BOX_RGBA));
  for (const q of tpl.ring) fillPixels(buf, 0, 0, w, h, q.x, q.y, q.width, q.height, packRGBA(BORDER_RGBA));
  const all = words(buf);
  blank = Array.from({ length: h }, (_, y) => all.subarray(y * w, (y + 1) * w));
  if (blanks.size > 8) blanks.clear();
  blanks.set(key, blank);
  return blank;
}

const LEVEL_WORDS = LEVEL_RGB.map((c) => packRGBA([...c, 255]));
const SHADED_WORDS = LEVEL_RGB.map((c) => packRGBA([c[0] * STRIPE_SHADE, c[1] * STRIPE_SHADE, c[2] * STRIPE_SHADE, 255]));
const GREY_WORD = packRGBA([...AUTHORED_RGB, 255]);

/**
 * The meter being rasterised: one module-level target and one sink function, so a meter allocates nothing (no
 * closure, no stripe object, no view lookup per rect; 200 meters a flush, 10–20 rects each).
 */
const target = { d: new Uint32Array(0) as Uint32Array<ArrayBufferLike>, stride: 0, sx: 0, sy: 0, w: 0, h: 0, period: 0, stripeWidth: 0, colorBlind: false };
const targetSink: RectSink = (x, y, rw, rh, color) => {
  const t = target;
  if (color === GREY) {
    fillWords(t.d, t.stride, t.sx, t.sy, t.w, t.h, x, y, rw, rh, GREY_WORD, 0, 0, 0);
    return;
  }
  const striped = t.colorBlind && isStriped(color as Level);
  fillWords(t.d, t.stride, t.sx, t.sy, t.w, t.h, x, y, rw, rh, LEVEL_WORDS[color], striped ? t.period : 0, t.stripeWidth, SHADED_WORDS[color]);
};

/**
 * Rasterises one meter into `buf` at slot (sx, sy): the rounded box, its
 * border, and the body (sparkline + element strip, or the two bars), each
 * color opaque over the translucent box. Returns the slot size used.
 */
export function rasterMeter(buf: PixelBuffer, sx: number, sy: number, dpr: number, m: MeterData, style: MeterStyle): { width: number; height: number } {
  const { width: w, height: h } = meterSize(dpr);
  const d = words(buf);
  const blank = blankMeter(w, h, dpr);
  for (let y = 0, o = sy * buf.width + sx; y < h; y++, o += buf.width) d.set(blank[y], o);
  const t = target;
  t.d = d;
  t.stride = buf.width;
  t.sx = sx;
  t.sy = sy;
  t.w = w;
  t.h = h;
  t.period = Math.max(4, Math.round(4 * dpr));
  t.stripeWidth = Math.max(1, Math.round(1.5 * dpr));
  t.colorBlind = style.colorBlind;
  if (style.meterStyle === 'bars') {
    emitBars(0, 0, dpr, m.layoutMs, m.authored, m.rendered, style.msRamp, style.inflationRamp, targetSink);
  } else {
    if (m.spark) emitSparkline(0, 0, dpr, m.spark, m.sparkOldest, style.msRamp, targetSink);
    emitStrip(0, 0, dpr, m.authored, m.rendered, style.inflationRamp, targetSink);
  }
  t.d = EMPTY;
  return { width: w, height: h };
}
const EMPTY: Uint32Array<ArrayBufferLike> = new Uint32Array(0);
