/**
 * What the Preact adapter reads of Preact's own objects (issue 64). Preact mangles its private names when it builds
 * (`mangle.json`): the names below are the built ones, the same in Preact 10 and 11, each with the line that defines
 * it — `preact10:X#LN` is https://github.com/preactjs/preact/blob/10.29.8/X#LN, `preact11:X#LN` the same file on
 * main (11.0), where it differs. Every one of them is here; none is public API, and each is read defensively.
 */

/** `_children` → `__k` (preact10:mangle.json#L49): a vnode's children; on a render container, its root vnode. */
export const CHILDREN = '__k';
/** `_dom` → `__e` (preact10:mangle.json#L55): a vnode's first DOM node (an element vnode's element). */
export const DOM = '__e';
/** `_component` → `__c` (preact10:mangle.json#L56): a component vnode's instance. */
export const COMPONENT = '__c';
/** `_parent` → `__` (preact10:mangle.json#L60): a vnode's parent vnode. */
export const PARENT = '__';
/** `_vnode` → `__v` (preact10:mangle.json#L48): an instance's current vnode. */
export const VNODE = '__v';
/**
 * `_parentDom` → `__P` (preact10:mangle.json#L68): an instance's parent DOM node, set as it renders
 * (preact10:src/diff/index.js#L221) and set to null as it unmounts (preact10:src/diff/index.js#L668): a gone
 * instance. In Preact 11 also a portal's prop: its target (preact11:src/diff/index.js#L315).
 */
export const PARENT_DOM = '__P';

/**
 * `render` keeps the tree it rendered on the container, a Fragment around the app
 * (`parentDom._children = createElement(Fragment, null, [vnode])`, preact10:src/render.js#L35): a container is an
 * element with a vnode under `__k`, and that vnode's type is Preact's Fragment (preact10:src/create-element.js#L87).
 */
export interface VNode {
  type: unknown;
  props: Record<string, unknown> | string | null;
  key: unknown;
  __k: (VNode | null)[] | null;
  __e: unknown;
  __c: Instance | null;
  __: VNode | null;
  /** preact/compat 10's `createPortal` vnode: its target (preact10:compat/src/portals.js#L76). */
  containerInfo?: unknown;
}

/** A component instance (class or function: Preact makes one for each function component too, Fragments included). */
export interface Instance {
  __v: VNode | null;
  __P: unknown;
  props: unknown;
  constructor: unknown;
}

export function isVNode(v: unknown): v is VNode {
  return typeof v === 'object' && v !== null && 'type' in v && DOM in v && CHILDREN in v;
}

export function isInstance(v: unknown): v is Instance {
  return typeof v === 'object' && v !== null && VNODE in v && PARENT_DOM in v && 'props' in v;
}

const MAX_NAME = 200;

/** `displayName`, else the function or class name, else "Anonymous". */
export function componentName(type: unknown): string {
  try {
    if (typeof type === 'function') {
      const f = type as { displayName?: unknown; name?: unknown };
      if (typeof f.displayName === 'string' && f.displayName) return f.displayName.slice(0, MAX_NAME);
      if (typeof f.name === 'string' && f.name) return f.name.slice(0, MAX_NAME);
    }
  } catch {
    // A hostile getter: no name.
  }
  return 'Anonymous';
}
