/**
 * One flush of the overlay as data: everything the canvas shows, already
 * placed by the plan (src/overlay/plan.ts), and the painter that draws it.
 *
 * The content script makes a `PaintFrame` every flush. Where the overlay is
 * drawn in the extension's own frame (docs/OVERLAY.md, where the drawing
 * runs), the frame travels packed — the meters' numbers and sparklines in
 * two typed arrays, so that sending 200 meters is two copies rather than 200
 * objects to clone — and is checked on arrival like any message; the same
 * `FramePainter` draws it there or, as the fallback, on a canvas in the page.
 */
import { MeterAtlas, type AtlasMeter, type BlitContext, type SurfaceFactory } from './atlas';
import { METER_HEIGHT_PX, type Point } from './anchor';
import type { MeterStyle } from './meter-raster';
import { HOVER_COLOR, HOVER_FILL, paintCoveredOutlines, paintFills, paintOutlines, PIN_COLOR } from './paint-meters';
import { measureLines, placeCaption, placeLegend, placeModeCaption, type Line } from './paint-text';
import { SPARKLINE_BUCKETS } from './sparkline';
import { TextBoxCache, type TextContext } from './text-cache';
import type { Rect, Viewport } from './types';

export interface PaintCaption {
  lines: Line[];
  /** The meter's top-left it hangs from. */
  at: Point;
  /** The component's box, kept clear when there is room. */
  bounds: Rect | null;
  pinned: boolean;
}

export interface PaintLabel {
  text: string;
  /** The meter's top-left: the label goes to its left, centred on it. */
  at: Point;
}

/**
 * A meter to draw, with the component it shows (`id`) and, where its sparkline lives in the store, the live ring
 * (`ring`: read when the flush is sent, so the frame gets the ring as it is then).
 */
export interface PaintMeter extends AtlasMeter {
  id: number;
  ring?: { readonly spark: Float32Array | null; readonly sparkBucket: number } | null;
}

export interface PaintFrame {
  /** The viewport the plan placed everything in (CSS px, device px per CSS px). */
  vp: Viewport;
  outlines: Rect[];
  /** Per outline, the occluders above it (clipped out). */
  covers: Rect[][];
  accent: Rect[];
  pin: Rect | null;
  meters: PaintMeter[];
  labels: PaintLabel[];
  captions: PaintCaption[];
  modeCaption: string | null;
  legend: Line[] | null;
  style: MeterStyle;
}

export type PaintContext = BlitContext & TextContext;

/** Draws paint frames onto one canvas: the meter atlas and the cached text boxes live as long as it does. */
export class FramePainter {
  private readonly atlas: MeterAtlas;
  private readonly text = new TextBoxCache();

  constructor(surface: SurfaceFactory) {
    this.atlas = new MeterAtlas(surface);
  }

  /** Clears the canvas (`width` × `height` device px) and draws `f`; returns where the legend went (CSS px), or null. */
  paint(ctx: PaintContext, width: number, height: number, f: PaintFrame): Rect | null {
    const { vp } = f;
    const dpr = vp.dpr;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, width, height);
    paintCoveredOutlines(ctx, f.outlines, f.covers, dpr, vp);
    paintFills(ctx, f.accent, dpr, HOVER_FILL);
    paintOutlines(ctx, f.accent, dpr, HOVER_COLOR);
    if (f.pin) paintOutlines(ctx, [f.pin], dpr, PIN_COLOR);
    this.atlas.paint(ctx, f.meters, dpr, f.style);
    for (const l of f.labels) {
      // Beside the meter, vertically centred on it, inside the viewport.
      const size = measureLines(ctx, [l.text], dpr);
      const y = Math.max(0, Math.min(vp.height - size.height, l.at.y + METER_HEIGHT_PX / 2 - size.height / 2));
      this.text.paint(ctx, [l.text], Math.max(0, l.at.x - size.width - 2), y, dpr);
    }
    for (const c of f.captions) {
      const at = placeCaption(c.at, measureLines(ctx, c.lines, dpr), vp, c.bounds);
      this.text.paint(ctx, c.lines, at.x, at.y, dpr, { border: c.pinned ? PIN_COLOR : HOVER_COLOR });
    }
    if (f.modeCaption !== null) {
      const lines = [f.modeCaption];
      const at = placeModeCaption(measureLines(ctx, lines, dpr), vp);
      this.text.paint(ctx, lines, at.x, at.y, dpr, { title: true });
    }
    if (f.legend === null) return null;
    const size = measureLines(ctx, f.legend, dpr);
    const at = placeLegend(size, vp);
    this.text.paint(ctx, f.legend, at.x, at.y, dpr, { title: true });
    return { x: at.x, y: at.y, width: size.width, height: size.height };
  }

  /** Meter slots rasterised in the last paint (tests, benchmarks). */
  get rasterised(): number {
    return this.atlas.rasterised;
  }

  /** Forgets the atlas' slots (the canvas went away). */
  reset(): void {
    this.atlas.reset();
  }
}

