/**
 * Helpers for the DevTools panel e2e tests: read the virtualized table as
 * the user sees it (the DOM, not the panel's model), wait for rows, and
 * stop the extension's service worker through CDP.
 */
import type { Frame, Page } from 'puppeteer-core';
import { lc, waitFor, type Harness } from './harness';
import type { Snapshot, SnapshotComponent } from '../../src/protocol/snapshot';

/** What the panel must never show of a page's text: bidi overrides and isolates, and control characters. */
export const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;
export const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029]/;

/** Column order of the panel's table (src/devtools-panel/table-view.ts). */
export const COLS = ['name', 'layoutMs', 'styleMs', 'forcedMs', 'lastFrameMs', 'rendered', 'authored', 'ratio', 'commits', 'depth'] as const;

export interface DomRow {
  id: number;
  index: number;
  cells: Record<(typeof COLS)[number], string>;
  /** The name cell's source label ("cell.tsx:42"), '' when none. */
  source: string;
}

/** The public contract, declared once in src/protocol/snapshot.ts. */
export type SnapComponent = SnapshotComponent;
export type Snap = Snapshot;

/**
 * A click made as a DOM event on the panel's element, not through the mouse at its coordinates: beside two CPU hogs
 * two of the panel tests, each after the export test's download, waited out mocha's 120 s on a mouse click that never
 * returned (the call, not the wait after it). For a control whose handler is its `click` listener.
 */
export async function press(panel: Frame, selector: string): Promise<void> {
  await panel.$eval(selector, (b) => (b as HTMLElement).click());
}

/** The rows currently in the panel's DOM, top to bottom. */
export async function domRows(panel: Frame): Promise<DomRow[]> {
  const raw = await panel.$$eval('.tr:not([hidden])', (rows) => rows.map((r) => ({
    id: Number((r as HTMLElement).dataset.id),
    index: Number((r as HTMLElement).dataset.index),
    // The name cell: the twisty and the name, without the source label after it.
    texts: [...r.children].map((c) => (c.classList.contains('col-name')
      ? [...c.children].filter((x) => !x.classList.contains('src')).map((x) => x.textContent ?? '').join('')
      : c.textContent ?? '')),
    source: r.querySelector('.col-name .src')?.textContent ?? '',
  })));
  return raw.sort((a, b) => a.index - b.index).map((r) => ({
    id: r.id, index: r.index, source: r.source,
    cells: Object.fromEntries(COLS.map((c, i) => [c, r.texts[i]])) as DomRow['cells'],
  }));
}

/** "12 345" (thin-space grouped) or "7.5×" → number; "–" → NaN. */
export function num(text: string): number {
  const t = text.replace(/[\u2009\s×]/g, '');
  return t === '–' ? NaN : t === '<0.01' ? 0 : Number(t);
}

export async function waitForRows(panel: Frame, pred: (rows: DomRow[]) => boolean, what: string, timeout = 30_000): Promise<DomRow[]> {
  return waitFor(async () => {
    const rows = await domRows(panel);
    return pred(rows) ? rows : null;
  }, { what, timeout, interval: 50 });
}

export async function snapshot(page: Page | Frame): Promise<Snap> {
  return (await lc.snapshot(page)) as Snap;
}

export async function panelState<T>(panel: Frame, fn: string): Promise<T> {
  return panel.evaluate(`(() => { const s = globalThis.__panelState; return ${fn}; })()`) as Promise<T>;
}

/**
 * Stops the extension's service worker (as MV3 does when it is idle) by
 * closing its target, then lets the restarted worker run. HACK: puppeteer
 * auto-attaches to the new worker target, which then waits for a debugger
 * before running its script; a real browser has no such pause, so resume
 * it (`Runtime.runIfWaitingForDebugger`) as soon as it appears. The panel's
 * and content script's reconnects are what start it again. Resolves once the
 * new worker runs, with the `Date.now()` at which the old one was told to stop
 * (recovery times count from there, not from its return).
 */
export async function stopWorker(h: Harness): Promise<{ stoppedAt: number }> {
  // The old worker is marked, and "restarted" means a worker without the mark: a reconnect can start the worker again
  // so fast (a content script sending the panel its table) that neither an empty target list nor a target-destroyed
  // report is ever seen (a flake beside a CPU hog).
  await (await h.worker()).evaluate(() => { (globalThis as Record<string, unknown>).__lcOldWorker = true; });
  const session = await h.browser.target().createCDPSession();
  try {
    const isOurs = (t: { type: string; url: string }) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${h.extensionId}/`);
    const { targetInfos } = await session.send('Target.getTargets');
    const old = targetInfos.find(isOurs);
    if (!old) throw new Error('no service worker target');
    const stoppedAt = Date.now();
    await session.send('Target.closeTarget', { targetId: old.targetId });
    const list = async () => (await session.send('Target.getTargets')).targetInfos.filter(isOurs);
    await waitFor(async () => {
      for (const info of await list()) {
        const t = h.browser.targets().find((x) => (x as unknown as { _targetId: string })._targetId === info.targetId);
        if (!t) continue;
        const cdp = await t.createCDPSession();
        try {
          await cdp.send('Runtime.runIfWaitingForDebugger');
          const r = await cdp.send('Runtime.evaluate', { expression: 'globalThis.__lcOldWorker === true', returnByValue: true });
          if (r.result.value === false) return true;
        } finally {
          await cdp.detach().catch(() => undefined);
        }
      }
      return false;
    }, { what: 'a restarted worker', interval: 50 });
    return { stoppedAt };
  } finally {
    await session.detach().catch(() => undefined);
  }
}

/** The visible table row of component `id` (hidden pool rows keep stale ids). */
export const rowSel = (id: number): string => `.tr[data-id="${id}"]:not([hidden])`;

/** Hovers the panel row of component `id` with the real mouse of the DevTools window. */
export async function hoverRow(devtools: Page, panel: Frame, id: number): Promise<void> {
  const row = await panel.$(rowSel(id));
  if (!row) throw new Error(`no row for ${id}`);
  const box = await row.boundingBox();
  if (!box) throw new Error('row has no box');
  await devtools.mouse.move(box.x + 30, box.y + box.height / 2);
}
