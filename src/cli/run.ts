/**
 * One audit run in a real browser (issue 14): Chrome or Chromium with the
 * built extension, the URL loaded, the overlay on, a recording over the
 * user's steps (or `seconds` of watching), then the snapshot, our own DOM
 * count and a screenshot with the meters. Any failure to get there is a
 * RunError: one line, exit status 2.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { LINUX_CI_FLAGS, QUIET_FLAGS } from '../../scripts/chrome';
import type { Recording } from '../protocol/recording';
import type { Snapshot } from '../protocol/snapshot';
import { domElements, enable, RunError, snapshot, startRecording, stopRecording, waitForComponents } from './page-api';
import { calibrateOver, type Calibration } from './calibrate';

export interface RunOptions {
  url: string;
  chrome: string;
  extension: string;
  seconds: number;
  /** How long to wait for React to render before the page is called not a React page. */
  waitReactMs?: number;
  steps: string | null;
  headful: boolean;
  /** After the recording, before the page closes (`layout-cost mcp`: what dirtied the costliest component). */
  after?(page: Page, recording: Recording, snapshot: Snapshot): Promise<void>;
  /** Whether the run ends with a screenshot (default yes; a route's runs but its last need none: report.html shows one). */
  screenshot?: boolean;
  /** After the judged run, the calibration pass in a fresh page of the same browser (calibrate.ts). */
  calibrate?: boolean;
  /** Progress lines (stderr in the CLI). */
  log(line: string): void;
}

export interface RunResult {
  recording: Recording;
  snapshot: Snapshot;
  domElements: number;
  /** Null when not asked for (`RunOptions.screenshot`). */
  screenshot: Buffer | null;
  browser: string;
  seconds: number;
  /** The calibration pass, and its page's components (its own ids) at the end. */
  calibration?: { calibration: Calibration; snapshot: Snapshot };
}

const VIEWPORT = { width: 1280, height: 900 };
const LOAD_TIMEOUT_MS = 45_000;
/** After the steps: the last interaction's and shift's entries reach the snapshot (docs/VITALS.md). */
const VITALS_SETTLE_MS = 400;

export type Steps = (page: Page) => unknown;

/**
 * What to audit, from what a user typed: a URL (http, https, file) or a path to a local file. `fail` makes the error
 * (the CLI's usage error; `layout-cost mcp`'s run error).
 */
export function targetUrl(given: string, fail: (message: string) => Error): URL {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    // A path to a local file is a URL too.
    const file = path.resolve(given);
    if (!fs.existsSync(file)) throw fail(`${JSON.stringify(given.slice(0, 200))} is not a URL (http://…, https://…, file://…) or a file`);
    url = new URL(`file://${file}`);
  }
  if (!['http:', 'https:', 'file:'].includes(url.protocol)) throw fail(`${url.protocol} URLs are not supported (http, https, file)`);
  return url;
}

export async function loadSteps(file: string): Promise<Steps> {
  const abs = path.resolve(file);
  if (!fs.existsSync(abs)) throw new RunError(`--steps: no file at ${abs}`);
  let mod: { default?: unknown };
  try {
    // The file's time in the URL: a long-running process (`layout-cost mcp`) loads a steps file again once it changed,
    // not the copy it imported first.
    mod = (await import(`${pathToFileURL(abs).href}?t=${fs.statSync(abs).mtimeMs}`)) as { default?: unknown };
  } catch (e) {
    throw new RunError(`--steps: ${file} does not load: ${(e as Error).message.split('\n')[0]}`);
  }
  if (typeof mod.default !== 'function') throw new RunError(`--steps: ${file} has no default export function (export default async (page) => { … })`);
  return mod.default as Steps;
}

export async function runAudit(o: RunOptions): Promise<RunResult> {
  return withBrowser(o, async (browser) => {
    const run = await auditPage(browser, o);
    if (o.calibrate) run.calibration = await calibratePage(browser, o);
    return run;
  });
}

/**
 * The calibration pass (calibrate.ts): the URL loaded afresh, the overlay on, the same steps (or watch) with each batch
 * of DOM changes replayed one component at a time and Chrome's trace over it. Its ms are not judged.
 */
