/**
 * What each component really changed since the last frame end, in the terms the engine pays for (issue 43): the
 * places ("sites") whose layout its changes dirtied, how many text nodes and new elements it brought, and how many
 * elements its changes restyle. A component is a cause only through DOM changes that can cost style or layout — a
 * render that changed nothing in the DOM never reaches this table.
 *
 * Four kinds of site, because the engine spends a relayout in different ways:
 *  - a *text* site (CHANGE_TEXT): its text changed; it reshapes that text, relayouts its content, and the change
 *    spreads up to its relayout boundary (siblings share the way up: probes.ts measures a parent's changed children
 *    together);
 *  - a *children* site (CHANGE_CHILDREN): children were added or removed; it relayouts around them;
 *  - a *box* site (CHANGE_BOX): the element's own size may change (a width, a padding, a class whose rules move
 *    boxes, a layout animation); everything under it relayouts (probed at the element itself);
 *  - a *leaf* site (CHANGE_RESIZE): the same for an element with no child elements (a cell whose width changes): it
 *    resizes within the line or flow it sits in, grouped with its siblings like a content site.
 *
 * Per frame: the table is filled as commits, mutations and animations come, read once by the frame's weighing, then
 * cleared. Slots are reused frame after frame (a busy grid dirties hundreds of components a frame).
 */
import { CssIndex } from './css-index';
import { INTRINSIC_ATTRIBUTES, K_LAYOUT, K_STYLE, styleTextKind } from './css-kinds';

import { CHANGE_ADDED, CHANGE_BOX, CHANGE_CHILDREN, CHANGE_FOREIGN, CHANGE_RESIZE, CHANGE_STYLE, CHANGE_STYLE_TREE, CHANGE_TEXT, howOf } from '../adapter';

/** Box, inserted and restyled-subtree sites kept per component and frame (a component changing hundreds keeps the first few). */
const MAX_SITES = 4;
/** Content sites kept per component and frame: each is laid out on its own (700 cells whose widths change are 700 relayouts). */
export const MAX_CONTENT_SITES = 256;
/** Log entries and slots always kept for reuse. */
const KEPT_SLOTS = 256;

export interface CauseOwner {
  readonly id: number;
  /** The owner's bit flags: the table borrows one (`mark`, given by the owner's table) while the owner has a slot. */
  marks: number;
  /** The component it sits in (the registry's tree): owners of one place with different parents changed apart (weigh.ts). */
  readonly parent?: CauseOwner | null;
}

/**
 * A list of sites reused frame after frame: `n` in use, with each site's group key (its parent: given with the site,
 * or read by the frame's weighing, weigh.ts). A count, not the array's length: truncating an array costs more than
 * all the rest of a cause's bookkeeping (a busy grid's hundreds of changed cells a frame).
 */
export class Sites {
  readonly items: Element[] = [];
  readonly keys: (Element | null)[] = [];
  n = 0;

  /** Appends `el` unless it is the last one (a site changed twice); false when the list is full. */
  pushLast(el: Element, key: Element | null, max: number): boolean {
    const n = this.n;
    if (n > 0 && this.items[n - 1] === el) return true;
    if (n >= max) return false;
    this.items[n] = el;
    this.keys[n] = key;
    this.n = n + 1;
    return true;
  }

  /** Appends `el` once, while there is room. */
  pushOnce(el: Element, key: Element | null, max: number): void {
    const n = this.n;
    if (n >= max) return;
    for (let i = 0; i < n; i++) if (this.items[i] === el) return;
    this.items[n] = el;
    this.keys[n] = key;
    this.n = n + 1;
  }
}

/** How far past the last merged entry of the reference commit an owner's entry is looked for (`Causes.merged`). */
const ALIGN_WINDOW = 32;

/** A change `build` merged into its owner's first change at the same place (never a CHANGE_* combination). */
const MERGED = -1;

/** `Causes.alike` as the log grows: yes so far, no, or to be read from the DOM (a parent not given). */
const ALIKE_YES = 0, ALIKE_NOT = 1, ALIKE_UNKNOWN = 2;

