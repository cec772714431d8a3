/**
 * Driving `window.__LAYOUT_COST__` in a puppeteer page: shared by the CLI
 * (run.ts) and the helper for users' own e2e suites (`layout-cost/puppeteer`).
 * Code is sent as strings (a bundler's helpers, e.g. keepNames' `__name`, do
 * not exist in the page); what comes back is the page's data: the recording
 * is checked by `recordingValidator` before anything reads it.
 */
import { recordingValidator, type Recording } from '../protocol/recording';
import type { Mode } from '../protocol/constants';
import { OVERLAY_TAG } from '../protocol/overlay-tag';
import type { LayoutCostState, Snapshot } from '../protocol/snapshot';
import { INVALID } from '../protocol/validate';

/**
 * What of a page these need: puppeteer's Page and Playwright's Page both fit (string evaluation and the URL), so the
 * helper serves both.
 */
export interface Page {
  evaluate(expression: string): Promise<unknown>;
  url(): string;
}

/** A run that cannot go on (exit status 2 in the CLI): one clear line. */
export class RunError extends Error {}

const API = 'window.__LAYOUT_COST__';

async function call<T>(page: Page, expr: string): Promise<T> {
  return page.evaluate(expr) as Promise<T>;
}

/** The extension's API is in the page (it is there from the page's first script when the extension is installed). */
export async function hasApi(page: Page): Promise<boolean> {
  return call<boolean>(page, `typeof ${API} === 'object' && ${API} !== null`);
}

export async function enable(page: Page, mode: Exclude<Mode, 'off'> = 'components'): Promise<void> {
  if (!(await hasApi(page))) {
    throw new RunError('Layout Cost is not in this page: launch the browser with the extension (extensionPath) and load the page after');
  }
  await call(page, `${API}.enable(${JSON.stringify(mode)})`);
}

export async function disable(page: Page): Promise<void> {
  await call(page, `${API}.disable()`);
}

export async function state(page: Page): Promise<LayoutCostState> {
  return call<LayoutCostState>(page, `${API}.state()`);
}

export async function snapshot(page: Page): Promise<Snapshot> {
  return call<Snapshot>(page, `${API}.snapshot()`);
}

/** How often `waitForComponents` asks: the agent's first snapshot usually comes within a frame or two of enabling. */
const POLL_MS = 50;

/** React, Vue or Preact is on the page (a renderer, an app or a render root seen). */
export function frameworkOn(st: LayoutCostState): boolean {
  return st.react.renderers > 0 || st.vue?.found === true || st.preact?.found === true;
}

/**
 * Waits until the overlay measures components (the agent is injected on enable; the first components arrive a few
 * frames later). Throws RunError when the page has neither React, Vue nor Preact by `timeoutMs`.
 */
export async function waitForComponents(page: Page, timeoutMs = 15_000): Promise<Snapshot> {
  const end = Date.now() + timeoutMs;
  let last: Snapshot | null = null;
  for (;;) {
    last = await snapshot(page).catch(() => null);
    if (last && last.components.length > 0) return last;
    if (Date.now() > end) break;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const st = await state(page).catch(() => null);
  if (st && !frameworkOn(st)) {
    throw new RunError(`no React, Vue or Preact on ${page.url()} (waited ${Math.round(timeoutMs / 1000)} s for a React renderer, a Vue app or a Preact root)`);
  }
  const which = st && st.react.renderers > 0 ? 'React' : st?.vue?.found === true ? 'Vue' : 'Preact';
  throw new RunError(`${which} is on ${page.url()}, but no component was measured within ${Math.round(timeoutMs / 1000)} s`);
}

export async function startRecording(page: Page, opts: { maxRows?: number } = {}): Promise<void> {
  await call(page, `${API}.startRecording(${JSON.stringify(opts)})`);
}

export async function stopRecording(page: Page): Promise<Recording> {
  const raw = await call<unknown>(page, `${API}.stopRecording()`);
  const r = recordingValidator(raw);
  if (r === INVALID) throw new RunError('the page returned no usable recording (was it recording?)');
  return r;
}

/**
 * Elements in the document, counted by our own walk (not the extension's counts): every element, in open shadow
 * roots too, but not Layout Cost's overlay host. Lighthouse's DOM-size audit counts the same way.
 */
export async function domElements(page: Page): Promise<number> {
  return call<number>(page, `(() => {
    let n = 0;
    const stack = [document.documentElement];
    while (stack.length) {
      const e = stack.pop();
      if (!e || e.localName === '${OVERLAY_TAG}') continue;
      n++;
      if (e.shadowRoot) for (const c of e.shadowRoot.children) stack.push(c);
      for (const c of e.children) stack.push(c);
    }
    return n;
  })()`);
}
