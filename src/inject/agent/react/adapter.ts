/**
 * The React adapter: turns commits into mounts, renders, unmounts and the DOM
 * changes that can cost style or layout, descending only where the fibers say
 * something changed (a subtree whose child pointer is shared with the previous
 * tree bailed out and is skipped whole). One walk at attach back-fills what is
 * already mounted.
 *
 * A host fiber flagged as updated is not yet a change: React 19 flags every
 * re-rendered host element, whether or not its props differ. Its props are
 * compared with the previous ones (props.ts): what differs is what React
 * writes to the DOM, and only that is reported (issue 43).
 */
import { creatorFrame, MAX_HINT_URL, type DebugHint } from '../../../protocol/sources';
import { CHANGE_ADDED, CHANGE_CHILDREN, CHANGE_TEXT, type ComponentRef, type ComponentSink, type FrameworkAdapter } from '../adapter';
import { diffProps } from './props';
import { outermost } from '../pipeline/dom-counts';
import type { FiberRootLike, HookState, RendererLike } from '../../boot/link';
import type { Entries } from '../self-clock';
import { CHILD_DELETION, COMPONENT, componentName, flagsOf, HOST, keyOf, kindOf, PERFORMED_WORK, PLACEMENT, tagsFor, UPDATE, type Fiber,
  type TagTable } from './fiber';

const MAX_DEPTH = 10_000;
const CHANGED = PERFORMED_WORK | PLACEMENT | UPDATE;
/** React 18+: a child whose own and bubbled flags have none of these bits rendered nothing and changed nothing below. */
const ACTIVITY = CHANGED | CHILD_DELETION;

/** A root's or portal's container, when it is an element (a root on the whole document has none: its children are <html>). */
function containerOf(c: unknown): Element | null {
  return c instanceof Element ? c : null;
}

/** React 19's HostHoistable tag (a HOST kind only where the React major has it: fiber.ts). */
const HOST_HOISTABLE = 26;
/** React 19's <html>, <head> and <body> (HostSingleton): one element each, whoever renders it. */
const HOST_SINGLETON = 27;

export class ReactAdapter implements FrameworkAdapter {
  readonly name = 'react';
  private sink: ComponentSink | null = null;
  /**
   * A fiber and its alternate share one record (the sink's reference, with the component's id), kept under the one
   * seen first: React keeps the pair for the component's
   * life (the work-in-progress fiber is the current one's alternate, reused render after render), so a look-up tries
   * the fiber, then its alternate — one entry per component instead of two once it re-rendered (≈ 16 B each,
   * docs/PERFORMANCE.md, memory).
   */
  private refs = new WeakMap<Fiber, ComponentRef>();
  private tables = new Map<number, TagTable>();
  /** Expando keys React copies put on DOM nodes (one per copy: the suffix is random). */
  private fiberKeys: string[] = [];
  private prevTap: HookState['tap'] = null;
  /** Mounted portals by their stateNode (shared by a fiber and its alternate), each with its latest fiber seen. */
  private portalFibers = new Map<object, Fiber>();
  portalVersion = 0;
  private readonly portalTops: Element[] = [];
  private readonly insertedScratch: Element[] = [];
  private readonly portalInner: number[] = [];

  /** `clock` times each commit and unmount as the agent's own work (../self-clock.ts). */
  constructor(private readonly hook: HookState, private readonly clock: Entries | null = null) {}

  claims(handle: object): boolean {
    const f = handle as Fiber;
    return typeof f.tag === 'number' && 'alternate' in f;
  }

  get roots(): number {
    return this.hook.counts().roots;
  }

  keyOf(handle: object): string | null {
    return keyOf(handle as Fiber);
  }

  twinOf(handle: object): object | null {
    const alt = (handle as Fiber).alternate;
    return typeof alt === 'object' ? alt : null;
  }

  nameOf(handle: object): string {
    return componentName(handle as Fiber);
  }

