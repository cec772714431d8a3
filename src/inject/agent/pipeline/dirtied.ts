/**
 * What dirtied the pinned component (issue 12, item 1): the DOM changes in
 * its subtree per frame, by kind (an attribute by name, text, children added
 * or removed), by the element they landed on, and by source — React's commit
 * or other code. Only the pinned component is watched: a MutationObserver
 * over attributes and text of a whole page would cost every React update a
 * record (a 4 900-cell grid: thousands a frame), paid whether or not anyone
 * looks; one component's subtree is paid only while it is pinned, and our
 * own-cost figure shows it.
 *
 * Source: React applies a commit's DOM changes synchronously and calls the
 * hook's onCommitFiberRoot right after (registry.committed()); the observer's
 * records still queued at that moment are React's (`takeReact`). Records
 * that reach the frame end or the observer's own callback came from other
 * code. The agent's own experiment attribute is never counted.
 */
import { EXPERIMENT_ATTRIBUTE } from '../experiment/experiment';
import type { Entries } from '../self-clock';

export type DirtyKind = 'attribute' | 'text' | 'children';
export type DirtySource = 'react' | 'other';

export interface DirtiedItem {
  kind: DirtyKind;
  /** The attribute's name; for text '#text'; for children 'added' or 'removed'. */
  name: string;
  /** The element it landed on (tag, lower case; a text node's parent). */
  on: string;
  source: DirtySource;
  /** Changes per frame (EMA, α = 0.2, as the store's cost figures). */
  perFrame: number;
  /** In the last frame. */
  last: number;
}

const ALPHA = 0.2;
/** Kinds kept per component (a subtree with many attributes keeps the busiest). */
export const MAX_KEYS = 64;
/** Below this the EMA is 0 and the key goes. */
const FORGET = 0.005;
export const TOP = 5;

/** Per-frame counts rolled into EMAs. Pure, so it is unit-tested. */
export class DirtiedTally {
  private readonly frame = new Map<string, number>();
  private readonly ema = new Map<string, { item: Omit<DirtiedItem, 'perFrame' | 'last'>; perFrame: number; last: number }>();

  add(kind: DirtyKind, name: string, on: string, source: DirtySource, n = 1): void {
    const key = `${kind}\u0000${name}\u0000${on}\u0000${source}`;
    if (!this.frame.has(key) && !this.ema.has(key) && this.frame.size + this.ema.size >= MAX_KEYS * 2) return;
    this.frame.set(key, (this.frame.get(key) ?? 0) + n);
    if (!this.ema.has(key)) this.ema.set(key, { item: { kind, name, on, source }, perFrame: 0, last: 0 });
  }

  /** Closes a frame: every key's EMA moves toward this frame's count (0 when it had none). */
  endFrame(): void {
    for (const [key, e] of this.ema) {
      const n = this.frame.get(key) ?? 0;
      e.last = n;
      e.perFrame += ALPHA * (n - e.perFrame);
      if (e.perFrame < FORGET && n === 0) this.ema.delete(key);
    }
    this.frame.clear();
    if (this.ema.size > MAX_KEYS) {
      const keep = [...this.ema.entries()].sort((a, b) => b[1].perFrame - a[1].perFrame).slice(0, MAX_KEYS);
      this.ema.clear();
      for (const [k, v] of keep) this.ema.set(k, v);
    }
  }

  /** The busiest `n`, most changes per frame first. */
  top(n = TOP): DirtiedItem[] {
    return [...this.ema.values()].filter((e) => e.perFrame >= FORGET || e.last > 0)
      .sort((a, b) => b.perFrame - a.perFrame || b.last - a.last).slice(0, n)
      .map((e) => ({ ...e.item, perFrame: e.perFrame, last: e.last }));
  }

  clear(): void {
    this.frame.clear();
    this.ema.clear();
  }
}

const OPTIONS: MutationObserverInit = { subtree: true, childList: true, attributes: true, characterData: true };

/** The pinned component's MutationObserver and tally. */
export class DirtiedTracker {
  readonly tally = new DirtiedTally();
  private observer: MutationObserver | null = null;
  private watched: Element[] = [];
  id = 0;

  constructor(private readonly win: Window & typeof globalThis, private readonly clock: Entries | null = null) {}

  /** Watches `hosts` as component `id`'s top elements; a new id starts a new tally. */
  watch(id: number, hosts: readonly Element[]): void {
    if (id !== this.id) {
      this.stop();
      this.id = id;
    }
    if (hosts.length === this.watched.length && hosts.every((h, i) => h === this.watched[i])) return;
    // The hosts changed (a re-render replaced its top element): keep what is queued, then watch the new ones.
    if (this.observer) this.take('other');
    this.observer?.disconnect();
    this.observer ??= new this.win.MutationObserver((records) => {
      // The observer's callback is the agent's own work (self-clock.ts).
      this.clock?.enter();
      try {
        this.tallyRecords(records, 'other');
      } catch (e) {
        this.clock?.fault(e);
      } finally {
        this.clock?.leave();
      }
    });
    this.watched = hosts.slice();
    for (const h of this.watched) this.observer.observe(h, OPTIONS);
  }

  stop(): void {
    this.observer?.disconnect();
    this.observer = null;
    this.watched = [];
    this.id = 0;
    this.tally.clear();
  }

  /** A React commit just ended: what is queued is React's. */
  takeReact(): void {
    if (this.observer) this.take('react');
  }

  /** Frame end: what is still queued came from other code; the frame's counts roll into the EMAs. */
  endFrame(): void {
    if (!this.observer) return;
    this.take('other');
    this.tally.endFrame();
  }

  private take(source: DirtySource): void {
    const records = this.observer?.takeRecords();
    if (records && records.length > 0) this.tallyRecords(records, source);
  }

  private tallyRecords(records: MutationRecord[], source: DirtySource): void {
    for (const r of records) {
      const t = r.target;
      const on = (t.nodeType === 1 ? (t as Element).localName : t.parentElement?.localName ?? '#text').slice(0, 40);
      if (r.type === 'attributes') {
        if (r.attributeName === EXPERIMENT_ATTRIBUTE) continue;
        this.tally.add('attribute', (r.attributeName ?? '').slice(0, 60), on, source);
      } else if (r.type === 'characterData') {
        this.tally.add('text', '#text', on, source);
      } else {
        if (r.addedNodes.length > 0) this.tally.add('children', 'added', on, source, r.addedNodes.length);
        if (r.removedNodes.length > 0) this.tally.add('children', 'removed', on, source, r.removedNodes.length);
      }
    }
  }
}
