/**
 * Splits one frame's style and layout time among the components whose DOM
 * was dirtied since the previous frame, weighted by each dirtied subtree's
 * cached element count (at least 1, so a component whose count is not known
 * yet still gets a share). With no live component dirtied the frame goes to
 * `<page>` (id 0): document-level style changes, CSS animations, DOM no
 * component owns. Forced reflows arrive already per owner and are added to
 * the same Cost records; a forced reflow whose owner has unmounted since goes
 * to `<page>`. Writes self-cost records only: the content script rolls them
 * up to subtree-inclusive cost along the component tree.
 *
 * Per frame, not per event: runs once at frame end and allocates nothing.
 */
import { RecordKind } from '../../protocol';

export interface Dirtied {
  id: number;
  rendered: number;
}

/** Where Cost records go (the ring buffer in the agent; a recorder in tests). */
export interface CostSink {
  write(kind: number, a: number, b?: number, c?: number, d?: number): void;
}

const always = (): boolean => true;

/**
 * Writes the frame's Cost records. `forcedById` (owner id → forced ms since
 * the last frame) is consumed: it is empty on return.
 */
export function attribute(
  sink: CostSink, dirtied: readonly Dirtied[], styleMs: number, layoutMs: number, forcedById: Map<number, number>,
  isLive: (id: number) => boolean = always,
): void {
  let total = 0;
  let live = 0;
  for (const d of dirtied) {
    if (!isLive(d.id)) continue;
    total += Math.max(1, d.rendered);
    live++;
  }
  let pageForced = forcedById.get(0) ?? 0;
  forcedById.delete(0);
  // Forced reflows of components gone since: nobody owns that DOM any more.
  for (const [id, ms] of forcedById) {
    if (!isLive(id)) {
      pageForced += ms;
      forcedById.delete(id);
    }
  }
  if (live === 0) {
    if (styleMs > 0 || layoutMs > 0 || pageForced > 0) sink.write(RecordKind.Cost, 0, styleMs, layoutMs, pageForced);
  } else {
    for (const d of dirtied) {
      if (!isLive(d.id)) continue;
      const w = Math.max(1, d.rendered) / total;
      const forced = forcedById.get(d.id) ?? 0;
      if (forced !== 0) forcedById.delete(d.id);
      sink.write(RecordKind.Cost, d.id, styleMs * w, layoutMs * w, forced);
    }
    if (pageForced > 0) sink.write(RecordKind.Cost, 0, 0, 0, pageForced);
  }
  // Forced reflows of live components that were not dirtied this frame.
  for (const [id, ms] of forcedById) if (ms > 0) sink.write(RecordKind.Cost, id, 0, 0, ms);
  forcedById.clear();
}
