/**
 * DOM changes the framework did not make (issue 43: "whatever React, a library or page code did"): imperative widgets,
 * innerHTML, web components' shadow trees, a positioning library writing `style.top`, page code setting text.
 *
 * Two observers, both on the document and every shadow root the attachShadow wrapper reports:
 *  - childList, always while on: nodes added or removed. React's own structural changes come here too; a record in a
 *    component whose commit already reported a change this frame is React's and adds nothing.
 *  - attributes and text, not always: on a busy page React's own writes would make a record each (a 4 900-cell grid
 *    changing 10 % a tick: a thousand records, ≈ 0.5 ms a tick, more than the overlay's whole budget), and the
 *    commit already says what they are. So it *discovers*: it observes everything for one frame every
 *    DISCOVERY_MS, and at once after a frame whose layout had no known cause. A component in which such a frame finds
 *    changes nobody's commit reported has a foreign writer: from then on its top elements alone are observed, until
 *    it has had none for FORGET_MS. A foreign write between discoveries into a component not yet known for them is
 *    missed (docs/TIMING.md §2).
 */
import type { ShadowState } from '../../boot/link';
import { CHANGE_ADDED, CHANGE_CHILDREN, CHANGE_FOREIGN, CHANGE_TEXT } from '../adapter';
import { OVERLAY_TAG } from '../../../protocol/overlay-tag';
import { EXPERIMENT_ATTRIBUTE } from '../experiment/experiment';
import type { Entry, Registry } from './registry';
import type { Entries } from '../self-clock';

const TREE: MutationObserverInit = { childList: true, subtree: true };
const ATTRS: MutationObserverInit = { attributes: true, characterData: true, subtree: true, attributeOldValue: true, characterDataOldValue: true };
/** One frame of whole-document attribute and text observation this often (or, when one cost more than 1/DISCOVERY_SHARE of that, less often). */
export const DISCOVERY_MS = 2_000;
const DISCOVERY_SHARE = 0.0005;
/** After a frame whose layout had no cause, the next discovery waits at most this long. */
const UNEXPLAINED_MS = 250;
/** A component with no foreign write for this long is observed no more. */
const FORGET_MS = 10_000;
/** Components observed for foreign writes, at most. */
const MAX_SCOPED = 64;
/** Attribute and text records read to name the writers before a page's forced read (the first; the rest let go). */
export const WRITER_RECORDS = 256;

export class MutationTracker {
  private observer: MutationObserver | null = null;
  private attrs: MutationObserver | null = null;
  /** Observing every attribute and text change of the document (one frame). */
  private discovering = false;
  private lastDiscovery = -Infinity;
  /** What handling the last discovery frame's records cost (ms), to space them out on a busy page. */
  private discoveryCostMs = 0;
  private discoveryCost = 0;
  /** Components with foreign writers, and when one was last seen. */
  private readonly scoped = new Map<Entry, number>();
  /**
   * Components found with a foreign writer since start: each find means that frames before it held that writer's
   * changes unseen (the probes let go of the places' own figures: probes.ts `forgetSeen`).
   */
  found = 0;
  private scopedChanged = false;

  constructor(
    private readonly shadow: ShadowState,
    private readonly ownerOf: (node: Node) => number,
    private readonly registry: Registry,
    private readonly onDirty: () => void,
    private readonly clock: Entries | null = null,
    private readonly now: () => number = () => performance.now(),
    /** DOM a framework adapter observes itself (Vue's apps: adapter.ts `observes`): its records are the adapter's. */
    private readonly elsewhere: (node: Node) => boolean = () => false,
  ) {}

  start(): void {
    if (this.observer) return;
    this.observer = new MutationObserver(this.observed);
    this.attrs = new MutationObserver(this.observed);
    this.read = 0;
    this.observeAll(this.observer, TREE);
    this.shadow.onAttach = (_host, root) => {
      this.observer?.observe(root, TREE);
      if (this.discovering) this.attrs?.observe(root, ATTRS);
    };
    this.lastDiscovery = -Infinity;
  }

  /**
   * Whether the document's nodes added and removed are observed here: not while every framework on the page reads its
   * own roots' records (Vue, Preact: dom-commits.ts, whose observer sees the document's too). Each record is made for
   * each observer that asks: a Vue grid's thousands a tick would be made twice and looked at twice. Shadow roots stay
   * observed (no framework's observer reaches into them).
   */
  private wholeDocument = true;

  setWholeDocument(yes: boolean): void {
    if (yes === this.wholeDocument) return;
    this.wholeDocument = yes;
    const o = this.observer;
    if (o === null) return;
    this.handle(o.takeRecords());
    o.disconnect();
    this.observeAll(o, TREE);
  }

  private observeAll(o: MutationObserver, opts: MutationObserverInit): void {
    if (this.wholeDocument || o !== this.observer) o.observe(document, opts);
    for (const ref of this.shadow.hosts) {
      const host = ref.deref();
      const root = host ? this.shadow.rootOf.get(host) ?? host.shadowRoot : null;
      if (root) o.observe(root, opts);
    }
  }

  /** Both observers' callback: the agent's own work (self-clock.ts). */
  private readonly observed = (records: MutationRecord[]): void => {
    this.clock?.enter();
    try {
      this.handle(records);
    } catch (e) {
      this.clock?.fault(e);
    } finally {
      this.clock?.leave();
    }
  };

  stop(): void {
    this.observer?.disconnect();
    this.observer = null;
    this.attrs?.disconnect();
    this.attrs = null;
    this.discovering = false;
    this.scoped.clear();
    this.shadow.onAttach = null;
    this.wholeDocument = true;
  }

