/**
 * The overlay's one element in the page: a custom-named host holding a
 * closed shadow root, fixed over the viewport, taking no pointer events,
 * `contain: strict` so nothing inside it can dirty the page's layout, at the
 * maximum z-index. What draws inside it is a `Painter`:
 *
 * - `FramedPainter` (Chrome): an iframe of the extension's own page
 *   (overlay-frame.html), which Chrome runs in the extension's process, off
 *   the page's main thread. The content script sends it each flush as a
 *   packed `PaintFrame` over a MessageChannel and the frame draws it on its
 *   canvas. An extension frame is not subject to the page's CSP and is not in
 *   `window.frames` (it sits in a closed shadow root).
 * - `PagePainter`: a canvas in the shadow root, drawn on the page's main
 *   thread — Firefox, and the fallback when the frame does not answer.
 *
 * docs/OVERLAY.md (where the drawing runs) has the decision and the figures.
 */
import type { AtlasSurface } from '../../../overlay/atlas';
import { CanvasSize } from '../../../overlay/canvas-size';
import { FramePacker, FramePainter, type PaintContext, type PaintFrame } from '../../../overlay/paint-frame';
import { forgetFont } from '../../../overlay/paint-text';
import type { Rect, Viewport } from '../../../overlay/types';

export const HOST_TAG = 'layout-cost-overlay';
/** The extension page the framed painter loads (web-accessible, with a per-session URL). */
export const FRAME_PAGE = 'overlay-frame.html';
/** How long the frame has to say it is ready before the page's canvas takes over. */
export const FRAME_READY_MS = 4000;
/**
 * How long the frame may see another pixel ratio than the page before the page's canvas takes over: DevTools' device
 * emulation sets the page's alone (a zoom reaches both, a flush or two apart).
 */
export const FRAME_DPR_MS = 1000;

const HOST_CSS =
  'position:fixed!important;inset:0!important;width:100vw!important;height:100vh!important;' +
  'pointer-events:none!important;contain:strict!important;z-index:2147483647!important;' +
  'margin:0!important;padding:0!important;border:0!important;display:block!important;background:none!important;' +
  'transform:none!important;filter:none!important;opacity:1!important;visibility:visible!important';
const FILL_CSS = 'position:absolute;left:0;top:0;width:100%;height:100%;pointer-events:none;display:block;border:0;margin:0;padding:0';

export type PainterKind = 'frame' | 'page';

/** What draws the overlay's flushes. */
export interface Painter {
  readonly kind: PainterKind;
  readonly host: HTMLElement;
  /** The viewport the next flush is placed in (CSS px, without forcing a layout). */
  viewport(): Viewport;
  paint(frame: PaintFrame): void;
  /** Where the legend was last drawn (viewport CSS px), for its dismissing click. */
  legendRect(): Rect | null;
  /** Hidden for a screenshot of the page (an experiment's pixel comparison): visibility only, no layout. */
  setHidden(hidden: boolean): void;
  remove(): void;
}

function makeHost(): { host: HTMLElement; shadow: ShadowRoot } {
  const host = document.createElement(HOST_TAG);
  host.setAttribute('aria-hidden', 'true');
  host.style.cssText = HOST_CSS;
  const shadow = host.attachShadow({ mode: 'closed' });
  return { host, shadow };
}

function attach(host: HTMLElement): void {
  (document.documentElement || document).appendChild(host);
}

/** The canvas in the page: drawn on the page's main thread. */
export class PagePainter implements Painter {
  readonly kind = 'page';
  readonly host: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D | null;
  private readonly size: CanvasSize;
  private readonly painter = new FramePainter(makeSurface);
  private legend: Rect | null = null;

  constructor(onResize: () => void) {
    const { host, shadow } = makeHost();
    const canvas = document.createElement('canvas');
    canvas.style.cssText = FILL_CSS;
    shadow.appendChild(canvas);
    attach(host);
    this.host = host;
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d', { alpha: true, desynchronized: false });
    this.size = new CanvasSize(canvas, onResize);
  }

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

  legendRect(): Rect | null {
    return this.legend;
  }

  setHidden(hidden: boolean): void {
    this.canvas.style.visibility = hidden ? 'hidden' : 'visible';
  }

  remove(): void {
    this.size.remove();
    this.host.remove();
  }
}

/** What the frame says back over the port (overlay-frame/index.ts). */
export type FrameReply = { t: 'ready' } | { t: 'painted'; legend: Rect | null; ms: number; dpr: number; resend?: boolean };

/**
 * The extension's frame: each flush is packed and posted to it; one flush is in flight at a time and only the
 * latest waiting one is kept, so a busy frame drops flushes instead of queueing them. Falls back (`onFail`) when the
 * frame has not said it is ready within FRAME_READY_MS or fails to load.
 */
