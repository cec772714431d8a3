/**
 * The Vue 3 adapter (issue 63): every mounted component of every app on the page, from Vue's own vnode tree, in
 * development and production builds alike. What a build exposes differs (docs/FRAMEWORKS.md): both keep each app on
 * its container (`__vue_app__`) and the container's root vnode (`_vnode`), and from there each component instance's
 * rendered tree (`subTree`); neither tells anyone when it commits (Vue reports to a devtools hook only in development,
 * and only when the hook was there before the app). So the browser's own account of the DOM is the commit
 * (../dom-commits.ts, shared with Preact's adapter): this half walks Vue's tree — fragments, `<Teleport>` (a portal),
 * `<Suspense>`'s active branch, `<KeepAlive>`'s active child (an inactive one is gone), static content — and names
 * the link development builds put on each element (`__vueParentComponent`). Render counts are not known (nothing
 * reports a render that changed nothing).
 */
import type { DebugHint } from '../../../protocol/sources';
import type { ComponentRef, FrameworkAdapter } from '../adapter';
import { DomCommits } from '../dom-commits';
import {
  APP_KEY, componentName, FRAGMENT, isInstance, isVNode, PARENT_COMPONENT_KEY, ROOT_VNODE_KEY, SHAPE_ARRAY_CHILDREN, SHAPE_COMPONENT,
  SHAPE_ELEMENT, SHAPE_SUSPENSE, SHAPE_TELEPORT, STATIC, type ComponentType, type Instance, type VNode,
} from './internals';

const MAX_DEPTH = 10_000;

export class VueAdapter extends DomCommits<Instance> implements FrameworkAdapter {
  readonly name = 'vue';

  claims(handle: object): boolean {
    return isInstance(handle);
  }

  protected isContainer(n: Node): boolean {
    return isContainer(n);
  }

  protected rootInstance(container: Element): Instance | null {
    const root = (container as unknown as Record<string, unknown>)[ROOT_VNODE_KEY];
    return isVNode(root) && isInstance(root.component) ? root.component : null;
  }

  protected walkContainer(container: Element): void {
    const root = (container as unknown as Record<string, unknown>)[ROOT_VNODE_KEY];
    if (isVNode(root)) this.walk(root, null, null, -1, true, false, 0);
  }

  protected walkInstance(inst: Instance, ref: ComponentRef, depth: number): void {
    this.walk(inst.subTree, inst, ref, depth, true, false, 0);
  }

  protected parentOf(inst: Instance): Instance | null {
    return inst.parent;
  }

  protected isGone(inst: Instance): boolean {
    return inst.isUnmounted || inst.isDeactivated;
  }

  /**
   * Whether Vue's elements carry the link to their component (development builds), from the first element a walk met
   * (null: none met yet). A production build has none: no element is asked for it (a property an element lacks is
   * looked for along its whole prototype chain, for each of a busy grid's thousands of records a tick).
   */
  private links: boolean | null = null;

  protected linked(el: Element): Instance | null {
    if (this.links === false) return null;
    const c = (el as unknown as Record<string, unknown>)[PARENT_COMPONENT_KEY];
    return c !== undefined && isInstance(c) ? c : null;
  }

  protected nameOfInstance(inst: Instance): string {
    return componentName(inst.type);
  }

  protected keyOfInstance(inst: Instance): string | null {
    return keyOf(inst);
  }

  protected portalTops(content: unknown, out: Element[]): void {
    const c = (content as VNode).children;
    if (Array.isArray(c)) for (const x of c) collect(x, out, 0);
  }

  protected portalInner(content: unknown, visit: (inst: Instance) => void): void {
    const outermost = (v: unknown, guard: number): void => {
      if (!isVNode(v) || guard > MAX_DEPTH) return;
      if ((v.shapeFlag & SHAPE_COMPONENT) !== 0) {
        if (isInstance(v.component)) visit(v.component);
        return;
      }
      const c = v.children;
      if (Array.isArray(c)) for (const x of c) outermost(x, guard + 1);
    };
    const c = (content as VNode).children;
    if (Array.isArray(c)) for (const x of c) outermost(x, 0);
  }

  /**
   * Reports `v` and everything under it: components new to the adapter mount (under `ownerRef`, at `depth` + 1), and
   * the walk notes each component's top elements (`top`: no element of the owner's lies between), the teleports, and
   * the components a teleport put elsewhere (`through`).
   */
  private walk(v: unknown, owner: Instance | null, ownerRef: ComponentRef | null, depth: number, top: boolean, through: boolean,
    guard: number): void {
    if (!isVNode(v) || guard > MAX_DEPTH) return;
    const flag = v.shapeFlag;
    if ((flag & SHAPE_COMPONENT) !== 0) {
      const inst = v.component;
      if (!isInstance(inst)) return;
      const ref = this.met(inst, ownerRef, depth + 1, through);
      if (ref !== null) this.walk(inst.subTree, inst, ref, depth + 1, true, false, guard + 1);
      return;
    }
    if ((flag & SHAPE_SUSPENSE) !== 0) {
      // The branch on the page: a pending one is rendered off the document.
      this.walk(v.suspense?.activeBranch, owner, ownerRef, depth, top, through, guard + 1);
      return;
    }
    if ((flag & SHAPE_TELEPORT) !== 0) {
      const target = v.target;
      // As Vue reads it (`isTeleportDisabled`): any truthy value, or the attribute's empty string.
      const d = v.props !== null && typeof v.props === 'object' ? v.props.disabled : undefined;
      const disabled = !!d || d === '';
      // Vue keeps a teleport's start node across renders.
      if (!disabled && target instanceof Element && v.el instanceof Node) this.portal(v.el, target, owner, v);
      // Moved to the target, its children are top elements there (a node in them is found from them).
      this.children(v, owner, ownerRef, depth, top || !disabled, through || !disabled, guard);
      return;
    }
    if ((flag & SHAPE_ELEMENT) !== 0) {
      const el = v.el;
      if (el instanceof Element) {
        if (this.links === null) this.links = (el as unknown as Record<string, unknown>)[PARENT_COMPONENT_KEY] !== undefined;
        if (top && owner !== null) this.top(el, owner);
      }
      this.children(v, owner, ownerRef, depth, false, through, guard);
      return;
    }
    if (v.type === STATIC) {
      if (top && owner !== null) for (const el of staticElements(v)) this.top(el, owner);
      return;
    }
    // A fragment (its children in place), or text and comments (nothing).
    if (v.type === FRAGMENT) this.children(v, owner, ownerRef, depth, top, through, guard);
  }

