/**
 * The shared half of an adapter for a framework whose commits only the browser can tell (Vue 3 in every build,
 * Preact in production: nothing reports a commit, nothing leads from an element to its component; issues 63 and 64).
 * The framework's half (vue/, preact/) walks its own tree: it finds the roots' containers and, from a container or a
 * component, reports the components it meets (`met`), their top elements (`top`) and the portals it passes
 * (`portal`). This half keeps the table and reads the commits:
 *
 *  - A MutationObserver on each root's container and each portal's target (attributes, text, child lists, with the
 *    values before) takes the framework's writes as it makes them. Vue and Preact write only what their own diff
 *    found different, so a re-render that changed nothing in the DOM makes no record: it is never a cause, at no
 *    cost of ours.
 *  - Nodes added or removed: the component owning the parent walks its subtree again (components new to it mount;
 *    those the framework marked gone go), and the change is its cause; the components whose top elements came or
 *    went are recounted.
 *  - Attributes and text: a cause of the component that owns the node, weighed like any other (pipeline/causes.ts).
 *  - From a node to its component: the framework's own link on the element when a build has one (Vue's development
 *    builds), else the nearest element above that is a component's top element (the walks remember them).
 */
import { CHANGE_ADDED, CHANGE_CHILDREN, CHANGE_TEXT, howOf, KIND_STYLE, type ComponentRef, type ComponentSink } from './adapter';
import type { Entries } from './self-clock';

const MAX_DEPTH = 10_000;
/**
 * One observer for each kind of record, each with the values before (a class's kind is read from before and after):
 * the observer that hands a record over says what it is, where reading each record's `type` was a call into the
 * browser for each of a busy grid's thousands a tick (docs/FRAMEWORKS.md, "What a record costs").
 */
const ATTRIBUTES: MutationObserverInit = { attributes: true, subtree: true, attributeOldValue: true };
const TEXTS: MutationObserverInit = { characterData: true, subtree: true, characterDataOldValue: true };
/** Nodes added and removed: in each root, and on the document (new roots' containers filling up, portals' nodes). */
const TREE: MutationObserverInit = { childList: true, subtree: true };
/** How far past the last pair an attribute's element is looked for among the text records (`handle`). */
const PAIR_WINDOW = 16;
const NO_RECORDS: readonly MutationRecord[] = [];
/** Walks of every root again for elements added outside them (a portal mounted since), at most one in this many ms. */
const REWALK_MS = 250;
/** Added elements a child-list record's cause is noted at, at most. */
const MAX_ADDED = 4;
/** A record's kind (`DomCommits.handle`): nodes added or removed, one text node swapped for another, an attribute, a text's data. */
const R_CHILDREN = 0, R_TEXT_SWAP = 1, R_ATTRIBUTE = 2, R_TEXT = 3;
type AnyNode = Node | null;

export type Clock = Entries;

/** `held` records (a callback's) followed by what the observer holds still, or either alone. */
function take(held: MutationRecord[] | null, o: MutationObserver | null): readonly MutationRecord[] {
  const more = o === null ? NO_RECORDS : o.takeRecords();
  if (held === null) return more;
  for (let k = 0; k < more.length; k++) held[held.length] = more[k];
  return held;
}

/** A mounted portal: where its content lands, the component that rendered it, and the framework's content. */
interface Portal<I> {
  target: Element;
  owner: I | null;
  content: unknown;
}

export abstract class DomCommits<I extends object> {
  protected sink: ComponentSink | null = null;
  protected refs = new WeakMap<I, ComponentRef>();
  /** The instances reported mounted: looked at when nodes were removed (the framework marks the ones it unmounted). */
  protected readonly live = new Set<I>();
  /** An element → the innermost component it is a top element of (the walks keep it: production's only way back). */
  private tops = new WeakMap<Element, I>();
  /** Components whose DOM a portal puts away from their parent's. */
  private portalled = new WeakSet<I>();
  /** The roots' containers and the portals' targets: observed whole (attributes and text too). */
  private readonly observedRoots = new Set<Element>();
  /** Mounted portals, by something the framework keeps for them across renders (a node, an instance). */
  private readonly portalsBy = new Map<object, Portal<I>>();
  /** Nodes added and removed (`TREE`), attributes, texts' data: see ATTRIBUTES. */
  private observer: MutationObserver | null = null;
  private attrObserver: MutationObserver | null = null;
  private textObserver: MutationObserver | null = null;
  portalVersion = 0;
  private readonly portalTopsOut: Element[] = [];
  private readonly portalInnerOut: number[] = [];
  /** Records being handled now (a flush inside the observer's own callback finds none left: nothing is read twice). */
  private handling = false;

