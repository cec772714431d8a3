/**
 * The Preact adapter (issue 64): every mounted component of every render root on the page, from Preact's own vnode
 * tree, in Preact 10 and 11, development and production builds alike. Production builds announce nothing and keep no
 * link from an element to its component; what every build has is the tree `render` keeps on its container (`__k`,
 * internals.ts). So, as for Vue, the browser's own account of the DOM is the commit (../dom-commits.ts): this half
 * walks Preact's tree — Fragments (each copy's own, learnt from its containers), components (an instance each, function
 * components too), elements, portals (Preact 11's, whose content is in the tree; preact/compat 10's, a root of its own
 * on a node the Portal keeps) — and says when Preact let an instance go (its `__P` set to null). Render counts are not
 * known (nothing reports a render that changed nothing), and Preact writes only what its diff changed: a re-render
 * with the same DOM makes no record, so it is never a cause.
 */
import type { DebugHint } from '../../../protocol/sources';
import type { ComponentRef, FrameworkAdapter } from '../adapter';
import { DomCommits } from '../dom-commits';
import { CHILDREN, componentName, isInstance, isVNode, PARENT_DOM, type Instance, type VNode } from './internals';

const MAX_DEPTH = 10_000;
/** Own properties of a compat Portal's instance looked at for the node its root hangs on. */
const MAX_PORTAL_PROPS = 32;

export class PreactAdapter extends DomCommits<Instance> implements FrameworkAdapter {
  readonly name = 'preact';
  /** Each Preact copy's Fragment, learnt from the root vnode `render` puts on a container (a Fragment always). */
  private readonly fragments = new Set<unknown>();
  /** preact/compat 10's portal roots (a `render` of their own): the Portal vnode each hangs under. */
  private readonly compatRoots = new WeakMap<VNode, VNode>();

  claims(handle: object): boolean {
    return isInstance(handle);
  }

  /** Whether the document has a Preact render root (one scan: production Preact announces itself nowhere). */
  static found(doc: Document): boolean {
    const all = doc.querySelectorAll('*');
    for (let i = 0; i < all.length; i++) if (isContainerNode(all[i])) return true;
    return false;
  }

  protected isContainer(n: Node): boolean {
    return isContainerNode(n);
  }

  protected rootInstance(container: Element): Instance | null {
    const root = (container as unknown as Record<string, unknown>)[CHILDREN];
    if (!isVNode(root)) return null;
    // The app: the root Fragment's first component (through Fragments).
    const first = (v: VNode | null, guard: number): Instance | null => {
      if (v === null || guard > MAX_DEPTH) return null;
      if (typeof v.type === 'function' && !this.fragments.has(v.type) && isInstance(v.__c)) return v.__c;
      for (const c of v.__k ?? []) {
        const i = first(c, guard + 1);
        if (i !== null) return i;
      }
      return null;
    };
    return first(root, 0);
  }

  protected walkContainer(container: Element): void {
    const root = (container as unknown as Record<string, unknown>)[CHILDREN];
    if (!isVNode(root)) return;
    this.fragments.add(root.type);
    this.walk(root, null, null, -1, true, false, 0);
  }

  protected walkInstance(inst: Instance, ref: ComponentRef, depth: number): void {
    const v = inst.__v;
    if (isVNode(v)) this.children(v, inst, ref, depth, true, false, 0);
  }

  protected parentOf(inst: Instance): Instance | null {
    let g = 0;
    // Up the vnodes; from a compat portal's own root on to its Portal.
    for (let p = inst.__v?.__ ?? null; p !== null && g < MAX_DEPTH; p = p.__ ?? this.compatRoots.get(p) ?? null, g++) {
      if (typeof p.type === 'function' && !this.fragments.has(p.type) && !isPortal(p) && isInstance(p.__c)) return p.__c;
    }
    return null;
  }

  protected isGone(inst: Instance): boolean {
    return inst.__P === null || inst.__P === undefined;
  }

