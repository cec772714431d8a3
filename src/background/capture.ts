/**
 * Screenshots for containment experiments' pixel comparison (pixel-diff.ts),
 * taken with `chrome.tabs.captureVisibleTab`, which Chrome allows with the
 * `<all_urls>` host permission ("On all sites", the automation build) or an
 * activeTab grant (a press of the toolbar button or Ctrl+Shift+L on the page;
 * docs/DIAGNOSE.md, docs/SITES.md). Chrome allows two captures a second:
 * captures wait their turn. Images are cropped to the component's area at
 * once and kept only until the third step has been compared.
 */
import browser from 'webextension-polyfill';
import type { PixelAnswer } from '../protocol';
import { deviceRect, diffPixels } from './pixel-diff';

/** Chrome's MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND is 2. */
const CAPTURE_SPACING_MS = 520;

const fail = (error: string): PixelAnswer => ({ ok: false, error, pixelsCompared: 0, pixelsChanged: 0 });

export class Screenshots {
  private last = 0;
  private queue: Promise<unknown> = Promise.resolve();
  /** Per tab: the cropped captures of the steps so far. */
  private readonly steps = new Map<number, (Uint8ClampedArray | null)[]>();

  /** Takes step `step` (0 off, 1 on, 2 off) of `rect` (CSS px of the top frame, whose devicePixelRatio is `dpr`) in `tabId`. */
  take(tabId: number, step: number, rect: readonly number[], dpr: number): Promise<PixelAnswer> {
    const run = this.queue.then(() => this.capture(tabId, step, rect, dpr));
    this.queue = run.catch(() => undefined);
    return run.catch((e: unknown) => {
      this.steps.delete(tabId);
      const why = String((e as Error)?.message ?? e);
      // Chrome captures a tab for an extension only with <all_urls> or a fresh activeTab grant (issue 48: the store
      // build holds the default sites, not <all_urls>): say how to get one.
      if (/activeTab|all_urls/.test(why)) {
        return fail('no screenshot: Chrome lets an extension capture the tab only just after you press its toolbar button or '
          + 'Ctrl+Shift+L on the page, or with "On all sites" on: press Ctrl+Shift+L on the page, then Try again');
      }
      return fail(`no screenshot (${why.slice(0, 160)})`);
    });
  }

  forget(tabId: number): void {
    this.steps.delete(tabId);
  }

  private async capture(tabId: number, step: number, rect: readonly number[], dpr: number): Promise<PixelAnswer> {
    const wait = this.last + CAPTURE_SPACING_MS - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const tab = await browser.tabs.get(tabId);
    if (!tab.active) return fail('the tab is not the visible one in its window');
    this.last = Date.now();
    const url = await browser.tabs.captureVisibleTab(tab.windowId as number, { format: 'png' });
    const blob = await (await fetch(url)).blob();
    const whole = await createImageBitmap(blob);
    const r = deviceRect(rect, dpr, whole.width, whole.height);
    let data: Uint8ClampedArray | null = null;
    if (r !== null) {
      const canvas = new OffscreenCanvas(r[2], r[3]);
      const ctx = canvas.getContext('2d');
      if (ctx === null) return fail('no 2D canvas in the service worker');
      ctx.drawImage(whole, r[0], r[1], r[2], r[3], 0, 0, r[2], r[3]);
      data = ctx.getImageData(0, 0, r[2], r[3]).data;
    }
    whole.close();
    const steps = step === 0 ? [] : this.steps.get(tabId) ?? [];
    steps[step] = data;
    this.steps.set(tabId, steps);
    if (step < 2) return { ok: true, error: null, pixelsCompared: 0, pixelsChanged: 0 };
    this.steps.delete(tabId);
    const [a, b, c] = steps;
    if (!a || !b || !c) return fail('the component is not in the visible part of the page');
    if (a.length !== b.length || a.length !== c.length) return fail('the page was resized between screenshots');
    const d = diffPixels(a, b, c);
    return { ok: true, error: null, pixelsCompared: d.compared, pixelsChanged: d.changed };
  }
}
