/**
 * When the canvas is redrawn after something changed (docs/OVERLAY.md, cadence). Pure: the controller keeps one timer
 * and asks these.
 */

import { NUMBERS_INTERVAL_MS, PLACE_INTERVAL_MS } from '../../../protocol/records';

/** Anything that moved — bounds, mounts, a scroll, a mode, pin or hover — is redrawn within this. */
export const RENDER_INTERVAL_MS = PLACE_INTERVAL_MS;
/**
 * A records batch that moved nothing (only costs and counts changed: the store's `geometry` stayed) is redrawn at most
 * this often, the sparkline's bucket: drawing more often only redraws the current bucket's maximum and figures that
 * change faster than anyone reads them. SPEC: meters follow layout with no more than one flush of lag — a batch that
 * moved something still takes RENDER_INTERVAL_MS. The agent hands such batches over at the same rate
 * (src/inject/agent/pipeline/pipeline.ts).
 */
export const NUMBERS_RENDER_MS = NUMBERS_INTERVAL_MS;

/** When a redraw asked for at `now` is due, the last one having run at `renderedAt` (performance.now() times). */
export function renderDue(now: number, renderedAt: number, numbersOnly: boolean): number {
  return numbersOnly ? Math.max(now + RENDER_INTERVAL_MS, renderedAt + NUMBERS_RENDER_MS) : now + RENDER_INTERVAL_MS;
}

/**
 * Whether a records batch draws in its own task rather than by `renderDue`'s timer: the last redraw was at least
 * RENDER_INTERVAL_MS ago. Numbers alone need no longer wait here: the agent hands such batches over at most every
 * NUMBERS_INTERVAL_MS (flush-cadence.ts), so they draw at that rate anyway, and a timer of their own (a setTimeout
 * costs the page 25–50 µs, docs/PERFORMANCE.md) drew each one 33 ms after it came, which pushed the next batch under
 * the interval too. Tasks of ours only: a redraw inside an input event's listeners would count in the page's
 * interaction time.
 */
export function batchDrawsNow(now: number, renderedAt: number): boolean {
  return now - renderedAt >= RENDER_INTERVAL_MS;
}

/** Whether the idle ticker draws (in its own task): nothing drew within the sparkline's bucket. */
export function tickDraws(now: number, renderedAt: number): boolean {
  return now - renderedAt >= NUMBERS_RENDER_MS;
}