  protected linked(): Instance | null {
    return null;
  }

  protected nameOfInstance(inst: Instance): string {
    return componentName(inst.__v?.type);
  }

  protected keyOfInstance(inst: Instance): string | null {
    const k = inst.__v?.key;
    return typeof k === 'string' ? k.slice(0, 200) : typeof k === 'number' ? String(k) : null;
  }

  protected portalTops(content: unknown, out: Element[]): void {
    this.collect(content, out, 0);
  }

  protected portalInner(content: unknown, visit: (inst: Instance) => void): void {
    const outermost = (v: unknown, guard: number): void => {
      if (!isVNode(v) || guard > MAX_DEPTH) return;
      if (typeof v.type === 'function' && !this.fragments.has(v.type) && !isPortal(v) && isInstance(v.__c)) {
        visit(v.__c);
        return;
      }
      for (const c of v.__k ?? []) outermost(c, guard + 1);
    };
    if (isVNode(content)) for (const c of content.__k ?? []) outermost(c, 0);
  }

  /**
   * Reports `v` and everything under it: components new to the adapter mount (under `ownerRef`, at `depth` + 1), and
   * the walk notes each component's top elements (`top`), the portals, and the components a portal put elsewhere
   * (`through`).
   */
  private walk(v: unknown, owner: Instance | null, ownerRef: ComponentRef | null, depth: number, top: boolean, through: boolean,
    guard: number): void {
    if (!isVNode(v) || guard > MAX_DEPTH) return;
    const type = v.type;
    if (typeof type === 'string') {
      const el = v.__e;
      if (top && el instanceof Element && owner !== null) this.top(el, owner);
      this.children(v, owner, ownerRef, depth, false, through, guard);
      return;
    }
    if (typeof type !== 'function') return; // text
    const target11 = portalTarget(v);
    if (target11 !== null) {
      // Preact 11's portal: its content is in this tree, rendered into the target.
      this.portal(v.__c ?? v, target11, owner, v);
      this.children(v, owner, ownerRef, depth, true, true, guard);
      return;
    }
    if (isCompatPortal(v)) {
      // preact/compat 10's portal: a root of its own, on a node the Portal's instance keeps.
      const root = compatPortalRoot(v, v.containerInfo);
      if (root !== null) {
        this.compatRoots.set(root, v);
        // Its content is wrapped in a context provider of compat's own (preact10:compat/src/portals.js#L6), not the
        // app's component: passed through as a Fragment is.
        const provider = root.__k?.[0];
        if (isVNode(provider) && typeof provider.type === 'function') this.fragments.add(provider.type);
        this.portal(v.__c ?? v, v.containerInfo, owner, root);
        this.walk(root, owner, ownerRef, depth, true, true, guard + 1);
      }
      return;
    }
    if (this.fragments.has(type) || !isInstance(v.__c)) {
      this.children(v, owner, ownerRef, depth, top, through, guard);
      return;
    }
    const inst = v.__c;
    const ref = this.met(inst, ownerRef, depth + 1, through);
    if (ref !== null) this.children(v, inst, ref, depth + 1, true, false, guard);
  }

  private children(v: VNode, owner: Instance | null, ownerRef: ComponentRef | null, depth: number, top: boolean, through: boolean,
    guard: number): void {
    const c = v.__k;
    if (!Array.isArray(c)) return;
    for (let i = 0; i < c.length; i++) this.walk(c[i], owner, ownerRef, depth, top, through, guard + 1);
  }

  /** Appends the top elements under `v` (through components, Fragments and portals); true when one came through a portal. */
  private collect(v: unknown, out: Element[], guard: number): boolean {
    if (!isVNode(v) || guard > MAX_DEPTH) return false;
    if (typeof v.type === 'string') {
      if (v.__e instanceof Element) out.push(v.__e);
      return false;
    }
    if (typeof v.type !== 'function') return false;
    if (isCompatPortal(v)) {
      const root = compatPortalRoot(v, v.containerInfo);
      const before = out.length;
      if (root !== null) this.collect(root, out, guard + 1);
      return out.length > before;
    }
    const portal = portalTarget(v) !== null;
    let through = false;
    const before = out.length;
    for (const c of v.__k ?? []) if (this.collect(c, out, guard + 1)) through = true;
    return through || (portal && out.length > before);
  }

