/**
 * The size an overlay canvas should have, without forcing a layout: CSS px
 * and device px from a ResizeObserver (device-pixel-content-box where
 * supported), which reports after the browser's own layout — reading
 * innerWidth or clientWidth instead could force a synchronous layout and
 * show up in the page's numbers. A device-pixel-ratio change (zoom, another
 * monitor) does not always resize the element, so it is watched too.
 *
 * It touches the DOM (ResizeObserver, matchMedia, window); `cssSize` is its
 * pure rule, unit-tested.
 */
import type { Viewport } from '../../../overlay/types';

/**
 * The element's CSS size now, and whether that is a new reading to keep as the observation. `observed` (CSS px) is
 * the last observation, taken at ratio `observedDpr`; `win` reads the window's size (a fixed, inset:0, 100vw × 100vh
 * host has it), which may force a layout. A pixel ratio the observation was not taken at means one of two changes
 * the observer may not report: a browser zoom (the box's CSS size changes, its size in device pixels does not, and
 * an observer of the device-pixel box is not told) or an emulated ratio (the CSS size stays, the device size
 * changes, and Chrome does not always tell). Only the window can tell them apart: it is read once per such change.
 */
export function cssSize(
  observed: { width: number; height: number } | null, observedDpr: number, dpr: number, win: () => { width: number; height: number },
): { size: { width: number; height: number }; reread: boolean } {
  if (observed === null || dpr !== observedDpr) return { size: win(), reread: observed !== null };
  return { size: observed, reread: false };
}

export class CanvasSize {
  private observer: ResizeObserver | null = null;
  /** CSS px size and device px size of the element as last observed; null until the first observation. */
  private css: { width: number; height: number } | null = null;
  private device: { width: number; height: number } | null = null;
  /** The pixel ratio when the observer last reported. */
  private observedDpr = 0;
  private ratio: { dpr: number; mql: MediaQueryList } | null = null;

  constructor(el: Element, private readonly onResize: () => void) {
    if (typeof ResizeObserver !== 'function') return;
    this.observer = new ResizeObserver((entries) => this.observed(entries));
    try {
      this.observer.observe(el, { box: 'device-pixel-content-box' });
    } catch {
      // Older engines: the content box in CSS px, scaled by devicePixelRatio below.
      this.observer.observe(el);
    }
  }

  private observed(entries: ResizeObserverEntry[]): void {
    for (const e of entries) {
      const cb = e.contentBoxSize?.[0];
      this.css = cb ? { width: cb.inlineSize, height: cb.blockSize } : { width: e.contentRect.width, height: e.contentRect.height };
      const dp = e.devicePixelContentBoxSize?.[0];
      this.device = dp ? { width: dp.inlineSize, height: dp.blockSize } : null;
    }
    this.observedDpr = window.devicePixelRatio || 1;
    this.onResize();
  }

  /** The viewport to draw for now, and the backing store's size in device px for it. */
  sync(): { vp: Viewport; width: number; height: number } {
    const dpr = window.devicePixelRatio || 1;
    // Before the first observation, window's size (no layout needed for a fixed, inset:0 host).
    const got = cssSize(this.css, this.observedDpr, dpr, () => ({ width: window.innerWidth, height: window.innerHeight }));
    const css = got.size;
    if (got.reread) {
      // Kept as the observation at this ratio: one reading of the window per zoom or emulation change, not per flush.
      this.css = css;
      this.observedDpr = dpr;
    }
    // The observed device size is exact, but only while it belongs to the current ratio: a zoom or
    // an emulated ratio change can reach us before the observer reports again.
    const fresh = this.device !== null && Math.abs(this.device.width - css.width * dpr) < 2 && Math.abs(this.device.height - css.height * dpr) < 2;
    const width = fresh ? this.device!.width : Math.round(css.width * dpr);
    const height = fresh ? this.device!.height : Math.round(css.height * dpr);
    this.watchRatio(dpr);
    return { vp: { width: css.width, height: css.height, dpr }, width, height };
  }

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
  }
}
