/**
 * Fixed-stride record ring over one Float64Array (layout in
 * src/protocol/records.ts). Power-of-two capacity; when full the oldest
 * record is overwritten and counted as dropped. `write` allocates nothing but
 * the ring itself, on the first write after `clear()`: off keeps no buffer.
 */
import { placesMeter, RECORD_STRIDE } from '../../protocol';

const EMPTY = new Float64Array(0);

export class RingBuffer {
  readonly capacity: number;
  /** Empty until written: `clear()` (the overlay turned off) gives the buffer back. */
  private data = EMPTY;
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
  }

  /** Bytes the ring holds now (0 until written, and after `clear()`). */
  get bytes(): number {
    return this.data.byteLength;
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
    let data = this.data;
    if (data.length === 0) data = this.data = new Float64Array(this.capacity * RECORD_STRIDE);
    data[o] = kind;
    data[o + 1] = a;
    data[o + 2] = b;
    data[o + 3] = c;
    data[o + 4] = d;
    data[o + 5] = e;
  }

  /** Copies the pending records, oldest first, into a new buffer (a large batch's: transferred) and empties the ring. */
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

  /**
   * Copies the pending records, oldest first, into a plain array (a small batch's: copied by the post) and empties the
   * ring. Appended by index, not `push`: no built-in the page may have replaced, and a packed array the post copies as
   * a whole.
   */
  drainToArray(): number[] {
    const n = this.size * RECORD_STRIDE;
    const out: number[] = [];
    const data = this.data;
    const end = this.capacity * RECORD_STRIDE;
    let o = this.head * RECORD_STRIDE;
    for (let i = 0; i < n; i++) {
      out[i] = data[o];
      if (++o === end) o = 0;
    }
    this.head = 0;
    this.size = 0;
    this.placing = false;
    return out;
  }

  /** Empties the ring and gives its buffer back (the next write takes a new one). */
  clear(): void {
    this.data = EMPTY;
    this.head = 0;
    this.size = 0;
    this.placing = false;
  }
}