  typeOf(handle: object): unknown {
    try {
      const t = (handle as Fiber).type as { render?: unknown; type?: unknown } | null;
      if (typeof t === 'function') return t;
      if (t && typeof t === 'object') {
        const inner = typeof t.render === 'function' ? t.render : t.type;
        return typeof inner === 'function' ? inner : null;
      }
    } catch {
      // A hostile getter on a wrapper: no type.
    }
    return null;
  }

  debugOf(handle: object, stackOf: (e: unknown) => string | null): DebugHint | null {
    // Production builds keep no debug information: nothing to walk for.
    if (this.production) return null;
    try {
      const f = handle as Fiber;
      // The elements it created are its children (or below a host element or fragment it created): the first few.
      const queue: Fiber[] = [];
      for (let c = f.child; c && queue.length < 8; c = c.sibling) queue.push(c);
      for (let i = 0; i < queue.length && i < 24; i++) {
        const c = queue[i];
        if (c._debugOwner === f || (f.alternate !== null && c._debugOwner === f.alternate)) {
          const s = c._debugSource;
          if (s && typeof s.fileName === 'string' && typeof s.lineNumber === 'number' && s.fileName.length <= MAX_HINT_URL) {
            return { kind: 'source', url: s.fileName, line: s.lineNumber, column: typeof s.columnNumber === 'number' ? s.columnNumber : 1 };
          }
          const stack = c._debugStack ? stackOf(c._debugStack) : null;
          const frame = stack === null ? null : creatorFrame(stack);
          if (frame) return { kind: 'stack', ...frame };
          return null;
        }
        for (let g = c.child; g && queue.length < 24; g = g.sibling) queue.push(g);
      }
    } catch {
      // A hostile getter: no hint.
    }
    return null;
  }

  /** Every React on the page is a production build (bundleType 0). */
  private get production(): boolean {
    for (const r of this.hook.renderers.values()) if (r.bundleType !== 0) return false;
    return true;
  }

  attach(sink: ComponentSink): void {
    this.sink = sink;
    this.hook.adopt();
    for (const [id, r] of this.hook.renderers) this.tables.set(id, tagsFor(r.version));
    this.pairs = !this.production;
    this.prevTap = this.hook.tap;
    this.hook.tap = {
      renderer: (id: number, r: RendererLike) => {
        this.tables.set(id, tagsFor(r.version));
        this.pairs = !this.production;
      },
      commit: (id: number, root: FiberRootLike) => {
        this.clock?.enter();
        try {
          this.onCommit(id, root);
        } catch (e) {
          this.clock?.fault(e);
        } finally {
          this.clock?.leave();
        }
      },
      // React 16/17 detach deleted fibers (children nulled) before onCommitFiberRoot,
      // so the per-fiber unmount callback is the only complete record there. On 18+
      // the diff in onCommit finds the same fibers; unmounting twice is a no-op.
      unmount: (rendererId: number, fiber: unknown) => {
        this.clock?.enter();
        try {
          this.onUnmountFiber(rendererId, fiber as Fiber);
        } catch (e) {
          this.clock?.fault(e);
        } finally {
          this.clock?.leave();
        }
      },
    };
    for (const [rendererId, roots] of this.hook.roots) {
      const tags = this.tagsOf(rendererId);
      for (const root of roots) {
        const current = root.current as Fiber | null;
        if (current) this.mountChildren(current, null, -1, tags);
        this.reported.set(root, current);
      }
    }
    sink.committed();
  }

  detach(): void {
    if (this.hook.tap !== null) this.hook.tap = this.prevTap;
    this.sink = null;
    this.refs = new WeakMap();
    this.reported = new WeakMap();
    this.portalFibers.clear();
    this.portalVersion++;
  }

  get portalCount(): number {
    return this.portalFibers.size;
  }