  private children(v: VNode, owner: Instance | null, ownerRef: ComponentRef | null, depth: number, top: boolean, through: boolean,
    guard: number): void {
    if ((v.shapeFlag & SHAPE_ARRAY_CHILDREN) === 0 && v.type !== FRAGMENT) return;
    const c = v.children;
    if (!Array.isArray(c)) return;
    for (let i = 0; i < c.length; i++) this.walk(c[i], owner, ownerRef, depth, top, through, guard + 1);
  }

  topHostNodes(handle: object, out: Element[]): boolean {
    const inst = handle as Instance;
    return collect(inst.subTree, out, 0);
  }

  authored(handle: object, childAuthored: (child: ComponentRef) => number | null): number {
    const count = (v: unknown, guard: number): number => {
      if (!isVNode(v) || guard > MAX_DEPTH) return 0;
      const flag = v.shapeFlag;
      if ((flag & SHAPE_COMPONENT) !== 0) {
        const inst = v.component;
        if (!isInstance(inst)) return 0;
        const ref = this.refs.get(inst);
        const known = ref === undefined ? null : childAuthored(ref);
        return known ?? count(inst.subTree, guard + 1);
      }
      if ((flag & SHAPE_SUSPENSE) !== 0) return count(v.suspense?.activeBranch, guard + 1);
      if (v.type === STATIC) return staticElements(v).length;
      let n = (flag & SHAPE_ELEMENT) !== 0 ? 1 : 0;
      const c = v.children;
      if (Array.isArray(c)) for (const x of c) n += count(x, guard + 1);
      return n;
    };
    return count((handle as Instance).subTree, 0);
  }

  typeOf(handle: object): unknown {
    try {
      const t = (handle as Instance).type as ComponentType | null;
      if (typeof t === 'function') return t;
      if (t !== null && typeof t === 'object') {
        // The compiled <script setup> function, else the render function: where the component's code is.
        if (typeof t.setup === 'function') return t.setup;
        if (typeof t.render === 'function') return t.render;
      }
    } catch {
      // A hostile getter: no type.
    }
    return null;
  }

  keyOf(handle: object): string | null {
    return keyOf(handle as Instance);
  }

  nameOf(handle: object): string {
    return componentName((handle as Instance).type);
  }

  debugOf(handle: object): DebugHint | null {
    try {
      const file = ((handle as Instance).type as ComponentType | null)?.__file;
      // Development builds name the SFC's file (its first line: where its template or script begins).
      if (typeof file === 'string' && file.length > 0 && file.length <= 2048) return { kind: 'source', url: file, line: 1, column: 1 };
    } catch {
      // A hostile getter: no hint.
    }
    return null;
  }
}

/** Whether a node is a Vue app's container. */
function isContainer(n: Node): boolean {
  return n.nodeType === 1 && (n as unknown as Record<string, unknown>)[APP_KEY] !== undefined;
}

function keyOf(inst: Instance): string | null {
  const k = inst.vnode?.key;
  return typeof k === 'string' ? k.slice(0, 200) : typeof k === 'number' ? String(k) : null;
}

/** The elements a static vnode holds, from its first node to its anchor. */
function staticElements(v: VNode): Element[] {
  const out: Element[] = [];
  const end = v.anchor;
  for (let n = v.el instanceof Node ? v.el : null, g = 0; n !== null && g < 10_000; n = n.nextSibling, g++) {
    if (n instanceof Element) out.push(n);
    if (n === end) break;
  }
  return out;
}

/** Appends the top elements under `v` (through components, fragments and teleports); true when one came through a teleport. */
function collect(v: unknown, out: Element[], guard: number): boolean {
  if (!isVNode(v) || guard > MAX_DEPTH) return false;
  const flag = v.shapeFlag;
  if ((flag & SHAPE_COMPONENT) !== 0) return isInstance(v.component) ? collect(v.component.subTree, out, guard + 1) : false;
  if ((flag & SHAPE_SUSPENSE) !== 0) return collect(v.suspense?.activeBranch, out, guard + 1);
  if ((flag & SHAPE_ELEMENT) !== 0) {
    if (v.el instanceof Element) out.push(v.el);
    return false;
  }
  if (v.type === STATIC) {
    for (const el of staticElements(v)) out.push(el);
    return false;
  }
  const c = v.children;
  if (!Array.isArray(c)) return false;
  let through = false;
  const before = out.length;
  for (const x of c) if (collect(x, out, guard + 1)) through = true;
  if ((flag & SHAPE_TELEPORT) !== 0 && out.length > before) through = true;
  return through;
}