// ---- The frame as a message ----------------------------------------------------------------------------------------

/**
 * Numbers per meter in `PackedFrame.nums`: x, y, layoutMs, authored, rendered, sparkOldest, the sparkline's newest
 * bucket (NaN: the ring's own order, `sparkOldest` says where it starts), and how many of its values follow in
 * `sparks` (0: no sparkline).
 */
const NUMS = 8;

/**
 * What the content script has sent the frame of each component's sparkline: the ring it came from and the newest
 * bucket sent. A flush then carries only the buckets from that one on (the newest bucket's maximum can still grow),
 * usually one or two values a meter instead of 60: postMessage to another process costs by the kilobyte, and more
 * again past 64 KB (docs/OVERLAY.md).
 */
export type SparkSent = Map<number, { ring: Float32Array; bucket: number }>;

/** Bounds on a frame from the content script, checked in the frame: the plan never comes near them. */
export const FRAME_LIMITS = { meters: 4096, rects: 8192, texts: 64, lines: 64, chars: 4096, segments: 64 } as const;

/**
 * A `PaintFrame` as it crosses to the extension's frame, as a change to the last one it got (`FramePacker`): the
 * meters whose slot changed (`slots`, with their `ids`, numbers and sparkline buckets), the outlines only when the plan
 * placed them anew (`rects`, else null), the text as is, and the canvas' size in device px as the page measured it
 * (the frame's canvas covers exactly the host's box). Typed arrays are one copy each for postMessage's serialiser,
 * where hundreds of small objects are hundreds of steps; and postMessage to another process costs by the kilobyte
 * (docs/OVERLAY.md), so a flush that changed nothing visible is a few hundred bytes.
 */
export interface PackedFrame extends Omit<PaintFrame, 'meters' | 'outlines' | 'covers' | 'accent'> {
  /** True: the frame forgets what it had (every slot and the rects are in this flush). */
  full: boolean;
  /** How many meters this flush draws. */
  count: number;
  slots: Int32Array;
  ids: Int32Array;
  nums: Float64Array;
  sparks: Float32Array;
  rects: Float64Array | null;
  backing: { width: number; height: number };
}

/** [outlines n, accent m, n × 4, m × 4, n cover counts, every cover × 4]. */
function packRects(outlines: readonly Rect[], accent: readonly Rect[], covers: readonly (readonly Rect[])[]): Float64Array {
  let k = 0;
  for (let i = 0; i < outlines.length; i++) k += covers[i]?.length ?? 0;
  const a = new Float64Array(2 + 4 * outlines.length + 4 * accent.length + outlines.length + 4 * k);
  a[0] = outlines.length;
  a[1] = accent.length;
  let o = 2;
  const put = (r: Rect): void => {
    a[o] = r.x;
    a[o + 1] = r.y;
    a[o + 2] = r.width;
    a[o + 3] = r.height;
    o += 4;
  };
  for (const r of outlines) put(r);
  for (const r of accent) put(r);
  for (let i = 0; i < outlines.length; i++) a[o++] = covers[i]?.length ?? 0;
  for (let i = 0; i < outlines.length; i++) for (const r of covers[i] ?? []) put(r);
  return a;
}

