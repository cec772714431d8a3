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
