/**
 * Rendered-element counting: a node counts itself and every descendant
 * element, recursively through open shadow roots and through closed ones
 * that the attachShadow wrapper saw. The counting itself is native
 * (a querySelectorAll('*') walk in C++).
 */
import type { ShadowState } from '../../boot/link';
import { OVERLAY_TAG } from '../../../protocol/overlay-tag';

export class DomCounter {
  constructor(private readonly shadow: ShadowState) {}

  /** Known shadow hosts that are still alive (prunes the dead). */
  private hosts(): Element[] {
    const refs = this.shadow.hosts;
    if (refs.length === 0) return [];
    const out: Element[] = [];
    let w = 0;
    for (let i = 0; i < refs.length; i++) {
      const el = refs[i].deref();
      if (el) {
        out.push(el);
        refs[w++] = refs[i];
      }
    }
    refs.length = w;
    return out;
  }

  private rootOf(host: Element): ShadowRoot | null {
    return this.shadow.rootOf.get(host) ?? host.shadowRoot;
  }

  /**
   * Elements of `nodes` and everything under them, each counted once. `overlapping`: some of `nodes`
   * may sit inside others (top hosts reached through a portal into a sibling's element); those are
   * left out rather than counted twice. Without it the nodes are disjoint subtrees, as React places them.
   */
  count(nodes: readonly Element[], overlapping = false): number {
    const list = overlapping ? outermost(nodes) : nodes;
    let n = 0;
    // querySelectorAll's static list is garbage once counted; getElementsByTagName
    // would leave a cached live collection on every counted host (≈ 430 B of
    // Blink heap each, kept after GC: bench/memory.ts).
    // The overlay's own element sits under <html>: a component whose top host is the root element (a root hydrated on
    // the whole document) would otherwise count it. One read per count, not per node.
    const html = list.length > 0 ? document.documentElement : null;
    for (const el of list) {
      n += 1 + el.querySelectorAll('*').length;
      if (el === html) n -= ownOverlays(el);
    }
    const hosts = this.hosts();
    if (hosts.length > 0) for (const el of list) n += this.inShadows(el, hosts, 0);
    return n;
  }

  private inShadows(scope: Element | ShadowRoot, hosts: Element[], depth: number): number {
    if (depth > 32) return 0;
    let n = 0;
    for (const h of hosts) {
      if (!scope.contains(h)) continue;
      const root = this.rootOf(h);
      if (root) n += root.querySelectorAll('*').length + this.inShadows(root, hosts, depth + 1);
    }
    return n;
  }
}

/** The overlay's elements among the root element's children (one while the overlay is on). */
function ownOverlays(root: Element): number {
  let n = 0;
  for (let c = root.firstElementChild; c !== null; c = c.nextElementSibling) if (c.localName === OVERLAY_TAG) n++;
  return n;
}

/** The nodes that no other node of the list contains (duplicates kept once). O(n²): only for portal cases. */
export function outermost(nodes: readonly Element[]): Element[] {
  const out: Element[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const el = nodes[i];
    let inside = false;
    for (let j = 0; j < nodes.length && !inside; j++) {
      const other = nodes[j];
      if (other === el) inside = j < i;
      else inside = other.contains(el);
    }
    if (!inside) out.push(el);
  }
  return out;
}
