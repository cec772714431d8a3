/**
 * A fixed ring of recent time spans in one Float64Array: the forced reflows
 * the wrappers timed, and our frame loop's callbacks, kept so that a Long
 * Animation Frame entry arriving later can be compared with what we measured
 * inside the same scripts. Writing allocates nothing; the oldest entry is
 * overwritten.
 *
 * A span that starts within `mergeGapMs` of the last entry's end joins it
 * (its duration is added; the gap is not): a layout-thrashing loop of a few
 * hundred write-then-read pairs in one long task is one entry, not a few
 * hundred that push the task's start out of the ring before its Long
 * Animation Frame entry arrives.
 *
 * Byte layout: SPAN_STRIDE = 3 float64 slots per entry — [start, end, summed duration].
 */
export const SPAN_STRIDE = 3;

export class SpanRing {
  private readonly data: Float64Array;
  private readonly mask: number;
  /** Entries ever written (the next slot is `written & mask`). */
  private written = 0;

  /** `mergeGapMs`: how close to the last entry's end a span must start to join it (by default none joins). */
  constructor(capacity: number, private readonly mergeGapMs = -Infinity) {
    if (capacity < 1 || (capacity & (capacity - 1)) !== 0) throw new RangeError(`capacity must be a power of two, got ${capacity}`);
    this.mask = capacity - 1;
    this.data = new Float64Array(capacity * SPAN_STRIDE);
  }

  get capacity(): number {
    return this.mask + 1;
  }

  push(start: number, duration: number): void {
    const d = this.data;
    if (this.written > 0) {
      const last = ((this.written - 1) & this.mask) * SPAN_STRIDE;
      if (start - d[last + 1] <= this.mergeGapMs) {
        d[last + 1] = Math.max(d[last + 1], start + duration);
        d[last + 2] += duration;
        return;
      }
    }
    const o = (this.written & this.mask) * SPAN_STRIDE;
    d[o] = start;
    d[o + 1] = start + duration;
    d[o + 2] = duration;
    this.written++;
  }

  /** Total duration of the entries that start within [from, to]. */
  sumWithin(from: number, to: number): number {
    const n = Math.min(this.written, this.capacity);
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const o = i * SPAN_STRIDE;
      const s = this.data[o];
      if (s >= from && s <= to) sum += this.data[o + 2];
    }
    return sum;
  }

  clear(): void {
    this.written = 0;
  }
}