  private trackPortal(f: Fiber, live: boolean): void {
    const key = f.stateNode !== null && typeof f.stateNode === 'object' ? f.stateNode : f;
    if (!live) {
      if (this.portalFibers.delete(key)) this.portalVersion++;
      return;
    }
    if (!this.portalFibers.has(key)) this.portalVersion++;
    this.portalFibers.set(key, f);
  }

  private tagsOf(rendererId: number): TagTable {
    let t = this.tables.get(rendererId);
    if (!t) this.tables.set(rendererId, (t = tagsFor(this.hook.renderers.get(rendererId)?.version)));
    return t;
  }

  /**
   * Development builds only (where Fast Refresh can run): each record also under the component's other fiber, once
   * seen. React Refresh's remount cuts a fiber from its alternate before deleting it (`remountFiber`), so a record kept
   * under the other copy alone could never be found again to unmount: a stale duplicate (issue 44). Production builds
   * have no remount and keep one entry per component (docs/PERFORMANCE.md, memory).
   */
  private pairs = false;

  /** `f`'s record under `f` itself too (pairs mode), found under its alternate. */
  private pair(f: Fiber, alt: Fiber): void {
    if (this.refs.has(f)) return;
    const ref = this.refs.get(alt);
    if (ref !== undefined) this.refs.set(f, ref);
  }

  /** The component's record, under the fiber or its alternate (see `refs`). */
  private refOf(f: Fiber): ComponentRef | undefined {
    return this.refs.get(f) ?? (f.alternate ? this.refs.get(f.alternate) : undefined);
  }

  private idOf(f: Fiber): number {
    return this.refOf(f)?.id ?? 0;
  }

  /**
   * The current tree of each root when it was last reported: a commit reported early (`catchUp`, from a forced reflow
   * in its layout effects) is not walked again when React reports it.
   */
  private reported = new WeakMap<object, unknown>();

  catchUp(): void {
    if (!this.sink) return;
    for (const [rendererId, roots] of this.hook.roots) {
      for (const root of roots) {
        // React switches `current` to the new tree after applying its DOM changes, before the layout effects.
        if (root.current !== null && root.current !== undefined && this.reported.get(root) !== root.current) this.onCommit(rendererId, root);
      }
    }
  }

  private onCommit(rendererId: number, root: FiberRootLike): void {
    const sink = this.sink;
    if (!sink) return;
    const tags = this.tagsOf(rendererId);
    const next = root.current as Fiber | null;
    if (!next) return;
    if (this.reported.get(root) === next) {
      // Reported early (catchUp): its changes are known already.
      sink.committed();
      return;
    }
    this.reported.set(root, next);
    const prev = next.alternate;
    if (prev === null) this.mountChildren(next, null, -1, tags);
    else this.updateChildren(next, prev, null, -1, tags, containerOf(root.containerInfo));
    sink.committed();
  }

  private onUnmountFiber(rendererId: number, f: Fiber): void {
    const sink = this.sink;
    if (!sink) return;
    const tags = this.tagsOf(rendererId);
    // The nearest live component above a deleted fiber lost DOM: recount it.
    for (let p = f.return; p !== null; p = p.return) {
      if (kindOf(tags, p.tag) !== COMPONENT) continue;
      const owner = this.refOf(p);
      if (owner !== undefined) {
        sink.structure(owner);
        // React 16/17 call this before removing the node: its DOM parent is still there.
        sink.changed(owner, this.hostParent(f, tags), CHANGE_CHILDREN);
      }
      break;
    }
    if (f.tag === tags.hostPortal) this.trackPortal(f, false);
    if (kindOf(tags, f.tag) !== COMPONENT) return;
    const ref = this.refOf(f);
    if (ref === undefined) return;
    this.refs.delete(f);
    if (f.alternate) this.refs.delete(f.alternate);
    sink.unmount(ref);
  }

  /** Registers every component in the subtrees of `parent`'s children. */
  private mountChildren(parent: Fiber, owner: ComponentRef | null, parentDepth: number, tags: TagTable): void {
    for (let c = parent.child; c !== null; c = c.sibling) this.mountFiber(c, owner, parentDepth, tags);
  }

