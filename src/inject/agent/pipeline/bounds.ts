/**
 * Component bounds: the union of its top host nodes' client rects, each
 * clipped by the scroll containers (overflow other than `visible`) it sits
 * in, so a component scrolled out of a nested scroller has no box. Read only
 * when layout is clean (right after the frame-end flush, or after a
 * hit-test), for the few components the overlay draws or hit-tests.
 *
 * The chain of clipping ancestors is cached per element and dropped when
 * the DOM structure changes (`invalidate`) or after CLIP_CACHE_MS, so the
 * computed-style reads happen once per element, not once per frame.
 */

const CLIP_CACHE_MS = 2000;
/** Elements looked at under hosts that have no box of their own. */
const WRAPPER_ELEMENTS = 32;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export class BoundsReader {
  private clipChains = new WeakMap<Element, Element[]>();
  private cachedAt = 0;
  private stale = false;

  constructor(private readonly win: Window & typeof globalThis) {}

  /** The DOM structure changed: rebuild the chains on the next read (cheap to call often). */
  markStale(): void {
    this.stale = true;
  }

  /**
   * The clipped union of `hosts`' rects, or null when nothing of it is visible. Hosts with no box of their own
   * (a zero-height wrapper around an absolutely positioned menu, as portal content often is) are looked into,
   * breadth first, up to WRAPPER_ELEMENTS elements.
   */
  read(hosts: readonly Element[], now: number): Rect | null {
    if (this.stale || now - this.cachedAt > CLIP_CACHE_MS) {
      this.clipChains = new WeakMap();
      this.cachedAt = now;
      this.stale = false;
    }
    const own = this.union(hosts);
    if (own !== null || hosts.length === 0) return own;
    const inner: Element[] = [];
    for (let i = 0; i < hosts.length && inner.length < WRAPPER_ELEMENTS; i++) {
      for (let c = hosts[i].firstElementChild; c !== null && inner.length < WRAPPER_ELEMENTS; c = c.nextElementSibling) inner.push(c);
    }
    for (let i = 0; i < inner.length && inner.length < WRAPPER_ELEMENTS; i++) {
      for (let c = inner[i].firstElementChild; c !== null && inner.length < WRAPPER_ELEMENTS; c = c.nextElementSibling) inner.push(c);
    }
    return inner.length > 0 ? this.union(inner) : null;
  }

  private union(hosts: readonly Element[]): Rect | null {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const el of hosts) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      let left = r.left, top = r.top, right = r.right, bottom = r.bottom;
      for (const clip of this.chainOf(el)) {
        const c = clip.getBoundingClientRect();
        if (c.left > left) left = c.left;
        if (c.top > top) top = c.top;
        if (c.right < right) right = c.right;
        if (c.bottom < bottom) bottom = c.bottom;
        if (right <= left || bottom <= top) break;
      }
      if (right <= left || bottom <= top) continue;
      if (left < x0) x0 = left;
      if (top < y0) y0 = top;
      if (right > x1) x1 = right;
      if (bottom > y1) y1 = bottom;
    }
    return x0 === Infinity ? null : { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
  }

  /** Ancestors that clip `el` (overflow ≠ visible), nearest first; crosses shadow roots. */
  private chainOf(el: Element): Element[] {
    let chain = this.clipChains.get(el);
    if (chain) return chain;
    chain = [];
    const doc = this.win.document;
    let a = parentOf(el);
    for (let guard = 0; a !== null && a !== doc.documentElement && guard < 1000; guard++) {
      const cs = this.win.getComputedStyle(a);
      // body's overflow normally propagates to the viewport: it is then no scroll container itself.
      if (a !== doc.body && (cs.overflowX !== 'visible' || cs.overflowY !== 'visible')) chain.push(a);
      // A fixed-position ancestor is not clipped by what is above it (short of transforms; not modelled).
      if (cs.position === 'fixed') break;
      a = parentOf(a);
    }
    this.clipChains.set(el, chain);
    return chain;
  }
}

function parentOf(el: Element): Element | null {
  if (el.parentElement) return el.parentElement;
  const root = el.getRootNode();
  return root instanceof ShadowRoot ? root.host : null;
}
