/**
 * What the adapter reads of React's fibers, and the tag table per renderer
 * version. Fiber internals are not a public API: everything here is read
 * defensively and each version's differences live in `tagsFor`.
 */

export interface Fiber {
  tag: number;
  key: string | null;
  type: unknown;
  elementType: unknown;
  stateNode: unknown;
  return: Fiber | null;
  child: Fiber | null;
  sibling: Fiber | null;
  alternate: Fiber | null;
  memoizedProps: unknown;
  memoizedState: unknown;
  /** Children deleted in this commit (React 18+; cleared when the fiber is next cloned). */
  deletions?: Fiber[] | null;
  /** React 17+. */
  flags?: number;
  /** React 16. */
  effectTag?: number;
  /** React 18+: the flags of every fiber below, bubbled up when the subtree completed (static flags kept on bail-out). */
  subtreeFlags?: number;
  /** Development builds: the component that created this fiber's element. */
  _debugOwner?: unknown;
  /** React ≤ 18 development builds: where the element was written (the JSX transform's __source). */
  _debugSource?: { fileName?: unknown; lineNumber?: unknown; columnNumber?: unknown } | null;
  /** React 19 development builds: an Error made where the element was created. */
  _debugStack?: unknown;
}

/** Fiber flags whose values are the same from React 16 to 19. */
export const PERFORMED_WORK = 1;
export const PLACEMENT = 2;
export const UPDATE = 4;
/** React 18+ (16/17 flag the deleted fiber itself instead). */
export const CHILD_DELETION = 16;

/** `TagTable.kind` bits. */
export const COMPONENT = 1;
export const HOST = 2;

export interface TagTable {
  /**
   * What each tag is, by tag (React's tags are 0–31): COMPONENT for function, class, forwardRef and simple-memo
   * components (each is a component instance), HOST for the DOM elements React created. An array read instead of a
   * Set's hashing: a commit asks it of every fiber it walks. Read through `kindOf`.
   */
  kind: Uint8Array;
  hostText: number;
  hostPortal: number;
  hostRoot: number;
}

const MAX_TAG = 64;

// Stable tags: FunctionComponent 0, ClassComponent 1, IndeterminateComponent 2
// (removed in 19), HostRoot 3, HostPortal 4, HostComponent 5, HostText 6,
// ForwardRef 11, MemoComponent 14 (transparent: its child is the real
// component), SimpleMemoComponent 15. React 19 adds HostHoistable 26 and
// HostSingleton 27 (18.3 has neither); tags ≥ 22 differ between 17 and 18,
// which only matters for transparent fibers.
export function tagsFor(version: string | undefined): TagTable {
  const major = parseInt(version ?? '', 10) || 18;
  const kind = new Uint8Array(MAX_TAG);
  kind[5] = HOST;
  if (major >= 19) kind[26] = kind[27] = HOST;
  for (const t of [0, 1, 11, 15]) kind[t] = COMPONENT;
  if (major < 19) kind[2] = COMPONENT;
  return { kind, hostText: 6, hostPortal: 4, hostRoot: 3 };
}

/** The kind bits of a fiber's tag (0 for a tag out of the table or not a number: a page's own objects may be anything). */
export function kindOf(tags: TagTable, tag: unknown): number {
  return typeof tag === 'number' ? tags.kind[tag] | 0 : 0;
}

export function flagsOf(f: Fiber): number {
  return (f.flags ?? f.effectTag ?? 0) | 0;
}

const MAX_NAME = 200;

function nameOf(v: unknown): string | null {
  if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return null;
  try {
    const o = v as { displayName?: unknown; name?: unknown };
    if (typeof o.displayName === 'string' && o.displayName) return o.displayName.slice(0, MAX_NAME);
    if (typeof v === 'function' && typeof o.name === 'string' && o.name) return o.name.slice(0, MAX_NAME);
  } catch {
    // A hostile getter on a component type: fall through to the next candidate.
  }
  return null;
}

/**
 * displayName, else the function or class name, memo and forwardRef
 * unwrapped, else "Anonymous".
 */
export function componentName(f: Fiber): string {
  // The memo/forwardRef object may carry its own displayName.
  const outer = nameOf(f.elementType !== f.type ? f.elementType : null);
  if (outer) return outer;
  const t = f.type as { render?: unknown; type?: unknown } | null;
  const direct = nameOf(t);
  if (direct) return direct;
  if (t && typeof t === 'object') {
    const inner = nameOf(t.render) ?? nameOf(t.type);
    if (inner) return inner;
  }
  return 'Anonymous';
}

export function keyOf(f: Fiber): string | null {
  return typeof f.key === 'string' ? f.key.slice(0, MAX_NAME) : null;
}
