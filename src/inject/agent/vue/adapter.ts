/**
 * The Vue 3 adapter (issue 63): every mounted component of every app on the page, from Vue's own vnode tree, in
 * development and production builds alike. What a build exposes differs (docs/FRAMEWORKS.md): both keep each app on
 * its container (`__vue_app__`) and the container's root vnode (`_vnode`), and from there each component instance's
 * rendered tree (`subTree`); neither tells anyone when it commits (Vue reports to a devtools hook only in development,
 * and only when the hook was there before the app). So the browser's own account of the DOM is the commit: a
 * MutationObserver on each app's container (and each `<Teleport>`'s target) takes Vue's writes as Vue makes them.
 *
 *  - Nodes added or removed: the component that owns the parent walks its subtree again (components new to it mount;
 *    those Vue has unmounted or a `<KeepAlive>` has put away go), and the change is its cause.
 *  - Attributes and text: a cause of the component that owns the node, weighed like any other (pipeline/causes.ts).
 *    Vue writes only what its own diff found different, so a re-render that changed nothing in the DOM makes no
 *    record: it is never a cause, at no cost of ours.
 *
 * From a node to its component: development builds put the rendering component on each element they create
 * (`__vueParentComponent`); production builds do not, so the walks remember each component's top elements and a node
 * is owned by the nearest one above it. Render counts are not known (nothing reports a render that changed nothing).
 */
import type { DebugHint } from '../../../protocol/sources';
import { CHANGE_ADDED, CHANGE_CHILDREN, CHANGE_TEXT, howOf, type ComponentRef, type ComponentSink, type FrameworkAdapter } from '../adapter';
import {
  APP_KEY, componentName, FRAGMENT, isInstance, isVNode, PARENT_COMPONENT_KEY, ROOT_VNODE_KEY, SHAPE_ARRAY_CHILDREN, SHAPE_COMPONENT,
  SHAPE_ELEMENT, SHAPE_SUSPENSE, SHAPE_TELEPORT, STATIC, type ComponentType, type Instance, type VNode,
} from './internals';

const MAX_DEPTH = 10_000;
/** Attribute, text and child-list changes, with the values before (a class's kind is read from before and after). */
const ALL: MutationObserverInit = {
  childList: true, attributes: true, characterData: true, subtree: true, attributeOldValue: true, characterDataOldValue: true,
};
/** On the document: new apps' containers filling up, and nodes a teleport puts outside its app. */
const TREE: MutationObserverInit = { childList: true, subtree: true };
/** Added elements a child-list record's cause is noted at, at most. */
const MAX_ADDED = 4;

interface Clock {
  enter(): void;
  leave(): void;
}

/** A mounted `<Teleport>`: the last vnode seen for it and the component that rendered it. */
interface Teleported {
  vnode: VNode;
  owner: Instance | null;
}

export class VueAdapter implements FrameworkAdapter {
  readonly name = 'vue';
  private sink: ComponentSink | null = null;
  private refs = new WeakMap<Instance, ComponentRef>();
  /** The instances reported mounted: looked at when nodes were removed (Vue marks the ones it unmounted). */
  private readonly live = new Set<Instance>();
  /** An element → the innermost component it is a top element of (the walks keep it: production's only way back). */
  private tops = new WeakMap<Element, Instance>();
  /** Components whose DOM a teleport puts away from their parent's. */
  private teleported = new WeakSet<Instance>();
  /** The apps' containers and the teleports' targets: observed whole (attributes and text too). */
  private readonly observedRoots = new Set<Element>();
  /** Mounted teleports, by their start node (Vue keeps it across renders). */
  private readonly teleports = new Map<Node, Teleported>();
  private observer: MutationObserver | null = null;
  portalVersion = 0;
  private readonly portalTops: Element[] = [];
  private readonly portalInner: number[] = [];
  /** Records being handled now (a flush inside the observer's own callback finds none left: nothing is read twice). */
  private handling = false;

  constructor(private readonly clock: Clock | null = null) {}

  claims(handle: object): boolean {
    return isInstance(handle);
  }

