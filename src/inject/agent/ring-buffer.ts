/**
 * Fixed-stride record ring over one Float64Array (layout in
 * src/protocol/records.ts). Power-of-two capacity; when full the oldest
 * record is overwritten and counted as dropped. `write` allocates nothing.
 */
import { placesMeter, RECORD_STRIDE } from '../../protocol';

export class RingBuffer {
  readonly capacity: number;
  private readonly data: Float64Array;
  private readonly mask: number;
  /** Index of the oldest record (in records, not slots). */
  private head = 0;
  private size = 0;
  /** Records overwritten before they were drained, cumulative. */
  dropped = 0;
  /** A record that places a meter (PLACING_KINDS) was written since the last drain: hand the ring over sooner. */
  placing = false;

  constructor(capacityRecords: number) {
    if (capacityRecords < 1 || (capacityRecords & (capacityRecords - 1)) !== 0) {
      throw new RangeError(`ring capacity must be a power of two, got ${capacityRecords}`);
    }
    this.capacity = capacityRecords;
    this.mask = capacityRecords - 1;
    this.data = new Float64Array(capacityRecords * RECORD_STRIDE);
  }

  get length(): number {
    return this.size;
  }

  write(kind: number, a: number, b = 0, c = 0, d = 0, e = 0): void {
    let slot: number;
    if (this.size === this.capacity) {
      slot = this.head;
      this.head = (this.head + 1) & this.mask;
      this.dropped++;
    } else {
      slot = (this.head + this.size) & this.mask;
      this.size++;
    }
    if (placesMeter(kind)) this.placing = true;
    const o = slot * RECORD_STRIDE;
    const data = this.data;
    data[o] = kind;
    data[o + 1] = a;
    data[o + 2] = b;
    data[o + 3] = c;
    data[o + 4] = d;
    data[o + 5] = e;
  }

  /** Copies the pending records, oldest first, into a new buffer (to transfer) and empties the ring. */
  drain(): Float64Array {
    const out = new Float64Array(this.size * RECORD_STRIDE);
    const first = Math.min(this.size, this.capacity - this.head);
    out.set(this.data.subarray(this.head * RECORD_STRIDE, (this.head + first) * RECORD_STRIDE), 0);
    if (first < this.size) {
      out.set(this.data.subarray(0, (this.size - first) * RECORD_STRIDE), first * RECORD_STRIDE);
    }
    this.head = 0;
    this.size = 0;
    this.placing = false;
    return out;
  }

  clear(): void {
    this.head = 0;
    this.size = 0;
    this.placing = false;
  }
}
