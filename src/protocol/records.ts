/**
 * Bulk records: the MAIN-world agent writes fixed-stride records into a ring
 * of Float64 slots and hands the drained slice to the content script as a
 * transferred ArrayBuffer.
 *
 * Byte layout of one record (RECORD_STRIDE = 6 float64 slots, 48 bytes):
 *
 *   slot 0: kind (RecordKind)
 *   slot 1..5: kind-specific fields, documented on each kind below.
 *
 * Ids are positive integers assigned by the agent; 0 is the `<page>` bucket.
 * Strings (component names, keys) never go into the records: the agent
 * interns them and ships new strings beside the buffer, records carry the
 * string's index (-1 for none).
 */

export const RECORD_STRIDE = 6;

export const enum RecordKind {
  /**
   * id, parentId (-1 = none), depth, nameIdx (interned, see `strings`),
   * keyIdx (-1 = none): an index into the same batch's `keys`, which are not
   * interned — keys are per instance, and a feed of fresh keys must not grow a table.
   * A mount is its component's first render: its commit count is 1 until a record says otherwise.
   */
  Mount = 1,
  /** id */
  Unmount = 2,
  /**
   * id, commits (cumulative; −1 while the agent holds commit counts because nothing reads them: the receiver keeps
   * what it had), authored, rendered, portaledIn (elements of `rendered` that a portal owned by a component outside
   * this one's subtree placed in its DOM)
   */
  Stats = 3,
  /** id, x, y, width, height (viewport CSS px; width < 0 means no box) */
  Bounds = 4,
  /** frameNo, styleMs, layoutMs, forcedMs (forced reflows timed since the previous frame), startMs (performance.now() when the frame-end style flush began) */
  Frame = 5,
  /** id (0 = <page>), styleMs, layoutMs, forcedMs — self cost for the frame just recorded */
  Cost = 6,
  /** clears every component: sent before a full back-fill */
  Reset = 7,
  /** id, layer: the occluder (1-based, see Occluder) whose content holds the component; 0 = the page itself */
  Layer = 8,
  /**
   * index (0-based, bottom to top), x, y, width, height (viewport CSS px): something the page stacks over its
   * content (a dialog, menu or tooltip through a portal, the top layer). index −1: clear the list (sent first).
   */
  Occluder = 9,
  /** id, root (1/0): the component sits directly in a floating portal's content (a surface of its own) */
  Surface = 10,
  /**
   * Up to five components that rendered and whose other counts did not change: each slot is
   * `id × RENDERS_PACK + commits` (cumulative commits, as in Stats), or −1 for an empty slot. Exact in a float64
   * for ids below 2^31 and commits below RENDERS_PACK; a component past that goes out as a Stats record.
   */
  Renders = 11,
  /**
   * The same five slots as Renders, for commit counts the agent held back while nothing read them (no DevTools panel,
   * no recording; docs/PERFORMANCE.md, overlay on): the totals are current, but the renders are not this frame's —
   * a recording does not count them.
   */
  Commits = 12,
  /**
   * id, keyIdx (an index into the batch's `keys`, as in Mount): the key of a component that mounted while nothing
   * showed keys — the agent sends keys only while a DevTools panel or a recording reads them, and then the held ones
   * of every live component once (docs/PERFORMANCE.md, state per component).
   */
  Key = 13,
}

/**
 * The kinds that place a meter — where it is, whether it exists, what covers it — as a bit set over the kind numbers.
 * The rest (Stats, Frame, Cost, Renders, Commits) only change the numbers a meter shows: the agent hands those over
 * and the overlay redraws them at the slower numbers cadence (docs/ARCHITECTURE.md, cadence); the content store's
 * `geometry` counter moves for exactly these.
 */
export const PLACING_KINDS =
  (1 << RecordKind.Mount) | (1 << RecordKind.Unmount) | (1 << RecordKind.Bounds) | (1 << RecordKind.Reset)
  | (1 << RecordKind.Layer) | (1 << RecordKind.Occluder) | (1 << RecordKind.Surface);

/** Whether a record of `kind` places a meter (PLACING_KINDS). */
export function placesMeter(kind: number): boolean {
  return Number.isInteger(kind) && kind > 0 && kind < 31 && ((PLACING_KINDS >> kind) & 1) === 1;
}

/**
 * Cadences both worlds keep (docs/ARCHITECTURE.md, cadence): what places a meter reaches the overlay and is drawn
 * within PLACE_INTERVAL_MS (SPEC: meters follow layout with no more than one flush of lag); numbers alone are handed
 * over and redrawn at most every NUMBERS_INTERVAL_MS, the sparkline's bucket, faster than anyone reads them.
 */
