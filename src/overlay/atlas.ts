/**
 * The meter atlas: one RGBA buffer with a slot per drawn meter, uploaded to
 * a drawable surface (an OffscreenCanvas in the content script) and blitted
 * slot by slot onto the overlay canvas — one drawImage per meter, at whole
 * device pixels, never scaled.
 *
 * A slot is re-rasterised only when its meter's content key changed (a new
 * sparkline bucket, a new newest value, new counts, other settings); a
 * quiet page re-rasterises nothing, an active one mostly every third flush
 * (33 ms flushes, 100 ms buckets). Only the band of rows that changed is
 * uploaded.
 */
import { meterSize, rasterMeter, type MeterData, type MeterStyle, type PixelBuffer } from './meter-raster';
import { snap } from './snap';
import type { DrawContext } from './types';

/** Where the atlas' pixels live and how they reach something drawImage accepts. */
export interface AtlasSurface {
  readonly pixels: PixelBuffer;
  /** What `drawImage` draws from. */
  readonly source: unknown;
  /** Copies the rect of `pixels` to `source`. */
  upload(x: number, y: number, width: number, height: number): void;
}
export type SurfaceFactory = (width: number, height: number) => AtlasSurface | null;

/** A context that can also blit: what the atlas needs beyond DrawContext. */
export interface BlitContext extends DrawContext {
  imageSmoothingEnabled: boolean;
  drawImage(source: never, sx: number, sy: number, sw: number, sh: number, dx: number, dy: number, dw: number, dh: number): void;
}

export interface AtlasMeter extends MeterData {
  /** Top-left in viewport CSS px. */
  x: number;
  y: number;
  /** Absolute number of the sparkline's newest bucket, when the ring is live (enables reuse). */
  sparkBucket?: number;
}

const SLOT_COLUMNS = 16;

/** The part of every slot's key that depends on the settings and zoom, not on the meter: built once per paint. */
export function styleKey(dpr: number, s: MeterStyle): string {
  return `${dpr}|${s.meterStyle}|${s.colorBlind ? 1 : 0}|${s.msRamp.join(',')}|${s.inflationRamp.join(',')}`;
}

/** Everything a slot's pixels depend on; null when the meter cannot be reused (no bucket number). */
export function contentKey(m: AtlasMeter, dpr: number, s: MeterStyle, style = styleKey(dpr, s)): string | null {
  if (s.meterStyle === 'bars') return `${style}|${m.authored}|${m.rendered}|${m.layoutMs}`;
  if (!m.spark) return `${style}|${m.authored}|${m.rendered}|-`;
  if (m.sparkBucket === undefined) return null;
  const n = m.spark.length;
  const newest = m.spark[(m.sparkOldest + n - 1) % n];
  return `${style}|${m.authored}|${m.rendered}|${m.sparkBucket}|${newest}`;
}

export class MeterAtlas {
  private surface: AtlasSurface | null = null;
  private slotW = 0;
  private slotH = 0;
  private keys: (string | null)[] = [];
  /** Slots rasterised in the last paint (for tests and the benchmark). */
  rasterised = 0;

  constructor(private readonly make: SurfaceFactory) {}

  /** Draws `meters` onto `ctx`: rasterise changed slots, upload them, one blit per meter. */
  paint(ctx: BlitContext, meters: readonly AtlasMeter[], dpr: number, style: MeterStyle): void {
    this.rasterised = 0;
    if (meters.length === 0) return;
    const { width: w, height: h } = meterSize(dpr);
    if (!this.ensure(w, h, meters.length)) return;
    const surface = this.surface!;
    let dirtyTop = Infinity, dirtyBottom = -Infinity;
    const common = styleKey(dpr, style);
    for (let i = 0; i < meters.length; i++) {
      const m = meters[i];
      const key = contentKey(m, dpr, style, common);
      if (key !== null && this.keys[i] === key) continue;
      const sx = (i % SLOT_COLUMNS) * w, sy = Math.floor(i / SLOT_COLUMNS) * h;
      rasterMeter(surface.pixels, sx, sy, dpr, m, style);
      this.keys[i] = key;
      this.rasterised++;
      if (sy < dirtyTop) dirtyTop = sy;
      if (sy + h > dirtyBottom) dirtyBottom = sy + h;
    }
    if (dirtyBottom > dirtyTop) surface.upload(0, dirtyTop, surface.pixels.width, dirtyBottom - dirtyTop);
    // 1:1 blits at whole device pixels: nearest-neighbour is exact, and the cheapest path to rasterise.
    ctx.imageSmoothingEnabled = false;
    const source = surface.source as never;
    for (let i = 0; i < meters.length; i++) {
      const m = meters[i];
      ctx.drawImage(source, (i % SLOT_COLUMNS) * w, Math.floor(i / SLOT_COLUMNS) * h, w, h, snap(m.x, dpr), snap(m.y, dpr), w, h);
    }
  }

  /** Forgets every slot's content (a new surface, or the overlay turned off). */
  reset(): void {
    this.surface = null;
    this.keys = [];
  }

  /** A surface with room for `count` slots of w × h; grows by rows, starts over when the slot size changes. */
  private ensure(w: number, h: number, count: number): boolean {
    const rows = Math.ceil(count / SLOT_COLUMNS);
    const s = this.surface;
    if (s && this.slotW === w && this.slotH === h && s.pixels.height >= rows * h) return true;
    const made = this.make(SLOT_COLUMNS * w, Math.max(rows, s && this.slotW === w ? s.pixels.height / h : 0, 4) * h);
    if (!made) return false;
    this.surface = made;
    this.slotW = w;
    this.slotH = h;
    this.keys = [];
    return true;
  }
}
