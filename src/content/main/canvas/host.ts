/**
 * The overlay's one element in the page: a custom-named host holding a
 * closed shadow root with one canvas, fixed over the viewport, taking no
 * pointer events, `contain: strict` so nothing inside it can dirty the
 * page's layout, at the maximum z-index. The canvas' backing store follows
 * devicePixelRatio and browser zoom; its size comes from a ResizeObserver
 * (device-pixel-content-box where supported), which reports after the
 * browser's own layout — reading innerWidth or clientWidth instead could
 * force a synchronous layout and show up in the page's numbers.
 */
import type { AtlasSurface } from '../../../overlay/atlas';
import { forgetFont } from '../../../overlay/paint-text';
import type { Viewport } from '../../../overlay/types';

export const HOST_TAG = 'layout-cost-overlay';

const HOST_CSS =
  'position:fixed!important;inset:0!important;width:100vw!important;height:100vh!important;' +
  'pointer-events:none!important;contain:strict!important;z-index:2147483647!important;' +
  'margin:0!important;padding:0!important;border:0!important;display:block!important;background:none!important;' +
  'transform:none!important;filter:none!important;opacity:1!important;visibility:visible!important';

export class CanvasHost {
  readonly host: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  readonly ctx: CanvasRenderingContext2D | null;
  private observer: ResizeObserver | null = null;
  /** CSS px size and device px size of the canvas as last observed; null until the first observation. */
  private css: { width: number; height: number } | null = null;
  private device: { width: number; height: number } | null = null;
  private ratio: { dpr: number; mql: MediaQueryList } | null = null;

  constructor(private readonly onResize: () => void) {
    const host = document.createElement(HOST_TAG);
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
    if (typeof ResizeObserver === 'function') {
      this.observer = new ResizeObserver((entries) => this.observed(entries));
      try {
        this.observer.observe(canvas, { box: 'device-pixel-content-box' });
      } catch {
        // Older engines: the content box in CSS px, scaled by devicePixelRatio below.
        this.observer.observe(canvas);
      }
    }
  }

  /** Hidden for a screenshot of the page (an experiment's pixel comparison): visibility only, no layout. */
  setHidden(hidden: boolean): void {
    this.canvas.style.visibility = hidden ? 'hidden' : 'visible';
  }

  private observed(entries: ResizeObserverEntry[]): void {
    for (const e of entries) {
      const cb = e.contentBoxSize?.[0];
      this.css = cb ? { width: cb.inlineSize, height: cb.blockSize } : { width: e.contentRect.width, height: e.contentRect.height };
      const dp = e.devicePixelContentBoxSize?.[0];
      this.device = dp ? { width: dp.inlineSize, height: dp.blockSize } : null;
    }
    this.onResize();
  }

  /** The viewport the next frame is drawn for; resizes the backing store when it changed. */
  sync(): Viewport {
    const dpr = window.devicePixelRatio || 1;
    // Before the first observation, window's size (no layout needed for a fixed, inset:0 host).
    const css = this.css ?? { width: window.innerWidth, height: window.innerHeight };
    // The observed device size is exact, but only while it belongs to the current ratio: a zoom or
    // an emulated ratio change can reach us before the observer reports again.
    const fresh = this.device !== null && Math.abs(this.device.width - css.width * dpr) < 2 && Math.abs(this.device.height - css.height * dpr) < 2;
    const w = fresh ? this.device!.width : Math.round(css.width * dpr);
    const h = fresh ? this.device!.height : Math.round(css.height * dpr);
    this.watchRatio(dpr);
    if (this.canvas.width !== w || this.canvas.height !== h) {
      this.canvas.width = w;
      this.canvas.height = h;
      if (this.ctx) forgetFont(this.ctx);
    }
    return { width: css.width, height: css.height, dpr };
  }

  /** A device-pixel-ratio change (zoom, another monitor) does not always resize the canvas: redraw on it too. */
  private watchRatio(dpr: number): void {
    if (this.ratio?.dpr === dpr || typeof matchMedia !== 'function') return;
    this.ratio?.mql.removeEventListener('change', this.onRatio);
    const mql = matchMedia(`(resolution: ${dpr}dppx)`);
    mql.addEventListener('change', this.onRatio);
    this.ratio = { dpr, mql };
  }

  private readonly onRatio = (): void => this.onResize();

  remove(): void {
    this.ratio?.mql.removeEventListener('change', this.onRatio);
    this.ratio = null;
    this.observer?.disconnect();
    this.observer = null;
    this.host.remove();
  }
}

/** Firefox's content scripts have it: a copy of an object of ours in the page's compartment. */
declare const cloneInto: ((obj: unknown, target: object) => unknown) | undefined;

/** The atlas' pixels in an ImageData, uploaded into an OffscreenCanvas that drawImage blits from. */
export function makeSurface(width: number, height: number): AtlasSurface | null {
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