  constructor(private readonly clock: Clock | null = null) {}

  // The framework's half.
  /** Whether a node is one of the framework's root containers. */
  protected abstract isContainer(n: Node): boolean;
  /** The root component a container renders (null: none now). */
  protected abstract rootInstance(container: Element): I | null;
  /** Walks everything a container renders (`met`, `top`, `portal` for what it meets). */
  protected abstract walkContainer(container: Element): void;
  /** Walks what a mounted component renders, below it. */
  protected abstract walkInstance(inst: I, ref: ComponentRef, depth: number): void;
  protected abstract parentOf(inst: I): I | null;
  /** Whether the framework unmounted the instance (or put it away: Vue's `<KeepAlive>`). */
  protected abstract isGone(inst: I): boolean;
  /** The component the framework's own link on an element names (a development build's), or null. */
  protected abstract linked(el: Element): I | null;
  /** A component's name and key, for its mount. */
  protected abstract nameOfInstance(inst: I): string;
  protected abstract keyOfInstance(inst: I): string | null;
  /** A portal's content: its top elements, appended to `out`, and its outermost components' records. */
  protected abstract portalTops(content: unknown, out: Element[]): void;
  protected abstract portalInner(content: unknown, visit: (inst: I) => void): void;

  attach(sink: ComponentSink): void {
    this.sink = sink;
    // One observer for each kind of record, and a fourth called after them (`delivered`): one batch, one commit.
    this.observer = new MutationObserver(this.delivered);
    this.attrObserver = new MutationObserver(this.delivered);
    this.textObserver = new MutationObserver(this.delivered);
    this.tail = new MutationObserver(this.readHeld);
    this.tailNode = document.createTextNode('');
    this.tail.observe(this.tailNode, { characterData: true });
    this.observer.observe(document, TREE);
    const found = document.querySelectorAll('*');
    for (let i = 0; i < found.length; i++) if (this.isContainer(found[i])) this.addRoot(found[i]);
    sink.committed();
  }

  /**
   * Each observer's callback: its records are kept, and read with the others' once every observer holding records has
   * been called. The browser calls them one after another in one microtask, each only while it holds records; a write
   * to a text node of ours that a fourth observer watches (`tail`) queues a call of that one after them (no global of
   * the page's, such as `queueMicrotask`, is used). Asking the others for theirs from the first callback would make
   * their records inside our code, where the browser makes each callback's before calling it: the same work, charged
   * elsewhere (docs/FRAMEWORKS.md, "What a record costs").
   */
  private readonly delivered = (records: MutationRecord[], by: MutationObserver): void => {
    const i = by === this.attrObserver ? 0 : by === this.observer ? 1 : 2;
    const held = this.held[i];
    // Not inside an entry of ours (self-clock.ts): no built-in method the page may have replaced.
    if (held === null) this.held[i] = records;
    else for (let k = 0; k < records.length; k++) held[held.length] = records[k];
    if (this.heldDue) return;
    this.heldDue = true;
    const node = this.tailNode;
    if (node !== null) {
      try {
        node.data = node.data === '' ? '.' : '';
        return;
      } catch {
        // Read now instead.
      }
    }
    this.readHeld();
  };

  /** Its records say only that every observer holding records was called: `readHeld`. */
  private tail: MutationObserver | null = null;
  private tailNode: Text | null = null;

  /** Records the callbacks kept (attributes, nodes added or removed, texts), and whether a read of them is queued. */
  private readonly held: (MutationRecord[] | null)[] = [null, null, null];
  private heldDue = false;

