/**
 * Ground truth for component counts, computed in the page without any of
 * the extension's code: React's own fiber tree from the root container, and
 * the DOM walked with element.children (open shadow roots, plus the closed
 * ones a fixture recorded in window.__closedRoots).
 *
 * rendered: the distinct elements under the component's top host elements
 * (a top reached through a portal may sit inside another top: counted once).
 * portaledIn: the distinct elements of that DOM that a portal placed there
 * whose portal fiber is not inside the component.
 */
export interface Truth {
  depth: number;
  key: string | null;
  authored: number;
  rendered: number;
  portaledIn: number;
  name: string | null;
}

/** Runs in the page: an independent walk of React's fibers from the container. */
export function groundTruth(rootIds: string[]): Truth[] {
  const out: Truth[] = [];
  // '#all': every root of the page, the document's and those in open shadow roots (Next.js's dev overlay), in
  // document order.
  const containers: any[] = [];
  const isRoot = (n: any): boolean => n._reactRootContainer !== undefined || Object.keys(n).some((k) => k.startsWith('__reactContainer$'));
  const scan = (n: ParentNode): void => {
    for (const el of Array.from(n.querySelectorAll('*'))) {
      if (isRoot(el)) containers.push(el);
      if (el.shadowRoot) scan(el.shadowRoot);
    }
  };
  for (const rootId of rootIds) {
    if (rootId !== '#all') containers.push(rootId === '#document' ? document : document.getElementById(rootId));
    else {
      if (isRoot(document)) containers.push(document);
      scan(document);
    }
  }
  for (const c of containers) {
  // '#document': a root on the document itself (hydrateRoot(document, …), as Next.js's app router does).
  const container = c as HTMLElement & Record<string, any>;
  const legacy = container._reactRootContainer;
  const key = Object.keys(container).find((k) => k.startsWith('__reactContainer$'));
  const fiberRoot = legacy ? (legacy._internalRoot ?? legacy) : (container as any)[key as string].stateNode;
  const COMPONENT = new Set([0, 1, 2, 11, 15]);
  const HOST = new Set([5, 26, 27]);
  const closed = (window as any).__closedRoots as Map<Element, ShadowRoot>;
  // The overlay's own element (appended to <html>) is not the page's DOM.
  const countEl = (el: Element): number => {
    if (el.localName === 'layout-cost-overlay') return 0;
    let n = 1;
    const sr = el.shadowRoot ?? closed?.get(el);
    if (sr) for (const c of Array.from(sr.children)) n += countEl(c);
    for (const c of Array.from(el.children)) n += countEl(c);
    return n;
  };
  const collectEl = (el: Element, into: Set<Element>): void => {
    into.add(el);
    for (const c of Array.from(el.children)) collectEl(c, into);
  };
  // Tops that no other top contains (a portal into a sibling's element lands inside another top).
  const outer = (els: Element[]): Element[] => els.filter((e, i) => !els.some((o, j) => (o === e ? j < i : o.contains(e))));
  const portalFibers: any[] = [];
  const findPortals = (f: any): void => {
    for (let c = f.child; c; c = c.sibling) {
      if (c.tag === 4) portalFibers.push(c);
      findPortals(c);
    }
  };
  const tops = (f: any, out: Element[]): Element[] => {
    for (let c = f.child; c; c = c.sibling) {
      if (HOST.has(c.tag)) out.push(c.stateNode);
      else if (c.tag !== 6) tops(c, out);
    }
    return out;
  };
  const authored = (f: any): number => {
    let n = 0;
    for (let c = f.child; c; c = c.sibling) n += (HOST.has(c.tag) ? 1 : 0) + authored(c);
    return n;
  };
  const displayName = (f: any): string | null => f.elementType?.displayName ?? f.type?.displayName ?? null;
  const inside = (f: any, c: any): boolean => {
    for (let p = f.return; p; p = p.return) if (p === c || p === c.alternate) return true;
    return false;
  };
  const portaledIn = (c: any, mine: Element[]): number => {
    const els = new Set<Element>();
    for (const pf of portalFibers) {
      const container = pf.stateNode?.containerInfo as Element;
      if (inside(pf, c) || !mine.some((t) => t === container || t.contains(container))) continue;
      for (const t of tops(pf, [])) collectEl(t, els);
    }
    return els.size;
  };
  const walk = (f: any, depth: number): void => {
    for (let c = f.child; c; c = c.sibling) {
      if (COMPONENT.has(c.tag)) {
        const mine = outer(tops(c, []));
        out.push({
          depth, key: c.key, authored: authored(c), name: displayName(c),
          rendered: mine.reduce((s, e) => s + countEl(e), 0), portaledIn: portaledIn(c, mine),
        });
        walk(c, depth + 1);
      } else walk(c, depth);
    }
  };
  findPortals(fiberRoot.current);
  walk(fiberRoot.current, 0);
  }
  return out;
}

