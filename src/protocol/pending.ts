/**
 * Requests that wait for an answer by number (a hit test, an experiment, a screenshot): each gets the next number,
 * its answer settles it once, and one that is not answered in time settles with the fallback. The numbers are
 * per table, so a late or forged answer to a number not waited on does nothing.
 */
export class Pending<T> {
  private seq = 0;
  private readonly waiters = new Map<number, (value: T) => void>();

  /** Sends request number `n` with `send(n)`; resolves with its answer, or `fallback` after `timeoutMs`. */
  ask(send: (n: number) => void, timeoutMs: number, fallback: () => T): Promise<T> {
    const n = ++this.seq;
    return new Promise<T>((resolve) => {
      const timer = setTimeout(() => {
        if (this.waiters.delete(n)) resolve(fallback());
      }, timeoutMs);
      this.waiters.set(n, (value) => {
        clearTimeout(timer);
        resolve(value);
      });
      send(n);
    });
  }

  /** The answer to request `n`: false when nothing waits for it (answered already, timed out, or never asked). */
  settle(n: number, value: T): boolean {
    const w = this.waiters.get(n);
    if (!w) return false;
    this.waiters.delete(n);
    w(value);
    return true;
  }

  get size(): number {
    return this.waiters.size;
  }
}
