/**
 * Ground truth for component counts, computed in the page without any of
 * the extension's code: React's own fiber tree from the root container, and
 * the DOM walked with element.children (open shadow roots, plus the closed
 * ones a fixture recorded in window.__closedRoots).
 */
export interface Truth {
  depth: number;
  key: string | null;
  authored: number;
  rendered: number;
  name: string | null;
}

/** Runs in the page: an independent walk of React's fibers from the container. */
export function groundTruth(rootIds: string[]): Truth[] {
  const out: Truth[] = [];
  for (const rootId of rootIds) {
  const container = document.getElementById(rootId) as HTMLElement & Record<string, any>;
  const legacy = container._reactRootContainer;
  const key = Object.keys(container).find((k) => k.startsWith('__reactContainer$'));
  const fiberRoot = legacy ? (legacy._internalRoot ?? legacy) : (container as any)[key as string].stateNode;
  const COMPONENT = new Set([0, 1, 2, 11, 15]);
  const HOST = new Set([5, 26, 27]);
  const closed = (window as any).__closedRoots as Map<Element, ShadowRoot>;
  const countEl = (el: Element): number => {
    let n = 1;
    const sr = el.shadowRoot ?? closed?.get(el);
    if (sr) for (const c of Array.from(sr.children)) n += countEl(c);
    for (const c of Array.from(el.children)) n += countEl(c);
    return n;
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
  const walk = (f: any, depth: number): void => {
    for (let c = f.child; c; c = c.sibling) {
      if (COMPONENT.has(c.tag)) {
        out.push({
          depth, key: c.key, authored: authored(c), name: displayName(c),
          rendered: tops(c, []).reduce((s, e) => s + countEl(e), 0),
        });
        walk(c, depth + 1);
      } else walk(c, depth);
    }
  };
  walk(fiberRoot.current, 0);
  }
  return out;
}