export const PLACE_INTERVAL_MS = 33;
export const NUMBERS_INTERVAL_MS = 100;

/**
 * A batch of at most this many records goes to the content script as a plain array of numbers, copied by the post; a
 * larger one as a transferred buffer. A transfer costs more than copying a few hundred bytes: the buffer's allocation
 * and the transfer itself took about 70 µs a batch more than the copy on the demo's 10 % grid (most batches hold 2 to
 * 10 records; docs/PERFORMANCE.md, "Thirty-sixth session").
 */
export const MAX_COPIED_RECORDS = 128;

/** The multiplier that packs a component id and its commit count into one Renders slot (2^21). */
export const RENDERS_PACK = 2 ** 21;

export const RECORD_KIND_NAMES: Record<number, string> = {
  1: 'Mount',
  2: 'Unmount',
  3: 'Stats',
  4: 'Bounds',
  5: 'Frame',
  6: 'Cost',
  7: 'Reset',
  8: 'Layer',
  9: 'Occluder',
  10: 'Surface',
  11: 'Renders',
  12: 'Commits',
  13: 'Key',
};

/** Upper bound on records the content script accepts in one batch. */
export const MAX_RECORDS_PER_BATCH = 1 << 18;
/** Upper bound on strings in one batch, and on each string's length. */
export const MAX_STRINGS_PER_BATCH = 1 << 16;
export const MAX_STRING_LENGTH = 512;

/**
 * Human-readable decoding for tests and debugging:
 * `Mount 3 parent=1 depth=2 name="Cell" key="k4"`.
 */
export function toLines(data: Float64Array, strings: readonly string[] = [], keys: readonly string[] = []): string[] {
  const lines: string[] = [];
  const str = (i: number): string => (i >= 0 && i < strings.length ? JSON.stringify(strings[i]) : `#${i}`);
  const key = (i: number): string => (i >= 0 && i < keys.length ? JSON.stringify(keys[i]) : `#${i}`);
  for (let o = 0; o + RECORD_STRIDE <= data.length; o += RECORD_STRIDE) {
    const kind = data[o];
    const a = data[o + 1], b = data[o + 2], c = data[o + 3], d = data[o + 4], e = data[o + 5];
    switch (kind) {
      case RecordKind.Mount:
        lines.push(`Mount ${a} parent=${b} depth=${c} name=${str(d)}${e >= 0 ? ` key=${key(e)}` : ''}`);
        break;
      case RecordKind.Unmount:
        lines.push(`Unmount ${a}`);
        break;
      case RecordKind.Stats:
        lines.push(`Stats ${a} commits=${b} authored=${c} rendered=${d}${e > 0 ? ` portaledIn=${e}` : ''}`);
        break;
      case RecordKind.Bounds:
        lines.push(d < 0 ? `Bounds ${a} none` : `Bounds ${a} ${b},${c} ${d}x${e}`);
        break;
      case RecordKind.Frame:
        lines.push(`Frame ${a} style=${b.toFixed(2)} layout=${c.toFixed(2)} forced=${d.toFixed(2)}`);
        break;
      case RecordKind.Cost:
        lines.push(`Cost ${a} style=${b.toFixed(2)} layout=${c.toFixed(2)} forced=${d.toFixed(2)}`);
        break;
      case RecordKind.Reset:
        lines.push('Reset');
        break;
      case RecordKind.Layer:
        lines.push(`Layer ${a} ${b}`);
        break;
      case RecordKind.Occluder:
        lines.push(a < 0 ? 'Occluder clear' : `Occluder ${a} ${b},${c} ${d}x${e}`);
        break;
      case RecordKind.Surface:
        lines.push(`Surface ${a} ${b ? 'root' : 'none'}`);
        break;
      case RecordKind.Renders:
      case RecordKind.Commits:
        lines.push(`${kind === RecordKind.Renders ? 'Renders' : 'Commits'} ${[a, b, c, d, e].filter((v) => v >= 0).map((v) => {
          const id = Math.floor(v / RENDERS_PACK);
          return `${id}:${v - id * RENDERS_PACK}`;
        }).join(' ')}`);
        break;
      case RecordKind.Key:
        lines.push(`Key ${a} ${key(b)}`);
        break;
      default:
        lines.push(`Unknown(${kind})`);
    }
  }
  return lines;
}
