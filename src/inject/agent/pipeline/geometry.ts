/**
 * Where the drawn components are (issue 45: the pipeline's geometry, split out): the boxes of the components the
 * overlay will draw or hit-test (`want`), and what the page stacks over its content — floating portals' content and
 * the top layer (modal dialogs, open popovers) — each as one occluder rect, with the layer each wanted component sits
 * in. Written to the ring only when changed; read when layout is clean (the frame's end, a hit test).
 */
import { RecordKind } from '../../../protocol';
import type { RingBuffer } from '../ring-buffer';
import { BoundsReader } from './bounds';
import type { Registry } from './registry';

/** At most this many components' bounds are read each frame (the overlay asks for those it draws). */
export const MAX_WANT_BOUNDS = 1000;
/** At most this many occluders (the topmost). */
const MAX_OCCLUDERS = 32;
/** An occluder's rect is the union of its first this many elements' boxes. */
const OCCLUDER_ELEMENTS = 64;

export class Geometry {
  /** The components whose bounds the overlay wants, by id. */
  private want: number[] = [];
  private readonly bounds: BoundsReader;
  private topLayerDirty = true;
  private topLayer: Element[] = [];
  /** Occluder rects last written, flat [x, y, w, h, …]. */
  private lastOccluders: number[] = [];
  /** The layer last written for each component written with a non-zero one (0, the page itself, for the rest). */
  private readonly layers = new Map<number, number>();
  /** The bounds last written for each drawn component, [x, y, width, height]; cleared when the drawn set is given again. */
  private readonly lastBounds = new Map<number, number[]>();

  constructor(
    private readonly win: Window & typeof globalThis,
    private readonly ring: RingBuffer,
    private readonly registry: Registry,
    private readonly now: () => number,
  ) {
    this.bounds = new BoundsReader(win);
  }

  /** A dialog or popover entered or left the top layer (a `toggle` or `close` event). */
  topLayerChanged(): void {
    this.topLayerDirty = true;
  }

  /** The tree's structure changed: cached host boxes may be stale. */
  structureChanged(): void {
    this.bounds.markStale();
  }

  /** The drawn set, as the content script gives it: every one's bounds are written again. */
  setWanted(ids: readonly number[]): void {
    this.want = ids.slice(0, MAX_WANT_BOUNDS);
    this.lastBounds.clear();
  }

  get wanted(): readonly number[] {
    return this.want;
  }

  /** Bounds of the wanted components, then the occluders; layout is clean right now. */
  read(): void {
    const now = this.now();
    for (const id of this.want) this.write(id, now);
    this.readOccluders();
  }

  /** One component's bounds (a hit test just left layout clean), when changed. */
  write(id: number, now = this.now()): void {
    const e = this.registry.entries.get(id);
    if (!e) return;
    const r = this.bounds.read(this.registry.hostsOf(e), now);
    const x = r ? r.x : 0, y = r ? r.y : 0, w = r ? r.width : -1, h = r ? r.height : -1;
    const last = this.lastBounds.get(id);
    if (last !== undefined && x === last[0] && y === last[1] && w === last[2] && h === last[3]) return;
    this.lastBounds.set(id, [x, y, w, h]);
    this.ring.write(RecordKind.Bounds, id, x, y, w, h);
  }

  /**
   * What the page stacks over its content, bottom to top: floating portals' content (in document order),
   * then the top layer. Each is written as one rect (its elements' boxes, breadth first: a dialog's root is
   * often a zero-size wrapper of fixed children), and each wanted component gets the occluder holding it.
   */
  private readOccluders(): void {
    const doc = this.win.document;
    if (this.topLayerDirty) {
      this.topLayerDirty = false;
      this.topLayer = Array.from(doc.querySelectorAll(':modal, :popover-open'));
    }
    const floating = this.registry.floating;
    if (floating.length === 0 && this.topLayer.length === 0 && this.lastOccluders.length === 0 && this.layers.size === 0) return;
    const layers = floating.filter((l) => l[0].isConnected)
      .sort((a, b) => (a[0].compareDocumentPosition(b[0]) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
    for (const el of this.topLayer) if (el.isConnected) layers.push([el]);
    const vw = this.win.innerWidth, vh = this.win.innerHeight;
    const kept: Element[][] = [];
    const rects: number[] = [];
    for (const layer of layers.slice(-MAX_OCCLUDERS)) {
      const r = occluderRect(layer, vw, vh);
      if (r === null) continue;
      kept.push(layer);
      rects.push(r[0], r[1], r[2], r[3]);
    }
    if (rects.length !== this.lastOccluders.length || rects.some((v, i) => v !== this.lastOccluders[i])) {
      this.lastOccluders = rects;
      this.ring.write(RecordKind.Occluder, -1);
      for (let i = 0; i < rects.length; i += 4) this.ring.write(RecordKind.Occluder, i / 4, rects[i], rects[i + 1], rects[i + 2], rects[i + 3]);
    }
    for (const id of this.want) {
      const e = this.registry.entries.get(id);
      if (!e) continue;
      const host = kept.length > 0 ? this.registry.hostsOf(e)[0] : undefined;
      let layer = 0;
      if (host) {
        for (let k = kept.length - 1; k >= 0 && layer === 0; k--) {
          if (kept[k].some((el) => el === host || el.contains(host))) layer = k + 1;
        }
      }
      if (layer === (this.layers.get(id) ?? 0)) continue;
      if (layer === 0) this.layers.delete(id);
      else this.layers.set(id, layer);
      this.ring.write(RecordKind.Layer, id, layer);
    }
    // Components that unmounted in a layer: nothing to write for them again.
    if (this.layers.size > this.want.length) for (const id of this.layers.keys()) if (!this.registry.entries.has(id)) this.layers.delete(id);
  }

  /** Off: nothing kept. */
  clear(): void {
    this.want = [];
    this.topLayer = [];
    this.topLayerDirty = true;
    this.lastOccluders = [];
    this.layers.clear();
    this.lastBounds.clear();
  }

  stats(): Record<string, number> {
    return { wantBounds: this.want.length, occluders: this.lastOccluders.length / 4, topLayer: this.topLayer.length };
  }
}

/**
 * The union of the boxes of a layer's elements and what is under them, breadth first, the first
 * OCCLUDER_ELEMENTS elements: a dialog's content is often zero-size wrappers around fixed children.
 * Clipped to the viewport; null when nothing of it shows.
 */
function occluderRect(layer: readonly Element[], vw: number, vh: number): [number, number, number, number] | null {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  const queue: Element[] = layer.slice(0, OCCLUDER_ELEMENTS);
  for (let i = 0; i < queue.length; i++) {
    const el = queue[i];
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) {
      if (r.left < x0) x0 = r.left;
      if (r.top < y0) y0 = r.top;
      if (r.right > x1) x1 = r.right;
      if (r.bottom > y1) y1 = r.bottom;
    }
    for (let c = el.firstElementChild; c !== null && queue.length < OCCLUDER_ELEMENTS; c = c.nextElementSibling) queue.push(c);
  }
  x0 = Math.max(0, x0); y0 = Math.max(0, y0); x1 = Math.min(vw, x1); y1 = Math.min(vh, y1);
  return x1 > x0 && y1 > y0 ? [x0, y0, x1 - x0, y1 - y0] : null;
}
