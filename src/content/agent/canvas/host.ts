/**
 * The overlay's one element in the page: a custom-named host holding a
 * closed shadow root with one canvas, fixed over the viewport, taking no
 * pointer events, `contain: strict` so nothing inside it can dirty the page's
 * layout, at the maximum z-index. It draws each flush's `PaintFrame`; its
 * backing store follows the canvas' size (canvas-size.ts).
 */
import type { AtlasSurface } from '../../../overlay/atlas';
import { forgetFont } from '../../../overlay/paint-text';
import type { Rect, Viewport } from '../../../overlay/types';
import { CanvasSize } from './canvas-size';
import { FramePainter, type PaintContext, type PaintFrame } from './paint-frame';
import { OVERLAY_TAG } from '../../../protocol/overlay-tag';

const HOST_CSS =
  'position:fixed!important;inset:0!important;width:100vw!important;height:100vh!important;' +
  'pointer-events:none!important;contain:strict!important;z-index:2147483647!important;' +
  'margin:0!important;padding:0!important;border:0!important;display:block!important;background:none!important;' +
  'transform:none!important;filter:none!important;opacity:1!important;visibility:visible!important';

export class CanvasHost {
  readonly host: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D | null;
  private readonly size: CanvasSize;
  private readonly painter = new FramePainter(makeSurface);
  private legend: Rect | null = null;

  constructor(onResize: () => void) {
    const host = document.createElement(OVERLAY_TAG);
    host.setAttribute('aria-hidden', 'true');
    host.style.cssText = HOST_CSS;
    const shadow = host.attachShadow({ mode: 'closed' });
    const canvas = document.createElement('canvas');
    canvas.style.cssText = 'position:absolute;left:0;top:0;width:100%;height:100%;pointer-events:none;display:block';
    shadow.appendChild(canvas);
    (document.documentElement || document).appendChild(host);
    this.host = host;
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d', { alpha: true, desynchronized: false });
    this.size = new CanvasSize(canvas, onResize);
  }

  /** The viewport the next flush is placed in (CSS px, without forcing a layout); resizes the backing store. */
  viewport(): Viewport {
    const { vp, width, height } = this.size.sync();
    if (this.canvas.width !== width || this.canvas.height !== height) {
      this.canvas.width = width;
      this.canvas.height = height;
      if (this.ctx) forgetFont(this.ctx);
    }
    return vp;
  }

  paint(frame: PaintFrame): void {
    if (!this.ctx) return;
    this.legend = this.painter.paint(this.ctx as unknown as PaintContext, this.canvas.width, this.canvas.height, frame);
  }

  /** Where the legend was last drawn (viewport CSS px), for its dismissing click. */
  legendRect(): Rect | null {
    return this.legend;
  }

  /** Hidden for a screenshot of the page (an experiment's pixel comparison): visibility only, no layout. */
  setHidden(hidden: boolean): void {
    this.canvas.style.visibility = hidden ? 'hidden' : 'visible';
  }

  remove(): void {
    this.size.remove();
    this.host.remove();
  }
}

/** Firefox's content scripts have it: a copy of an object of ours in the page's compartment. */
declare const cloneInto: ((obj: unknown, target: object) => unknown) | undefined;

/** The atlas' pixels in an ImageData, uploaded into an OffscreenCanvas that drawImage blits from. */
function makeSurface(width: number, height: number): AtlasSurface | null {
  if (typeof OffscreenCanvas !== 'function') return null;
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  // The pixels are an array of this script's own realm.
  const data = new Uint8ClampedArray(width * height * 4);
  const pixels = { data, width, height };
  if (typeof cloneInto !== 'function') {
    // Chrome: the ImageData shares them.
    const image = new ImageData(data, width, height);
    return { pixels, source: canvas, upload: (x, y, w, h) => ctx.putImageData(image, 0, 0, x, y, w, h) };
  }
  // Firefox: a content script's DOM objects are the page's. Its ImageData's array is the page's: writing ours into it
  // is refused ("Permission denied"), and an ImageData over our array fails putImageData's check. The changed rows go
  // over as one copy made in the page's compartment (docs/FIREFOX.md).
  const image = new ImageData(width, height);
  const win = window as unknown as object;
  return {
    pixels, source: canvas,
    upload: (x, y, w, h) => {
      const from = y * width * 4, to = Math.min(height, y + h) * width * 4;
      image.data.set(cloneInto(data.slice(from, to), win) as Uint8ClampedArray, from);
      ctx.putImageData(image, 0, 0, x, y, w, h);
    },
  };
}
