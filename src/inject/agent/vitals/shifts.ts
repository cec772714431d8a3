/**
 * Layout shifts, per component (issue 46, docs/VITALS.md): from `layout-shift` entries without recent input, the
 * components whose DOM moved (each source node's owner) and the cause, in words: the component whose commit in that
 * frame mounted (or re-rendered and resized) DOM above or around the moved nodes, or, when nothing of React's
 * explains it, page code outside React, a web font's swap, or an image that loaded without dimensions. CLS in session
 * windows, as web-vitals computes it (a window closes after a 1 s gap or 5 s). Pure but for the lookups it is given.
 */
import { MAX_SHIFTED, MAX_SHIFTS, type ComponentRef, type LayoutShift, type ShiftCause } from '../../../protocol/vitals';
import type { FrameLog, LoggedFrame } from './frame-log';
import { clip, type VitalsLookup } from './interactions';

/** The fields of a LayoutShift entry we read. */
export interface ShiftEntry {
  value: number;
  startTime: number;
  hadRecentInput: boolean;
  sources?: readonly { node?: Node | null }[];
}

export interface ShiftLookup extends VitalsLookup {
  /** The component's first host element, null when it has none (or is gone). */
  hostOf(id: number): Element | null;
  /** The image above or around `node` that loaded last just before `t` (`imageLoadedAt`), or null. */
  imageLoadedAt(t: number, node: Node): Element | null;
  /** The nearest element above or around `node` whose own text is set in one of `families` (`fontUserAbove`), or null. */
  fontUserAbove?(families: readonly string[], node: Node): Element | null;
  /**
   * The framework whose adapter measures the component ('react', 'vue', 'preact'; absent: React). Vue's and Preact's
   * changes are the browser's records of their DOM, which do not say whether the framework or page code wrote it.
   */
  frameworkOf?(id: number): string | null;
}

/** Frameworks by adapter name, as a reason names them. */
const FRAMEWORK_NAMES: Record<string, string> = { react: 'React', vue: 'Vue', preact: 'Preact' };

/**
 * A shift's frame (FrameLog.around): the last one measured before its time, unless our loop ran again before it or
 * FRAME_BEFORE_MS passed with no frame of ours (Chrome stamps the entry at the frame's pre-paint, after every rAF
 * callback: a page callback behind ours, or the thread preempted beside a CPU hog, puts 30 ms and more between our
 * measurement and the stamp); else the first measured after it within FRAME_AFTER_MS (an earlier forced layout moved
 * the nodes; the next measured frame holds what changed before it).
 */
const FRAME_BEFORE_MS = 250;
/**
 * A frame measured this near before the shift is surely its own; one further back may be (a late stamp) or may be an
 * older frame, the shift's own not measured before it (the next one holds what changed): then the stronger cause of
 * the two wins (a mount over a change, a change over layout alone), the one before on a tie.
 */
const FRAME_SURE_MS = 20;
const FRAME_AFTER_MS = 500;
/** A font swap's event this long before a shift, or after it, may be what moved it. */
const FONT_BEFORE_MS = 100;
const FONT_AFTER_MS = 1500;
const FOLLOWING = 4; // Node.DOCUMENT_POSITION_FOLLOWING

/** `a` is above `b` in the page's order, or holds it. */
function aboveOrAround(a: Node, b: Node): boolean {
  if (a === b) return false;
  return a.contains(b) || (a.compareDocumentPosition(b) & FOLLOWING) !== 0;
}

interface Pending {
  value: number;
  time: number;
  /** The entry, whose sources (the moved nodes) are read only when the shift is built. */
  entry: ShiftEntry;
}

/** A shift whose frames are known (`settle`), its moved components and cause not looked for yet (`build`). */
interface Settled extends Pending {
  prev: LoggedFrame | null;
  next: LoggedFrame | null;
}

export class ShiftBook {
  readonly list: LayoutShift[] = [];
  /** Noted, their frames not looked for yet: the frame that holds what moved them may not be logged when they come. */
  pending: Pending[] = [];
  /** Their frames found, waiting for something to read them (`build`). */
  settled: Settled[] = [];
  private sessionValue = 0;
  private sessionFirst = 0;
  private sessionLast = 0;
  cls: number | null = null;