  attach(sink: ComponentSink): void {
    this.sink = sink;
    this.observer = new MutationObserver((records) => {
      this.clock?.enter();
      try {
        this.handle(records);
      } finally {
        this.clock?.leave();
      }
    });
    this.observer.observe(document, TREE);
    const found = document.querySelectorAll('*');
    for (let i = 0; i < found.length; i++) {
      const el = found[i];
      if ((el as unknown as Record<string, unknown>)[APP_KEY] !== undefined) this.addApp(el);
    }
    sink.committed();
  }

  detach(): void {
    this.observer?.disconnect();
    this.observer = null;
    this.sink = null;
    this.refs = new WeakMap();
    this.tops = new WeakMap();
    this.teleported = new WeakSet();
    this.live.clear();
    this.observedRoots.clear();
    this.teleports.clear();
    this.portalVersion++;
  }

  /** A container an app is mounted in: walked whole, observed whole. */
  private addApp(container: Element): void {
    const root = (container as unknown as Record<string, unknown>)[ROOT_VNODE_KEY];
    this.observe(container);
    if (isVNode(root)) this.walk(root, null, null, -1, true, false, 0);
  }

  private observe(root: Element): void {
    if (this.observedRoots.has(root)) return;
    this.observedRoots.add(root);
    this.observer?.observe(root, ALL);
  }

  /** The apps mounted now (containers with a root vnode). */
  get roots(): number {
    let n = 0;
    for (const r of this.observedRoots) if (isContainer(r) && isVNode((r as unknown as Record<string, unknown>)[ROOT_VNODE_KEY])) n++;
    return n;
  }

  observes(node: Node): boolean {
    for (const r of this.observedRoots) {
      if (r !== node && !r.contains(node)) continue;
      // An app's container is Vue's throughout; a teleport's target (the body, often) only where its content is.
      if (isContainer(r) || this.ownerInstance(node) !== null) return true;
    }
    return false;
  }

  flush(): void {
    if (this.observer !== null && !this.handling) this.handle(this.observer.takeRecords());
  }

