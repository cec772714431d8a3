/**
 * The size an overlay canvas should have, without forcing a layout: CSS px
 * and device px from a ResizeObserver (device-pixel-content-box where
 * supported), which reports after the browser's own layout — reading
 * innerWidth or clientWidth instead could force a synchronous layout and
 * show up in the page's numbers. A device-pixel-ratio change (zoom, another
 * monitor) does not always resize the element, so it is watched too.
 *
 * Shared by the canvas in the page and the one in the extension's frame
 * (src/overlay-frame): it touches the DOM of whichever document holds it.
 */
import type { Viewport } from './types';

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
    // Before the first observation, window's size (no layout needed for a fixed, inset:0 host). A browser zoom
    // changes the box's CSS size but not its device size, and an observer of the device-pixel box is not told:
    // then the CSS size is the device size at the new ratio.
    const d = this.device;
    const css = d !== null && dpr !== this.observedDpr ? { width: d.width / dpr, height: d.height / dpr }
      : this.css ?? { width: window.innerWidth, height: window.innerHeight };
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
