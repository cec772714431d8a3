/**
 * Reading the overlay back from screenshots: where a meter is, what color a
 * bar has, whether a line is crisp. Expectations come from the pure overlay
 * math (src/overlay), positions from the agent's own snapshot bounds.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { meterAnchor } from '../../src/overlay/anchor';
import { bodyRect, countFraction } from '../../src/overlay/meter';
import { AUTHORED_RGB, LEVEL_RGB } from '../../src/overlay/ramps';
import { ROOT } from '../../scripts/chrome';
import { lc, waitFor } from './harness';
import { decodePng, pixel, type Image } from './png';
import type { SnapshotComponent } from '../../src/protocol/snapshot';

export type RGB = readonly [number, number, number];
export const OUT_DIR = path.join(ROOT, 'out');

/** The meter box over white, and its border anywhere: both read as rgb(80,80,80). */
export const METER_GREY: RGB = [80, 80, 80];
export const WHITE: RGB = [255, 255, 255];
/** The component outline, rgba(96,165,250,0.9), over white. */
export const OUTLINE_ON_WHITE: RGB = [112, 174, 250];
export const PIN_RGB: RGB = [236, 72, 153];
/** Caption and legend background, rgba(20,20,20,0.88), over white. */
export const TEXT_BG_ON_WHITE: RGB = [48, 48, 48];

export async function shot(page: Page, save?: string): Promise<Image> {
  const buf = await page.screenshot({ type: 'png' });
  if (save) {
    fs.mkdirSync(OUT_DIR, { recursive: true });
    fs.writeFileSync(path.join(OUT_DIR, save), buf);
  }
  return decodePng(buf);
}

export function near(a: RGB, b: RGB, tol = 8): boolean {
  return Math.abs(a[0] - b[0]) <= tol && Math.abs(a[1] - b[1]) <= tol && Math.abs(a[2] - b[2]) <= tol;
}

/** Pixel at CSS (x, y) on a screenshot taken at `dpr`. */
export function at(img: Image, x: number, y: number, dpr = 1): RGB {
  return pixel(img, x * dpr, y * dpr);
}

/** The meter of a component with these bounds (top-right, 4 px inward), or null when suppressed. */
export function anchorFor(b: { x: number; y: number; width: number; height: number }): { x: number; y: number } | null {
  return meterAnchor(b, { width: 1280, height: 900, dpr: 1 });
}

/**
 * A meter's box at (x, y): its border on the left, right and top edges, and
 * none one pixel further out on the left.
 */
export function meterAt(img: Image, x: number, y: number, dpr = 1): boolean {
  const edges: RGB[] = [
    pixel(img, x * dpr, (y + 7) * dpr),
    pixel(img, (x + 32) * dpr - 1, (y + 7) * dpr),
    pixel(img, (x + 16) * dpr, y * dpr),
  ];
  return edges.every((p) => near(p, METER_GREY, 6)) && !near(pixel(img, x * dpr - 2, (y + 7) * dpr), METER_GREY, 6);
}

/** Nothing of ours at the would-be meter's centre: the white page shows through. */
export function blankAt(img: Image, x: number, y: number, dpr = 1): boolean {
  return near(pixel(img, (x + 16) * dpr, (y + 7) * dpr), WHITE, 4);
}

/** Bars form: the color at the middle of the inflation tail, and the grey authored part before it. */
export function tailSample(x: number, y: number, authored: number, rendered: number): { tail: [number, number]; grey: [number, number] | null } {
  const body = bodyRect(x, y, 1);
  const a = Math.round(body.width * countFraction(authored)), r = Math.round(body.width * countFraction(rendered));
  return {
    tail: [body.x + Math.floor((a + r) / 2), y + 10],
    grey: a > 0 ? [body.x + Math.floor(a / 2), y + 10] : null,
  };
}

export function levelOf(rgb: RGB): number {
  return LEVEL_RGB.findIndex((c) => near(rgb, c, 3));
}

export function isAuthoredGrey(rgb: RGB): boolean {
  return near(rgb, AUTHORED_RGB, 3);
}

/** Pixels that differ between two same-sized images (only those whose color in `b` passes `which`, when given). */
export function diffCount(a: Image, b: Image, which?: (rgb: RGB) => boolean): number {
  let n = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (a.data[i] === b.data[i] && a.data[i + 1] === b.data[i + 1] && a.data[i + 2] === b.data[i + 2]) continue;
    if (which === undefined || which([b.data[i], b.data[i + 1], b.data[i + 2]])) n++;
  }
  return n;
}

/** Waits for `n` animation frames in the page: a condition, not a sleep. */
export function frames(page: Page, n: number): Promise<void> {
  return page.evaluate((count) => new Promise<void>((resolve) => {
    let left = count;
    const step = (): void => {
      if (--left <= 0) resolve();
      else requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  }), n);
}

export type Comp = SnapshotComponent;

export async function comps(page: Page): Promise<Comp[]> {
  return ((await lc.snapshot(page)) as { components: Comp[] }).components;
}
export async function byName(page: Page, name: string): Promise<Comp> {
  const c = (await comps(page)).find((x) => x.name === name);
  if (!c) throw new Error(`no component ${name}`);
  return c;
}
export async function setMode(page: Page, mode: string): Promise<void> {
  if (mode === 'off') await lc.disable(page);
  else await lc.enable(page, mode);
  await waitFor(async () => (await lc.state(page)).mode === mode, { what: `mode ${mode}` });
}
/** Polls screenshots until `ok` holds for one; returns it. */
export async function until(page: Page, ok: (img: Image) => boolean | Promise<boolean>, what: string, timeout = 10_000): Promise<Image> {
  return waitFor(async () => {
    const img = await shot(page);
    return (await ok(img)) ? img : null;
  }, { what, timeout, interval: 100 });
}