function unpackRects(a: Float64Array): { outlines: Rect[]; accent: Rect[]; covers: Rect[][] } | null {
  if (a.length < 2) return null;
  const n = a[0], m = a[1];
  if (!Number.isInteger(n) || !Number.isInteger(m) || n < 0 || m < 0 || n > FRAME_LIMITS.rects || m > FRAME_LIMITS.rects) return null;
  let o = 2;
  const fixed = 2 + 4 * n + 4 * m + n;
  if (a.length < fixed) return null;
  const take = (): Rect | null => {
    const r = { x: a[o], y: a[o + 1], width: a[o + 2], height: a[o + 3] };
    o += 4;
    return isRect(r) ? r : null;
  };
  const list = (count: number): Rect[] | null => {
    const out: Rect[] = [];
    for (let i = 0; i < count; i++) {
      const r = take();
      if (r === null) return null;
      out.push(r);
    }
    return out;
  };
  const outlines = list(n), accent = list(m);
  if (outlines === null || accent === null) return null;
  const counts: number[] = [];
  let k = 0;
  for (let i = 0; i < n; i++) {
    const c = a[o++];
    if (!Number.isInteger(c) || c < 0 || c > FRAME_LIMITS.rects) return null;
    counts.push(c);
    k += c;
  }
  if (k > FRAME_LIMITS.rects || a.length !== fixed + 4 * k) return null;
  const covers: Rect[][] = [];
  for (const c of counts) {
    const l = list(c);
    if (l === null) return null;
    covers.push(l);
  }
  return { outlines, accent, covers };
}

/** Largest backing store side the frame accepts (device px): Chrome's own canvas limit is 32 767. */
const MAX_BACKING = 32767;

/** The content script's side: packs each flush as a change to what it last sent the frame. */
export class FramePacker {
  private readonly sent: SparkSent = new Map();
  /** Per slot of the last flush sent: the id, the numbers as in `nums`, and the newest sparkline value. */
  private last: { ids: Int32Array; nums: Float64Array; newest: Float64Array; bars: boolean } | null = null;
  private lastRects: { outlines: readonly Rect[]; accent: readonly Rect[]; covers: readonly (readonly Rect[])[] } | null = null;
  /** Everything else the last flush sent (text, viewport, style, backing), as one string. */
  private lastRest = '';

  /** The frame lost what it had (or never had it): the next flush is whole. */
  reset(): void {
    this.sent.clear();
    this.last = null;
    this.lastRects = null;
    this.lastRest = '';
  }

