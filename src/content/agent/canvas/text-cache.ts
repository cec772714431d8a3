/**
 * Text boxes drawn once into a detached OffscreenCanvas and blitted after:
 * the legend, the mode caption and the `<page>` label repeat unchanged flush
 * after flush, and drawing their text every time (glyph shaping on a canvas
 * that lives in the page) was the overlay's largest remaining own cost. A
 * pinned caption whose numbers change simply misses the cache. Its size is
 * kept with it: a caller places the box by its size (`box`), then draws it
 * (`draw`), and a box met again is neither measured nor keyed twice.
 */
import { measureLines, paintLines, type Line } from '../../../overlay/paint-text';
import { snap } from '../../../overlay/snap';
import type { DrawContext, Rect } from '../../../overlay/types';

const MAX_BOXES = 24;

/** A text box as drawn: its size in CSS px, and its pixels (null: no OffscreenCanvas, drawn line by line each time). */
export interface TextBox {
  readonly width: number;
  readonly height: number;
  readonly canvas: OffscreenCanvas | null;
  readonly lines: readonly Line[];
  readonly opts: BoxOptions;
}

export interface BoxOptions {
  title?: boolean;
  border?: string;
}

/** A context that can blit a whole OffscreenCanvas. */
export interface TextContext extends DrawContext {
  drawImage(source: OffscreenCanvas, dx: number, dy: number): void;
}

export class TextBoxCache {
  private boxes = new Map<string, TextBox>();

  /** The box of `lines` (its size, for placing it), rasterised on first use. */
  box(ctx: TextContext, lines: readonly Line[], dpr: number, opts: BoxOptions = {}): TextBox {
    const key = `${dpr}|${opts.title ? 1 : 0}|${opts.border ?? ''}|${JSON.stringify(lines)}`;
    let box = this.boxes.get(key);
    if (box) return box;
    const size = measureLines(ctx, lines, dpr);
    let canvas: OffscreenCanvas | null = null;
    if (typeof OffscreenCanvas === 'function') {
      canvas = new OffscreenCanvas(Math.ceil(size.width * dpr) + 2, Math.ceil(size.height * dpr) + 2);
      const off = canvas.getContext('2d');
      if (off) paintLines(off as unknown as DrawContext, lines, 0, 0, dpr, opts);
      else canvas = null;
    }
    box = { width: size.width, height: size.height, canvas, lines, opts };
    if (this.boxes.size >= MAX_BOXES) this.boxes.clear();
    this.boxes.set(key, box);
    return box;
  }

  /** Draws `box` with its top left at (x, y) CSS px. */
  draw(ctx: TextContext, box: TextBox, x: number, y: number, dpr: number): Rect {
    if (box.canvas === null) return paintLines(ctx, box.lines, x, y, dpr, box.opts);
    ctx.drawImage(box.canvas, snap(x, dpr), snap(y, dpr));
    return { x, y, width: box.width, height: box.height };
  }
}
