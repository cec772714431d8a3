/**
 * What each component really changed since the last frame end, in the terms the engine pays for (issue 43): the
 * places ("sites") whose layout its changes dirtied, how many text nodes and new elements it brought, and how many
 * elements its changes restyle. A component is a cause only through DOM changes that can cost style or layout — a
 * render that changed nothing in the DOM never reaches this table.
 *
 * Three kinds of site, because the engine spends a relayout in different ways:
 *  - a *content* site (CHANGE_TEXT): text or children changed under it; its own content relayouts and the change
 *    spreads up to its relayout boundary (probes.ts measures that extent at the site's parent, which its siblings
 *    share: a grid's cells are one probe);
 *  - a *box* site (CHANGE_BOX): the element's own size may change (a width, a padding, a class whose rules move
 *    boxes, a layout animation); everything under it relayouts (probed at the element itself);
 *  - a *leaf* site (CHANGE_RESIZE): the same for an element with no child elements (a cell whose width changes): it
 *    resizes within the line or flow it sits in, grouped with its siblings like a content site.
 *
 * Per frame: the table is filled as commits, mutations and animations come, read once by the frame's weighing, then
 * cleared. Slots are reused frame after frame (a busy grid dirties hundreds of components a frame).
 */
import { CssIndex } from './css-index';
import { INTRINSIC_ATTRIBUTES, K_LAYOUT, K_STYLE, K_TREE, propertyKind, styleTextKind } from './css-kinds';

import { CHANGE_ADDED, CHANGE_BOX, CHANGE_FOREIGN, CHANGE_RESIZE, CHANGE_STYLE, CHANGE_STYLE_TREE, CHANGE_TEXT } from '../adapter';

/** Box, inserted and restyled-subtree sites kept per component and frame (a component changing hundreds keeps the first few). */
const MAX_SITES = 4;
/** Content sites kept per component and frame: each is laid out on its own (700 cells whose widths change are 700 relayouts). */
export const MAX_CONTENT_SITES = 256;

export interface CauseOwner {
  readonly id: number;
}

/** One component's causes in the frame. */
export class Slot<E extends CauseOwner = CauseOwner> {
  owner!: E;
  /** Content sites, distinct (the first MAX_CONTENT_SITES). */
  readonly content: Element[] = [];
  /** Leaves whose own size may change (the first MAX_CONTENT_SITES). */
  readonly leaves: Element[] = [];
  /** Content sites and leaves past MAX_CONTENT_SITES (counted with the last one kept: sites come in runs of siblings). */
  moreContent = 0;
  moreLeaves = 0;
  /** Box sites. */
  readonly boxes: Element[] = [];
  /** Inserted elements whose subtrees are new. */
  readonly added: Element[] = [];
  /** Sites whose subtree restyles. */
  readonly trees: Element[] = [];
  /** Elements restyled on their own. */
  styled = 0;
  /** CHANGE_* bits seen. */
  bits = 0;
  /** Whether the framework's commit reported any of it (else only other code's writes did). */
  committed = false;

  reset(owner: E): void {
    this.owner = owner;
    this.content.length = this.leaves.length = this.boxes.length = this.added.length = this.trees.length = 0;
    this.styled = this.bits = this.moreContent = this.moreLeaves = 0;
    this.committed = false;
  }

  /** Whether anything here can cost layout. */
  get layout(): boolean {
    return (this.bits & (CHANGE_TEXT | CHANGE_RESIZE | CHANGE_BOX | CHANGE_ADDED)) !== 0;
  }

  /** Whether anything here restyles. */
  get style(): boolean {
    return (this.bits & (CHANGE_STYLE | CHANGE_STYLE_TREE | CHANGE_ADDED)) !== 0;
  }
}

/** Keeps `el` unless it is the last one kept; false when the list is full (it is counted instead). */
function keepLast(list: Element[], el: Element): boolean {
  if (list.length > 0 && list[list.length - 1] === el) return true;
  if (list.length >= MAX_CONTENT_SITES) return false;
  list.push(el);
  return true;
}