/** The layout kinds a site is grouped by (weigh.ts): a change of at most one of them, and nothing else that weighs apart. */
const GROUPED = CHANGE_TEXT | CHANGE_CHILDREN | CHANGE_RESIZE;

/** Whether a change is weighed as its group's part alone (`Causes.build`): one grouped kind at most, no box, insertion or subtree. */
function isSingle(how: number): boolean {
  if ((how & (CHANGE_BOX | CHANGE_ADDED | CHANGE_STYLE_TREE)) !== 0) return false;
  const g = how & GROUPED;
  return (g & (g - 1)) === 0;
}

/** The CHANGE_* bits for which a change weighs one element restyled, and one relayout, in a frame whose changes are alike. */
export const STYLE_BITS = CHANGE_STYLE | CHANGE_STYLE_TREE | CHANGE_ADDED;
export const LAYOUT_BITS = CHANGE_TEXT | CHANGE_CHILDREN | CHANGE_RESIZE | CHANGE_BOX | CHANGE_ADDED;

/** A list never used: the slots' lists are made on first use (a busy grid's cells use one of six). */
const NONE = new Sites();

/** One component's causes in the frame. */
export class Slot<E extends CauseOwner = CauseOwner> {
  owner!: E;
  /** Elements whose text changed, distinct (the first MAX_CONTENT_SITES). */
  texts = NONE;
  /** Elements whose children were added or removed, distinct (the first MAX_CONTENT_SITES). */
  content = NONE;
  /** Leaves whose own size may change (the first MAX_CONTENT_SITES). */
  leaves = NONE;
  /** Sites past MAX_CONTENT_SITES (counted with the last one kept: sites come in runs of siblings). */
  moreTexts = 0;
  moreContent = 0;
  moreLeaves = 0;
  /** Box sites. */
  boxes = NONE;
  /** Inserted elements whose subtrees are new. */
  added = NONE;
  /** Sites whose subtree restyles. */
  trees = NONE;
  /** Elements restyled on their own. */
  styled = 0;
  /** CHANGE_* bits seen. */
  bits = 0;
  /** Whether the framework's commit reported any of it (else only other code's writes did). */
  committed = false;

  reset(owner: E): void {
    this.owner = owner;
    this.texts.n = this.content.n = this.leaves.n = this.boxes.n = this.added.n = this.trees.n = 0;
    this.styled = this.bits = this.moreTexts = this.moreContent = this.moreLeaves = 0;
    this.committed = false;
  }

  /** Whether anything here can cost layout. */
  get layout(): boolean {
    return (this.bits & (CHANGE_TEXT | CHANGE_CHILDREN | CHANGE_RESIZE | CHANGE_BOX | CHANGE_ADDED)) !== 0;
  }

  /** Whether anything here restyles. */
  get style(): boolean {
    return (this.bits & (CHANGE_STYLE | CHANGE_STYLE_TREE | CHANGE_ADDED)) !== 0;
  }
}

/**
 * The frame's table. Changes are logged as they come — four array writes each, nothing looked up: a busy grid's
 * commit logs thousands — and grouped into per-component slots only when the frame's weighing needs them (`build`):
 * a frame whose changes all sit under one parent (a grid's cells under their grid) is split evenly straight from the
 * log (`alike`). An owner whose change the framework's commit reported carries the table's bit in its marks until
 * the frame's end (`committed`).
 */
export class Causes<E extends CauseOwner = CauseOwner> {
  // The log.
  private readonly logOwners: E[] = [];
  private readonly logSites: (Element | null)[] = [];
  private readonly logHows: number[] = [];
  private readonly logKeys: (Element | null)[] = [];
  /** Each entry's owner's parent, read while the owner is at hand (the split of an alike frame reads no owner). */
  private readonly logParents: (CauseOwner | null)[] = [];
  private n = 0;
  /** Log entries used by recent frames (the largest, decaying by 1/16 a frame). */
  private recent = 0;
  /** The slots `build` made from the log, in the order their components first changed. */
  readonly slots: Slot<E>[] = [];
  private count = 0;
  private built = false;
  readonly css: CssIndex;