  private mountFiber(f: Fiber, owner: ComponentRef | null, parentDepth: number, tags: TagTable): void {
    const sink = this.sink as ComponentSink;
    let ref = owner;
    let depth = parentDepth;
    if (kindOf(tags, f.tag) === COMPONENT) {
      depth = parentDepth + 1;
      if (depth > MAX_DEPTH) return;
      ref = sink.mount(f, owner, depth, componentName(f), keyOf(f));
      this.refs.set(f, ref);
      if (this.pairs && f.alternate !== null) this.refs.set(f.alternate, ref);
    } else if (f.tag === tags.hostPortal) {
      this.trackPortal(f, true);
    }
    this.mountChildren(f, ref, depth, tags);
  }

  private unmountFiber(f: Fiber, tags: TagTable): void {
    const sink = this.sink as ComponentSink;
    // Children first, so that a parent's recount never sees freed children.
    for (let c = f.child; c !== null; c = c.sibling) this.unmountFiber(c, tags);
    if (f.tag === tags.hostPortal) this.trackPortal(f, false);
    if (kindOf(tags, f.tag) === COMPONENT) {
      const ref = this.refOf(f);
      if (ref !== undefined) {
        this.refs.delete(f);
        if (f.alternate) this.refs.delete(f.alternate);
        sink.unmount(ref);
      }
    }
  }

  /**
   * `next` is the committed fiber, `prev` its alternate (the previous tree).
   * Children with an alternate were updated in place; children without one
   * are new. Deleted children are listed on the parent (`deletions`, React
   * 18+) or reported one by one through onCommitFiberUnmount (16/17, which
   * detach deleted fibers before the commit callback). `owner` is the nearest
   * component above (null: none); `dom` the element the children's host nodes
   * sit in (handed down the walk: no DOM read and no walk up for it).
   */
  private updateChildren(next: Fiber, prev: Fiber, owner: ComponentRef | null, parentDepth: number, tags: TagTable,
    dom: Element | null): void {
    // Shared child pointer: the subtree bailed out, nothing below changed.
    if (next.child === prev.child) return;
    let structural = false;
    for (let c = next.child; c !== null; c = c.sibling) {
      const alt = c.alternate;
      // React 18+: the child and everything below it are quiet — one look at the child, not at its alternate (a
      // re-rendered list of thousands of memoised children is walked at about the cost of reading their flags).
      const sub = c.subtreeFlags;
      if (sub !== undefined && alt !== null && (((c.flags ?? 0) | sub) & ACTIVITY) === 0) {
        // The parent's render made this copy current without rendering it: in pairs mode, know it by this copy too.
        if (this.pairs && kindOf(tags, c.tag) === COMPONENT) this.pair(c, alt);
        continue;
      }
      if (alt !== null) {
        // updateFiber's bail-out test, inlined: a list of thousands of memoised
        // children that did not render costs one comparison each, no call.
        if (c.child === alt.child && (((c.flags ?? c.effectTag ?? 0) | 0) & CHANGED) === 0) {
          if (this.pairs && kindOf(tags, c.tag) === COMPONENT) this.pair(c, alt);
          continue;
        }
        this.updateFiber(c, alt, owner, parentDepth, tags, dom);
      } else {
        structural = true;
        this.mountFiber(c, owner, parentDepth, tags);
        this.inserted(c, owner, tags, dom);
      }
    }
    const deletions = next.deletions;
    if (deletions) {
      for (const d of deletions) this.unmountFiber(d, tags);
      if (deletions.length > 0) {
        structural = true;
        if (owner !== null) (this.sink as ComponentSink).changed(owner, dom, CHANGE_CHILDREN);
      }
    }
    if (structural && owner !== null) (this.sink as ComponentSink).structure(owner);
  }