function keep(list: Element[], el: Element): void {
  if (list.length >= MAX_SITES) return;
  for (const x of list) if (x === el) return;
  list.push(el);
}

export class Causes<E extends CauseOwner = CauseOwner> {
  /** This frame's slots, in the order their components first changed. */
  readonly slots: Slot<E>[] = [];
  private count = 0;
  private readonly byOwner = new Map<E, Slot<E>>();
  readonly css: CssIndex;

  constructor(sheets: () => Iterable<CSSStyleSheet>, now: () => number) {
    this.css = new CssIndex(sheets, now);
  }

  /** The frame's slots in use. */
  get length(): number {
    return this.count;
  }

  /** The slot of `owner` in this frame, if it has one. */
  of(owner: E): Slot<E> | undefined {
    return this.byOwner.get(owner);
  }

  private slot(owner: E): Slot<E> {
    let s = this.byOwner.get(owner);
    if (s) return s;
    s = this.slots[this.count];
    if (!s) this.slots.push((s = new Slot<E>()));
    this.count++;
    s.reset(owner);
    this.byOwner.set(owner, s);
    return s;
  }

  /** `how`: CHANGE_* bits at `site` (null: a change somewhere in the owner's DOM, where is not known). */
  add(owner: E, site: Element | null, how: number): void {
    const s = this.slot(owner);
    s.bits |= how;
    if ((how & CHANGE_FOREIGN) === 0) s.committed = true;
    if (site === null) return;
    // A site changed twice (its text and its class) is one site: the last one kept is the likeliest.
    if ((how & CHANGE_TEXT) !== 0 && !keepLast(s.content, site)) s.moreContent++;
    if ((how & CHANGE_RESIZE) !== 0 && !keepLast(s.leaves, site)) s.moreLeaves++;
    if ((how & CHANGE_BOX) !== 0) keep(s.boxes, site);
    if ((how & CHANGE_ADDED) !== 0) keep(s.added, site);
    if ((how & CHANGE_STYLE_TREE) !== 0) keep(s.trees, site);
    else if ((how & CHANGE_STYLE) !== 0) s.styled++;
  }

  /** An attribute of `el` changed from `before` to `after` (null: absent). */
  attribute(owner: E, el: Element, name: string, before: string | null, after: string | null, foreign = 0): void {
    if (before === after) return;
    let kind: number;
    if (name === 'class') kind = this.css.classChange(before ?? '', after ?? '');
    else if (name === 'style') kind = styleTextKind(before, after);
    else if (INTRINSIC_ATTRIBUTES.has(name)) kind = K_STYLE | K_LAYOUT;
    else kind = this.css.attributeChange(name, before, after);
    this.kind(owner, el, kind, foreign);
  }

  /** One inline style property of `el` changed (React writes them one by one). */
  styleProperty(owner: E, el: Element, name: string): void {
    this.kind(owner, el, propertyKind(name), 0);
  }

  /** `el` changed in the ways of `kind` (K_* bits of css-kinds.ts: an animation of such properties). */
  kind(owner: E, el: Element, kind: number, foreign: number): void {
    if (kind === 0) return;
    let how = foreign;
    if ((kind & K_STYLE) !== 0) how |= (kind & K_TREE) !== 0 ? CHANGE_STYLE_TREE : CHANGE_STYLE;
    // A leaf's subtree is its own text: it resizes within the line or flow it sits in (grouped with its siblings).
    if ((kind & K_LAYOUT) !== 0) how |= el.firstElementChild !== null ? CHANGE_BOX : CHANGE_RESIZE;
    this.add(owner, el, how);
  }

  /** After the frame's weighing: empty for the next frame. */
  clear(): void {
    this.byOwner.clear();
    for (let i = 0; i < this.count; i++) {
      const s = this.slots[i];
      s.content.length = s.leaves.length = s.boxes.length = s.added.length = s.trees.length = 0;
    }
    this.count = 0;
  }
}
