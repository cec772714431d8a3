/**
 * Text boxes drawn once into a detached OffscreenCanvas and blitted after:
 * the legend, the mode caption and the `<page>` label repeat unchanged flush
 * after flush, and drawing their text every time (glyph shaping on a canvas
 * that lives in the page) was the overlay's largest remaining own cost. A
 * pinned caption whose numbers change simply misses the cache.
 */
import { measureLines, paintLines, type Line } from '../../../overlay/paint-text';
import { snap } from '../../../overlay/snap';
import type { DrawContext, Rect } from '../../../overlay/types';

const MAX_BOXES = 24;

interface Box {
  canvas: OffscreenCanvas;
  width: number;
  height: number;
}

/** A context that can blit a whole OffscreenCanvas. */
export interface TextContext extends DrawContext {
  drawImage(source: OffscreenCanvas, dx: number, dy: number): void;
}

export class TextBoxCache {
  private boxes = new Map<string, Box>();

  paint(
    ctx: TextContext, lines: readonly Line[], x: number, y: number, dpr: number,
    opts: { title?: boolean; border?: string } = {},
  ): Rect {
    if (typeof OffscreenCanvas !== 'function') return paintLines(ctx, lines, x, y, dpr, opts);
    const key = `${dpr}|${opts.title ? 1 : 0}|${opts.border ?? ''}|${JSON.stringify(lines)}`;
    let box = this.boxes.get(key);
    if (!box) {
      const size = measureLines(ctx, lines, dpr);
      const canvas = new OffscreenCanvas(Math.ceil(size.width * dpr) + 2, Math.ceil(size.height * dpr) + 2);
      const off = canvas.getContext('2d');
      if (!off) return paintLines(ctx, lines, x, y, dpr, opts);
      paintLines(off as unknown as DrawContext, lines, 0, 0, dpr, opts);
      box = { canvas, width: size.width, height: size.height };
      if (this.boxes.size >= MAX_BOXES) this.boxes.clear();
      this.boxes.set(key, box);
    }
    ctx.drawImage(box.canvas, snap(x, dpr), snap(y, dpr));
    return { x, y, width: box.width, height: box.height };
  }
}
