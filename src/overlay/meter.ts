/**
 * The meter's geometry (SPEC §3 and seed 000), all in whole device pixels.
 *
 * Box: 32 × 14 CSS px, the 1 px border inside it. Body: 28 × 10 CSS px at
 * (2, 2) — border, 1 px padding, body, 1 px padding, border.
 *
 * Sparkline body (default): 60 buckets of 100 ms, one column per CSS pixel
 * of body width (whole device pixels wide: more columns at 200 % would only
 * multiply canvas calls), each column the max of the buckets it covers, its
 * height on a log scale 0 → 33 ms (a 1 ms blip stays visible next to a 30 ms
 * spike) and its color from the ms ramp of that value. Under it, a 2 px
 * element strip — the seed's count bar in miniature (grey authored, colored
 * inflation tail) — because a meter that Heatmap chose for its inflation
 * would otherwise show an empty box in the default form.
 *
 * Bars body (setting): the seed's two bars, 4 px each with a 2 px gutter
 * (the seed's 5 px bars assume the border outside the box; here the 1 px
 * border is part of the 32 × 14): top = layout ms, linear 0 → 33 ms,
 * clamped; bottom = element count on log10 from 1 to 10 000, grey up to the
 * authored count and an inflation-colored tail from authored to rendered.
 */
import { inflationRatio, Level, rampLevel, type Ramp } from './ramps';
import { snap } from './snap';

export const BODY_X_PX = 2;
export const BODY_Y_PX = 2;
export const BODY_WIDTH_PX = 28;
export const BODY_HEIGHT_PX = 10;
export const BAR_HEIGHT_PX = 4;
export const BAR_GUTTER_PX = 2;
export const MS_CEILING = 33;
export const COUNT_CEILING = 10_000;
/** The element strip under the sparkline. */
export const STRIP_HEIGHT_PX = 2;
/** Sparkline values below this draw nothing (timer noise); at or above it, at least one device pixel. */
export const SPARK_FLOOR_MS = 0.05;

const LOG_MS_CEILING = Math.log1p(MS_CEILING);
const LOG_COUNT_CEILING = Math.log10(COUNT_CEILING + 1);

/** Top bar: layout ms linear 0 → 33 ms, clamped. */
export function msFraction(ms: number): number {
  return ms > 0 ? Math.min(ms / MS_CEILING, 1) : 0;
}

/** Bottom bar: log10(n + 1) / log10(10 001), clamped. */
export function countFraction(n: number): number {
  return n > 0 ? Math.min(Math.log10(n + 1) / LOG_COUNT_CEILING, 1) : 0;
}

/** Sparkline column height fraction: log scale 0 → 33 ms, clamped. */
export function sparkFraction(ms: number): number {
  return ms > 0 ? Math.min(Math.log1p(ms) / LOG_MS_CEILING, 1) : 0;
}

/** The body rect of a meter whose top-left is (x, y) CSS px, in device px. */
export function bodyRect(x: number, y: number, dpr: number): { x: number; y: number; width: number; height: number } {
  const x0 = snap(x + BODY_X_PX, dpr), y0 = snap(y + BODY_Y_PX, dpr);
  return { x: x0, y: y0, width: snap(x + BODY_X_PX + BODY_WIDTH_PX, dpr) - x0, height: snap(y + BODY_Y_PX + BODY_HEIGHT_PX, dpr) - y0 };
}

/** Receives one filled rect (device px) and its color: a ramp Level, or -1 for the authored grey. */
export type RectSink = (x: number, y: number, w: number, h: number, color: number) => void;
export const GREY = -1;

/** The two bars for one meter, emitted as rects into `sink`. */
export function emitBars(
  x: number, y: number, dpr: number, layoutMs: number, authored: number, rendered: number,
  msRamp: Ramp, inflationRamp: Ramp, sink: RectSink,
): void {
  const body = bodyRect(x, y, dpr);
  const w = body.width;
  const topH = snap(y + BODY_Y_PX + BAR_HEIGHT_PX, dpr) - body.y;
  const botY = snap(y + BODY_Y_PX + BAR_HEIGHT_PX + BAR_GUTTER_PX, dpr);
  const botH = body.y + body.height - botY;
  const msW = Math.round(w * msFraction(layoutMs));
  if (msW > 0) sink(body.x, body.y, msW, topH, rampLevel(layoutMs, msRamp));
  const aW = Math.round(w * countFraction(authored));
  const rW = Math.round(w * countFraction(rendered));
  if (aW > 0) sink(body.x, botY, aW, botH, GREY);
  if (rW > aW) sink(body.x + aW, botY, rW - aW, botH, rampLevel(inflationRatio(rendered, authored), inflationRamp));
}

