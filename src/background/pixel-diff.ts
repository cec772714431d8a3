/**
 * The pixel comparison of a containment experiment (docs/DIAGNOSE.md). Three
 * captures of the component's area: without the declaration, with it, and
 * without again. A page animates on its own (a ticker's text, a spinner), so
 * only pixels that are the same in both captures without it are compared; of
 * those, the ones that differ with it changed because of it. Pure, so it is
 * unit-tested.
 */

/** Per channel: compression and compositing never move a static pixel by more. */
export const CHANNEL_TOLERANCE = 2;

export interface PixelCount {
  compared: number;
  changed: number;
}

/** RGBA buffers of the same length, in the order off, on, off. */
export function diffPixels(off1: Uint8ClampedArray, on: Uint8ClampedArray, off2: Uint8ClampedArray): PixelCount {
  const n = Math.min(off1.length, on.length, off2.length) & ~3;
  let compared = 0, changed = 0;
  for (let i = 0; i < n; i += 4) {
    if (!same(off1, off2, i)) continue;
    compared++;
    if (!same(off1, on, i)) changed++;
  }
  return { compared, changed };
}

function same(a: Uint8ClampedArray, b: Uint8ClampedArray, i: number): boolean {
  return Math.abs(a[i] - b[i]) <= CHANNEL_TOLERANCE && Math.abs(a[i + 1] - b[i + 1]) <= CHANNEL_TOLERANCE
    && Math.abs(a[i + 2] - b[i + 2]) <= CHANNEL_TOLERANCE && Math.abs(a[i + 3] - b[i + 3]) <= CHANNEL_TOLERANCE;
}

/**
 * The capture's pixel rectangle for a CSS px rect, clamped to the bitmap: CSS px × the page's devicePixelRatio (which
 * carries the browser's zoom). Not bitmap ÷ viewport: under device emulation (DevTools' device mode, or a test
 * driver's viewport) the page's viewport is not the visible area the capture holds.
 */
export function deviceRect(rect: readonly number[], dpr: number, bitmapW: number, bitmapH: number): [number, number, number, number] | null {
  if (!(dpr > 0)) return null;
  const x0 = Math.max(0, Math.floor(rect[0] * dpr)), y0 = Math.max(0, Math.floor(rect[1] * dpr));
  const x1 = Math.min(bitmapW, Math.ceil((rect[0] + rect[2]) * dpr)), y1 = Math.min(bitmapH, Math.ceil((rect[1] + rect[3]) * dpr));
  return x1 > x0 && y1 > y0 ? [x0, y0, x1 - x0, y1 - y0] : null;
}
