/**
 * Which rows of the component table the panel already has. While a panel is
 * connected the feed sends the table twice a second; most components of a
 * big tree did not change in between, and serialising 4 900 whole rows each
 * time cost 12 % of the page's busy time on StressGrid (bench/panel-open.ts,
 * docs/PERFORMANCE.md). So each update after the first carries the rows of
 * new components, the values of rows whose fingerprint changed and the ids
 * that went; a whole table goes out when a panel connects, when it asks (it
 * missed an update), when names or sources changed, and every WHOLE_EVERY
 * updates regardless.
 *
 * The fingerprint is one 32-bit number per component, kept only while a panel
 * is connected. Each step `h = (h ^ v) · odd` is a bijection of h, so a row
 * whose only change is one field always gets a new fingerprint; two fields
 * changing together collide with odds of 2⁻³², and the next whole table
 * mends that.
 */

/** A whole table at least this often (updates): 10 s at the feed's two a second. */
export const WHOLE_EVERY = 20;

/** Whole µs: what the fingerprint and the values see of a ms figure. */
const micros = (ms: number): number => Math.round(ms * 1000);

/**
 * What a row shows that can change while its component stays mounted (ms to the µs). `typeId`: its type, which names
 * it once the type's source is found (typed after the mount; a type found before keeps the source book's version).
 */
export function rowFingerprint(
  styleMs: number, layoutMs: number, forcedMs: number, lastFrameMs: number,
  authored: number, rendered: number, portaledIn: number, commits: number, typeId: number,
): number {
  let h = Math.imul(0x811c9dc5 ^ typeId, 0x01000193);
  h = Math.imul(h ^ micros(styleMs), 0x01000193);
  h = Math.imul(h ^ micros(layoutMs), 0x01000193);
  h = Math.imul(h ^ micros(forcedMs), 0x01000193);
  h = Math.imul(h ^ micros(lastFrameMs), 0x01000193);
  h = Math.imul(h ^ authored, 0x01000193);
  h = Math.imul(h ^ rendered, 0x01000193);
  h = Math.imul(h ^ portaledIn, 0x01000193);
  return Math.imul(h ^ commits, 0x01000193);
}

export const enum RowChange {
  Same = 0,
  New = 1,
  Changed = 2,
}

/** A value as `TableMessage.values` carries it: ms to the µs (a shorter number to serialise; the panel shows 0.01). */
export const toMicros = (ms: number): number => micros(ms) / 1000;

export class TableDiff {
  /** The fingerprint of each row the panel has; null: it has none (send a whole table). */
  private sent: Map<number, number> | null = null;
  private seqNo = 0;
  private sinceWhole = 0;
  private version = -1;
  /** This update: whole, and its sequence number. */
  whole = true;
  seq = 0;

  /** The panel went away or asked for a whole table: the next update is whole (and the table is freed meanwhile). */
  reset(): void {
    this.sent = null;
  }

  /**
   * Starts an update. `version` counts what changes every row's name or source (the source book's): when it moved,
   * the update is whole.
   */
  begin(version: number): void {
    this.sinceWhole++;
    this.whole = this.sent === null || this.sinceWhole >= WHOLE_EVERY || version !== this.version;
    this.version = version;
    if (this.whole) {
      this.sent = new Map();
      this.sinceWhole = 0;
    }
    this.seq = ++this.seqNo;
  }

  /**
   * How the row of `id` goes into this update: SAME (not at all), NEW (the whole row: the panel does not have it) or
   * CHANGED (its values only). Its fingerprint is recorded as sent.
   */
  changed(id: number, fingerprint: number): RowChange {
    const sent = this.sent as Map<number, number>;
    const had = sent.get(id);
    if (had === fingerprint) return RowChange.Same;
    sent.set(id, fingerprint);
    return had === undefined ? RowChange.New : RowChange.Changed;
  }

  /**
   * Ends an update: the ids the panel has that are no longer live. `visited` is how many rows this update looked at;
   * when the table holds more, some went (the look through them runs only then).
   */
  removed(visited: number, live: (id: number) => boolean): number[] {
    const sent = this.sent as Map<number, number>;
    const out: number[] = [];
    if (this.whole || sent.size <= visited) return out;
    for (const id of sent.keys()) {
      if (live(id)) continue;
      sent.delete(id);
      out.push(id);
    }
    return out;
  }

  /** Rows the panel has (tests and diagnostics). */
  get size(): number {
    return this.sent?.size ?? 0;
  }
}
