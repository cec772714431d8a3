/**
 * String interning for records: names and keys travel once, records carry
 * their index. New strings since the last flush are shipped with it.
 */
import { MAX_STRING_LENGTH, MAX_STRINGS_PER_BATCH } from '../../../protocol';

/** Component names are few (one per component type); past this many, new ones are sent as `Anonymous`. */
const MAX_STRINGS = 1 << 16;

export class Interner {
  private index = new Map<string, number>();
  private pending: string[] = [];
  private base = 0;

  intern(s: string | null): number {
    if (s === null) return -1;
    const v = s.length > MAX_STRING_LENGTH ? s.slice(0, MAX_STRING_LENGTH) : s;
    const known = this.index.get(v);
    if (known !== undefined) return known;
    if (this.index.size >= MAX_STRINGS || this.pending.length >= MAX_STRINGS_PER_BATCH) return -1;
    const i = this.base + this.pending.length;
    this.index.set(v, i);
    this.pending.push(v);
    return i;
  }

  /** The strings added since the last call, and the index of the first. */
  take(): { strings: string[]; stringBase: number } {
    const out = { strings: this.pending, stringBase: this.base };
    this.base += this.pending.length;
    this.pending = [];
    return out;
  }

  /** Forget everything (the content script resets its table too). */
  reset(): void {
    this.index.clear();
    this.pending = [];
    this.base = 0;
  }
}

/**
 * Keys travel with the batch that mounts their component and are forgotten
 * after it: they are per instance (a feed of new items brings new keys
 * forever), so interning them would grow without bound.
 */
export class KeyBatch {
  private pending: string[] = [];

  add(key: string | null): number {
    if (key === null) return -1;
    this.pending.push(key.length > MAX_STRING_LENGTH ? key.slice(0, MAX_STRING_LENGTH) : key);
    return this.pending.length - 1;
  }

  take(): string[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }

  clear(): void {
    this.pending = [];
  }
}
