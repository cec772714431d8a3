/**
 * A fixed ring of recent time spans (start ms, duration ms) in one
 * Float64Array: the forced reflows the wrappers timed and the frame-end
 * flushes, kept so that a Long Animation Frame entry arriving later can be
 * compared with what we measured inside the same frame. Writing allocates
 * nothing; the oldest span is overwritten.
 *
 * Byte layout: SPAN_STRIDE = 2 float64 slots per span — [start, duration].
 */
export const SPAN_STRIDE = 2;

export class SpanRing {
  private readonly data: Float64Array;
  private readonly mask: number;
  /** Spans ever written (the next slot is `written & mask`). */
  private written = 0;

  constructor(capacity: number) {
    if (capacity < 1 || (capacity & (capacity - 1)) !== 0) throw new RangeError(`capacity must be a power of two, got ${capacity}`);
    this.mask = capacity - 1;
    this.data = new Float64Array(capacity * SPAN_STRIDE);
  }

  get capacity(): number {
    return this.mask + 1;
  }

  push(start: number, duration: number): void {
    const o = (this.written & this.mask) * SPAN_STRIDE;
    this.data[o] = start;
    this.data[o + 1] = duration;
    this.written++;
  }

  /** Total duration of the spans that start within [from, to]. */
  sumWithin(from: number, to: number): number {
    const n = Math.min(this.written, this.capacity);
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const o = i * SPAN_STRIDE;
      const s = this.data[o];
      if (s >= from && s <= to) sum += this.data[o + 1];
    }
    return sum;
  }

  clear(): void {
    this.written = 0;
  }
}