  /**
   * `mark` and `logged`: two bits of the owners' marks the owner's table leaves to this one, both set from an
   * owner's first change in the frame to the frame's end (`committed`, for the framework's changes; and "changed").
   */
  constructor(sheets: () => Iterable<CSSStyleSheet>, now: () => number, private readonly mark: number,
    private readonly logged: number) {
    this.css = new CssIndex(sheets, now);
  }

  /** Changes logged this frame. */
  get changes(): number {
    return this.n;
  }

  /** The slots `build` made. */
  get length(): number {
    return this.count;
  }

  /** Whether the framework's commit reported a change of `owner` this frame. */
  committed(owner: E): boolean {
    return (owner.marks & this.mark) !== 0;
  }

  /**
   * `how`: CHANGE_* bits at `site` (null: a change somewhere in the owner's DOM, where is not known). `key`: the site's
   * parent element when the caller knows it (the framework's tree does, without a DOM read), else undefined.
   */
  add(owner: E, site: Element | null, how: number, key?: Element | null): void {
    const k = key ?? null;
    const marks = owner.marks;
    const foreign = (how & CHANGE_FOREIGN) !== 0;
    if (!foreign && this.seq++ === 0) this.commitStart = this.n;
    // An owner's second change this frame: merged where its first lies, or a repeat for `build` to sort out.
    if ((marks & this.logged) === 0 || !this.merged(owner, site, how, k, foreign)) {
      const i = this.n++;
      this.logOwners[i] = owner;
      this.logSites[i] = site;
      this.logHows[i] = how;
      this.logKeys[i] = k;
      const parent = owner.parent ?? null;
      this.logParents[i] = parent;
      if (i === 0) this.firstParent = parent;
      else if (parent !== this.firstParent) this.oneParent = false;
      if ((how & STYLE_BITS) !== 0) this.styleN++;
      if ((how & LAYOUT_BITS) !== 0) this.layoutN++;
    }
    owner.marks = marks | this.logged | (foreign ? 0 : this.mark);
    this.grouped |= how & GROUPED;
    // `alike`, kept as the log grows while every parent is given (a commit's changes): no pass over the log for it.
    if (this.alikeSoFar !== ALIKE_NOT) {
      if ((how & (CHANGE_BOX | CHANGE_ADDED | CHANGE_STYLE_TREE)) !== 0) this.alikeSoFar = ALIKE_NOT;
      else if ((how & (CHANGE_TEXT | CHANGE_CHILDREN | CHANGE_RESIZE)) !== 0) {
        if (site === null) this.alikeSoFar = ALIKE_NOT;
        else if (k === null) this.alikeSoFar = ALIKE_UNKNOWN;
        else if (this.alikeKey === null) this.alikeKey = k;
        else if (k !== this.alikeKey) this.alikeSoFar = ALIKE_NOT;
      }
    }
  }

  /**
   * The same change as the reference commit made at this place of its walk (a busy grid's cell, ticked twice before
   * one frame) is one change for the engine: merged where it lies (true), no log entry and no repeat to sort out. Else
   * the owner is a repeat (`build`), known here where its record is at hand. Both commits report in the walk's order:
   * the owner's entry is looked for from just past the last one merged, a few places on (a cell that changed in one
   * tick and not in the other is a gap of one), not found by a look-up.
   */
  private merged(owner: E, site: Element | null, how: number, k: Element | null, foreign: boolean): boolean {
    if (!foreign && site !== null) {
      const end = Math.min(this.refEnd, this.cursor + ALIGN_WINDOW);
      for (let p = this.cursor; p < end; p++) {
        if (this.logOwners[p] !== owner) continue;
        if (this.logSites[p] !== site || !isSingle(this.logHows[p] | how)) break;
        const before = this.logHows[p], after = before | how;
        if ((before & STYLE_BITS) === 0 && (after & STYLE_BITS) !== 0) this.styleN++;
        if ((before & LAYOUT_BITS) === 0 && (after & LAYOUT_BITS) !== 0) this.layoutN++;
        this.logHows[p] = after;
        if (this.logKeys[p] === null) this.logKeys[p] = k;
        this.cursor = p + 1;
        return true;
      }
    }
    (this.repeats ??= new Set()).add(owner);
    return false;
  }