  /** Folds entries into CLS and keeps them for `settle`; true when any counted (no recent input). */
  note(entries: readonly ShiftEntry[]): boolean {
    let counted = false;
    for (const e of entries) {
      if (e.hadRecentInput) continue;
      const value = e.value, time = e.startTime;
      // Session windows, as web-vitals: within 1 s of the last shift and 5 s of the first, or a new window.
      if (this.sessionValue > 0 && time - this.sessionLast < 1000 && time - this.sessionFirst < 5000) {
        this.sessionValue += value;
      } else {
        this.sessionValue = value;
        this.sessionFirst = time;
      }
      this.sessionLast = time;
      if (this.cls === null || this.sessionValue > this.cls) this.cls = this.sessionValue;
      if (this.pending.length < MAX_SHIFTS) this.pending.push({ value, time, entry: e });
      counted = true;
    }
    return counted;
  }

  /** The noted shifts' frames, from the frame log as it is now (it forgets them after a few seconds); how many. */
  settle(log: FrameLog): number {
    const n = this.pending.length;
    for (const p of this.pending) {
      const [prev, next] = log.around(p.time, FRAME_BEFORE_MS, FRAME_AFTER_MS);
      (p as Settled).prev = prev;
      (p as Settled).next = next;
      this.settled.push(p as Settled);
    }
    this.pending = [];
    this.log = log;
    while (this.settled.length > MAX_SHIFTS) this.settled.shift();
    return n;
  }

  /**
   * The log the shifts were last settled against: a font swap whose event came after both frames is looked for there
   * when they are built.
   */
  private log: FrameLog | null = null;

  /** The settled shifts' moved components and causes; returns the new records. */
  build(lookup: ShiftLookup): LayoutShift[] {
    const out: LayoutShift[] = [];
    for (const p of this.settled) {
      // Its moved nodes still in the document (the attribution's `node` is null for one that is not).
      const nodes: Node[] = [];
      const sources = p.entry.sources;
      if (sources) for (let i = 0; i < sources.length; i++) {
        const n = sources[i].node;
        if (n && n.isConnected) nodes.push(n);
      }
      const shifted: ComponentRef[] = [];
      const ids = new Set<number>();
      for (const n of nodes) {
        const id = lookup.ownerOf(n);
        if (id > 0 && !ids.has(id) && shifted.length < MAX_SHIFTED) {
          ids.add(id);
          shifted.push({ id, name: clip(lookup.nameOf(id)) });
        }
      }
      // The frame before, else the one after; the document's images (a scan) only when neither frame explains it.
      const before = frameCause(p.prev, nodes, ids, lookup);
      const sure = p.prev !== null && p.time - p.prev.end <= FRAME_SURE_MS;
      const after = sure && before !== null ? null : frameCause(p.next, nodes, ids, lookup);
      const won = before === null || (!sure && after !== null && after.strength > before.strength) ? after : before;
      // Neither frame says why: a web font whose event came near it (after both frames, beside a CPU hog).
      const font = won === null && this.log !== null ? frameCause(this.log.fontSwapNear(p.time, FONT_BEFORE_MS, FONT_AFTER_MS), nodes, ids, lookup) : null;
      const cause = won?.cause ?? font?.cause ?? imageCause(nodes, lookup, p.time);
      const record: LayoutShift = { value: p.value, time: p.time, shifted, cause };
      this.list.push(record);
      out.push(record);
    }
    this.settled = [];
    while (this.list.length > MAX_SHIFTS) this.list.shift();
    return out;
  }

  /** Both: the noted shifts' frames, moved components and causes, against the frame log as it is now. */
  resolve(log: FrameLog, lookup: ShiftLookup): LayoutShift[] {
    this.settle(log);
    return this.build(lookup);
  }

  /** Both steps at once (tests). */
  add(entries: readonly ShiftEntry[], log: FrameLog, lookup: ShiftLookup): boolean {
    const counted = this.note(entries);
    this.resolve(log, lookup);
    return counted;
  }

  clear(): void {
    this.list.length = 0;
    this.pending = [];
    this.settled = [];
    this.sessionValue = 0;
    this.sessionFirst = 0;
    this.sessionLast = 0;
    this.cls = null;
  }
}

