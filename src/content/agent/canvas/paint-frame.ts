/**
 * One flush of the overlay as data: everything the canvas shows, already
 * placed by the plan (src/overlay/plan.ts), and the painter that draws it.
 * The content script makes a `PaintFrame` every flush (canvas/index.ts) and
 * `FramePainter` draws it; what is drawn is plain data, so the painter is
 * unit-tested against a recording context.
 */
import { MeterAtlas, type AtlasMeter, type BlitContext, type SurfaceFactory } from '../../../overlay/atlas';
import { METER_HEIGHT_PX, type Point } from '../../../overlay/anchor';
import type { MeterStyle } from '../../../overlay/meter-raster';
import {
  HOVER_COLOR, HOVER_FILL, paintCoveredOutlines, paintFills, paintOutlines, PIN_COLOR, SHIFT_CAUSE_COLOR, SHIFT_CAUSE_FILL, SHIFT_MOVED_COLOR,
  SHIFT_MOVED_FILL,
} from '../../../overlay/paint-meters';
import { placeCaption, placeLegend, placeModeCaption, type Line } from '../../../overlay/paint-text';
import { TextBoxCache, type TextContext } from './text-cache';
import type { Rect, Viewport } from '../../../overlay/types';

export interface PaintCaption {
  lines: Line[];
  /** The meter's top-left it hangs from. */
  at: Point;
  /** The component's box, kept clear when there is room. */
  bounds: Rect | null;
  pinned: boolean;
  /** A flashed layout shift's cause (its caption in the cause's colour). */
  shiftCause?: boolean;
}

export interface PaintLabel {
  text: string;
  /** The meter's top-left: the label goes to its left, centred on it. */
  at: Point;
}

export interface PaintFrame {
  /** The viewport the plan placed everything in (CSS px, device px per CSS px). */
  vp: Viewport;
  outlines: Rect[];
  /** Per outline, the occluders above it (clipped out). */
  covers: Rect[][];
  accent: Rect[];
  pin: Rect | null;
  /** A flashed layout shift: its cause and the components it moved (absent: none). */
  shiftCause?: Rect[];
  shiftMoved?: Rect[];
  meters: AtlasMeter[];
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
    if (f.shiftMoved && f.shiftMoved.length > 0) {
      paintFills(ctx, f.shiftMoved, dpr, SHIFT_MOVED_FILL);
      paintOutlines(ctx, f.shiftMoved, dpr, SHIFT_MOVED_COLOR);
    }
    if (f.shiftCause && f.shiftCause.length > 0) {
      paintFills(ctx, f.shiftCause, dpr, SHIFT_CAUSE_FILL);
      paintOutlines(ctx, f.shiftCause, dpr, SHIFT_CAUSE_COLOR);
    }
    this.atlas.paint(ctx, f.meters, dpr, f.style);
    for (const l of f.labels) {
      // Beside the meter, vertically centred on it, inside the viewport.
      const box = this.text.box(ctx, [l.text], dpr);
      const y = Math.max(0, Math.min(vp.height - box.height, l.at.y + METER_HEIGHT_PX / 2 - box.height / 2));
      this.text.draw(ctx, box, Math.max(0, l.at.x - box.width - 2), y, dpr);
    }
    for (const c of f.captions) {
      const box = this.text.box(ctx, c.lines, dpr, { border: c.pinned ? PIN_COLOR : c.shiftCause ? SHIFT_CAUSE_COLOR : HOVER_COLOR });
      const at = placeCaption(c.at, box, vp, c.bounds);
      this.text.draw(ctx, box, at.x, at.y, dpr);
    }
    if (f.modeCaption !== null) {
      const box = this.text.box(ctx, [f.modeCaption], dpr, { title: true });
      const at = placeModeCaption(box, vp);
      this.text.draw(ctx, box, at.x, at.y, dpr);
    }
    if (f.legend === null) return null;
    const box = this.text.box(ctx, f.legend, dpr, { title: true });
    const at = placeLegend(box, vp);
    this.text.draw(ctx, box, at.x, at.y, dpr);
    return { x: at.x, y: at.y, width: box.width, height: box.height };
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