  private readonly readHeld = (): void => {
    this.heldDue = false;
    this.tail?.takeRecords();
    if (this.held[0] === null && this.held[1] === null && this.held[2] === null) return;
    this.clock?.enter();
    try {
      this.readAll();
    } catch (e) {
      this.clock?.fault(e);
    } finally {
      this.clock?.leave();
    }
  };

  /** Every record not read yet: the ones the callbacks kept, then what the observers hold. */
  private readAll(): void {
    const held = this.held;
    const attrs = take(held[0], this.attrObserver), tree = take(held[1], this.observer), texts = take(held[2], this.textObserver);
    held[0] = held[1] = held[2] = null;
    this.handle(attrs, tree, texts);
  }

  detach(): void {
    this.observer?.disconnect();
    this.observer = null;
    this.attrObserver?.disconnect();
    this.attrObserver = null;
    this.textObserver?.disconnect();
    this.textObserver = null;
    this.held[0] = this.held[1] = this.held[2] = null;
    this.heldDue = false;
    this.tail?.disconnect();
    this.tail = null;
    this.tailNode = null;
    this.sink = null;
    this.refs = new WeakMap();
    this.tops = new WeakMap();
    this.portalled = new WeakSet();
    this.leaves = new WeakSet();
    this.leavesHeld = false;
    this.live.clear();
    this.observedRoots.clear();
    this.portalsBy.clear();
    this.portalVersion++;
  }

  /** A container a root renders in: walked whole, observed whole. */
  private addRoot(container: Element): void {
    this.observe(container);
    this.walkContainer(container);
  }

  private observe(root: Element): void {
    if (this.observedRoots.has(root)) return;
    this.observedRoots.add(root);
    this.observer?.observe(root, TREE);
    this.attrObserver?.observe(root, ATTRIBUTES);
    this.textObserver?.observe(root, TEXTS);
  }

  // What the framework's walks report.
  /**
   * A component met under `ownerRef` (null: a root) at `depth`: reported mounted when new. `through`: a portal lies
   * between it and its parent. Returns its record, or null when the framework has let it go (not to be walked).
   */
  protected met(inst: I, ownerRef: ComponentRef | null, depth: number, through: boolean): ComponentRef | null {
    if (this.isGone(inst)) return null;
    let ref = this.refs.get(inst);
    if (ref === undefined) {
      ref = (this.sink as ComponentSink).mount(inst, ownerRef, depth, this.nameOfInstance(inst), this.keyOfInstance(inst));
      this.refs.set(inst, ref);
      this.live.add(inst);
    }
    if (through) this.portalled.add(inst);
    return ref;
  }

  /** `el` is a top element of `owner` (no element of the owner's lies above it): the innermost one met last wins. */
  protected top(el: Element, owner: I): void {
    this.tops.set(el, owner);
  }

  /** A portal of `owner` whose content lands in `target`, known by `key` (a node or an object that lasts across renders). */
  protected portal(key: object, target: Element, owner: I | null, content: unknown): void {
    this.observe(target);
    if (!this.portalsBy.has(key)) this.portalVersion++;
    this.portalsBy.set(key, { target, owner, content });
  }

  protected refOfInstance(inst: I): ComponentRef | undefined {
    return this.refs.get(inst);
  }

  /** The roots mounted now (containers rendering a root component). */
  get roots(): number {
    let n = 0;
    for (const r of this.observedRoots) if (this.isContainer(r) && this.rootInstance(r) !== null) n++;
    return n;
  }

  observes(node: Node): boolean {
    for (const r of this.observedRoots) {
      if (r !== node && !r.contains(node)) continue;
      // A root's container is the framework's throughout; a portal's target (the body, often) only where its content is.
      if (this.isContainer(r) || this.ownerInstance(node) !== null) return true;
    }
    return false;
  }

  flush(): void {
    if (this.observer !== null && !this.handling) this.readAll();
  }

  catchUp(): void {
    this.flush();
  }

