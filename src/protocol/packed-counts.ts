/**
 * A component's authored and rendered counts in one small integer (a V8 Smi, 4 B where two fields were 8), for the
 * agent's entry (registry.ts) and the content store's component (store.ts); each keeps the rare counts that do not
 * fit (an ancestor of a big page's content) elsewhere (docs/PERFORMANCE.md, state per component).
 */
const COUNT_BITS = 15;
/** The largest count that packs. */
export const MAX_PACKED_COUNT = 2 ** COUNT_BITS - 1;

/** authored | rendered << 15, or −1 when either is not a whole number from 0 to MAX_PACKED_COUNT. */
export function packCounts(authored: number, rendered: number): number {
  return authored >= 0 && rendered >= 0 && authored <= MAX_PACKED_COUNT && rendered <= MAX_PACKED_COUNT
    && (authored | 0) === authored && (rendered | 0) === rendered ? authored | (rendered << COUNT_BITS) : -1;
}

export function packedAuthored(packed: number): number {
  return packed & MAX_PACKED_COUNT;
}

export function packedRendered(packed: number): number {
  return packed >>> COUNT_BITS;
}
