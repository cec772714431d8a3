/**
 * The last few seconds of measured frames, each with its own attribution (issue 46): which components' own style,
 * layout and forced-reflow ms it held, which rendered and which mounted in the commits before it, and whose DOM changed. Event Timing and
 * `layout-shift` entries arrive after the paint; the interaction and shift books look back here for the frames they
 * span. Written only while those entries can be observed; a frame that held nothing is not kept.
 */
import { RecordKind } from '../../../protocol';
import type { CostSink } from '../pipeline/attribution';

/** Frames kept (≈ 4 s at 60 Hz): an interaction's entries come within a frame or two of its paint. */
export const FRAME_LOG_SIZE = 240;
/** Renders logged per frame at most (only while an input is recent: `inputRecent`). */
const MAX_IDS = 5000;
/**
 * Mounts logged per frame at most, the first (a subtree mounts parent first: the outermost, which a shift's cause is
 * looked for among). Logged in every frame: at 5 000 a page that remounts a 1 000-row list every 100 ms held 1.2 MB
 * of ids in the log's 240 frames (the soak's heap grew by that much in its first 24 s, docs/PERFORMANCE.md, memory).
 */
export const MAX_MOUNTS = 256;
/** Renders are logged this long after an input (`input`). */
const INPUT_WINDOW_MS = 1000;
/**
 * Changed owners logged per frame at most: a shift's cause is looked for among them, and a grid that changes hundreds
 * of cells a frame would otherwise pay a push per cell (the rest of the frame's owners are still in its shares).
 */
export const MAX_CHANGED = 64;
/**
 * Per-component shares kept per frame at most, the costliest: an interaction lists its 20 costliest components
 * (summed over its frames), a shift's cause is looked for among the costliest. Uncapped, a frame in which a whole grid
 * of 5 000 cells changed would keep 5 000 for its 240 frames. More while an input is recent: those frames are an
 * interaction's.
 */
export const MAX_SHARES = 64;
export const MAX_SHARES_INPUT = 256;

export interface LoggedFrame {
  /** The frame's animation time (the rAF timestamp): `layout-shift` entries carry it as their start time. */
  ts: number;
  /** When its style and layout ended (performance.now()). */
  end: number;
  /** When our frame loop next ran after it (performance.now(); 0 until it has): a later frame began by then. */
  next: number;
  styleMs: number;
  layoutMs: number;
  forcedMs: number;
  /** Per component (own shares): [id, styleMs, layoutMs, forcedMs] flat. */
  shares: number[];
  /** Components that rendered (again) in the commits since the previous frame, one id per render. */
  renders: number[];
  /** Components mounted since the previous frame. */
  mounts: number[];
  /** Components whose DOM changed for this frame (React's commits and page code alike): the attribution's owners. */
  changed: number[];
  /** Of those, the ones a React commit changed (the rest: page code outside React). */
  committed: number[];
  /** A web font finished loading since the previous frame. */
  fontSwap: boolean;
  /** The families of the fonts that did (at most 8, unquoted). */
  fontFamilies: string[];
}

export class FrameLog implements CostSink {
  private readonly frames: LoggedFrame[] = [];
  /** The frame being filled: renders, mounts and loads since the last measured frame, then its shares. */
  private open: LoggedFrame = blank();
  on = false;
  /**
   * Renders are logged only while an input is recent (from each pointerdown and keydown, observer.ts, until a frame
   * closes a second later): an interaction begins with one, and a page re-rendering on its own (a grid ticking every
   * frame) then costs nothing here.
   */
  inputRecent = false;
  private lastInput = 0;
  /** The last frame closed waits for `next`. */
  private awaitTick = false;

  /** An input came at `t` (performance.now()): renders are logged for the next second. */
  input(t: number): void {
    this.inputRecent = true;
    this.lastInput = t;
  }

  /**
   * Our frame loop ran at `t` (performance.now()), in a frame after the last one closed: that one's `next`. One test
   * per frame while nothing waits.
   */
  tick(t: number): void {
    if (!this.awaitTick) return;
    this.awaitTick = false;
    const f = this.frames[this.frames.length - 1];
    if (f !== undefined) f.next = t;
  }

  /**
   * CostSink: the attribution's Cost records of the frame being measured. Past the cap the shares are a min-heap on
   * their cost (style + layout + forced ms): one costlier than the cheapest kept replaces it.
   */
  write(kind: number, a: number, b = 0, c = 0, d = 0): void {
    if (kind !== RecordKind.Cost || a === 0) return;
    const s = this.open.shares;
    const full = (this.inputRecent ? MAX_SHARES_INPUT : MAX_SHARES) * 4;
    if (s.length < full) {
      s.push(a, b, c, d);
      if (s.length === full) heapify(s);
      return;
    }
    if (b + c + d <= s[1] + s[2] + s[3]) return;
    s[0] = a;
    s[1] = b;
    s[2] = c;
    s[3] = d;
    siftDown(s, 0);
  }

  rendered(id: number): void {
    if (this.inputRecent && this.on && this.open.renders.length < MAX_IDS) this.open.renders.push(id);
  }

  mounted(id: number): void {
    if (this.on && this.open.mounts.length < MAX_MOUNTS) this.open.mounts.push(id);
  }

  fontSwapped(families: readonly string[] = [], at = -1): void {
    if (!this.on) return;
    this.open.fontSwap = true;
    for (const f of families) if (this.open.fontFamilies.length < 8 && !this.open.fontFamilies.includes(f)) this.open.fontFamilies.push(f);
    if (at >= 0) {
      this.swaps.push({ at, families: this.open.fontFamilies.slice() });
      if (this.swaps.length > MAX_SWAPS) this.swaps.shift();
    }
  }