/**
 * Why the nodes moved, from what happened in their frame: a mount above or around them (no space reserved for it),
 * then a component whose own DOM changed above or around them (a re-render that resized, or page code writing its
 * DOM), then a moved component whose own DOM changed (it grew within itself), then a font swap (the moved text's own
 * component), then an image above or around them whose bytes arrived just before (its load event may come after the
 * frame: Resource Timing dates it).
 */
export function causeOf(frame: LoggedFrame | null, moved: readonly Node[], movedIds: ReadonlySet<number>, lookup: ShiftLookup,
  at: number): ShiftCause | null {
  return frameCause(frame, moved, movedIds, lookup)?.cause ?? imageCause(moved, lookup, at);
}

/** A frame's cause and how strong its evidence is: a mount (3), a change by a commit or page code (2), layout or a font (1). */
interface FrameCause {
  cause: ShiftCause;
  strength: number;
}

/** The cause in the frame's own log (mounts, DOM changes, a font swap), or null. */
function frameCause(frame: LoggedFrame | null, moved: readonly Node[], movedIds: ReadonlySet<number>, lookup: ShiftLookup): FrameCause | null {
  if (moved.length === 0) return null;
  const first = moved[0];
  const cause = (id: number, strength: number, reason: string): FrameCause => ({ cause: { id, name: clip(lookup.nameOf(id)), reason }, strength });
  if (frame !== null) {
    // What happened above the moved nodes comes before what holds them: a wrapper around everything changed too only
    // because something in it did.
    const order = (ids: Iterable<number>): number[] => {
      const above: number[] = [], around: number[] = [];
      for (const id of ids) {
        if (movedIds.has(id)) continue;
        const host = lookup.hostOf(id);
        if (host === null || host === first) continue;
        if (host.contains(first)) around.push(id);
        else if ((host.compareDocumentPosition(first) & FOLLOWING) !== 0) above.push(id);
      }
      return [...above, ...around];
    };
    // Mounted this frame (a subtree mounts parent first): no space was kept for it.
    const movedName = movedIds.size > 0 ? lookup.nameOf([...movedIds][0]) : 'the moved content';
    const mounted = order(frame.mounts);
    if (mounted.length > 0) return cause(mounted[0], 3, `mounted above ${movedName} without space reserved for it`);
    // Its own DOM changed this frame (a commit's or page code's changes: the attribution's owners), costliest first:
    // it re-rendered and resized, or page code outside React wrote its DOM (Vue's and Preact's records do not say which).
    const costs = new Map<number, number>();
    const s = frame.shares;
    for (let i = 0; i < s.length; i += 4) costs.set(s[i], (costs.get(s[i]) ?? 0) + s[i + 1] + s[i + 2] + s[i + 3]);
    const changed = order([...new Set([...frame.changed, ...costs.keys()])].sort((a, b) => (costs.get(b) ?? 0) - (costs.get(a) ?? 0)));
    const changedHow = (id: number): string | null => {
      const fw = lookup.frameworkOf?.(id) ?? 'react';
      // The framework's own writes and page code's are alike in Vue's and Preact's records (docs/FRAMEWORKS.md).
      if (fw !== 'react' && frame.changed.includes(id)) return `its DOM changed (by ${FRAMEWORK_NAMES[fw] ?? fw} or by page code)`;
      if (frame.committed.includes(id)) return 're-rendered';
      if (frame.changed.includes(id)) return 'its DOM was changed outside React (page code)';
      return null;
    };
    if (changed.length > 0) {
      const id = changed[0];
      const how = changedHow(id);
      return how === null ? cause(id, 1, `its DOM changed and was laid out again above ${movedName}`) : cause(id, 2, `${how} and changed size above ${movedName}`);
    }
    // Nothing above or around them changed, but a moved component's own DOM did, first in the document: it grew
    // within itself (a padding, a taller line), moving its own content and what follows it.
    let self = 0;
    for (const id of movedIds) {
      if (!frame.changed.includes(id)) continue;
      const host = lookup.hostOf(id);
      if (host === null) continue;
      const prev = self === 0 ? null : lookup.hostOf(self);
      if (prev === null || (host.compareDocumentPosition(prev) & FOLLOWING) !== 0) self = id;
    }
    if (self > 0) return cause(self, 2, `${changedHow(self)} and changed size, moving its own content and what follows it`);
    if (frame.fontSwap) {
      // The text set in the font that loaded, above the moved nodes (it changed size and pushed them), else the moved
      // text itself (set in it too).
      const user = frame.fontFamilies.length > 0 ? lookup.fontUserAbove?.(frame.fontFamilies, first) ?? null : null;
      const by = user === null ? 0 : lookup.ownerOf(user);
      if (by > 0 && !movedIds.has(by)) {
        return cause(by, 1, `a web font loaded (${frame.fontFamilies[0]}) and its text, laid out again in it, changed size above ${movedName}`);
      }
      const id = lookup.ownerOf(first);
      if (id > 0) return cause(id, 1, 'a web font loaded and its text was laid out again in the new font');
    }
  }
  return null;
}

