/**
 * The component table's data, kept apart from the DOM so it can be tested:
 * rows built from a TableUpdate (the `<page>` bucket included), filtered by
 * name and sorted by any column. Rebuilt at most a few times a second, so a
 * plain sort of 20 000 rows is fine; display strings are computed once here.
 */
import type { ComponentRow, RowSource, TableUpdate } from '../protocol';
import { COMPONENT_KINDS, type ComponentKind } from '../protocol/component-kind';
import { capText, shownInflation } from './text';

/** Id of the synthetic `<page>` row (component ids start at 1). */
export const PAGE_ROW_ID = 0;

export interface TableRow {
  id: number;
  isPage: boolean;
  /** A row of the By type view: a component type, not one component (no pin, no outline). */
  isGroup?: boolean;
  parentId: number | null;
  /** Tree view: its depth in the shown tree, whether it has children, and whether they are folded away. */
  treeDepth?: number;
  hasChildren?: boolean;
  collapsed?: boolean;
  /** Capped, neutralized name: the only form of the name the DOM ever sees. */
  label: string;
  /** Lower-cased label for filtering. */
  search: string;
  key: string | null;
  depth: number;
  styleMs: number;
  layoutMs: number;
  forcedMs: number;
  lastFrameMs: number;
  authored: number;
  rendered: number;
  ratio: number | null;
  commits: number;
  /** Element counts are not known for this row (a recording keeps ms only): its count cells show "–". */
  noCounts?: boolean;
  /** Where its type is defined (issue 15), once found. */
  source?: RowSource | null;
  /** The page's name when `label` came from a source map. */
  minifiedName?: string | null;
  /** Whose code it is (protocol/component-kind.ts); absent: own (the `<page>` row, groups). */
  kind?: ComponentKind;
  /** Its type is still being placed: the own-only view leaves it out until its kind is known. */
  placing?: boolean;
}

/** "cell.tsx:42" for the table (the pinned view shows the whole path). */
export function sourceLabel(s: RowSource): string {
  const base = s.file.slice(s.file.lastIndexOf('/') + 1) || s.file;
  return `${capText(base, 60)}:${s.line}`;
}

export const SORT_KEYS = [
  'name', 'layoutMs', 'styleMs', 'forcedMs', 'lastFrameMs', 'rendered', 'authored', 'ratio', 'commits', 'depth',
] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortDir = 'asc' | 'desc';

export interface SortSpec {
  key: SortKey;
  dir: SortDir;
}

export const DEFAULT_SORT: SortSpec = { key: 'layoutMs', dir: 'desc' };

/** Names ascend by default; numbers descend (the costly end first). */
export function defaultDir(key: SortKey): SortDir {
  return key === 'name' ? 'asc' : 'desc';
}

/** Clicking a header: a new column starts at its default direction, the same column flips. */
export function nextSort(cur: SortSpec, key: SortKey): SortSpec {
  if (cur.key !== key) return { key, dir: defaultDir(key) };
  return { key, dir: cur.dir === 'asc' ? 'desc' : 'asc' };
}

export function toRow(r: ComponentRow): TableRow {
  const label = capText(r.name) || 'Anonymous';
  const min = r.minifiedName ? capText(r.minifiedName) : null;
  return {
    source: r.source ?? null, minifiedName: min, kind: r.kind ?? 'own', ...(r.placing === true ? { placing: true } : {}),
    id: r.id, isPage: false, parentId: r.parentId, label,
    // The filter finds a component by its shown name, its minified name and its file.
    search: `${label}${min ? ` ${min}` : ''}${r.source ? ` ${r.source.file}` : ''}`.toLowerCase(), key: r.key === null ? null : capText(r.key),
    depth: r.depth, styleMs: r.styleMs, layoutMs: r.layoutMs, forcedMs: r.forcedMs, lastFrameMs: r.lastFrameMs,
    authored: r.authored, rendered: r.rendered, ratio: shownInflation(r), commits: r.commits,
  };
}

export function pageRow(page: TableUpdate['page']): TableRow {
  return {
    id: PAGE_ROW_ID, isPage: true, parentId: null, label: '<page>', search: '<page>', key: null, depth: 0,
    styleMs: page.styleMs, layoutMs: page.layoutMs, forcedMs: page.forcedMs,
    lastFrameMs: 0, authored: 0, rendered: 0, ratio: null, commits: 0,
  };
}