  /**
   * The instances the framework unmounted (or put away) since: reported gone (children first). Each one's nearest
   * mounted ancestor lost DOM: added to `recount`.
   */
  private sweep(recount: Set<I>): void {
    const sink = this.sink as ComponentSink;
    const gone: I[] = [];
    for (const inst of this.live) if (this.isGone(inst)) gone.push(inst);
    for (let i = gone.length - 1; i >= 0; i--) {
      const inst = gone[i];
      const ref = this.refs.get(inst);
      this.live.delete(inst);
      this.refs.delete(inst);
      if (ref !== undefined) sink.unmount(ref);
    }
    for (const inst of gone) {
      const above = this.nearestLive(this.parentOf(inst));
      if (above !== null) recount.add(above);
    }
    if (gone.length > 0) {
      for (const [key, p] of this.portalsBy) {
        const gone = key instanceof Node ? !key.isConnected : this.isGone(key as I);
        if (gone || (p.owner !== null && !this.live.has(p.owner))) {
          this.portalsBy.delete(key);
          this.portalVersion++;
        }
      }
    }
  }

  /** `inst` when it is mounted, else its nearest mounted ancestor (null: none). */
  private nearestLive(inst: I | null): I | null {
    for (let c = inst, g = 0; c !== null && g < MAX_DEPTH; c = this.parentOf(c), g++) if (this.live.has(c)) return c;
    return null;
  }

  /** How deep a component sits among components (its mount's depth: a walk from it starts there). */
  protected depthOf(inst: I): number {
    let d = 0;
    for (let p = this.parentOf(inst); p !== null && d < MAX_DEPTH; p = this.parentOf(p)) d++;
    return d;
  }

  /** When every root was last walked again for elements added outside them (`handle`), and whether one is owed. */
  private rewalkedAt = -Infinity;
  private rewalkDue = false;

  /** Each node-list record's kind for `handle` (R_CHILDREN or R_TEXT_SWAP), reused batch after batch. */
  private kinds = new Uint8Array(64);
  /** 1 where a text swap's element is known to hold no element child (`handle`'s first pass read it). */
  private leafs = new Uint8Array(64);
  /** 1 where a node-list record, or a text record, was paired with an attribute record (`handle`). */
  private pairedTree = new Uint8Array(64);
  private pairedText = new Uint8Array(64);
  /**
   * Each record's target (and a text's parent), read once (`handle`): every read of a record's field is a call into
   * the browser that hands out the node's wrapper, and a class-and-text pair was read four times. Emptied after each
   * batch: no node kept.
   */
  private readonly treeTargets: AnyNode[] = [];
  private readonly textTargets: AnyNode[] = [];
  private readonly textParents: (AnyNode | undefined)[] = [];

  /**
   * Elements a text swap was read in (`handle`) that held no element child after it, since the last record that
   * added nodes anywhere: such an element gains an element child only through a record that adds one, which empties
   * this set first. A record on one of them that leaves it without element children swapped its text, known without
   * reading the record's node lists — each list a record hands out is an object made for it, about 300 ns a record
   * on a busy grid's tick (the Vue StressGrid: 490 cells a tick; docs/FRAMEWORKS.md).
   */
  private leaves = new WeakSet<Node>();
  /** Whether `leaves` holds anything: a mount's hundreds of insertion records then make no new set each. */
  private leavesHeld = false;

