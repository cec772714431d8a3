/**
 * What the Vue adapter reads of Vue 3's own objects. None of it is public API: every name is here, each with the line
 * of Vue's source that defines it — `vue:X#LN` is https://github.com/vuejs/core/blob/v3.5.41/packages/X#LN (the same
 * in 3.5.45, which the fixtures pin) — and read defensively (a page's own objects may be anything).
 * docs/FRAMEWORKS.md says what each build has.
 */


/** `rootContainer.__vue_app__ = app` when an app mounts, in every build (vue:runtime-core/src/apiCreateApp.ts#L403). */
export const APP_KEY = '__vue_app__';
/**
 * `container._vnode = vnode`: the root vnode a container renders, every build
 * (vue:runtime-core/src/renderer.ts#L2437).
 */
export const ROOT_VNODE_KEY = '_vnode';
/**
 * Development builds (or `__VUE_PROD_DEVTOOLS__`): the component that rendered an element, on the element
 * (vue:runtime-core/src/renderer.ts#L723). Production builds have no link from an element to a component.
 */
export const PARENT_COMPONENT_KEY = '__vueParentComponent';

/** ShapeFlags (vue:shared/src/shapeFlags.ts#L2). */
export const SHAPE_ELEMENT = 1;
export const SHAPE_FUNCTIONAL = 1 << 1;
export const SHAPE_STATEFUL = 1 << 2;
export const SHAPE_ARRAY_CHILDREN = 1 << 4;
export const SHAPE_TELEPORT = 1 << 6;
export const SHAPE_SUSPENSE = 1 << 7;
export const SHAPE_COMPONENT = SHAPE_STATEFUL | SHAPE_FUNCTIONAL;

/** A fragment's vnode type: a symbol all copies of Vue share (`Symbol.for`; vue:runtime-core/src/vnode.ts#L64). */
export const FRAGMENT = Symbol.for('v-fgt');
/** Static content the compiler hoisted: its nodes run from `el` to `anchor` (vue:runtime-core/src/vnode.ts#L72). */
export const STATIC = Symbol.for('v-stc');

/**
 * A vnode (vue:runtime-core/src/vnode.ts#L148): `type` L163, `key` L165, `children` L180, `component` L181, `el` L186,
 * `anchor` L188, `target` L189, `suspense` L199, `shapeFlag` L210.
 */
export interface VNode {
  type: unknown;
  key: unknown;
  children: unknown;
  component: Instance | null;
  el: unknown;
  anchor: unknown;
  /** A teleport's target container. */
  target: unknown;
  suspense: { activeBranch: VNode | null } | null;
  shapeFlag: number;
  props: Record<string, unknown> | null;
}

/**
 * A component instance (vue:runtime-core/src/component.ts#L327): `uid` L327, `type` L328, `parent` L329, `vnode` L335,
 * `subTree` L344, `isUnmounted` L521, `isDeactivated` L522 (a `<KeepAlive>`'s cached, inactive child).
 */
export interface Instance {
  uid: number;
  type: unknown;
  parent: Instance | null;
  vnode: VNode;
  subTree: VNode | null;
  isUnmounted: boolean;
  isDeactivated: boolean;
}

/**
 * A component's names: `name` (vue:runtime-core/src/componentOptions.ts#L146), the SFC compiler's `__name`
 * (vue:runtime-core/src/component.ts#L222).
 */
export interface ComponentType {
  name?: unknown;
  __name?: unknown;
  /** Development builds: the SFC's file on disk. */
  __file?: unknown;
  setup?: unknown;
  render?: unknown;
  /** `<Teleport>` (vue:runtime-core/src/components/Teleport.ts#L80). */
  __isTeleport?: unknown;
  /** `<KeepAlive>` (vue:runtime-core/src/components/KeepAlive.ts#L85). */
  __isKeepAlive?: unknown;
}

/** Whether `v` has a vnode's shape (a number shapeFlag); anything else is skipped. */
export function isVNode(v: unknown): v is VNode {
  return typeof v === 'object' && v !== null && typeof (v as VNode).shapeFlag === 'number';
}

/** Whether `v` has a component instance's shape. */
export function isInstance(v: unknown): v is Instance {
  return typeof v === 'object' && v !== null && typeof (v as Instance).uid === 'number' && 'subTree' in (v as object);
}

const MAX_NAME = 200;

/**
 * `name`, else the SFC's `__name` (`<script setup>`), else, in development builds, the SFC's file name (a template-only
 * SFC has neither: Vue DevTools names it so too), else a functional component's function name, else "Anonymous".
 */
export function componentName(type: unknown): string {
  try {
    if (typeof type === 'function') {
      const f = type as { displayName?: unknown; name?: unknown };
      if (typeof f.displayName === 'string' && f.displayName) return f.displayName.slice(0, MAX_NAME);
      if (typeof f.name === 'string' && f.name) return f.name.slice(0, MAX_NAME);
    } else if (typeof type === 'object' && type !== null) {
      const t = type as ComponentType;
      if (typeof t.name === 'string' && t.name) return t.name.slice(0, MAX_NAME);
      if (typeof t.__name === 'string' && t.__name) return t.__name.slice(0, MAX_NAME);
      if (typeof t.__file === 'string') {
        const m = /([^/\\]+)\.vue$/.exec(t.__file);
        if (m) return m[1].slice(0, MAX_NAME);
      }
    }
  } catch {
    // A hostile getter: no name.
  }
  return 'Anonymous';
}