  /** The last few font swaps, when their events came (the page's clock). */
  private readonly swaps: { at: number; families: string[] }[] = [];

  /**
   * A frame that says only "a web font loaded" (the families of the swap whose event came nearest after `t`, within
   * `after` ms, or just before it), or null. The event may come after the frame that laid the text out in the new
   * font, and beside a CPU hog after the next frame we measured too.
   */
  fontSwapNear(t: number, before: number, after: number): LoggedFrame | null {
    let best: { at: number; families: string[] } | null = null;
    for (const w of this.swaps) if (w.at >= t - before && w.at <= t + after && (best === null || Math.abs(w.at - t) < Math.abs(best.at - t))) best = w;
    if (best === null) return null;
    const f = blank();
    f.fontSwap = true;
    f.fontFamilies = best.families;
    return f;
  }

  /**
   * Closes the frame just measured (its attribution written through `write`); `changed`: the owners whose DOM changed,
   * `byReact`: whether a React commit changed it.
   */
  close<E extends { id: number }>(ts: number, end: number, styleMs: number, layoutMs: number, forcedMs: number,
    changed: readonly E[], byReact: (e: E) => boolean = () => true): void {
    const f = this.open;
    for (let i = 0; i < changed.length && i < MAX_CHANGED; i++) {
      f.changed.push(changed[i].id);
      if (byReact(changed[i])) f.committed.push(changed[i].id);
    }
    if (this.inputRecent && end - this.lastInput > INPUT_WINDOW_MS) this.inputRecent = false;
    f.ts = ts;
    f.end = end;
    f.styleMs = styleMs;
    f.layoutMs = layoutMs;
    f.forcedMs = forcedMs;
    this.frames.push(f);
    if (this.frames.length > FRAME_LOG_SIZE) this.frames.shift();
    this.open = blank();
    this.awaitTick = true;
  }

  /** Frames that ended in [from, to], oldest first (looked for from the newest: the range is the last few frames). */
  between(from: number, to: number): LoggedFrame[] {
    const fs = this.frames;
    let i = fs.length;
    while (i > 0 && fs[i - 1].end > to) i--;
    let j = i;
    while (j > 0 && fs[j - 1].end >= from) j--;
    return fs.slice(j, i);
  }

  /** The frame whose measurement ended nearest `t` (within `slack` ms), or null. */
  at(t: number, slack: number): LoggedFrame | null {
    let best: LoggedFrame | null = null;
    for (const f of this.frames) if (Math.abs(f.end - t) <= slack && (best === null || Math.abs(f.end - t) < Math.abs(best.end - t))) best = f;
    return best;
  }

  /**
   * The frames a shift at `t` may belong to. Chrome stamps a `layout-shift` entry when the frame's pre-paint runs:
   * after every rAF callback of that frame, ours (the frame-end measurement) included, and before the next frame's.
   * So the shift's frame is the last one measured before `t`, unless our loop ran again before `t` (a later frame,
   * not logged, held it) or `t` came over `before` ms after it (a frame we never saw: the gap beside a CPU hog, or a
   * page callback after ours, is far shorter). Second, the first frame measured after `t`
   * within `after` ms: a layout forced earlier moved the nodes, and the next measured frame holds what changed.
   */
  around(t: number, before: number, after: number): [LoggedFrame | null, LoggedFrame | null] {
    let prev: LoggedFrame | null = null;
    let next: LoggedFrame | null = null;
    // From the newest: a shift is looked for within a second of its frame.
    const fs = this.frames;
    let i = fs.length - 1;
    while (i >= 0 && fs[i].end > t + 1) i--;
    if (i >= 0) prev = fs[i];
    if (i + 1 < fs.length && fs[i + 1].end <= t + after) next = fs[i + 1];
    if (prev !== null && (t - prev.end > before || (prev.next > 0 && prev.next <= t))) prev = null;
    return [prev, next];
  }

  clear(): void {
    this.frames.length = 0;
    this.swaps.length = 0;
    this.open = blank();
    this.inputRecent = false;
    this.awaitTick = false;
  }

  get size(): number {
    return this.frames.length;
  }
}

/** The cost of the share at quad `q` of a flat [id, style, layout, forced] list. */
function costAt(s: readonly number[], q: number): number {
  return s[4 * q + 1] + s[4 * q + 2] + s[4 * q + 3];
}

function swapQuads(s: number[], p: number, q: number): void {
  for (let k = 0; k < 4; k++) {
    const x = s[4 * p + k];
    s[4 * p + k] = s[4 * q + k];
    s[4 * q + k] = x;
  }
}

/** Restores the min-heap (on cost) below quad `q`. */
function siftDown(s: number[], q: number): void {
  const n = s.length / 4;
  for (;;) {
    const l = 2 * q + 1, r = l + 1;
    let m = q;
    if (l < n && costAt(s, l) < costAt(s, m)) m = l;
    if (r < n && costAt(s, r) < costAt(s, m)) m = r;
    if (m === q) return;
    swapQuads(s, q, m);
    q = m;
  }
}

function heapify(s: number[]): void {
  for (let q = Math.floor(s.length / 4 / 2) - 1; q >= 0; q--) siftDown(s, q);
}

/** Font swaps remembered by time (`fontSwapNear`). */
const MAX_SWAPS = 4;

function blank(): LoggedFrame {
  return { ts: 0, end: 0, next: 0, styleMs: 0, layoutMs: 0, forcedMs: 0, shares: [], renders: [], mounts: [], changed: [], committed: [], fontSwap: false, fontFamilies: [] };
}