export class FramedPainter implements Painter {
  readonly kind = 'frame';
  readonly host: HTMLElement;
  private readonly frame: HTMLIFrameElement;
  private readonly size: CanvasSize;
  private port: MessagePort | null = null;
  private ready = false;
  private inFlight = false;
  private waiting: { frame: PaintFrame; backing: { width: number; height: number } } | null = null;
  private legend: Rect | null = null;
  private readyTimer: ReturnType<typeof setTimeout> | null;
  /** The page's pixel ratio in the flush in flight, and since when the frame's has differed from it. */
  private sentDpr = 0;
  private dprMismatchSince: number | null = null;
  private removed = false;
  /** The frame's own drawing time (its thread, not the page's), ms, since it was made. */
  frameMs = 0;
  /** Flushes posted to the frame, and flushes that changed nothing it draws (not posted). */
  posted = 0;
  skipped = 0;
  /** Time spent in postMessage, ms (our own timer). */
  postMs = 0;
  /** What the frame has: each flush goes as a change to it. */
  private readonly packer = new FramePacker();

  constructor(url: string, private readonly origin: string, private readonly onResize: () => void, private readonly onFail: (why: string) => void) {
    const { host, shadow } = makeHost();
    const frame = document.createElement('iframe');
    frame.style.cssText = FILL_CSS + ';background:transparent;color-scheme:normal';
    frame.setAttribute('aria-hidden', 'true');
    frame.tabIndex = -1;
    frame.addEventListener('load', () => this.loaded());
    frame.src = url;
    shadow.appendChild(frame);
    attach(host);
    this.host = host;
    this.frame = frame;
    this.size = new CanvasSize(frame, onResize);
    this.readyTimer = setTimeout(() => this.fail('the overlay frame did not answer'), FRAME_READY_MS);
  }

  private loaded(): void {
    if (this.removed || this.port !== null) return;
    const win = this.frame.contentWindow;
    if (!win) return this.fail('the overlay frame has no window');
    const channel = new MessageChannel();
    this.port = channel.port1;
    channel.port1.onmessage = (e) => this.reply(e.data as FrameReply);
    // Only the extension's own origin may receive the port. The frame's URL is a per-session alias
    // (use_dynamic_url); the document it loads has the extension's origin.
    win.postMessage('layout-cost-frame', this.origin, [channel.port2]);
  }

  private reply(r: FrameReply): void {
    if (this.removed || typeof r !== 'object' || r === null) return;
    if (r.t === 'ready') {
      this.ready = true;
      if (this.readyTimer !== null) clearTimeout(this.readyTimer);
      this.readyTimer = null;
      this.send();
    } else if (r.t === 'painted') {
      this.inFlight = false;
      this.legend = r.legend;
      if (typeof r.ms === 'number' && r.ms > 0 && r.ms < 1e4) this.frameMs += r.ms;
      if (r.resend === true) {
        // The flush did not join what the frame has: send everything whole, and draw again.
        this.packer.reset();
        if (this.waiting === null) this.onResize();
      }
      if (typeof r.dpr === 'number' && Math.abs(r.dpr - this.sentDpr) >= 0.01) {
        const now = performance.now();
        this.dprMismatchSince ??= now;
        if (now - this.dprMismatchSince > FRAME_DPR_MS) return this.giveUp('the overlay frame has another pixel ratio than the page (device emulation)');
      } else {
        this.dprMismatchSince = null;
      }
      this.send();
    }
  }

  private fail(why: string): void {
    if (this.removed || this.ready) return;
    this.giveUp(why);
  }

  private giveUp(why: string): void {
    if (this.removed) return;
    this.remove();
    this.onFail(why);
  }

  /** The host's box in device px as last synced: the frame's canvas covers exactly that box. */
  private backing = { width: 0, height: 0 };

  viewport(): Viewport {
    const { vp, width, height } = this.size.sync();
    this.backing = { width, height };
    return vp;
  }

  paint(frame: PaintFrame): void {
    this.waiting = { frame, backing: this.backing };
    this.send();
  }

  private send(): void {
    const w = this.waiting;
    if (!this.ready || this.inFlight || w === null || this.port === null) return;
    this.waiting = null;
    const packed = this.packer.pack(w.frame, w.backing);
    // Nothing the frame draws changed: no message at all (a post to another process is the costly part here).
    if (packed === null) {
      this.skipped++;
      return;
    }
    this.inFlight = true;
    this.sentDpr = w.frame.vp.dpr;
    this.posted++;
    const t0 = performance.now();
    this.port.postMessage(packed);
    this.postMs += performance.now() - t0;
  }

  legendRect(): Rect | null {
    return this.legend;
  }

  setHidden(hidden: boolean): void {
    this.frame.style.visibility = hidden ? 'hidden' : 'visible';
  }

  remove(): void {
    if (this.removed) return;
    this.removed = true;
    if (this.readyTimer !== null) clearTimeout(this.readyTimer);
    this.readyTimer = null;
    this.port?.close();
    this.port = null;
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