  /**
   * A framework commit ended. The next one's changes are compared, place by place, with the reference commit's
   * (`refStart` to `refEnd` in the log): the frame's largest commit so far whose changes were all new to the frame, so
   * that a header's one-line commit between two ticks of a grid does not stand in for the grid's.
   */
  commitEnd(): void {
    const seq = this.seq;
    if (seq > 0 && this.n - this.commitStart === seq && seq >= this.refEnd - this.refStart) {
      this.refStart = this.commitStart;
      this.refEnd = this.n;
    }
    this.cursor = this.refStart;
    this.seq = 0;
  }

  private refStart = 0;
  private refEnd = -1;
  /** Where the next change of a commit is looked for in the reference commit's entries. */
  private cursor = 0;
  /** Where the commit under way began logging, and how many changes it reported. */
  private commitStart = 0;
  private seq = 0;

  /** Owners that changed more than once this frame (null: none). */
  private repeats: Set<E> | null = null;

  /** What `add` knows of `alike` (ALIKE_*), and the one parent so far. */
  private alikeSoFar = ALIKE_YES;
  private alikeKey: Element | null = null;

  /**
   * Whether the frame's changes that can cost layout all sit under one parent, and none moves a box, inserts or
   * restyles a subtree: then each weighs alike and `logged` hands them over as they are.
   */
  alike(): boolean {
    if (this.alikeSoFar !== ALIKE_UNKNOWN) return this.alikeSoFar === ALIKE_YES;
    // A change whose parent was not given (other code's, the MutationObserver saw it): read from the DOM.
    let key: Element | null = null;
    for (let i = 0; i < this.n; i++) {
      const how = this.logHows[i];
      if ((how & (CHANGE_BOX | CHANGE_ADDED | CHANGE_STYLE_TREE)) !== 0) return false;
      const site = this.logSites[i];
      if ((how & (CHANGE_TEXT | CHANGE_CHILDREN | CHANGE_RESIZE)) === 0) continue;
      if (site === null) return false;
      const k = this.logKeys[i] ?? (this.logKeys[i] = site.parentElement ?? site);
      if (key === null) key = k;
      else if (k !== key) return false;
    }
    this.alikeKey = key;
    return true;
  }

  /** The one parent of the frame's grouped sites once `alike` said yes (null: none of its changes is grouped). */
  get aloneKey(): Element | null {
    return this.alikeKey;
  }

  /** The grouped kinds (CHANGE_TEXT, CHANGE_CHILDREN, CHANGE_RESIZE) among the frame's changes. */
  get groupedBits(): number {
    return this.grouped;
  }

  private grouped = 0;

  /** The log as it is: `i`'s owner and CHANGE_* bits (the same owner may come twice: the split adds its parts up). */
  loggedOwner(i: number): E {
    return this.logOwners[i];
  }

  loggedHow(i: number): number {
    return this.logHows[i];
  }

  /** The log's first `max` owners, in `out` (an owner logged twice comes twice, as in weigh.ts's alike weights). */
  firstOwners(max: number, out: E[]): E[] {
    const n = Math.min(max, this.n);
    for (let i = 0; i < n; i++) out[i] = this.logOwners[i];
    out.length = n;
    return out;
  }

  /** `i`'s owner's parent when it was logged. */
  loggedParent(i: number): CauseOwner | null {
    return this.logParents[i];
  }

  /** Log entries whose change restyles (STYLE_BITS), and whose change relayouts (LAYOUT_BITS): counted as they come. */
  get styleChanges(): number {
    return this.styleN;
  }

  get layoutChanges(): number {
    return this.layoutN;
  }