/** The element strip under a sparkline: grey up to authored, the inflation-colored tail up to rendered. */
export function emitStrip(
  x: number, y: number, dpr: number, authored: number, rendered: number, inflationRamp: Ramp, sink: RectSink,
): void {
  const body = bodyRect(x, y, dpr);
  const top = snap(y + BODY_Y_PX + BODY_HEIGHT_PX - STRIP_HEIGHT_PX, dpr);
  const h = body.y + body.height - top;
  const aW = Math.round(body.width * countFraction(authored));
  const rW = Math.round(body.width * countFraction(rendered));
  if (aW > 0) sink(body.x, top, aW, h, GREY);
  if (rW > aW) sink(body.x + aW, top, rW - aW, h, rampLevel(inflationRatio(rendered, authored), inflationRamp));
}

/** Where each of a sparkline's columns goes, for one (x, y, dpr, ring length): computed once, reused by every meter. */
interface SparkGeometry {
  x: number;
  y: number;
  dpr: number;
  n: number;
  /** Device x of each column's left and right edges. */
  x0: Int32Array;
  x1: Int32Array;
  /** The buckets each column covers, [b0, b1) from the oldest. */
  b0: Int32Array;
  b1: Int32Array;
  bottom: number;
  height: number;
  /**
   * `reach[k]` is the smallest value whose column is at least k device px tall (k = 1 … height): the log scale's
   * boundaries found once, so a column's height is a few comparisons instead of a logarithm.
   */
  reach: Float64Array;
}
let lastGeometry: SparkGeometry | null = null;

function sparkGeometry(x: number, y: number, dpr: number, n: number): SparkGeometry {
  const last = lastGeometry;
  if (last !== null && last.x === x && last.y === y && last.dpr === dpr && last.n === n) return last;
  const full = bodyRect(x, y, dpr);
  const height = snap(y + BODY_Y_PX + BODY_HEIGHT_PX - STRIP_HEIGHT_PX, dpr) - full.y;
  const cols = BODY_WIDTH_PX, left = x + BODY_X_PX;
  const g: SparkGeometry = {
    x, y, dpr, n, x0: new Int32Array(cols), x1: new Int32Array(cols), b0: new Int32Array(cols), b1: new Int32Array(cols),
    bottom: full.y + height, height, reach: new Float64Array(height + 1),
  };
  for (let k = 1; k <= height; k++) g.reach[k] = smallestReaching(k, height);
  for (let j = 0; j < cols; j++) {
    g.x0[j] = snap(left + j, dpr);
    g.x1[j] = snap(left + j + 1, dpr);
    g.b0[j] = Math.floor((j * n) / cols);
    g.b1[j] = Math.max(g.b0[j] + 1, Math.floor(((j + 1) * n) / cols));
  }
  lastGeometry = g;
  return g;
}

/** A column of `value` ms in a body `height` device px tall: at least 1 px from the floor up, log scale, clamped. */
export function sparkHeight(value: number, height: number): number {
  return value >= SPARK_FLOOR_MS ? Math.max(1, Math.round(height * sparkFraction(value))) : 0;
}

/** The smallest value (a double, found by bisection on sparkHeight itself) whose column is at least k px tall. */
function smallestReaching(k: number, height: number): number {
  let lo = 0, hi = MS_CEILING;
  if (sparkHeight(hi, height) < k) return Infinity;
  // sparkHeight only grows with the value: halve [lo, hi] until they are adjacent doubles (lo short, hi reaching).
  for (let i = 0; i < 2000; i++) {
    const mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    if (sparkHeight(mid, height) >= k) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * The sparkline for one meter, emitted as rects into `sink`. `ring` holds
 * the buckets as a ring whose oldest bucket is at index `oldest`; adjacent
 * columns of equal height and color merge into one rect.
 */
export function emitSparkline(
  x: number, y: number, dpr: number, ring: ArrayLike<number>, oldest: number, msRamp: Ramp, sink: RectSink,
): void {
  const n = ring.length;
  if (n === 0) return;
  const g = sparkGeometry(x, y, dpr, n);
  const cols = g.x0.length, reach = g.reach, top = g.height;
  if (oldest < 0 || oldest >= n) oldest = ((oldest % n) + n) % n;
  // A run of equal columns: [device x0, device x1), height, color.
  let runX0 = 0, runX1 = 0, runH = 0, runC = 0;
  for (let j = 0; j < cols; j++) {
    let v = 0;
    for (let b = g.b0[j], end = g.b1[j]; b < end; b++) {
      let i = oldest + b;
      if (i >= n) i -= n;
      const val = ring[i];
      if (val > v) v = val;
    }
    let h = 0;
    if (v >= reach[1]) {
      h = 1;
      while (h < top && v >= reach[h + 1]) h++;
    }
    const c = h > 0 ? rampLevel(v, msRamp) : Level.Green;
    if (runX1 > runX0 && h === runH && c === runC) {
      runX1 = g.x1[j];
      continue;
    }
    if (runX1 > runX0 && runH > 0) sink(runX0, g.bottom - runH, runX1 - runX0, runH, runC);
    runX0 = g.x0[j];
    runX1 = g.x1[j];
    runH = h;
    runC = c;
  }
  if (runX1 > runX0 && runH > 0) sink(runX0, g.bottom - runH, runX1 - runX0, runH, runC);
}
