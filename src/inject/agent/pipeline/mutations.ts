/**
 * A MutationObserver for DOM the framework did not change: nodes added or
 * removed by other code (imperative widgets, innerHTML, web components'
 * shadow trees). It observes the document and every shadow root the
 * attachShadow wrapper reports, childList only: React's own text and
 * attribute updates produce no records, and its structural changes are
 * already known from the commit (their records are simply redundant).
 */
import type { ShadowState } from '../../boot/link';
import type { Registry } from './registry';

const OVERLAY_TAG = 'LAYOUT-COST-OVERLAY';
const OPTIONS: MutationObserverInit = { childList: true, subtree: true };

export class MutationTracker {
  private observer: MutationObserver | null = null;

  constructor(
    private readonly shadow: ShadowState,
    private readonly ownerOf: (node: Node) => number,
    private readonly registry: Registry,
    private readonly onDirty: () => void,
    private readonly clock: { enter(): void; leave(): void } | null = null,
  ) {}

  start(): void {
    if (this.observer) return;
    this.observer = new MutationObserver(this.observed);
    this.observer.observe(document, OPTIONS);
    for (const ref of this.shadow.hosts) {
      const host = ref.deref();
      const root = host ? this.shadow.rootOf.get(host) ?? host.shadowRoot : null;
      if (root) this.observer.observe(root, OPTIONS);
    }
    this.shadow.onAttach = (_host, root) => this.observer?.observe(root, OPTIONS);
  }

  /** The observer's callback: the agent's own work (self-clock.ts). */
  private readonly observed = (records: MutationRecord[]): void => {
    this.clock?.enter();
    try {
      this.handle(records);
    } finally {
      this.clock?.leave();
    }
  };

  stop(): void {
    this.observer?.disconnect();
    this.observer = null;
    this.shadow.onAttach = null;
  }

  /** Handle queued records now (at frame end) instead of waiting for the microtask. */
  drain(): void {
    if (this.observer) this.handle(this.observer.takeRecords());
  }

  private handle(records: MutationRecord[]): void {
    let any = false;
    let last: Node | null = null;
    for (const r of records) {
      if (r.target === last) continue;
      if (isOverlay(r)) continue;
      last = r.target;
      const e = this.registry.entries.get(this.ownerOf(r.target));
      if (e !== undefined) {
        this.registry.structure(e);
        this.registry.dirty(e);
        any = true;
      }
    }
    if (any) this.onDirty();
  }
}

function isOverlay(r: MutationRecord): boolean {
  const n = r.addedNodes.length === 1 ? r.addedNodes[0] : r.removedNodes.length === 1 ? r.removedNodes[0] : null;
  return n !== null && n.nodeName === OVERLAY_TAG;
}
