/**
 * Ground truth for a Preact page (10 or 11), computed in the page without any of the extension's code: each render
 * container's own vnode tree (`__k`, the mangled `_children`), each vnode's element (`__e`) and instance (`__c`), and
 * the DOM walked with querySelectorAll. Written apart from src/inject/agent/preact/ (which it checks).
 *
 * Components: vnodes of a function type other than Preact's Fragment (the type of the vnode `render` keeps on its
 * container) and other than a portal (Preact 11's carries its target in `props.__P`; preact/compat 10's has
 * `containerInfo` and renders its content as a root of its own, wrapped in a context provider that is compat's, not
 * the app's). authored: the element vnodes under the component, its child components' and portals' included.
 * rendered: the distinct elements under its top elements, wherever a portal put them.
 */
export interface PreactTruth {
  depth: number;
  key: string | null;
  authored: number;
  rendered: number;
  /** Null: a production build's names are minified (the test checks ours, from its source maps, by hand). */
  name: string | null;
}

/** Runs in the page. */
export function preactTruth(): PreactTruth[] {
  const out: PreactTruth[] = [];
  const isVNode = (v: any): boolean => v !== null && typeof v === 'object' && 'type' in v && '__e' in v && '__k' in v;
  const containers = Array.from(document.querySelectorAll('*')).filter((el) => {
    const r = (el as any).__k;
    return isVNode(r) && typeof r.type === 'function';
  });
  const fragments = new Set(containers.map((c) => (c as any).__k.type));
  /** What a vnode's children are, seen through a compat portal (its own root, then compat's provider). */
  const kids = (v: any): any[] => {
    // compat 11's createPortal sets `containerInfo` on core's portal, whose content is in the tree as any other.
    if (v.containerInfo instanceof Element && v.__c && !(v.props && v.props.__P instanceof Element)) {
      for (const k of Object.keys(v.__c)) {
        const temp = v.__c[k];
        if (temp && typeof temp === 'object' && temp.parentNode === v.containerInfo && isVNode(temp.__k)) {
          const provider = temp.__k.__k?.[0];
          return provider ? [...(provider.__k ?? [])] : [];
        }
      }
      return [];
    }
    return Array.isArray(v.__k) ? v.__k.filter(isVNode) : [];
  };
  const isPortal = (v: any): boolean => v.containerInfo instanceof Element || (v.props && v.props.__P instanceof Element);
  const isComponent = (v: any): boolean => typeof v.type === 'function' && !fragments.has(v.type) && !isPortal(v) && v.__c;
  const authored = (v: any): number => (typeof v.type === 'string' ? 1 : 0) + kids(v).reduce((n, c) => n + authored(c), 0);
  const tops = (v: any, into: Element[]): void => {
    if (typeof v.type === 'string') {
      if (v.__e instanceof Element) into.push(v.__e);
      return;
    }
    for (const c of kids(v)) tops(c, into);
  };
  const rendered = (v: any): number => {
    const ts: Element[] = [];
    for (const c of kids(v)) tops(c, ts);
    const seen = new Set<Element>();
    for (const t of ts) {
      for (const e of [t, ...Array.from(t.querySelectorAll('*'))]) if (e.localName !== 'layout-cost-overlay') seen.add(e);
    }
    return seen.size;
  };
  const visit = (v: any, depth: number): void => {
    if (isComponent(v)) {
      const k = v.key;
      out.push({ depth: depth + 1, key: typeof k === 'string' ? k : typeof k === 'number' ? String(k) : null,
        authored: authored(v), rendered: rendered(v), name: null });
      for (const c of kids(v)) visit(c, depth + 1);
      return;
    }
    for (const c of kids(v)) visit(c, depth);
  };
  for (const c of containers) visit((c as any).__k, -1);
  return out;
}