  topHostNodes(handle: object, out: Element[]): boolean {
    const v = (handle as Instance).__v;
    if (!isVNode(v)) return false;
    let through = false;
    for (const c of v.__k ?? []) if (this.collect(c, out, 0)) through = true;
    return through;
  }

  authored(handle: object, childAuthored: (child: ComponentRef) => number | null): number {
    const count = (v: unknown, guard: number): number => {
      if (!isVNode(v) || guard > MAX_DEPTH) return 0;
      if (typeof v.type === 'function' && !this.fragments.has(v.type) && !isPortal(v) && isInstance(v.__c)) {
        const ref = this.refOfInstance(v.__c);
        const known = ref === undefined ? null : childAuthored(ref);
        if (known !== null) return known;
      }
      if (isCompatPortal(v)) return count(compatPortalRoot(v, v.containerInfo), guard + 1);
      let n = typeof v.type === 'string' ? 1 : 0;
      for (const c of v.__k ?? []) n += count(c, guard + 1);
      return n;
    };
    const v = (handle as Instance).__v;
    let n = 0;
    if (isVNode(v)) for (const c of v.__k ?? []) n += count(c, 0);
    return n;
  }

  typeOf(handle: object): unknown {
    try {
      const t = (handle as Instance).__v?.type;
      return typeof t === 'function' ? t : null;
    } catch {
      // A hostile getter: no type.
      return null;
    }
  }

  keyOf(handle: object): string | null {
    return this.keyOfInstance(handle as Instance);
  }

  nameOf(handle: object): string {
    return this.nameOfInstance(handle as Instance);
  }

  debugOf(): DebugHint | null {
    return null;
  }
}

/** Whether a node is a Preact render container: an element holding the root vnode `render` put there. */
function isContainerNode(n: Node): boolean {
  if (n.nodeType !== 1) return false;
  const root = (n as unknown as Record<string, unknown>)[CHILDREN];
  return isVNode(root) && typeof root.type === 'function';
}

/** Preact 11's portal: a vnode whose props carry its target (internals.ts PARENT_DOM). */
function portalTarget(v: VNode): Element | null {
  const p = v.props;
  if (p === null || typeof p !== 'object') return null;
  const t = (p as Record<string, unknown>)[PARENT_DOM];
  return t instanceof Element ? t : null;
}

function isPortal(v: VNode): boolean {
  return portalTarget(v) !== null || v.containerInfo instanceof Element;
}

/** preact/compat 10's portal (compat 11 marks core's portal with `containerInfo` too: its content is in the tree). */
function isCompatPortal(v: VNode): v is VNode & { containerInfo: Element } {
  return v.containerInfo instanceof Element && portalTarget(v) === null;
}

/**
 * preact/compat 10's portal content: its Portal renders into a node-like object of its own whose parent is the target
 * (preact10:compat/src/portals.js#L44), and `render` keeps the content's root vnode on it (`__k`). Its property's
 * name is a mangled one: the instance's own properties are looked through for it.
 */
function compatPortalRoot(v: VNode, target: Element): VNode | null {
  const inst = v.__c as unknown as Record<string, unknown> | null;
  if (inst === null || typeof inst !== 'object') return null;
  let n = 0;
  for (const k of Object.keys(inst)) {
    if (++n > MAX_PORTAL_PROPS) break;
    const o = inst[k] as { nodeType?: unknown; parentNode?: unknown; __k?: unknown } | null;
    if (o !== null && typeof o === 'object' && o.nodeType === 1 && o.parentNode === target && isVNode(o.__k)) return o.__k;
  }
  return null;
}
