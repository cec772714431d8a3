/**
 * The seam between a UI framework and the pipeline. The pipeline never
 * touches a fiber or a vnode: an adapter turns its framework's commits into
 * calls on a ComponentSink and answers questions about components through
 * opaque handles. Each framework is a folder implementing this (react/, vue/);
 * adapters.ts puts the ones a page has behind one.
 */
import type { DebugHint } from '../../protocol/sources';

/** `ComponentSink.changed` bits. Text changed in the site (its own text nodes): it reshapes and relayouts. */
export const CHANGE_TEXT = 1;
/** The site's own box may change size: its subtree relayouts. */
export const CHANGE_BOX = 2;
/** The site restyles. */
export const CHANGE_STYLE = 4;
/** The site and its subtree restyle. */
export const CHANGE_STYLE_TREE = 8;
/** The site was inserted (or moved): its subtree is styled and laid out afresh. */
export const CHANGE_ADDED = 16;
/** The change came from code other than the framework's commit (the MutationObserver saw it). */
export const CHANGE_FOREIGN = 32;
/** The site is a leaf (no child elements) whose own size may change: it and the line or flow it sits in relayout. */
export const CHANGE_RESIZE = 64;
/** Children were added to or removed from the site: it relayouts around them. */
export const CHANGE_CHILDREN = 128;

/** `attributeKind`/`styleKind` bits: the change restyles the element. */
export const KIND_STYLE = 1;
/** It can move or resize boxes. */
export const KIND_LAYOUT = 2;
/** Its subtree restyles too (an inherited property; a selector that reads it above a combinator). */
export const KIND_TREE = 4;

/** CHANGE_* bits of a change of `kind` (KIND_* bits) on an element; `leaf`: it has no child elements. */
export function howOf(kind: number, leaf: boolean): number {
  if (kind === 0) return 0;
  let how = 0;
  if ((kind & KIND_STYLE) !== 0) how |= (kind & KIND_TREE) !== 0 ? CHANGE_STYLE_TREE : CHANGE_STYLE;
  // A leaf's subtree is its own text: it resizes within the line or flow it sits in (grouped with its siblings).
  if ((kind & KIND_LAYOUT) !== 0) how |= leaf ? CHANGE_RESIZE : CHANGE_BOX;
  return how;
}

/**
 * The pipeline's record of a mounted component, as an adapter holds it: the adapter keeps the reference its sink
 * returned and hands it back, so that a commit's calls reach the record without a look-up by id (a changed
 * component of a busy commit cost three Map look-ups before, docs/PERFORMANCE.md, own JS). Opaque but for its id.
 */
export interface ComponentRef {
  readonly id: number;
}

/** What an adapter reports to the pipeline. Calls with a component that was unmounted since are ignored. */
export interface ComponentSink {
  /**
   * A component instance appeared under `parent` (null: a root) and rendered once (its commit count starts at 1: no
   * `rendered` call for the mount); returns its record. `handle` is the adapter's own reference.
   */
  mount(handle: object, parent: ComponentRef | null, depth: number, name: string, key: string | null): ComponentRef;
  /** The instance is gone: the pipeline frees everything it held for it. */
  unmount(c: ComponentRef): void;
  /** The instance rendered again in this commit. */
  rendered(c: ComponentRef): void;
  /** Its subtree's host structure may have changed: recount authored and rendered. */
  structure(c: ComponentRef): void;
  /**
   * The framework changed DOM this component owns in a way that can cost style or layout (pipeline/causes.ts):
   * `how` is CHANGE_* bits at `site` (null: not known where); `parent` the site's parent element when the adapter
   * knows it without reading the DOM (a fiber's host parent). A render that changed nothing in the DOM calls nothing.
   */
  changed(c: ComponentRef, site: Element | null, how: number, parent?: Element | null): void;
  /**
   * What an attribute changing can do (`class` as the whole class list; null: absent), as KIND_* bits: read from the
   * page's style sheets. Pure.
   */
  attributeKind(name: string, before: string | null, after: string | null): number;
  /** What one inline style property changing can do (camelCase or kebab-case), as KIND_* bits. Pure. */
  styleKind(name: string): number;
  /** The handle of the component changed (e.g. the framework swapped double-buffered instances). */
  rehandle(c: ComponentRef, handle: object): void;
  /** The component's code was replaced in place (a hot update): its type, name and source are to be read again. */
  retyped?(c: ComponentRef): void;
  /** Called once at the end of every commit. */
  committed(): void;
}

export interface FrameworkAdapter {
  readonly name: string;
  /** Whether `handle` is one of this adapter's (a page may hold React and Vue: adapters.ts asks each). */
  claims?(handle: object): boolean;
  /** The other object the same component is known by, if any (React: a fiber's alternate), for a rebuild to keep its id. */
  twinOf?(handle: object): object | null;
  /**
   * Whether DOM changes under `node` are this adapter's to read (it observes them itself: the pipeline's own
   * MutationObserver leaves them alone). For a framework whose commits name no change (Vue), the browser's records are
   * its commits.
   */
  observes?(node: Node): boolean;
  /** Takes what the framework changed and has not reported yet, now (the frame's end, before the frame is weighed). */
  flush?(): void;
  /** Roots (React) or apps (Vue) mounted now, when the adapter counts them. */
  readonly roots?: number;
  /** Walk what is mounted now (back-fill), then report every commit to the sink. */
  attach(sink: ComponentSink): void;
  /** Stop reporting and drop every reference. */
  detach(): void;
  /**
   * The topmost host elements of a component's subtree (portals included), appended to `out`.
   * Returns true when some of them were reached through a portal: their DOM is then not under the
   * component's parent's DOM, and one of them may sit inside another (a portal into a sibling's element).
   */
  topHostNodes(handle: object, out: Element[]): boolean;
  /** True when a portal lies between the component and its parent component (its DOM is elsewhere). */
  portalAbove(handle: object): boolean;
  /**
   * The portals mounted now, each with its container, the component that rendered it (id, 0 if none),
   * its content's top host elements and the ids of the outermost components in its content (both arrays
   * are reused between calls: copy before keeping). `portalVersion` changes whenever a portal mounted or unmounted.
   */
  portals(visit: (container: Element, ownerId: number, tops: Element[], inner: number[]) => void): void;
  readonly portalVersion: number;
  readonly portalCount: number;
  /**
   * Host elements the component authored, subtree-inclusive. Child
   * components' totals come from `childAuthored(child)` so the walk stops
   * at them (null: unknown, walk into it).
   */
  authored(handle: object, childAuthored: (child: ComponentRef) => number | null): number;
  /** The component that owns a DOM node (nearest framework-created ancestor), or 0. */
  ownerOf(node: Node): number;
  /**
   * Reports now a commit the framework has applied to the DOM but not reported yet (React runs layout effects before
   * it tells the hook: a forced reflow in one lays out the commit's changes). Its report, when it comes, adds nothing.
   */
  catchUp?(): void;
  /** The component's own function or class (wrappers such as memo and forwardRef unwrapped), or null. Never calls it. */
  typeOf(handle: object): unknown;
  /** The key the component was rendered under (capped), or null. */
  keyOf(handle: object): string | null;
  /** The component's name, as its mount reported it. */
  nameOf(handle: object): string;
  /**
   * Where the framework's development build says the component's first element was created (docs/SOURCES.md), or
   * null. `stackOf` reads an Error's stack without running page code (null when it cannot).
   */
  debugOf?(handle: object, stackOf: (e: unknown) => string | null): DebugHint | null;
}
