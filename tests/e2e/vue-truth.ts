/**
 * Ground truth for a Vue 3 page, computed in the page without any of the extension's code: each app's own vnode tree
 * from its container (`__vue_app__`, `_vnode`), each component instance's `subTree`, and the DOM walked with
 * element.children. Written apart from src/inject/agent/vue/ (which it checks): the shape flags are Vue's numbers.
 *
 * authored: the element vnodes in the component's rendered tree, its child components' included (and a static
 * vnode's elements). rendered: the distinct elements under its top elements (a teleport's content included, where it
 * landed). Deactivated `<KeepAlive>` children are not mounted DOM: left out.
 */
export interface VueTruth {
  depth: number;
  key: string | null;
  authored: number;
  rendered: number;
  /** The component's own `name` or the SFC's `__name`; null when it has neither. */
  name: string | null;
}

/** Runs in the page. */
export function vueTruth(): VueTruth[] {
  const out: VueTruth[] = [];
  const ELEMENT = 1, COMPONENT = 2 | 4, ARRAY = 16, TELEPORT = 64, SUSPENSE = 128;
  const STATIC = Symbol.for('v-stc');
  const isV = (v: any): boolean => v !== null && typeof v === 'object' && typeof v.shapeFlag === 'number';
  const staticEls = (v: any): Element[] => {
    const els: Element[] = [];
    for (let n: Node | null = v.el; n; n = n.nextSibling) {
      if (n instanceof Element) els.push(n);
      if (n === v.anchor) break;
    }
    return els;
  };
  const authored = (v: any): number => {
    if (!isV(v)) return 0;
    if (v.shapeFlag & COMPONENT) return v.component ? authored(v.component.subTree) : 0;
    if (v.shapeFlag & SUSPENSE) return authored(v.suspense?.activeBranch);
    if (v.type === STATIC) return staticEls(v).length;
    let n = v.shapeFlag & ELEMENT ? 1 : 0;
    if (Array.isArray(v.children)) for (const c of v.children) n += authored(c);
    return n;
  };
  const tops = (v: any, into: Element[]): void => {
    if (!isV(v)) return;
    if (v.shapeFlag & COMPONENT) return void (v.component && tops(v.component.subTree, into));
    if (v.shapeFlag & SUSPENSE) return void tops(v.suspense?.activeBranch, into);
    if (v.shapeFlag & ELEMENT) return void (v.el instanceof Element && into.push(v.el));
    if (v.type === STATIC) return void into.push(...staticEls(v));
    if (Array.isArray(v.children) && (v.shapeFlag & (ARRAY | TELEPORT) || typeof v.type === 'symbol')) for (const c of v.children) tops(c, into);
  };
  const rendered = (v: any): number => {
    const ts: Element[] = [];
    tops(v, ts);
    const seen = new Set<Element>();
    for (const t of ts) {
      if (t.localName === 'layout-cost-overlay') continue;
      seen.add(t);
      for (const d of Array.from(t.querySelectorAll('*'))) if (d.localName !== 'layout-cost-overlay') seen.add(d);
    }
    return seen.size;
  };
  const walk = (v: any, depth: number): void => {
    if (!isV(v)) return;
    if (v.shapeFlag & COMPONENT) {
      const inst = v.component;
      if (!inst || inst.isUnmounted || inst.isDeactivated) return;
      const t = inst.type ?? {};
      const name = typeof t === 'function' ? t.name || null : t.name || t.__name || null;
      const k = v.key;
      out.push({ depth: depth + 1, key: typeof k === 'string' ? k : typeof k === 'number' ? String(k) : null,
        authored: authored(inst.subTree), rendered: rendered(inst.subTree), name });
      walk(inst.subTree, depth + 1);
      return;
    }
    if (v.shapeFlag & SUSPENSE) return walk(v.suspense?.activeBranch, depth);
    if (Array.isArray(v.children)) for (const c of v.children) walk(c, depth);
  };
  for (const el of Array.from(document.querySelectorAll('*'))) {
    const c = el as any;
    if (c.__vue_app__ && isV(c._vnode)) walk(c._vnode, -1);
  }
  return out;
}