/**
 * An image that arrived just before the shift, above or around the moved nodes (its load event may come after the
 * shift's frame; Resource Timing says when its bytes did), or null.
 */
function imageCause(moved: readonly Node[], lookup: ShiftLookup, at: number): ShiftCause | null {
  if (moved.length === 0) return null;
  const img = lookup.imageLoadedAt(at, moved[0]);
  const id = img === null ? 0 : lookup.ownerOf(img);
  return id > 0 ? { id, name: clip(lookup.nameOf(id)), reason: 'an image loaded without width and height reserved for it, above the moved content' } : null;
}

/** A CSS family name without its quotes: `"Late Font"` → `Late Font`. */
export function unquote(family: string): string {
  const t = family.trim();
  return /^(["']).*\1$/.test(t) ? t.slice(1, -1) : t;
}

/** Elements looked at, back from the moved nodes, for the text set in a font that just loaded. */
const FONT_SCAN = 3000;

/**
 * The nearest element before `first` in document order (or holding it) with text of its own set in one of `families`
 * (its computed font-family's first family), looking back from `first` through at most FONT_SCAN elements; null when
 * none is. Runs only for a shift in a frame in which a web font loaded (rare), after the layout (styles are clean).
 */
export function fontUserAbove(doc: Document, families: readonly string[], first: Node): Element | null {
  const view = doc.defaultView;
  if (view === null || doc.body === null || !doc.body.contains(first)) return null;
  const want = new Set(families.map((f) => f.toLowerCase()));
  const walker = doc.createTreeWalker(doc.body, 1 /* SHOW_ELEMENT */);
  walker.currentNode = first;
  // Backwards in document order: the previous siblings' subtrees (deepest last first), then the parent, and so on up.
  for (let n = walker.previousNode() as Element | null, k = 0; n !== null && k < FONT_SCAN; n = walker.previousNode() as Element | null, k++) {
    let text = false;
    for (let c = n.firstChild; c !== null && !text; c = c.nextSibling) text = c.nodeType === 3 && (c.nodeValue ?? '').trim() !== '';
    if (!text) continue;
    const family = view.getComputedStyle(n).fontFamily.split(',')[0] ?? '';
    if (want.has(unquote(family).toLowerCase())) return n;
  }
  return null;
}

/** Images loaded at most this long before a shift may have caused it. */
export const IMAGE_WINDOW_MS = 1000;

/**
 * The image above or around `first` whose bytes arrived last within IMAGE_WINDOW_MS before `t` (Resource Timing's
 * `responseEnd`), of the document's last 200 images; null when none did. The bytes are decoded, the element loaded and
 * the next frame laid out before the shift: beside a CPU hog that took over 500 ms once (vitals.test.ts).
 */
export function imageLoadedAt(doc: Document, perf: Performance, t: number, first: Node): Element | null {
  const images = doc.images;
  let best: Element | null = null;
  let bestEnd = -Infinity;
  for (let i = Math.max(0, images.length - 200); i < images.length; i++) {
    const img = images[i];
    if (!img.complete || !img.currentSrc || !aboveOrAround(img, first)) continue;
    const entries = perf.getEntriesByName(img.currentSrc, 'resource');
    const end = entries.length > 0 ? (entries[entries.length - 1] as PerformanceResourceTiming).responseEnd : -Infinity;
    if (end <= t && end >= t - IMAGE_WINDOW_MS && end > bestEnd) {
      best = img;
      bestEnd = end;
    }
  }
  return best;
}