  /** The parent of every logged owner when they all have one and the same (a grid's cells), else undefined. */
  get soleParent(): CauseOwner | null | undefined {
    return this.n > 0 && this.oneParent ? this.firstParent : undefined;
  }

  private styleN = 0;
  private layoutN = 0;
  private firstParent: CauseOwner | null = null;
  private oneParent = true;

  /** Whether an owner logged this frame unmounted since (the registry says so: `ownerGone`). */
  get anyGone(): boolean {
    return this.gone;
  }

  /** An owner logged this frame unmounted. */
  ownerGone(): void {
    this.gone = true;
  }

  private gone = false;

  /**
   * Groups the log once a frame (issue 61). A component's one change of one grouped kind (a text, children, or a leaf's
   * size: a busy grid's cell, thousands a frame) needs no slot: it is listed as it is (`single`), and weighs its part
   * of its group (weigh.ts). The rest go into slots, one per component: several changes of one component, a box, an
   * insertion, a restyled subtree, a change of several kinds. Who changed more than once `add` found with the table's
   * second bit in the owners' marks: no map operation and no pass over the owners for it.
   */
  build(): void {
    if (this.built) return;
    this.built = true;
    const repeats = this.repeats;
    // Owners whose changes cannot merge into one single (a slot each), when some owner changed more than once.
    const slotted = repeats === null ? null : this.mergeRepeats(repeats);
    let byOwner: Map<E, Slot<E>> | null = null;
    let singles = 0;
    for (let i = 0; i < this.n; i++) {
      const how = this.logHows[i];
      if (how === MERGED) continue;
      const owner = this.logOwners[i];
      if ((slotted === null || !slotted.has(owner)) && isSingle(how) && this.logSites[i] !== null) {
        this.singles[singles++] = i;
        continue;
      }
      let s = byOwner === null ? undefined : byOwner.get(owner);
      if (s === undefined) {
        s = this.slots[this.count];
        if (!s) this.slots.push((s = new Slot<E>()));
        this.count++;
        s.reset(owner);
        (byOwner ??= new Map()).set(owner, s);
      }
      this.into(s, this.logSites[i], how, this.logKeys[i]);
    }
    this.singleCount = singles;
  }

  /**
   * A component that changed the same place more than once in a frame (two commits before one frame: a busy grid's
   * cells at every tick of a page slower than its ticks) changed it once for the engine: its later changes there are
   * merged into its first (MERGED), and it stays a single while the merged change is of one grouped kind. Returns the
   * owners left for slots (changes in several places, or of several kinds).
   */
  private mergeRepeats(repeats: Set<E>): Set<E> {
    const first = new Map<E, number>();
    const slotted = new Set<E>();
    for (let i = 0; i < this.n; i++) {
      const owner = this.logOwners[i];
      if (!repeats.has(owner) || slotted.has(owner)) continue;
      const f = first.get(owner);
      if (f === undefined) {
        first.set(owner, i);
        continue;
      }
      const how = this.logHows[f] | this.logHows[i];
      if (this.logSites[i] !== null && this.logSites[i] === this.logSites[f] && isSingle(how)) {
        this.logHows[f] = how;
        this.logHows[i] = MERGED;
      } else slotted.add(owner);
    }
    return slotted;
  }

  /** Log entries `build` left out of the slots (their indexes, the first `singleCount`): read with `logged…`. */
  readonly singles: number[] = [];
  singleCount = 0;

  loggedSite(i: number): Element | null {
    return this.logSites[i];
  }

  /** The parent element the site is grouped under: as logged, else read from the DOM (once). */
  loggedKey(i: number): Element {
    const k = this.logKeys[i];
    if (k !== null) return k;
    const site = this.logSites[i] as Element;
    return (this.logKeys[i] = site.parentElement ?? site);
  }

