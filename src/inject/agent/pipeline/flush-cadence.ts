/**
 * When the agent hands its records to the content script (docs/ARCHITECTURE.md, cadence). Pure: the pipeline keeps one
 * timer and asks this at each frame's end.
 *
 * A batch costs both worlds about the same whatever it holds (the port's post and task, the content script's checks,
 * the store's version bump and the overlay's redraw request), so numbers alone — costs, counts, the frame — wait for
 * NUMBERS_INTERVAL_MS, the rate the overlay redraws them at anyway; anything that places a meter goes within
 * PLACE_INTERVAL_MS, and a ring half full goes at once.
 */
import { NUMBERS_INTERVAL_MS, PLACE_INTERVAL_MS } from '../../../protocol/records';

/** Milliseconds until the records are due (≤ 0: now), the last batch having gone at `lastFlush`. */
export function flushWait(now: number, lastFlush: number, ring: { placing: boolean; length: number; capacity: number }): number {
  if (ring.length * 2 >= ring.capacity) return 0;
  return (ring.placing ? PLACE_INTERVAL_MS : NUMBERS_INTERVAL_MS) - (now - lastFlush);
}