  /**
   * A fiber placed in this commit (new, or moved): the top elements it brought are new to the engine (styled and laid
   * out afresh), each the cause of the component that renders it (a new component's own, else `owner`'s).
   */
  private inserted(c: Fiber, owner: ComponentRef | null, tags: TagTable, parent: Element | null): void {
    const sink = this.sink as ComponentSink;
    if (c.tag === tags.hostText) {
      if (owner !== null) sink.changed(owner, parent, CHANGE_TEXT);
      return;
    }
    const ref = kindOf(tags, c.tag) === COMPONENT ? this.refOf(c) ?? owner : owner;
    if (ref === null) return;
    if (kindOf(tags, c.tag) === HOST) {
      if (c.stateNode instanceof Element) sink.changed(ref, c.stateNode, CHANGE_ADDED, parent);
      return;
    }
    const hosts = this.insertedScratch;
    hosts.length = 0;
    // Through a portal, hosts sit in its container: their parents are read from the DOM then.
    const through = this.collectHosts(c.child, hosts, tags, 0);
    for (const h of hosts) sink.changed(ref, h, CHANGE_ADDED, through ? undefined : parent);
    hosts.length = 0;
  }

  /**
   * The DOM element a fiber's host nodes sit in: the nearest host above it, or the container of the root or portal
   * above it. Read from the fibers: no DOM call. (A commit's walk hands it down instead; React 16/17's unmount
   * callback comes on its own.)
   */
  private hostParent(f: Fiber, tags: TagTable): Element | null {
    let guard = 0;
    for (let p: Fiber | null = f.return; p !== null && guard++ < MAX_DEPTH; p = p.return) {
      if (kindOf(tags, p.tag) === HOST) return p.stateNode instanceof Element ? p.stateNode : null;
      if (p.tag === tags.hostRoot || p.tag === tags.hostPortal) {
        const c = (p.stateNode as { containerInfo?: unknown } | null)?.containerInfo;
        return c instanceof Element ? c : null;
      }
    }
    return null;
  }

  private updateFiber(f: Fiber, prev: Fiber, owner: ComponentRef | null, parentDepth: number, tags: TagTable,
    dom: Element | null): void {
    const flags = flagsOf(f);
    // The common case on a big list: a memoised child that bailed out. Nothing
    // rendered, nothing moved, children shared: one comparison and out.
    if (f.child === prev.child && (flags & (PERFORMED_WORK | PLACEMENT | UPDATE)) === 0) {
      if (this.pairs && kindOf(tags, f.tag) === COMPONENT) this.pair(f, prev);
      return;
    }
    let ref = owner;
    let depth = parentDepth;
    const kind = kindOf(tags, f.tag);
    if (kind === COMPONENT) {
      depth = parentDepth + 1;
      ref = this.refs.get(f) ?? this.refs.get(prev) ?? null;
      if (ref === null) {
        // Not seen before (e.g. mounted while we were detached): treat as a mount.
        this.mountFiber(f, owner, parentDepth, tags);
        return;
      }
      const sink = this.sink as ComponentSink;
      if (this.pairs) {
        this.pair(f, prev);
        // Only a hot update gives a fiber another type than its alternate's: React Refresh resolved its family to the
        // new function. Its name and source are to be read again.
        if (f.type !== prev.type) sink.retyped?.(ref);
      }
      // The pipeline's handle must reach the current children; a bailed-out
      // fiber shares its children with the alternate, so only a fiber that
      // rendered or got new children needs the update.
      sink.rehandle(ref, f);
      if ((flags & PERFORMED_WORK) !== 0) sink.rendered(ref);
      // Moved (a keyed list reordered): its elements are detached and attached again.
      if ((flags & PLACEMENT) !== 0) this.inserted(f, owner, tags, dom);
    } else if (owner !== null && (flags & (PLACEMENT | UPDATE)) !== 0 && (kind === HOST || f.tag === tags.hostText)) {
      this.updateHost(f, prev, owner, flags, tags, dom);
    } else if (f.tag === tags.hostPortal) {
      // Keep the fiber whose children are current (the content's top hosts are read from it).
      this.trackPortal(f, true);
    }
    // Nothing below changed: no walk (the common case on a grid's changed cells, whose children are text).
    if (f.child === prev.child) return;
    // The element the children sit in: this one, a portal's container, or the same as ours.
    const inner = kind === HOST ? (f.stateNode instanceof Element ? f.stateNode : dom)
      : f.tag === tags.hostPortal ? containerOf((f.stateNode as { containerInfo?: unknown } | null)?.containerInfo) : dom;
    this.updateChildren(f, prev, ref, depth, tags, inner);
  }