export async function calibratePage(browser: Browser, o: RunOptions): Promise<{ calibration: Calibration; snapshot: Snapshot }> {
  const steps = o.steps ? await loadSteps(o.steps) : null;
  const page = await browser.newPage();
  try {
    await openMeasured(page, o, 'calibrating: loading');
    let calibration: Calibration;
    try {
      calibration = await calibrateOver(page, () => act(page, steps, o, 'the steps failed in the calibration pass'));
    } catch (e) {
      if (e instanceof RunError) throw e;
      throw new RunError(`the calibration pass failed: ${(e as Error).message.split('\n')[0]}`);
    }
    return { calibration, snapshot: await snapshot(page) };
  } finally {
    await page.close().catch(() => undefined);
  }
}

/** The URL loaded in `page`, the overlay on, its components measured: any failure a RunError. */
export async function openMeasured(page: Page, o: RunOptions, what: string): Promise<void> {
  o.log(`${what} ${o.url}`);
  let status = 0;
  try {
    const res = await page.goto(o.url, { waitUntil: 'load', timeout: LOAD_TIMEOUT_MS });
    status = res?.status() ?? 0;
  } catch (e) {
    throw new RunError(`could not load ${o.url}: ${(e as Error).message.split('\n')[0]}`);
  }
  if (status >= 400) throw new RunError(`${o.url} answered HTTP ${status}`);
  await enable(page);
  await waitForComponents(page, o.waitReactMs);
}

/** The user's steps on `page`, or `seconds` of watching. */
export async function act(page: Page, steps: Steps | null, o: RunOptions, failed: string): Promise<void> {
  if (steps) {
    o.log(`running the steps in ${o.steps}`);
    try {
      await steps(page);
    } catch (e) {
      throw new RunError(`${failed}: ${(e as Error).message.split('\n')[0]}`);
    }
  } else {
    o.log(`watching for ${o.seconds} s`);
    await new Promise((r) => setTimeout(r, o.seconds * 1000));
  }
}

/** A browser with the extension for `fn` (several runs of several routes share one), closed after. */
export async function withBrowser<T>(o: Pick<RunOptions, 'chrome' | 'extension' | 'headful'>, fn: (browser: Browser) => Promise<T>): Promise<T> {
  const b = await launchAuditBrowser(o);
  try {
    return await fn(b.browser);
  } finally {
    await b.close();
  }
}

/** A browser with the extension in a temporary profile, and how to close it (the profile goes with it). */
export async function launchAuditBrowser(o: Pick<RunOptions, 'chrome' | 'extension' | 'headful'>): Promise<{ browser: Browser; close(): Promise<void> }> {
  if (!fs.existsSync(path.join(o.extension, 'manifest.json'))) {
    throw new RunError(`the extension is not built (no ${path.join(o.extension, 'manifest.json')}): run npm run build`);
  }
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'layout-cost-audit-'));
  let browser: Browser | null = null;
  const close = async (): Promise<void> => {
    await browser?.close().catch(() => undefined);
    fs.rmSync(userDataDir, { recursive: true, force: true });
  };
  try {
    try {
      browser = await puppeteer.launch({
        executablePath: o.chrome, headless: !o.headful, pipe: true, enableExtensions: true, userDataDir,
        args: [...QUIET_FLAGS, ...LINUX_CI_FLAGS, `--window-size=${VIEWPORT.width},${VIEWPORT.height}`], defaultViewport: VIEWPORT,
      });
    } catch (e) {
      throw new RunError(`could not start ${o.chrome}: ${(e as Error).message.split('\n')[0]}`);
    }
    await browser.installExtension(o.extension);
    return { browser, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** One run in a fresh page of `browser`: load, enable, record over the steps or the watch, snapshot; the page closed. */
export async function auditPage(browser: Browser, o: RunOptions): Promise<RunResult> {
  const steps = o.steps ? await loadSteps(o.steps) : null;
  const version = await browser.version();
  const page = await browser.newPage();
  try {
    await openMeasured(page, o, 'loading');
    await startRecording(page);
    const t0 = Date.now();
    await act(page, steps, o, 'the steps failed');
    // Event Timing and layout-shift entries come after the paint, and the agent hands them over 100 ms later.
    await new Promise((r) => setTimeout(r, VITALS_SETTLE_MS));
    const recording = await stopRecording(page);
    const seconds = (Date.now() - t0) / 1000;
    const snap = await snapshot(page);
    await o.after?.(page, recording, snap);
    const dom = await domElements(page);
    const screenshot = o.screenshot === false ? null : Buffer.from(await page.screenshot({ type: 'png' }));
    return { recording, snapshot: snap, domElements: dom, screenshot, browser: version, seconds };
  } finally {
    await page.close().catch(() => undefined);
  }
}