/** Every row of an update: the `<page>` bucket first, then the components. */
export function buildRows(update: TableUpdate): TableRow[] {
  const out: TableRow[] = new Array(update.rows.length + 1);
  out[0] = pageRow(update.page);
  for (let i = 0; i < update.rows.length; i++) out[i + 1] = toRow(update.rows[i]);
  if (update.counts === false) {
    for (const r of out) {
      r.noCounts = true;
      r.ratio = null;
    }
  }
  return out;
}

function sortValue(r: TableRow, key: Exclude<SortKey, 'name'>): number {
  if (key === 'ratio') return r.ratio ?? -1;
  return r[key];
}

export function compareRows(a: TableRow, b: TableRow, spec: SortSpec): number {
  const sign = spec.dir === 'asc' ? 1 : -1;
  let c: number;
  if (spec.key === 'name') c = a.search < b.search ? -1 : a.search > b.search ? 1 : 0;
  else c = sortValue(a, spec.key) - sortValue(b, spec.key);
  // Ties fall back to id so rows do not shuffle between refreshes.
  return c !== 0 ? c * sign : a.id - b.id;
}

/**
 * The filter box, parsed (issue 44), the way React DevTools' component filters read: `kind:library` (or `own`,
 * `framework`, several with commas) keeps those kinds; `file:src/cards` keeps components whose source file contains
 * that text; what is left is a case-insensitive substring of the name, the minified name or the file.
 */
export interface RowQuery {
  text: string;
  files: string[];
  /** null: no kind asked for. */
  kinds: ComponentKind[] | null;
}

export function parseQuery(filter: string): RowQuery {
  const text: string[] = [];
  const files: string[] = [];
  let kinds: ComponentKind[] | null = null;
  for (const token of filter.trim().toLowerCase().split(/\s+/)) {
    if (token === '') continue;
    const m = /^(kind|file):(.*)$/.exec(token);
    if (m && m[1] === 'kind') {
      const asked = m[2].split(',').filter((k): k is ComponentKind => (COMPONENT_KINDS as readonly string[]).includes(k));
      kinds = [...(kinds ?? []), ...asked];
    } else if (m && m[2] !== '') {
      files.push(m[2]);
    } else {
      text.push(token);
    }
  }
  return { text: text.join(' '), files, kinds };
}

export function emptyQuery(q: RowQuery): boolean {
  return q.text === '' && q.files.length === 0 && q.kinds === null;
}

/** A component row against the query; `<page>` only by its name, and only when no kind or file is asked for. */
export function rowMatches(r: TableRow, q: RowQuery): boolean {
  if (r.isPage) return q.files.length === 0 && q.kinds === null && r.search.includes(q.text);
  if (q.kinds !== null && !q.kinds.includes(r.kind ?? 'own')) return false;
  if (q.files.length > 0) {
    const file = r.source?.file.toLowerCase() ?? '';
    if (!q.files.every((f) => file.includes(f))) return false;
  }
  return q.text === '' || r.search.includes(q.text);
}

/**
 * The app's own rows (and `<page>`), each re-parented to its nearest own ancestor: library and framework components
 * are left out of the table, and their cost is already in their own ancestors' inclusive figures (issue 44).
 */
export function ownRows(rows: readonly TableRow[]): TableRow[] {
  const byId = new Map<number, TableRow>();
  for (const r of rows) if (!r.isPage) byId.set(r.id, r);
  // A row whose type is still being placed is left out too: shown now, it could go again a moment later (issue 44).
  const foreign = (r: TableRow | undefined): r is TableRow => r !== undefined && ((r.kind !== undefined && r.kind !== 'own') || r.placing === true);
  const out: TableRow[] = [];
  for (const r of rows) {
    if (!r.isPage && foreign(r)) continue;
    let p = r.parentId;
    for (let hops = 0; p !== null && hops < 10_000; hops++) {
      const pr = byId.get(p);
      if (!foreign(pr)) break;
      p = pr.parentId;
    }
    out.push(p === r.parentId ? r : { ...r, parentId: p });
  }
  return out;
}

/**
 * The filter on what the user sees. The `<page>` row stays whenever the filter is empty or matches it: SPEC §2 says
 * the bucket is never hidden by default.
 */
export function filterRows(rows: readonly TableRow[], filter: string): TableRow[] {
  const q = parseQuery(filter);
  if (emptyQuery(q)) return rows.slice();
  return rows.filter((r) => rowMatches(r, q));
}

export function viewRows(rows: readonly TableRow[], filter: string, spec: SortSpec): TableRow[] {
  const out = filterRows(rows, filter);
  out.sort((a, b) => compareRows(a, b, spec));
  return out;
}

export type TableViewKind = 'flat' | 'type' | 'tree';