  /** A host element or text placed or updated under `owner`: what it changed in the DOM, if anything. */
  private updateHost(f: Fiber, prev: Fiber, owner: ComponentRef, flags: number, tags: TagTable,
    dom: Element | null): void {
    const sink = this.sink as ComponentSink;
    if ((flags & PLACEMENT) !== 0) {
      sink.structure(owner);
      this.inserted(f, owner, tags, dom);
    } else if (f.tag === tags.hostText) {
      if (f.memoizedProps !== prev.memoizedProps && dom !== null) sink.changed(owner, dom, CHANGE_TEXT);
    } else {
      // The element React wrote to. Under an element (`dom`, checked where the walk took it) a host's node is one too:
      // a DOM renderer's. Not read here — the first touch of each re-rendered cell's node was a tenth of a point of the
      // main thread on the 100 % grid (docs/PERFORMANCE.md, "Thirty-fifth session"); the sites it becomes are read only
      // when probed, and a probe keeps connected elements only. A host right under a document root (<html>) is checked.
      const el = f.stateNode as Element | null | undefined;
      if (el !== null && el !== undefined && (dom !== null || el instanceof Element)) {
        let how: number;
        try {
          how = diffProps(sink, el, f.memoizedProps, prev.memoizedProps);
        } catch {
          // A hostile getter in the props: a change of unknown kind.
          how = CHANGE_TEXT;
        }
        if (how !== 0) sink.changed(owner, el, how, dom);
      }
    }
  }

  topHostNodes(handle: object, out: Element[]): boolean {
    const hoisted = this.hoisted;
    hoisted.length = 0;
    this.singleton = false;
    const through = this.collectHosts((handle as Fiber).child, out, this.anyTags(), 0);
    // React 19 puts a hoistable (<title>, <meta>, <link>, <style> rendered anywhere) in <head>, and a host element
    // rendered beside the <html> (Next.js's metadata <div> beside its root layout) in the <body> singleton: a top can
    // then sit inside another (the <html> a root layout renders), and is left out, not counted twice. Hoistables go
    // last (the first top is the one a shift's cause is looked for from).
    for (const h of hoisted) out.push(h);
    if ((this.singleton || hoisted.length > 0) && out.length > 1) {
      const kept = outermost(out);
      out.length = 0;
      for (const k of kept) out.push(k);
    }
    hoisted.length = 0;
    return through;
  }

  /** The walk of `topHostNodes` met a singleton. */
  private singleton = false;

  /** The hoistables met by the walk of `topHostNodes` (kept apart until the other tops are known). */
  private readonly hoisted: Element[] = [];

  /** Appends the top hosts under `first` and its siblings; true when any was reached through a portal. */
  private collectHosts(first: Fiber | null, out: Element[], tags: TagTable, depth: number): boolean {
    if (depth > MAX_DEPTH) return false;
    let through = false;
    for (let c = first; c !== null; c = c.sibling) {
      if (kindOf(tags, c.tag) === HOST) {
        if (c.tag === HOST_SINGLETON) this.singleton = true;
        if (c.tag === HOST_HOISTABLE) {
          // A hoistable's stateNode is its element (a resource's is not an Element: nothing to count).
          if (c.stateNode instanceof Element) this.hoisted.push(c.stateNode);
        } else if (c.stateNode instanceof Element) out.push(c.stateNode);
      } else if (c.tag === tags.hostPortal) {
        const before = out.length;
        this.collectHosts(c.child, out, tags, depth + 1);
        if (out.length > before) through = true;
      } else if (c.tag !== tags.hostText) {
        if (this.collectHosts(c.child, out, tags, depth + 1)) through = true;
      }
    }
    return through;
  }

