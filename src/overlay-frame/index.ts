/**
 * The overlay's frame (Chrome): an extension page the content script puts in
 * its closed shadow root, over the page (src/content/main/canvas/host.ts,
 * `FramedPainter`). Chrome runs it in the extension's process, so drawing
 * the meters — rasterising the atlas, the text boxes, the canvas calls — is
 * off the page's main thread.
 *
 * It takes one MessagePort from its parent, once, and from then on draws
 * each `PaintFrame` that arrives on it (checked and unpacked by
 * `unpackFrame`; anything else is ignored), answering `painted` with where
 * the legend went and how long it took. Nothing else reaches it: the page
 * cannot name this frame (closed shadow root; not in `window.frames`).
 */
import type { AtlasSurface } from '../overlay/atlas';
import { FramePainter, FrameUnpacker, type PaintContext } from '../overlay/paint-frame';
import { forgetFont } from '../overlay/paint-text';
import type { Rect } from '../overlay/types';

/** The atlas' pixels, shared by an ImageData, uploaded into an OffscreenCanvas that drawImage blits from. */
function makeSurface(width: number, height: number): AtlasSurface | null {
  if (typeof OffscreenCanvas !== 'function') return null;
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  const data = new Uint8ClampedArray(width * height * 4);
  const image = new ImageData(data, width, height);
  return { pixels: { data, width, height }, source: canvas, upload: (x, y, w, h) => ctx.putImageData(image, 0, 0, x, y, w, h) };
}

const canvas = document.querySelector('canvas') ?? document.body.appendChild(document.createElement('canvas'));
const ctx = canvas.getContext('2d', { alpha: true });
const painter = new FramePainter(makeSurface);
const unpacker = new FrameUnpacker();
/** Where the legend went in the last flush drawn (a flush not drawn leaves the canvas, and the legend, as they were). */
let legend: Rect | null = null;
let port: MessagePort | null = null;

/** Draws a flush; false when it could not be (a sparkline that does not join the frame's copy: ask for them whole). */
function draw(data: unknown): boolean {
  const got = unpacker.unpack(data);
  if (got === null || ctx === null) return true;
  if (got.stale) return false;
  // The backing store the page measured for the host's box, which this canvas covers exactly. Where this frame's
  // pixel ratio is not the page's (DevTools' device emulation reaches the page only), the browser scales it, until
  // the content script moves the drawing into the page.
  const { width, height } = got.backing;
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
    forgetFont(ctx);
  }
  legend = painter.paint(ctx as unknown as PaintContext, width, height, got.frame);
  return true;
}

addEventListener('message', (e: MessageEvent) => {
  if (port !== null || e.source !== parent || e.data !== 'layout-cost-frame' || e.ports.length !== 1) return;
  const p = e.ports[0];
  port = p;
  p.onmessage = (m) => {
    const t0 = performance.now();
    let drawn = true;
    try {
      drawn = draw(m.data);
    } finally {
      p.postMessage({ t: 'painted', legend, ms: performance.now() - t0, dpr: devicePixelRatio, resend: !drawn });
    }
  };
  p.postMessage({ t: 'ready' });
});