  /** The flush as a change to the last one sent; null when nothing the frame draws changed (nothing to send). */
  pack(f: PaintFrame, backing: { width: number; height: number }): PackedFrame | null {
    // Past a few thousand components the map would only hold the gone: start over (whole rings again).
    if (this.sent.size > 4 * FRAME_LIMITS.meters) this.sent.clear();
    const n = f.meters.length;
    const bars = f.style.meterStyle === 'bars';
    const last = this.last !== null && this.last.bars === bars ? this.last : null;
    const full = last === null;
    const ids = new Int32Array(n);
    const nums = new Float64Array(n * NUMS);
    const newest = new Float64Array(n);
    const slots: number[] = [];
    const out: number[] = [];
    const values: number[] = [];
    const row = new Float64Array(NUMS);
    for (let i = 0; i < n; i++) {
      const m = f.meters[i];
      const live = m.ring ?? null;
      const ring = live ? live.spark : m.spark instanceof Float32Array ? m.spark : null;
      const bucket = live ? live.sparkBucket : m.sparkBucket;
      const bucketed = ring !== null && bucket !== undefined && ring.length === SPARKLINE_BUCKETS;
      row[0] = m.x;
      row[1] = m.y;
      // The sparkline style does not draw the EMA: a change of it alone is no change there.
      row[2] = bars ? m.layoutMs : 0;
      row[3] = m.authored;
      row[4] = m.rendered;
      row[5] = bucketed ? (bucket + 1) % SPARKLINE_BUCKETS : m.spark ? m.sparkOldest : 0;
      row[6] = bucketed ? bucket : NaN;
      ids[i] = m.id;
      nums.set(row, i * NUMS);
      newest[i] = bucketed ? ring[bucket % SPARKLINE_BUCKETS] : NaN;
      if (!full && i * NUMS < last.nums.length && last.ids[i] === m.id && Object.is(last.newest[i], newest[i])
        && row.every((v, k) => k === 7 || Object.is(v, last.nums[i * NUMS + k])) && (bucketed || !m.spark)) continue;
      slots.push(i);
      out.push(m.id);
      const before = values.length;
      if (bucketed) {
        // By bucket number: only those the frame has not seen (all 60 the first time, or after a gap).
        const prev = this.sent.get(m.id);
        const from = !full && prev !== undefined && prev.ring === ring && prev.bucket <= bucket && bucket - prev.bucket < SPARKLINE_BUCKETS
          ? prev.bucket : bucket - SPARKLINE_BUCKETS + 1;
        for (let b = from; b <= bucket; b++) values.push(ring[b % SPARKLINE_BUCKETS]);
        this.sent.set(m.id, { ring, bucket });
      } else if (m.spark) {
        // No bucket number (a ring of the caller's own): all of it, in its own order.
        for (let k = 0; k < SPARKLINE_BUCKETS; k++) values.push(k < m.spark.length ? m.spark[k] : 0);
      }
      for (let k = 0; k < 7; k++) out.push(row[k]);
      out.push(values.length - before);
    }
    this.last = { ids, nums, newest, bars };
    const sameRects = !full && this.lastRects !== null && this.lastRects.outlines === f.outlines
      && this.lastRects.accent === f.accent && this.lastRects.covers === f.covers;
    this.lastRects = { outlines: f.outlines, accent: f.accent, covers: f.covers };
    // `out` interleaves each changed slot's id and its NUMS numbers.
    const changed = slots.length;
    const rest = JSON.stringify([f.vp, f.pin, f.labels, f.captions, f.modeCaption, f.legend, f.style, backing]);
    const sameRest = rest === this.lastRest;
    this.lastRest = rest;
    if (!full && changed === 0 && sameRects && sameRest && last.ids.length === n) return null;
    const outIds = new Int32Array(changed);
    const outNums = new Float64Array(changed * NUMS);
    for (let j = 0; j < changed; j++) {
      outIds[j] = out[j * (NUMS + 1)];
      for (let k = 0; k < NUMS; k++) outNums[j * NUMS + k] = out[j * (NUMS + 1) + 1 + k];
    }
    return {
      vp: f.vp, pin: f.pin, labels: f.labels, captions: f.captions, modeCaption: f.modeCaption, legend: f.legend, style: f.style,
      full, count: n, slots: Int32Array.from(slots), ids: outIds, nums: outNums, sparks: Float32Array.from(values),
      rects: sameRects ? null : packRects(f.outlines, f.accent, f.covers), backing: { width: backing.width, height: backing.height },
    };
  }
}