  private into(s: Slot<E>, site: Element | null, how: number, k: Element | null): void {
    s.bits |= how;
    if ((how & CHANGE_FOREIGN) === 0) s.committed = true;
    if (site === null) return;
    // A site changed twice (its text and its class) is one site: the last one kept is the likeliest.
    if ((how & CHANGE_TEXT) !== 0 && !(s.texts === NONE ? (s.texts = new Sites()) : s.texts).pushLast(site, k, MAX_CONTENT_SITES)) s.moreTexts++;
    if ((how & CHANGE_CHILDREN) !== 0 && !(s.content === NONE ? (s.content = new Sites()) : s.content).pushLast(site, k, MAX_CONTENT_SITES)) {
      s.moreContent++;
    }
    if ((how & CHANGE_RESIZE) !== 0 && !(s.leaves === NONE ? (s.leaves = new Sites()) : s.leaves).pushLast(site, k, MAX_CONTENT_SITES)) {
      s.moreLeaves++;
    }
    if ((how & CHANGE_BOX) !== 0) (s.boxes === NONE ? (s.boxes = new Sites()) : s.boxes).pushOnce(site, k, MAX_SITES);
    if ((how & CHANGE_ADDED) !== 0) (s.added === NONE ? (s.added = new Sites()) : s.added).pushOnce(site, k, MAX_SITES);
    if ((how & CHANGE_STYLE_TREE) !== 0) (s.trees === NONE ? (s.trees = new Sites()) : s.trees).pushOnce(site, k, MAX_SITES);
    else if ((how & CHANGE_STYLE) !== 0) s.styled++;
  }

  /** K_* bits (css-kinds.ts) of an attribute changing from `before` to `after` (null: absent). */
  attributeKind(name: string, before: string | null, after: string | null): number {
    if (before === after) return 0;
    if (name === 'class') return this.css.classChange(before ?? '', after ?? '');
    if (name === 'style') return styleTextKind(before, after);
    if (INTRINSIC_ATTRIBUTES.has(name)) return K_STYLE | K_LAYOUT;
    return this.css.attributeChange(name, before, after);
  }

  /** An attribute of `el` changed (other code's write the MutationObserver saw: `foreign`). */
  attribute(owner: E, el: Element, name: string, before: string | null, after: string | null, foreign = 0): void {
    const how = howOf(this.attributeKind(name, before, after), el.firstElementChild === null);
    if (how !== 0) this.add(owner, el, how | foreign);
  }

  /** `el` changed in the ways of `kind` (K_* bits of css-kinds.ts: an animation of such properties). */
  kind(owner: E, el: Element, kind: number): void {
    const how = howOf(kind, el.firstElementChild === null);
    if (how !== 0) this.add(owner, el, how);
  }

  /**
   * After the frame's weighing: empty for the next frame (the log and slots are used again). What recent frames did
   * not use is let go, with the elements it holds: a mount of 4 000 rows leaves no 4 000 log entries.
   */
  clear(): void {
    const mark = ~(this.mark | this.logged);
    for (let i = 0; i < this.n; i++) this.logOwners[i].marks &= mark;
    this.recent = Math.max(this.n, this.recent - (this.recent >> 4));
    if (this.logOwners.length > KEPT_SLOTS && this.logOwners.length > 2 * this.recent) {
      const keep = Math.max(KEPT_SLOTS, this.recent);
      this.logOwners.length = this.logSites.length = this.logHows.length = this.logKeys.length = this.logParents.length = keep;
      if (this.slots.length > keep) this.slots.length = keep;
      if (this.singles.length > keep) this.singles.length = keep;
    }
    this.n = 0;
    this.count = 0;
    this.singleCount = 0;
    this.built = false;
    this.alikeSoFar = ALIKE_YES;
    this.alikeKey = null;
    this.grouped = 0;
    this.repeats = null;
    this.gone = false;
    this.styleN = this.layoutN = 0;
    this.firstParent = null;
    this.oneParent = true;
    this.refStart = this.commitStart = this.cursor = this.seq = 0;
    this.refEnd = -1;
  }

  /** Lets go of every entry and slot and the elements they held (the agent stops). */
  release(): void {
    this.clear();
    this.logOwners.length = this.logSites.length = this.logHows.length = this.logKeys.length = this.logParents.length = 0;
    this.slots.length = this.singles.length = 0;
    this.recent = 0;
  }
}
