/**
 * Splits one frame's style and layout time among the components whose DOM
 * was dirtied since the previous frame, weighted by each dirtied subtree's
 * cached element count; with nothing dirtied the frame goes to `<page>`
 * (id 0). Forced reflows are already per owner. Writes self-cost records;
 * the content script rolls them up to subtree-inclusive cost.
 */
import { RecordKind } from '../../protocol';
import type { RingBuffer } from '../ring-buffer';

export interface Dirtied {
  id: number;
  rendered: number;
}

export function attribute(
  ring: RingBuffer, dirtied: readonly Dirtied[], styleMs: number, layoutMs: number, forcedById: Map<number, number>,
): void {
  let total = 0;
  for (const d of dirtied) total += Math.max(1, d.rendered);
  if (dirtied.length === 0) {
    if (styleMs > 0 || layoutMs > 0 || forcedById.has(0)) ring.write(RecordKind.Cost, 0, styleMs, layoutMs, forcedById.get(0) ?? 0);
  } else {
    for (const d of dirtied) {
      const w = Math.max(1, d.rendered) / total;
      const forced = forcedById.get(d.id) ?? 0;
      ring.write(RecordKind.Cost, d.id, styleMs * w, layoutMs * w, forced);
      if (forced) forcedById.delete(d.id);
    }
    const pageForced = forcedById.get(0);
    if (pageForced) ring.write(RecordKind.Cost, 0, 0, 0, pageForced);
  }
  // Forced reflows owned by components that were not dirtied this frame.
  for (const [id, ms] of forcedById) if (id !== 0 && ms > 0) ring.write(RecordKind.Cost, id, 0, 0, ms);
}