/** One flush packed whole, as for a frame that has nothing yet (tests). */
export function packFrame(f: PaintFrame, backing: { width: number; height: number }): PackedFrame {
  return new FramePacker().pack(f, backing)!;
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isRect = (v: unknown): v is Rect => {
  const r = v as Rect | null;
  return typeof r === 'object' && r !== null && isNum(r.x) && isNum(r.y) && isNum(r.width) && isNum(r.height);
};
const isPoint = (v: unknown): v is Point => {
  const p = v as Point | null;
  return typeof p === 'object' && p !== null && isNum(p.x) && isNum(p.y);
};

function isLine(v: unknown): v is Line {
  if (typeof v === 'string') return v.length <= FRAME_LIMITS.chars;
  if (!Array.isArray(v) || v.length > FRAME_LIMITS.segments) return false;
  return v.every((s: unknown) => {
    const g = s as { text?: unknown; color?: unknown; swatch?: unknown } | null;
    return typeof g === 'object' && g !== null && typeof g.text === 'string' && g.text.length <= FRAME_LIMITS.chars
      && (g.color === undefined || (typeof g.color === 'string' && g.color.length <= 64))
      && (g.swatch === undefined || typeof g.swatch === 'boolean');
  });
}
const isLines = (v: unknown): v is Line[] => Array.isArray(v) && v.length <= FRAME_LIMITS.lines && v.every(isLine);

function isStyle(v: unknown): v is MeterStyle {
  const s = v as MeterStyle | null;
  const ramp = (r: unknown): boolean => Array.isArray(r) && r.length === 3 && r.every(isNum);
  return typeof s === 'object' && s !== null && (s.meterStyle === 'sparkline' || s.meterStyle === 'bars')
    && typeof s.colorBlind === 'boolean' && ramp(s.msRamp) && ramp(s.inflationRamp);
}

/** The frame's copy of each component's sparkline ring, by component id, kept up to date by the flushes' buckets. */
export class SparkRings {
  private rings = new Map<number, { ring: Float32Array; bucket: number }>();
  static readonly MAX = 4096;

  /**
   * Writes `count` values ending at bucket `bucket` into the ring of `id`; false when they do not join what it has
   * (a ring it never got whole, or a gap): the content script must send every ring whole again.
   */
  apply(id: number, bucket: number, values: Float32Array): Float32Array | null {
    const count = values.length;
    let r = this.rings.get(id);
    if (count < SPARKLINE_BUCKETS && (r === undefined || r.bucket < bucket - count || r.bucket > bucket)) return null;
    if (r === undefined) {
      if (this.rings.size >= SparkRings.MAX) this.rings.clear();
      r = { ring: new Float32Array(SPARKLINE_BUCKETS), bucket };
      this.rings.set(id, r);
    }
    const from = bucket - count + 1;
    for (let k = 0; k < count; k++) r.ring[(from + k) % SPARKLINE_BUCKETS] = values[k];
    r.bucket = bucket;
    return r.ring;
  }

  clear(): void {
    this.rings.clear();
  }

  get size(): number {
    return this.rings.size;
  }
}

export type Unpacked = { frame: PaintFrame; backing: { width: number; height: number }; stale: boolean };

/**
 * The frame's side: applies each message to what it has (the meters by slot, the rects, the sparkline rings by
 * component) and returns the whole flush; null when the message is not one `FramePacker` made (nothing is applied
 * then). `stale`: the message does not join what the frame has (a slot or a ring it never got whole, no rects yet):
 * the flush should not be drawn, and the content script should send everything whole again.
 */
export class FrameUnpacker {
  readonly rings = new SparkRings();
  private meters: PaintMeter[] = [];
  private rects: { outlines: Rect[]; accent: Rect[]; covers: Rect[][] } | null = null;

  unpack(v: unknown): Unpacked | null {
    const f = v as PackedFrame | null;
    if (typeof f !== 'object' || f === null || typeof f.full !== 'boolean') return null;
    const b = f.backing as { width: number; height: number } | null;
    const side = (n: unknown): boolean => Number.isInteger(n) && (n as number) >= 0 && (n as number) <= MAX_BACKING;
    if (typeof b !== 'object' || b === null || !side(b.width) || !side(b.height)) return null;
    const vp = f.vp as Viewport | null;
    if (typeof vp !== 'object' || vp === null || !isNum(vp.width) || !isNum(vp.height) || !isNum(vp.dpr) || vp.dpr <= 0 || vp.dpr > 16) return null;
    if (!Number.isInteger(f.count) || f.count < 0 || f.count > FRAME_LIMITS.meters) return null;
    if (!(f.slots instanceof Int32Array) || !(f.ids instanceof Int32Array) || !(f.nums instanceof Float64Array)
      || !(f.sparks instanceof Float32Array) || f.ids.length !== f.slots.length || f.nums.length !== f.ids.length * NUMS) return null;
    for (let j = 0; j < f.slots.length; j++) {
      if (f.slots[j] < 0 || f.slots[j] >= f.count || (j > 0 && f.slots[j] <= f.slots[j - 1])) return null;
    }
    if (f.pin !== null && !isRect(f.pin)) return null;
    let rects = null;
    if (f.rects !== null) {
      if (!(f.rects instanceof Float64Array)) return null;
      rects = unpackRects(f.rects);
      if (rects === null) return null;
    }
    if (!Array.isArray(f.labels) || f.labels.length > FRAME_LIMITS.meters
      || !f.labels.every((l) => typeof l === 'object' && l !== null && typeof l.text === 'string' && l.text.length <= FRAME_LIMITS.chars && isPoint(l.at))) return null;
    if (!Array.isArray(f.captions) || f.captions.length > FRAME_LIMITS.texts
      || !f.captions.every((c) => typeof c === 'object' && c !== null && isLines(c.lines) && isPoint(c.at)
        && (c.bounds === null || isRect(c.bounds)) && typeof c.pinned === 'boolean')) return null;
    if (f.modeCaption !== null && (typeof f.modeCaption !== 'string' || f.modeCaption.length > FRAME_LIMITS.chars)) return null;
    if (f.legend !== null && !isLines(f.legend)) return null;
    if (!isStyle(f.style)) return null;
    // Checked whole before anything is applied.
    const changed: { slot: number; m: PaintMeter; bucket: number; values: Float32Array }[] = [];
    let s = 0;
    for (let j = 0; j < f.slots.length; j++) {
      const o = j * NUMS;
      const bucket = f.nums[o + 6];
      const count = f.nums[o + 7];
      const oldest = f.nums[o + 5];
      const m: PaintMeter = {
        id: f.ids[j], x: f.nums[o], y: f.nums[o + 1], layoutMs: f.nums[o + 2], authored: f.nums[o + 3], rendered: f.nums[o + 4],
        sparkOldest: oldest, spark: null,
      };
      if (![m.x, m.y, m.layoutMs, m.authored, m.rendered].every(isNum) || !Number.isInteger(oldest) || oldest < 0
        || oldest >= SPARKLINE_BUCKETS || !Number.isInteger(count) || count < 0 || count > SPARKLINE_BUCKETS
        || s + count > f.sparks.length) return null;
      if (!Number.isNaN(bucket)) {
        if (!Number.isSafeInteger(bucket) || bucket < 0 || count === 0 || oldest !== (bucket + 1) % SPARKLINE_BUCKETS) return null;
      } else if (count !== 0 && count !== SPARKLINE_BUCKETS) {
        return null;
      }
      changed.push({ slot: f.slots[j], m, bucket, values: f.sparks.subarray(s, s + count) });
      s += count;
    }
    if (s !== f.sparks.length) return null;

    let stale = false;
    if (f.full) {
      this.meters = [];
      this.rings.clear();
    }
    if (rects !== null) this.rects = rects;
    const meters = this.meters;
    meters.length = Math.min(meters.length, f.count);
    for (const { slot, m, bucket, values } of changed) {
      if (!Number.isNaN(bucket)) {
        const ring = this.rings.apply(m.id, bucket, values);
        if (ring === null) stale = true;
        m.spark = ring;
        m.sparkBucket = bucket;
      } else if (values.length === SPARKLINE_BUCKETS) {
        m.spark = values.slice();
      }
      while (meters.length < slot) meters.push(undefined as unknown as PaintMeter);
      meters[slot] = m;
    }
    for (let i = 0; i < f.count; i++) if (meters[i] === undefined) stale = true;
    if (meters.length !== f.count) stale = true;
    const r = this.rects;
    if (r === null) stale = true;
    const frame: PaintFrame = {
      vp: { width: vp.width, height: vp.height, dpr: vp.dpr }, outlines: r?.outlines ?? [], covers: r?.covers ?? [], accent: r?.accent ?? [],
      pin: f.pin, meters: meters.slice(), labels: f.labels, captions: f.captions, modeCaption: f.modeCaption, legend: f.legend, style: f.style,
    };
    return { frame, backing: { width: b.width, height: b.height }, stale };
  }
}

/** One message unpacked by a frame that has nothing yet (tests). */
export function unpackFrame(v: unknown): Unpacked | null {
  return new FrameUnpacker().unpack(v);
}
