/**
 * The component table's data, kept apart from the DOM so it can be tested:
 * rows built from a TableUpdate (the `<page>` bucket included), filtered by
 * name and sorted by any column. Rebuilt at most a few times a second, so a
 * plain sort of 20 000 rows is fine; display strings are computed once here.
 */
import type { ComponentRow, TableUpdate } from '../protocol';
import { capText, inflationRatio } from './text';

/** Id of the synthetic `<page>` row (component ids start at 1). */
export const PAGE_ROW_ID = 0;

export interface TableRow {
  id: number;
  isPage: boolean;
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
  return {
    id: r.id, isPage: false, label, search: label.toLowerCase(), key: r.key === null ? null : capText(r.key),
    depth: r.depth, styleMs: r.styleMs, layoutMs: r.layoutMs, forcedMs: r.forcedMs, lastFrameMs: r.lastFrameMs,
    authored: r.authored, rendered: r.rendered, ratio: inflationRatio(Math.max(0, r.rendered - r.portaledIn), r.authored), commits: r.commits,
  };
}

export function pageRow(page: TableUpdate['page']): TableRow {
  return {
    id: PAGE_ROW_ID, isPage: true, label: '<page>', search: '<page>', key: null, depth: 0,
    styleMs: page.styleMs, layoutMs: page.layoutMs, forcedMs: page.forcedMs,
    lastFrameMs: 0, authored: 0, rendered: 0, ratio: null, commits: 0,
  };
}

/** Every row of an update: the `<page>` bucket first, then the components. */
export function buildRows(update: TableUpdate): TableRow[] {
  const out: TableRow[] = new Array(update.rows.length + 1);
  out[0] = pageRow(update.page);
  for (let i = 0; i < update.rows.length; i++) out[i + 1] = toRow(update.rows[i]);
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
 * Case-insensitive substring filter on what the user sees. The `<page>`
 * row stays whenever the filter is empty or matches it: SPEC §2 says the
 * bucket is never hidden by default.
 */
export function filterRows(rows: readonly TableRow[], filter: string): TableRow[] {
  const f = filter.trim().toLowerCase();
  if (f === '') return rows.slice();
  return rows.filter((r) => r.search.includes(f));
}

export function viewRows(rows: readonly TableRow[], filter: string, spec: SortSpec): TableRow[] {
  const out = filterRows(rows, filter);
  out.sort((a, b) => compareRows(a, b, spec));
  return out;
}
