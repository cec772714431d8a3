/**
 * Helpers for the timing e2e tests: the snapshot's shape as these tests read
 * it, waiting for a quiet page, driving the fixtures' `__work`, and Chrome's
 * trace as ground truth (TESTING.md): record a window between two
 * `performance.mark`s, then sum the renderer main thread's UpdateLayoutTree
 * (style) and Layout events inside it.
 */
import type { Page } from 'puppeteer-core';
import type { Snapshot, SnapshotComponent } from '../../src/protocol/snapshot';
import { lc, waitFor, type Harness } from './harness';

/** The public contract, declared once in src/protocol/snapshot.ts. */
export type Comp = SnapshotComponent;
export type Snap = Snapshot;

export const snap = async (page: Page): Promise<Snap> => (await lc.snapshot(page)) as Snap;
export const byName = (s: Snap, name: string): Comp[] => s.components.filter((c) => c.name === name);
export const one = (s: Snap, name: string): Comp => {
  const found = byName(s, name);
  if (found.length !== 1) throw new Error(`expected one ${name}, found ${found.length}`);
  return found[0];
};
export const log = (...args: unknown[]): void => console.log('    [timing]', ...args);

/** The snapshot once no frame has been measured for a while: the page is quiet. */
export async function settled(page: Page): Promise<Snap> {
  let last = -1;
  const s = await waitFor(async () => {
    const s = await snap(page);
    const quiet = s.frames.count === last;
    last = s.frames.count;
    return quiet ? s : null;
  }, { interval: 300, timeout: 15_000, what: 'a quiet page' });
  return s as Snap;
}

export async function openFixture(h: Harness, file: string): Promise<Page> {
  const page = await h.newPage(file);
  await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: 'fixture' });
  return page;
}

export async function enableAndFind(page: Page, name: string): Promise<void> {
  await lc.enable(page);
  await waitFor(async () => (await snap(page)).components.some((c) => c.name === name), { what: `component ${name}` });
}

/** Runs the fixture's `__work` until `frames` more frames were measured, then stops it. */
export async function runWork(page: Page, frames: number): Promise<void> {
  const start = (await snap(page)).frames.count;
  await page.evaluate(() => (window as any).__work.start());
  try {
    await waitFor(async () => (await snap(page)).frames.count >= start + frames, { timeout: 60_000, what: `${frames} frames` });
  } finally {
    await page.evaluate(() => (window as any).__work.stop());
  }
}

export interface TraceEvent {
  /** Thread (CPU) time of a complete event, µs, where Chrome records it. */
  tdur?: number;
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: { startTime?: number } } & Record<string, unknown>;
}

export const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'];

/** Runs `body` under page.tracing (TRACE_CATEGORIES unless given) and returns the events. */
export async function traced(page: Page, body: () => Promise<void>, categories = TRACE_CATEGORIES): Promise<TraceEvent[]> {
  await page.tracing.start({ categories });
  let raw: Uint8Array | undefined;
  try {
    await body();
  } finally {
    // Stopped whatever the body did; a failure in it is the test's (no `return` here: it would swallow the error).
    raw = await page.tracing.stop();
  }
  if (!raw) return [];
  const parsed = JSON.parse(new TextDecoder().decode(raw)) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  return Array.isArray(parsed) ? parsed : parsed.traceEvents ?? [];
}

export interface TraceWindow {
  pid: number;
  tid: number;
  /** Trace µs. */
  from: number;
  to: number;
}

/** The window between two marks, on the thread that made them (the page's renderer main thread). */
export function markWindow(events: readonly TraceEvent[], startMark: string, endMark: string): TraceWindow {
  const start = events.find((e) => e.name === startMark && e.cat.includes('user_timing'));
  const end = events.find((e) => e.name === endMark && e.cat.includes('user_timing'));
  if (!start || !end) throw new Error(`marks ${startMark}/${endMark} not in the trace`);
  return { pid: start.pid, tid: start.tid, from: start.ts, to: end.ts };
}

export interface StyleLayout {
  styleMs: number;
  layoutMs: number;
  styleEvents: number;
  layoutEvents: number;
}

/**
 * UpdateLayoutTree + Layout complete events inside the window on its thread,
 * outermost only (an event nested in another counted one is already in it).
 */
export function styleLayoutWithin(events: readonly TraceEvent[], w: TraceWindow): StyleLayout {
  const picked = events
    .filter((e) => e.ph === 'X' && (e.name === 'UpdateLayoutTree' || e.name === 'Layout') && e.pid === w.pid && e.tid === w.tid
      && e.ts >= w.from && e.ts <= w.to)
    .sort((a, b) => a.ts - b.ts);
  const out: StyleLayout = { styleMs: 0, layoutMs: 0, styleEvents: 0, layoutEvents: 0 };
  let coverEnd = -Infinity;
  for (const e of picked) {
    const dur = e.dur ?? 0;
    if (e.ts + dur <= coverEnd) continue;
    coverEnd = Math.max(coverEnd, e.ts + dur);
    if (e.name === 'Layout') {
      out.layoutMs += dur / 1000;
      out.layoutEvents++;
    } else {
      out.styleMs += dur / 1000;
      out.styleEvents++;
    }
  }
  return out;
}

/**
 * Wall time the thread spent off the CPU inside its tasks in the window (ms): each outermost RunTask's duration minus
 * its thread time. Beside a CPU hog the OS deschedules the renderer mid-task; a preemption that lands between two of
 * our clock reads but outside the trace's Layout event is in our figure only, and at most this much.
 */
export function offCpuWithin(events: readonly TraceEvent[], w: TraceWindow): number {
  let ms = 0;
  let coverEnd = -Infinity;
  const tasks = events
    .filter((e) => e.ph === 'X' && e.name === 'RunTask' && e.pid === w.pid && e.tid === w.tid && e.ts >= w.from && e.ts <= w.to)
    .sort((a, b) => a.ts - b.ts);
  for (const e of tasks) {
    const dur = e.dur ?? 0;
    if (e.ts + dur <= coverEnd) continue;
    coverEnd = e.ts + dur;
    if (typeof e.tdur === 'number') ms += Math.max(0, dur - e.tdur) / 1000;
  }
  return ms;
}