  /**
   * The browser's records of the framework's writes (and anything else in its roots): the commit they make. The three
   * lists come from the three observers: attributes, nodes added or removed, texts' data.
   */
  private handle(attrs: readonly MutationRecord[], tree: readonly MutationRecord[], texts: readonly MutationRecord[]): void {
    const sink = this.sink;
    const na = attrs.length, nt = tree.length, nd = texts.length;
    if (sink === null || na + nt + nd === 0) return;
    this.handling = true;
    try {
      if (this.kinds.length < nt) {
        this.kinds = new Uint8Array(Math.max(nt, this.kinds.length * 2));
        this.leafs = new Uint8Array(this.kinds.length);
        this.pairedTree = new Uint8Array(this.kinds.length);
      }
      if (this.pairedText.length < nd) this.pairedText = new Uint8Array(Math.max(nd, this.pairedText.length * 2));
      const kinds = this.kinds, leafs = this.leafs, pairedTree = this.pairedTree, treeTargets = this.treeTargets;
      let containers: Set<Element> | null = null;
      let walked: Set<I> | null = null;
      // Components whose rendered tree lost or gained elements or components: recounted (the registry adds each
      // difference to the ancestors).
      const recount = new Set<I>();
      let removed = false;
      let structural = false;
      let outside = false;
      // Nodes added or removed first: new components mount and gone ones go before any change is said to be theirs.
      for (let i = 0; i < nt; i++) {
        const r = tree[i];
        const t = r.target;
        treeTargets[i] = t;
        leafs[i] = 0;
        pairedTree[i] = 0;
        // A text swapped again in an element known to hold no element child, and still holding none (`leaves`).
        if (this.leaves.has(t) && (t as ParentNode).childElementCount === 0) {
          kinds[i] = R_TEXT_SWAP;
          leafs[i] = 1;
          continue;
        }
        const gone = r.removedNodes;
        const added = r.addedNodes;
        // One text node for another (`textContent =` on an element holding text: Vue's text children, a busy grid's
        // thousands of cells a tick): no element and no component came or went — a text change, not a structure.
        // That the added node is no element is read from the target's element count first: the new text node has no
        // JS wrapper yet, and making one to ask its type cost ≈ 110 ns a cell on a 100 % tick (docs/FRAMEWORKS.md).
        if (gone.length === 1 && added.length === 1 && gone[0].nodeType === 3) {
          const leaf = (t as ParentNode).childElementCount === 0;
          if (leaf || added[0].nodeType === 3) {
            kinds[i] = R_TEXT_SWAP;
            if (leaf) {
              leafs[i] = 1;
              this.leaves.add(t);
              this.leavesHeld = true;
            }
            continue;
          }
        }
        // Nodes added: any element known to hold none may hold one now (or, moved in, may have got one while away).
        if (this.leavesHeld && added.length > 0) {
          this.leaves = new WeakSet();
          this.leavesHeld = false;
        }
        kinds[i] = R_CHILDREN;
        structural = true;
        if (gone.length > 0) removed = true;
        // A removed element was some component's top element (the innermost one's): that one changed.
        for (let k = 0; k < gone.length; k++) {
          const was = gone[k].nodeType === 1 ? this.tops.get(gone[k] as Element) : undefined;
          if (was !== undefined) recount.add(was);
        }
        if (this.isContainer(t)) {
          // The root component's own top nodes, or a root rendered (again) here: the container is walked whole.
          (containers ??= new Set()).add(t as Element);
        } else if (t instanceof Element && this.observedRoots.has(t)) {
          // A portal's target: the components whose portals send nodes here.
          for (const p of this.portalsBy.values()) if (p.target === t && p.owner !== null) (walked ??= new Set()).add(p.owner);
        } else {
          const owner = this.ownerInstance(t);
          if (owner !== null) (walked ??= new Set()).add(owner);
          else if (!outside) for (let k = 0; k < added.length && !outside; k++) outside = added[k].nodeType === 1;
        }
      }
      // Elements added outside every root and known portal target: perhaps a portal mounted since the last walk by a
      // component that renders nothing in place (preact/compat's, issue 64), whose owner no record of its root names.
      // Every root is walked again (its portals found and observed), at most once every REWALK_MS while it recurs.
      if (outside || this.rewalkDue) {
        const now = performance.now();
        if (now - this.rewalkedAt >= REWALK_MS) {
          this.rewalkedAt = now;
          this.rewalkDue = false;
          structural = true;
          for (const r of this.observedRoots) {
            if (!this.isContainer(r)) continue;
            (containers ??= new Set()).add(r);
            const root = this.rootInstance(r);
            if (root !== null) recount.add(root);
          }
        } else this.rewalkDue = true;
      }
      if (structural) {
        if (removed) this.sweep(recount);
        if (containers !== null) for (const c of containers) this.addRoot(c);
        if (walked !== null) {
          for (const owner of walked) {
            const ref = this.refs.get(owner);
            if (ref === undefined || !this.live.has(owner)) continue;
            this.walkInstance(owner, ref, this.depthOf(owner));
            recount.add(owner);
          }
        }
        // An added element is a top element of the component that rendered it (the walk just noted it).
        for (let i = 0; i < nt; i++) {
          if (kinds[i] !== R_CHILDREN) continue;
          const added = tree[i].addedNodes;
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
      }
      let any = containers !== null || walked !== null || removed;
      // An element's attribute and then its text (Vue and Preact patch an element's props before its children): one
      // change, its owner found once. Vue swaps the text node (`textContent =`): a node-list record on the same
      // element; Preact writes its `data`: a text record whose parent it is, a change when it differs from the value
      // before. Both lists keep the order of the writes, so each attribute's text is looked for a few places past the
      // last one paired (cells whose text alone changed lie between); one not found there is a change of its own.
      const textTargets = this.textTargets, textParents = this.textParents;
      const pairedText = this.pairedText;
      for (let k = 0; k < nd; k++) {
        textTargets[k] = texts[k].target;
        textParents[k] = undefined;
        pairedText[k] = 0;
      }
      let kt = 0, kd = 0;
      for (let j = 0; j < na; j++) {
        const a = attrs[j];
        const t = a.target as Element;
        let pair = -1;
        for (let k = kt, end = Math.min(nt, kt + PAIR_WINDOW); k < end; k++) {
          if (treeTargets[k] === t && kinds[k] === R_TEXT_SWAP) {
            pair = k;
            break;
          }
        }
        if (pair >= 0) {
          pairedTree[pair] = 1;
          kt = pair + 1;
          if (this.textAndAttribute(sink, a, t, leafs[pair] === 1)) any = true;
          continue;
        }
        for (let k = kd, end = Math.min(nd, kd + PAIR_WINDOW); k < end; k++) {
          let p = textParents[k];
          if (p === undefined) p = textParents[k] = (textTargets[k] as Node).parentNode;
          if (p !== t) continue;
          const d = texts[k];
          if ((textTargets[k] as CharacterData).data !== d.oldValue) pair = k;
          break;
        }
        if (pair >= 0) {
          pairedText[pair] = 1;
          kd = pair + 1;
          if (this.textAndAttribute(sink, a, t, false)) any = true;
          continue;
        }
        if (this.cause(sink, a, t, R_ATTRIBUTE)) any = true;
      }
      for (let i = 0; i < nt; i++) if (pairedTree[i] === 0 && this.cause(sink, tree[i], treeTargets[i] as Node, kinds[i])) any = true;
      for (let k = 0; k < nd; k++) {
        if (pairedText[k] === 0 && this.cause(sink, texts[k], textTargets[k] as Node, R_TEXT, textParents[k])) any = true;
      }
      if (any) sink.committed();
    } finally {
      this.treeTargets.fill(null, 0, nt);
      this.textTargets.fill(null, 0, nd);
      this.textParents.fill(undefined, 0, nd);
      this.handling = false;
    }
  }

  /**
   * An element whose text was swapped (Vue) or written (Preact) and whose attribute changed in one batch: one change
   * of its owner. A class on a leaf whose text changed only restyles it (what it may move, the text moves: no rule
   * looked up), as for React's props (react/props.ts). `t` is `a`'s target; `leafKnown`: `t` is known to hold no
   * element child (false: not known, read here when needed).
   */
  private textAndAttribute(sink: ComponentSink, a: MutationRecord, t: Element, leafKnown: boolean): boolean {
    const ref = this.isRoot(t) ? this.rootRef(t) : this.refOfElement(t);
    if (ref === undefined) return false;
    const name = a.attributeName ?? '';
    const now = t.getAttribute(name);
    const before = a.oldValue;
    let how = CHANGE_TEXT;
    if (now !== before) {
      const leaf = leafKnown || t.firstElementChild === null;
      how |= howOf(name === 'class' && leaf ? KIND_STYLE : sink.attributeKind(name, before, now), leaf);
    }
    sink.changed(ref, t, how, t.parentElement);
    return true;
  }

  /**
   * One record (its target `t`, read once by `handle`) as a cause of the component whose DOM it changed; false when it
   * is no component's. `parent`: a text's parent node when `handle` read it already.
   */
  private cause(sink: ComponentSink, r: MutationRecord, t: Node, kind: number, parent?: AnyNode): boolean {
    if (kind === R_TEXT) {
      const el = parent === undefined ? t.parentElement : parent instanceof Element ? parent : null;
      const ref = el === null ? undefined : this.refOfElement(el);
      if (ref === undefined) return false;
      // Its element's parent: cells alike under one parent are split without weighing (causes.ts `alike`).
      if ((t as CharacterData).data !== r.oldValue) sink.changed(ref, el, CHANGE_TEXT, (el as Element).parentElement);
      return true;
    }
    if (!(t instanceof Element)) return false;
    const ref = this.isRoot(t) ? this.rootRef(t) : this.refOfElement(t);
    if (ref === undefined) return false;
    if (kind === R_TEXT_SWAP) {
      sink.changed(ref, t, CHANGE_TEXT, t.parentElement);
      return true;
    }
    if (kind === R_ATTRIBUTE) {
      const name = r.attributeName ?? '';
      const now = t.getAttribute(name);
      const before = r.oldValue;
      if (now === before) return true;
      const how = howOf(sink.attributeKind(name, before, now), t.firstElementChild === null);
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

  /**
   * Whether a node is a root's container: one observed (a Set's look-up) before the framework's mark is read (a mark an
   * element lacks is looked for along its whole prototype chain).
   */
  private isRoot(n: Node): boolean {
    return this.observedRoots.has(n as Element) && this.isContainer(n);
  }

  private rootRef(container: Element): ComponentRef | undefined {
    const root = this.rootInstance(container);
    return root === null ? undefined : this.refs.get(root);
  }

  private refOf(node: Node): ComponentRef | undefined {
    const inst = this.ownerInstance(node);
    return inst === null ? undefined : this.refs.get(inst);
  }

  /**
   * `refOf` for an element, a component's top element first (a busy grid's cells, thousands a tick): one look-up in
   * each map. An instance is mounted exactly when it has a record (`met` and `sweep` keep `live` and `refs` together),
   * so `refs` answers both. Anything else goes the whole way (`ownerInstance`).
   */
  private refOfElement(el: Element): ComponentRef | undefined {
    if (this.linked(el) === null) {
      const inst = this.tops.get(el);
      const ref = inst === undefined ? undefined : this.refs.get(inst);
      if (ref !== undefined) return ref;
    }
    return this.refOf(el);
  }

  /**
   * The mounted component that owns a node: the framework's own link on the element (or its nearest mounted ancestor
   * component), else the nearest element above that is a component's top element; up to a container, its root
   * component. Null outside any root.
   */
  private ownerInstance(node: Node): I | null {
    let n: Node | null = node.nodeType === 1 ? node : node.parentNode;
    for (let g = 0; n !== null && g < MAX_DEPTH; g++) {
      if (n.nodeType === 1) {
        const linked = this.linked(n as Element);
        if (linked !== null) return this.nearestLive(linked);
        const inst = this.tops.get(n as Element);
        if (inst !== undefined && this.live.has(inst)) return inst;
        if (this.isRoot(n)) {
          const root = this.rootInstance(n as Element);
          return root !== null && this.live.has(root) ? root : null;
        }
      }
      n = n.parentNode ?? ((n as ShadowRoot).host instanceof Element ? (n as ShadowRoot).host : null);
    }
    return null;
  }

  ownerOf(node: Node): number {
    return this.refOf(node)?.id ?? 0;
  }

  portalAbove(handle: object): boolean {
    return this.portalled.has(handle as I);
  }

  get portalCount(): number {
    return this.portalsBy.size;
  }

  portals(visit: (container: Element, ownerId: number, tops: Element[], inner: number[]) => void): void {
    const tops = this.portalTopsOut;
    const inner = this.portalInnerOut;
    for (const p of this.portalsBy.values()) {
      tops.length = 0;
      inner.length = 0;
      this.portalTops(p.content, tops);
      this.portalInner(p.content, (inst) => {
        const ref = this.refs.get(inst);
        if (ref !== undefined) inner.push(ref.id);
      });
      visit(p.target, p.owner === null ? 0 : this.refs.get(p.owner)?.id ?? 0, tops, inner);
    }
  }
}