  /**
   * Handle queued records now (at frame end) instead of waiting for the microtask. `limit`: attribute and text records
   * read at most, the rest let go unread. A page's forced read passes 0 (its reader paid for everything written before
   * it: thousands of cells written before a read would otherwise cost a look-up and a diff each inside the page's
   * read), or WRITER_RECORDS when the read's writers are to be named. Nodes added or removed are always read (element
   * counts).
   */
  drain(limit = Infinity): void {
    if (this.observer) this.handle(this.observer.takeRecords());
    if (this.attrs) this.handle(this.attrs.takeRecords(), limit);
  }

  /** Components watched for foreign attribute and text writes (internals, tests). */
  get watched(): number {
    return this.scoped.size;
  }

  /** Attribute and text records read since start (internals, tests): those let go at a page's read are not. */
  read = 0;

  /**
   * At frame end, after `drain` and the frame's weighing: ends a discovery frame, starts the next when it is due (or
   * at once after a frame whose layout had no known cause), and re-observes the components with foreign writers.
   */
  endFrame(unexplainedLayout: boolean): void {
    const attrs = this.attrs;
    if (!attrs) return;
    const now = this.now();
    for (const [e, at] of this.scoped) {
      if (now - at > FORGET_MS || this.registry.entries.get(e.id) !== e) {
        this.scoped.delete(e);
        this.scopedChanged = true;
      }
    }
    if (this.discovering) this.discoveryCostMs = this.discoveryCost;
    this.discoveryCost = 0;
    const every = Math.max(unexplainedLayout ? UNEXPLAINED_MS : DISCOVERY_MS, this.discoveryCostMs / DISCOVERY_SHARE);
    if (now - this.lastDiscovery >= every) {
      this.lastDiscovery = now;
      attrs.disconnect();
      this.observeAll(attrs, ATTRS);
      this.discovering = true;
      return;
    }
    if (!this.discovering && !this.scopedChanged) return;
    this.discovering = false;
    this.scopedChanged = false;
    attrs.disconnect();
    for (const e of this.scoped.keys()) for (const h of this.registry.hostsOf(e)) attrs.observe(h, ATTRS);
  }

  private handle(records: MutationRecord[], limit = Infinity): void {
    const n = Math.min(records.length, limit);
    if (n === 0) return;
    let any = false;
    // The time the batch's foreign writes are stamped with (`foreign`), and where its cost starts: a discovery frame's
    // records come here from the drain and, between the commits that write them, from the observer's callback.
    const at = this.now();
    let last: Node | null = null;
    const causes = this.registry.causes;
    const root = document.documentElement;
    for (let i = 0; i < n; i++) {
      const r = records[i];
      if (r.type === 'childList') {
        if (r.target === last || isOverlay(r, root)) continue;
        last = r.target;
      }
      const target = r.type === 'characterData' ? r.target.parentElement : r.target;
      if (!(target instanceof Element) || target.localName === OVERLAY_TAG || this.elsewhere(target)) continue;
      if (r.type !== 'childList') this.read++;
      const e = this.registry.entries.get(this.ownerOf(target));
      if (e === undefined) continue;
      any = true;
      if (r.type === 'childList') this.registry.structure(e);
      // Its commit reported what changed in it this frame: the record is React's.
      if (this.fromCommit(e) || (r.type === 'childList' && this.insertedByCommit(r))) continue;
      if (r.type === 'attributes') {
        const name = r.attributeName ?? '';
        // The agent's own experiment attribute is never a cause.
        if (name === EXPERIMENT_ATTRIBUTE) continue;
        const now = target.getAttribute(name);
        if (now === r.oldValue) continue;
        causes.attribute(e, target, name, r.oldValue, now, CHANGE_FOREIGN);
      } else if (r.type === 'characterData') {
        if ((r.target as CharacterData).data === r.oldValue) continue;
        this.registry.changed(e, target, CHANGE_TEXT | CHANGE_FOREIGN);
      } else {
        this.registry.changed(e, target, CHANGE_CHILDREN | CHANGE_FOREIGN);
        const added = r.addedNodes;
        for (let i = 0; i < added.length && i < 4; i++) {
          const n = added[i];
          if (n instanceof Element) this.registry.changed(e, n, CHANGE_ADDED | CHANGE_FOREIGN);
        }
      }
      if (r.type !== 'childList') this.foreign(e, at);
    }
    if (this.discovering) this.discoveryCost += this.now() - at;
    if (any) this.onDirty();
  }

  private fromCommit(e: Entry): boolean {
    return this.registry.causes.committed(e);
  }

  /** A childList record whose first added node belongs to a component the commit reported (one it mounted). */
  private insertedByCommit(r: MutationRecord): boolean {
    const n = r.addedNodes.length > 0 ? r.addedNodes[0] : null;
    if (n === null) return false;
    const e = this.registry.entries.get(this.ownerOf(n));
    return e !== undefined && this.fromCommit(e);
  }

  private foreign(e: Entry, at: number): void {
    if (!this.scoped.has(e)) {
      if (this.scoped.size >= MAX_SCOPED) return;
      this.scopedChanged = true;
      this.found++;
    }
    this.scoped.set(e, at);
  }
}

/** Our overlay's host coming or going: it is put in the document's root element (content/agent/canvas/host.ts). */
function isOverlay(r: MutationRecord, root: Element | null): boolean {
  if (r.target !== root && r.target !== document) return false;
  const n = r.addedNodes.length === 1 ? r.addedNodes[0] : r.removedNodes.length === 1 ? r.removedNodes[0] : null;
  return n !== null && (n as Element).localName === OVERLAY_TAG;
}