  catchUp(): void {
    this.flush();
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
      if (!isInstance(inst) || inst.isUnmounted || inst.isDeactivated) return;
      let ref = this.refs.get(inst);
      if (ref === undefined) {
        ref = (this.sink as ComponentSink).mount(inst, ownerRef, depth + 1, componentName(inst.type), keyOf(inst));
        this.refs.set(inst, ref);
        this.live.add(inst);
      }
      if (through) this.teleported.add(inst);
      this.walk(inst.subTree, inst, ref, depth + 1, true, false, guard + 1);
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
      if (!disabled && target instanceof Element) {
        this.observe(target);
        const start = v.el;
        if (start instanceof Node) {
          if (!this.teleports.has(start)) this.portalVersion++;
          this.teleports.set(start, { vnode: v, owner });
        }
      }
      // Moved to the target, its children are top elements there (a node in them is found from them).
      this.children(v, owner, ownerRef, depth, top || !disabled, through || !disabled, guard);
      return;
    }
    if ((flag & SHAPE_ELEMENT) !== 0) {
      const el = v.el;
      if (top && el instanceof Element && owner !== null) this.tops.set(el, owner);
      this.children(v, owner, ownerRef, depth, false, through, guard);
      return;
    }
    if (v.type === STATIC) {
      if (top && owner !== null) for (const el of staticElements(v)) this.tops.set(el, owner);
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

  /**
   * The instances Vue unmounted or a `<KeepAlive>` put away since: reported gone (children first). Each one's nearest
   * mounted ancestor lost DOM: added to `recount`.
   */
  private sweep(recount: Set<Instance>): void {
    const sink = this.sink as ComponentSink;
    const gone: Instance[] = [];
    for (const inst of this.live) if (inst.isUnmounted || inst.isDeactivated) gone.push(inst);
    for (let i = gone.length - 1; i >= 0; i--) {
      const inst = gone[i];
      const ref = this.refs.get(inst);
      this.live.delete(inst);
      this.refs.delete(inst);
      if (ref !== undefined) sink.unmount(ref);
    }
    for (const inst of gone) {
      const above = this.nearestLive(inst.parent);
      if (above !== null) recount.add(above);
    }
    if (gone.length > 0) {
      for (const [start, t] of this.teleports) {
        if (!start.isConnected || (t.owner !== null && !this.live.has(t.owner))) {
          this.teleports.delete(start);
          this.portalVersion++;
        }
      }
    }
  }

  /** `inst` when it is mounted, else its nearest mounted ancestor (null: none). */
  private nearestLive(inst: Instance | null): Instance | null {
    for (let c = inst, g = 0; c !== null && g < MAX_DEPTH; c = c.parent, g++) if (this.live.has(c)) return c;
    return null;
  }

  /** The browser's records of Vue's writes (and anything else in its apps): the commit they make. */
  private handle(records: MutationRecord[]): void {
    const sink = this.sink;
    if (sink === null || records.length === 0) return;
    this.handling = true;
    try {
      let apps: Set<Element> | null = null;
      let walked: Set<Instance> | null = null;
      // Components whose rendered tree lost or gained elements or components: recounted (the registry adds each
      // difference to the ancestors).
      const recount = new Set<Instance>();
      let removed = false;
      // Nodes added or removed first: new components mount and gone ones go before any change is said to be theirs.
      for (let i = 0; i < records.length; i++) {
        const r = records[i];
        if (r.type !== 'childList') continue;
        const t = r.target;
        const gone = r.removedNodes;
        if (gone.length > 0) removed = true;
        // A removed element was some component's top element (the innermost one's): that one changed.
        for (let k = 0; k < gone.length; k++) {
          const was = gone[k].nodeType === 1 ? this.tops.get(gone[k] as Element) : undefined;
          if (was !== undefined) recount.add(was);
        }
        if (isContainer(t)) {
          // The root component's own top nodes, or an app mounted (again) here: the app is walked whole.
          (apps ??= new Set()).add(t as Element);
        } else if (t instanceof Element && this.observedRoots.has(t)) {
          // A teleport's target: the components whose teleports send nodes here.
          for (const x of this.teleports.values()) if (x.vnode.target === t && x.owner !== null) (walked ??= new Set()).add(x.owner);
        } else {
          const owner = this.ownerInstance(t);
          if (owner !== null) (walked ??= new Set()).add(owner);
        }
      }
      if (removed) this.sweep(recount);
      if (apps !== null) for (const c of apps) this.addApp(c);
      if (walked !== null) {
        for (const owner of walked) {
          const ref = this.refs.get(owner);
          if (ref === undefined || !this.live.has(owner)) continue;
          this.walk(owner.subTree, owner, ref, depthOf(owner), true, false, 0);
          recount.add(owner);
        }
      }
      // An added element is a top element of the component that rendered it (the walk just noted it).
      for (let i = 0; i < records.length; i++) {
        const added = records[i].type === 'childList' ? records[i].addedNodes : null;
        if (added === null) continue;
        for (let k = 0; k < added.length; k++) {
          const now = added[k].nodeType === 1 ? this.tops.get(added[k] as Element) : undefined;
          if (now !== undefined) recount.add(now);
        }
      }
      for (const inst of recount) {
        const live = this.nearestLive(inst);
        const ref = live === null ? undefined : this.refs.get(live);
        if (ref !== undefined) sink.structure(ref);
      }
      let any = apps !== null || walked !== null || removed;
      for (let i = 0; i < records.length; i++) if (this.cause(sink, records[i])) any = true;
      if (any) sink.committed();
    } finally {
      this.handling = false;
    }
  }

  /** One record as a cause of the component whose DOM it changed; false when it is no component's. */
  private cause(sink: ComponentSink, r: MutationRecord): boolean {
    const t = r.target;
    if (r.type === 'characterData') {
      const parent = t.parentElement;
      const ref = parent === null ? undefined : this.refOf(parent);
      if (ref === undefined) return false;
      if ((t as CharacterData).data !== r.oldValue) sink.changed(ref, parent, CHANGE_TEXT);
      return true;
    }
    if (!(t instanceof Element)) return false;
    const ref = isContainer(t) ? this.rootRef(t) : this.refOf(t);
    if (ref === undefined) return false;
    if (r.type === 'attributes') {
      const name = r.attributeName ?? '';
      const now = t.getAttribute(name);
      if (now === r.oldValue) return true;
      const how = howOf(sink.attributeKind(name, r.oldValue, now), t.firstElementChild === null);
      if (how !== 0) sink.changed(ref, t, how, t.parentElement);
      return true;
    }
    sink.changed(ref, t, CHANGE_CHILDREN, t.parentElement);
    const added = r.addedNodes;
    for (let i = 0; i < added.length && i < MAX_ADDED; i++) {
      const n = added[i];
      if (!(n instanceof Element)) continue;
      // A new component's own elements are its cause; others are the parent's.
      sink.changed(this.refOf(n) ?? ref, n, CHANGE_ADDED, t);
    }
    return true;
  }

  /** An app container's root component's record. */
  private rootRef(container: Element): ComponentRef | undefined {
    const root = (container as unknown as Record<string, unknown>)[ROOT_VNODE_KEY];
    return isVNode(root) && isInstance(root.component) ? this.refs.get(root.component) : undefined;
  }

  private refOf(node: Node): ComponentRef | undefined {
    const inst = this.ownerInstance(node);
    return inst === null ? undefined : this.refs.get(inst);
  }

  /**
   * The mounted component that owns a node: development builds' link on the element (or its nearest mounted
   * ancestor component), else the nearest element above that is a component's top element. Null outside any app.
   */
  private ownerInstance(node: Node): Instance | null {
    let n: Node | null = node.nodeType === 1 ? node : node.parentNode;
    for (let g = 0; n !== null && g < MAX_DEPTH; g++) {
      if (n.nodeType === 1) {
        const linked = (n as unknown as Record<string, unknown>)[PARENT_COMPONENT_KEY];
        if (linked !== undefined && isInstance(linked)) {
          for (let c: Instance | null = linked, h = 0; c !== null && h < MAX_DEPTH; c = c.parent, h++) if (this.live.has(c)) return c;
          return null;
        }
        const inst = this.tops.get(n as Element);
        if (inst !== undefined && this.live.has(inst)) return inst;
        // Up to an app's container: its root component's (a node no component's top holds).
        if (isContainer(n)) {
          const root = (n as unknown as Record<string, unknown>)[ROOT_VNODE_KEY];
          return isVNode(root) && isInstance(root.component) && this.live.has(root.component) ? root.component : null;
        }
      }
      n = n.parentNode ?? ((n as ShadowRoot).host instanceof Element ? (n as ShadowRoot).host : null);
    }
    return null;
  }

  ownerOf(node: Node): number {
    return this.refOf(node)?.id ?? 0;
  }

  topHostNodes(handle: object, out: Element[]): boolean {
    const inst = handle as Instance;
    return collect(inst.subTree, out, 0);
  }

  portalAbove(handle: object): boolean {
    return this.teleported.has(handle as Instance);
  }

  get portalCount(): number {
    return this.teleports.size;
  }

  portals(visit: (container: Element, ownerId: number, tops: Element[], inner: number[]) => void): void {
    const tops = this.portalTops;
    const inner = this.portalInner;
    const outermost = (v: unknown, guard: number): void => {
      if (!isVNode(v) || guard > MAX_DEPTH) return;
      if ((v.shapeFlag & SHAPE_COMPONENT) !== 0) {
        const ref = isInstance(v.component) ? this.refs.get(v.component) : undefined;
        if (ref !== undefined) inner.push(ref.id);
        return;
      }
      const c = v.children;
      if (Array.isArray(c)) for (const x of c) outermost(x, guard + 1);
    };
    for (const { vnode, owner } of this.teleports.values()) {
      const target = vnode.target;
      if (!(target instanceof Element)) continue;
      tops.length = 0;
      inner.length = 0;
      const c = vnode.children;
      if (Array.isArray(c)) for (const x of c) collect(x, tops, 0);
      if (Array.isArray(c)) for (const x of c) outermost(x, 0);
      visit(target, owner === null ? 0 : this.refs.get(owner)?.id ?? 0, tops, inner);
    }
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

/** How deep a component sits among components (its mount's depth: the walk from a re-render starts there). */
function depthOf(inst: Instance): number {
  let d = 0;
  for (let p = inst.parent; p !== null && d < MAX_DEPTH; p = p.parent) d++;
  return d;
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