  portalAbove(handle: object): boolean {
    const tags = this.anyTags();
    let guard = 0;
    for (let f = (handle as Fiber).return; f !== null && guard++ < MAX_DEPTH; f = f.return) {
      if (f.tag === tags.hostPortal) return true;
      if (kindOf(tags, f.tag) === COMPONENT || f.tag === tags.hostRoot) return false;
    }
    return false;
  }

  portals(visit: (container: Element, ownerId: number, tops: Element[], inner: number[]) => void): void {
    const tags = this.anyTags();
    const tops = this.portalTops;
    const inner = this.portalInner;
    const outermost = (first: Fiber | null, depth: number): void => {
      for (let c = first; c !== null && depth < MAX_DEPTH; c = c.sibling) {
        if (kindOf(tags, c.tag) === COMPONENT) {
          const id = this.idOf(c);
          if (id !== 0) inner.push(id);
        } else if (c.tag !== tags.hostPortal) {
          outermost(c.child, depth + 1);
        }
      }
    };
    for (const f of this.portalFibers.values()) {
      const container = (f.stateNode as { containerInfo?: unknown } | null)?.containerInfo;
      if (!(container instanceof Element)) continue;
      let owner = 0;
      let guard = 0;
      for (let p = f.return; p !== null && guard++ < MAX_DEPTH; p = p.return) {
        if (kindOf(tags, p.tag) === COMPONENT) {
          owner = this.idOf(p);
          break;
        }
      }
      tops.length = 0;
      this.collectHosts(f.child, tops, tags, 0);
      inner.length = 0;
      outermost(f.child, 0);
      visit(container, owner, tops, inner);
    }
  }

  authored(handle: object, childAuthored: (child: ComponentRef) => number | null): number {
    const tags = this.anyTags();
    const walk = (first: Fiber | null, depth: number): number => {
      let n = 0;
      for (let c = first; c !== null && depth < MAX_DEPTH; c = c.sibling) {
        if (kindOf(tags, c.tag) === COMPONENT) {
          const ref = this.refOf(c);
          const known = ref === undefined ? null : childAuthored(ref);
          if (known !== null) {
            n += known;
            continue;
          }
        }
        if (kindOf(tags, c.tag) === HOST) n++;
        n += walk(c.child, depth + 1);
      }
      return n;
    };
    return walk((handle as Fiber).child, 0);
  }

  private anyTags(): TagTable {
    return this.tables.values().next().value ?? tagsFor(undefined);
  }

  ownerOf(node: Node): number {
    let n: Node | null = node;
    let guard = 0;
    while (n !== null && guard++ < 10_000) {
      const fiber = this.fiberOfNode(n);
      if (fiber) {
        for (let f: Fiber | null = fiber.return; f !== null; f = f.return) {
          const id = this.idOf(f);
          if (id !== 0) return id;
        }
        return 0;
      }
      n = n.parentNode ?? ((n as ShadowRoot).host instanceof Element ? (n as ShadowRoot).host : null);
    }
    return 0;
  }

  /** React stores the fiber on each DOM node under `__reactFiber$…` (17+) or `__reactInternalInstance$…` (16). */
  private fiberOfNode(n: Node): Fiber | null {
    const rec = n as unknown as Record<string, Fiber | undefined>;
    for (const k of this.fiberKeys) {
      const f = rec[k];
      if (f) return f;
    }
    for (const k of Object.keys(n)) {
      if (k.startsWith('__reactFiber$') || k.startsWith('__reactInternalInstance$')) {
        this.fiberKeys.push(k);
        return rec[k] ?? null;
      }
    }
    return null;
  }
}