/** Synthetic ids of By type rows: below every component id, and never 0 (`<page>`). */
const GROUP_ID_BASE = -1;

/**
 * By type: one row per component name. Cost and counts are summed over the outermost instances only (an instance
 * inside another of the same type is already in that one's inclusive figures); "Last" is the worst instance's last
 * frame, "Depth" the number of instances. `<page>` stays a row of its own.
 */
export function byType(rows: readonly TableRow[]): TableRow[] {
  const byId = new Map<number, TableRow>();
  for (const r of rows) if (!r.isPage) byId.set(r.id, r);
  const groups = new Map<string, TableRow>();
  const out: TableRow[] = [];
  let next = GROUP_ID_BASE;
  for (const r of rows) {
    if (r.isPage) {
      out.push(r);
      continue;
    }
    let g = groups.get(r.label);
    if (!g) {
      g = {
        id: next--, isPage: false, isGroup: true, parentId: null, label: r.label, search: r.search, key: null, depth: 0,
        styleMs: 0, layoutMs: 0, forcedMs: 0, lastFrameMs: 0, authored: 0, rendered: 0, ratio: null, commits: 0, noCounts: r.noCounts,
      };
      groups.set(r.label, g);
      out.push(g);
    }
    g.depth++;
    g.commits += r.commits;
    g.lastFrameMs = Math.max(g.lastFrameMs, r.lastFrameMs);
    // Outermost only: no ancestor of the same name.
    let p = r.parentId === null ? undefined : byId.get(r.parentId);
    let nested = false;
    for (let hops = 0; p && hops < 10_000; hops++, p = p.parentId === null ? undefined : byId.get(p.parentId)) {
      if (p.label === r.label) {
        nested = true;
        break;
      }
    }
    if (nested) continue;
    g.styleMs += r.styleMs;
    g.layoutMs += r.layoutMs;
    g.forcedMs += r.forcedMs;
    g.authored += r.authored;
    g.rendered += r.rendered;
  }
  for (const g of groups.values()) {
    g.ratio = g.authored > 0 ? g.rendered / g.authored : null;
    g.label = `${g.label} × ${g.depth}`;
  }
  return out;
}

/**
 * Tree: the component tree in depth-first order, siblings in the sort's order, folded below `collapsed` ids. "Last"
 * becomes the component's self layout ms (inclusive less its children's). With a filter, the matching rows and their
 * ancestors stay (so a match is seen where it lives). `<page>` comes first.
 */
export function treeRows(rows: readonly TableRow[], filter: string, spec: SortSpec, collapsed: ReadonlySet<number>): TableRow[] {
  const byId = new Map<number, TableRow>();
  for (const r of rows) if (!r.isPage) byId.set(r.id, r);
  const kids = new Map<number | null, TableRow[]>();
  for (const r of byId.values()) {
    const parent = r.parentId !== null && byId.has(r.parentId) ? r.parentId : null;
    const list = kids.get(parent);
    if (list) list.push(r);
    else kids.set(parent, [r]);
  }
  const q = parseQuery(filter);
  const all = emptyQuery(q);
  const keep = new Set<number>();
  if (!all) {
    for (const r of byId.values()) {
      if (!rowMatches(r, q)) continue;
      for (let p: TableRow | undefined = r, hops = 0; p && !keep.has(p.id) && hops < 10_000; hops++) {
        keep.add(p.id);
        p = p.parentId === null ? undefined : byId.get(p.parentId);
      }
    }
  }
  const out: TableRow[] = [];
  const page = rows.find((r) => r.isPage);
  if (page && (all || rowMatches(page, q))) out.push(page);
  const sortedKids = (parent: number | null): TableRow[] =>
    (kids.get(parent) ?? []).filter((r) => all || keep.has(r.id)).sort((a, b) => compareRows(a, b, spec));
  // Depth first without recursion (a tree can be 10 000 deep): a stack of [row, depth], pushed in reverse order.
  const stack: [TableRow, number][] = sortedKids(null).reverse().map((r) => [r, 0]);
  while (stack.length > 0) {
    const [r, depth] = stack.pop() as [TableRow, number];
    const children = kids.get(r.id) ?? [];
    let childLayout = 0;
    for (const c of children) childLayout += c.layoutMs;
    const isCollapsed = collapsed.has(r.id);
    out.push({ ...r, treeDepth: depth, hasChildren: children.length > 0, collapsed: isCollapsed, lastFrameMs: Math.max(0, r.layoutMs - childLayout) });
    if (!isCollapsed) for (const c of sortedKids(r.id).reverse()) stack.push([c, depth + 1]);
  }
  return out;
}
