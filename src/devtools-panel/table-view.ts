/**
 * The component table: every live component plus `<page>`, virtualized
 * (fixed row height; only the rows on screen are in the DOM, recycled from
 * a pool), sortable by clicking a header, filtered by name. Hover outlines
 * the component on the page; click or Enter pins it. Keyboard: arrows,
 * PageUp/PageDown, Home/End move a cursor (which also outlines), Enter pins,
 * Escape unpins.
 *
 * Three views of the same rows (table-model.ts): Flat (every component), By
 * type (one row per component name: "Cell × 4 900") and Tree (the component
 * tree, foldable: click ▸/▾ or ←/→ on the cursor row; "Self" is its own
 * layout ms). A view can relabel columns; the cells stay the same.
 */
import type { RowSource, Settings, TableUpdate } from '../protocol';
import { el, setText } from './dom';
import { rampLevel } from '../overlay/ramps';
import {
  buildRows, byType, DEFAULT_SORT, nextSort, ownRows, parseQuery, treeRows, viewRows, type SortKey, type SortSpec, type TableRow, type TableViewKind,
  sourceLabel,
} from './table-model';
import { capText, formatCount, formatMs, formatRatio } from './text';
import { moveCursor, pageSize, scrollToReveal, visibleRange } from './virtual-window';

export const ROW_HEIGHT_PX = 22;
const PAINT_FALLBACK_MS = 100;

interface Column {
  key: SortKey;
  label: string;
  title: string;
  cell(r: TableRow): string;
  /** Ramp class for the value's swatch, if the column has one. */
  level?(r: TableRow, s: Settings): number | null;
}

const COLUMNS: Column[] = [
  { key: 'name', label: 'Component', title: 'Display name (capped at 200 characters)', cell: (r) => r.label },
  { key: 'layoutMs', label: 'Layout', title: 'Layout ms, EMA (subtree)', cell: (r) => formatMs(r.layoutMs), level: (r, s) => rampLevel(r.layoutMs, s.msRamp) },
  { key: 'styleMs', label: 'Style', title: 'Style recalc ms, EMA (subtree)', cell: (r) => formatMs(r.styleMs) },
  { key: 'forcedMs', label: 'Forced', title: 'Forced reflow ms, EMA (subtree)', cell: (r) => formatMs(r.forcedMs) },
  { key: 'lastFrameMs', label: 'Last', title: 'Style + layout + forced ms in the last frame', cell: (r) => (r.isPage ? '–' : formatMs(r.lastFrameMs)) },
  { key: 'rendered', label: 'Rendered', title: 'DOM elements actually under the component', cell: (r) => (r.isPage || r.noCounts ? '–' : formatCount(r.rendered)) },
  { key: 'authored', label: 'Authored', title: 'Host elements React created in the subtree', cell: (r) => (r.isPage || r.noCounts ? '–' : formatCount(r.authored)) },
  { key: 'ratio', label: 'Ratio', title: 'Inflation: rendered ÷ authored', cell: (r) => formatRatio(r.ratio), level: (r, s) => (r.ratio === null ? null : rampLevel(r.ratio, s.inflationRamp)) },
  { key: 'commits', label: 'Commits', title: 'React commits that re-rendered it', cell: (r) => (r.isPage ? '–' : formatCount(r.commits)) },
  { key: 'depth', label: 'Depth', title: 'Depth in the component tree', cell: (r) => (r.isPage ? '–' : String(r.depth)) },
];

/** Column labels a view changes: [label, title]. */
const VIEW_LABELS: Record<TableViewKind, Partial<Record<SortKey, [string, string]>>> = {
  flat: {},
  type: {
    layoutMs: ['Layout', 'Layout ms, EMA, summed over the outermost instances'],
    lastFrameMs: ['Worst', 'The worst instance\'s style + layout + forced ms in the last frame'],
    depth: ['Instances', 'Mounted instances of this component'],
  },
  tree: {
    lastFrameMs: ['Self', 'Its own layout ms: the subtree\'s less its children\'s'],
  },
};

export interface TableCallbacks {
  hover(id: number | null): void;
  pin(id: number | null): void;
  /** Open a component's source in DevTools' Sources panel. */
  openSource(source: RowSource): void;
}

export class TableView {
  readonly root: HTMLElement;
  private readonly scroller: HTMLElement;
  private readonly body: HTMLElement;
  private readonly headers: HTMLButtonElement[] = [];
  private readonly pool: HTMLElement[] = [];
  private readonly empty: HTMLElement;
  private all: TableRow[] = [];
  /** Rows after filter and sort: what the table shows, top to bottom. */
  rows: TableRow[] = [];
  sort: SortSpec = { ...DEFAULT_SORT };
  filter = '';
  /** Library and framework rows left out of the last view (0 when they are shown). */
  hiddenForeign = 0;
  private cursor = -1;
  view: TableViewKind = 'flat';
  private readonly collapsed = new Set<number>();
  private viewButtons: HTMLButtonElement[] = [];
  private pinned: number | null = null;
  private hovered: number | null = null;
  private frame = 0;

  constructor(private readonly cb: TableCallbacks, private settings: Settings) {
    const head = el('div', { class: 'thead', attrs: { role: 'row' } });
    for (const c of COLUMNS) {
      const b = el('button', {
        class: `th col-${c.key}`, attrs: { role: 'columnheader', title: `${c.title} — click to sort`, 'data-sort': c.key },
        on: { click: () => this.setSort(nextSort(this.sort, c.key)) },
      }, c.label);
      this.headers.push(b);
      head.append(b);
    }
    this.body = el('div', { class: 'tbody', attrs: { role: 'rowgroup' } });
    this.empty = el('div', { class: 'table-empty' });
    this.scroller = el('div', {
      class: 'table-scroll', id: 'table',
      attrs: { role: 'grid', tabindex: '0', 'aria-label': 'Live components', 'aria-rowcount': '0' },
      on: {
        scroll: () => this.schedule(),
        keydown: (e) => this.onKey(e),
        mouseover: (e) => this.setHover(this.rowAt(e.target)),
        mouseleave: () => this.setHover(null),
        // Leaving the panel's frame altogether may bring only a mouseout with no related target.
        mouseout: (e) => {
          const to = e.relatedTarget;
          if (!(to instanceof Node) || !this.scroller.contains(to)) this.setHover(null);
        },
        click: (e) => this.onClick(e),
        focus: () => this.schedule(),
        // The keyboard cursor's outline on the page should not outlive the table's focus.
        blur: () => this.setHover(null),
      },
    }, head, this.body, this.empty);
    const views: [TableViewKind, string, string][] = [
      ['flat', 'Flat', 'Every live component'], ['type', 'By type', 'One row per component type: instances, summed cost, the worst'],
      ['tree', 'Tree', 'The component tree: fold with ▸/▾ or ←/→; "Self" is its own layout ms'],
    ];
    this.viewButtons = views.map(([v, label, title]) => el('button', {
      class: 'view-btn', attrs: { 'data-view': v, 'aria-pressed': String(v === this.view), title },
      on: { click: () => this.setView(v) },
    }, label));
    const switcher = el('div', { class: 'view-switch', attrs: { role: 'group', 'aria-label': 'Table view' } }, ...this.viewButtons);
    this.root = el('section', { class: 'table-pane' }, switcher, this.scroller);
    new ResizeObserver(() => this.schedule()).observe(this.scroller);
    this.paintHeaders();
  }

  setSettings(s: Settings): void {
    const libraries = this.settings.showLibraries;
    this.settings = s;
    if (s.showLibraries !== libraries) this.recompute();
    else this.schedule();
  }

  setData(update: TableUpdate | null, pinned: number | null): void {
    this.all = update ? buildRows(update) : [];
    this.pinned = pinned;
    this.recompute();
  }

  setPinned(id: number | null): void {
    if (this.pinned === id) return;
    this.pinned = id;
    this.schedule();
  }

  setFilter(f: string): void {
    this.filter = f;
    this.recompute();
  }

  setView(v: TableViewKind): void {
    if (v === this.view) return;
    this.view = v;
    this.cursor = -1;
    for (const b of this.viewButtons) b.setAttribute('aria-pressed', String(b.dataset.view === v));
    this.paintHeaders();
    this.recompute();
  }

  setSort(s: SortSpec): void {
    this.sort = s;
    this.paintHeaders();
    this.recompute();
  }

  private recompute(): void {
    const cursorId = this.cursor >= 0 ? this.rows[this.cursor]?.id : undefined;
    // The app's own components unless libraries are shown or the filter asks for a kind (issue 44).
    const rows = this.settings.showLibraries || parseQuery(this.filter).kinds !== null ? this.all : ownRows(this.all);
    this.hiddenForeign = this.all.length - rows.length;
    this.rows = this.view === 'tree' ? treeRows(rows, this.filter, this.sort, this.collapsed)
      : viewRows(this.view === 'type' ? byType(rows) : rows, this.filter, this.sort);
    // Keep the keyboard cursor on the same component across refreshes.
    this.cursor = cursorId === undefined ? -1 : this.rows.findIndex((r) => r.id === cursorId);
    this.scroller.setAttribute('aria-rowcount', String(this.rows.length + 1));
    setText(this.empty, this.all.length <= 1 && this.filter === '' ? 'No components yet.'
      : this.rows.length <= 1 && this.hiddenForeign > 0 ? `Only library and framework components here (${this.hiddenForeign}): tick Libraries to list them.`
        : this.rows.length === 0 ? 'No component matches the filter.' : '');
    this.schedule();
  }

  private paintHeaders(): void {
    for (const b of this.headers) {
      const key = b.dataset.sort as SortKey;
      const col = COLUMNS.find((c) => c.key === key) as Column;
      const [label, title] = VIEW_LABELS[this.view][key] ?? [col.label, col.title];
      setText(b, label);
      b.title = `${title} — click to sort`;
      const active = key === this.sort.key;
      b.setAttribute('aria-sort', active ? (this.sort.dir === 'asc' ? 'ascending' : 'descending') : 'none');
      b.classList.toggle('sorted', active);
      b.dataset.dir = active ? this.sort.dir : '';
    }
  }

  /**
   * Coalesces scroll, resize and data changes into one paint per animation
   * frame. DevTools may not run animation frames for a panel it considers
   * hidden, so a timer paints too if the frame does not come.
   */
  private schedule(): void {
    if (this.frame !== 0) return;
    const run = () => {
      if (this.frame === 0) return;
      cancelAnimationFrame(raf);
      clearTimeout(timer);
      this.frame = 0;
      this.paint();
    };
    const raf = requestAnimationFrame(run);
    const timer = setTimeout(run, PAINT_FALLBACK_MS);
    this.frame = raf || 1;
  }

  private viewportPx(): number {
    return Math.max(0, this.scroller.clientHeight - ROW_HEIGHT_PX);
  }

  private paint(): void {
    const total = this.rows.length;
    this.body.style.height = `${total * ROW_HEIGHT_PX}px`;
    const { start, end } = visibleRange(this.scroller.scrollTop, this.viewportPx(), ROW_HEIGHT_PX, total);
    while (this.pool.length < end - start) this.pool.push(this.makeRow(this.pool.length));
    let active = '';
    for (let j = 0; j < this.pool.length; j++) {
      const node = this.pool[j];
      const i = start + j;
      if (i >= end) {
        node.hidden = true;
        continue;
      }
      node.hidden = false;
      this.fillRow(node, this.rows[i], i);
      if (i === this.cursor) active = node.id;
    }
    if (active) this.scroller.setAttribute('aria-activedescendant', active);
    else this.scroller.removeAttribute('aria-activedescendant');
  }

  private makeRow(n: number): HTMLElement {
    const row = el('div', { class: 'tr', id: `lc-row-${n}`, attrs: { role: 'row' } });
    for (const c of COLUMNS) {
      const cell = el('span', { class: `td col-${c.key}`, attrs: { role: 'gridcell' } });
      // Names are isolated (<bdi>) so a right-to-left name cannot pull the numbers around.
      if (c.key === 'name') {
        cell.append(el('span', { class: 'twisty', attrs: { 'aria-hidden': 'true' } }), el('bdi', { class: 'name' }),
          el('span', { class: 'src', attrs: { title: 'Open in Sources' } }));
      }
      else cell.append(el('span', { class: 'v' }));
      row.append(cell);
    }
    this.body.append(row);
    return row;
  }

  private fillRow(node: HTMLElement, r: TableRow, i: number): void {
    node.style.transform = `translateY(${i * ROW_HEIGHT_PX}px)`;
    node.dataset.index = String(i);
    node.dataset.id = String(r.id);
    node.setAttribute('aria-rowindex', String(i + 2));
    node.classList.toggle('odd', i % 2 === 1);
    node.classList.toggle('page-row', r.isPage);
    node.classList.toggle('pinned', !r.isPage && r.id === this.pinned);
    node.classList.toggle('cursor', i === this.cursor);
    node.setAttribute('aria-selected', String(!r.isPage && r.id === this.pinned));
    node.classList.toggle('group-row', r.isGroup === true);
    if (this.view === 'tree' && !r.isPage) {
      node.setAttribute('aria-level', String((r.treeDepth ?? 0) + 1));
      if (r.hasChildren) node.setAttribute('aria-expanded', String(!r.collapsed));
      else node.removeAttribute('aria-expanded');
    } else {
      node.removeAttribute('aria-level');
      node.removeAttribute('aria-expanded');
    }
    for (let c = 0; c < COLUMNS.length; c++) {
      const col = COLUMNS[c];
      const cell = node.children[c] as HTMLElement;
      if (col.key === 'name') {
        const tree = this.view === 'tree' && !r.isPage;
        setText(cell.firstChild as Node, tree ? (r.hasChildren ? (r.collapsed ? '▸' : '▾') : '') : '');
        (cell.firstChild as HTMLElement).hidden = !tree;
        // 8 px a level up to 10: library trees run 15 deep, and the name must stay readable past that.
        cell.style.paddingLeft = tree ? `${4 + 8 * Math.min(r.treeDepth ?? 0, 10)}px` : '';
        setText(cell.children[1], col.cell(r));
        const src = cell.children[2] as HTMLElement;
        setText(src, r.source ? sourceLabel(r.source) : '');
        src.hidden = !r.source;
        if (r.source) src.title = `Open ${capText(r.source.file, 80)}:${r.source.line} in Sources${r.source.state === 'no-map' ? ' (the bundle: no source map)' : r.source.state === 'react-debug' ? ' (from React\'s debug information: its first element)' : ''}`;
      } else setText(cell.firstChild as Node, col.cell(r));
      if (col.key === 'name') {
        // Page-derived parts capped: the name (200), and at most 80 of ours around it; the file shows in full in the pinned view.
        const min = r.minifiedName ? ` (minified: ${capText(r.minifiedName, 12)})` : '';
        const key = r.key === null ? '' : ` — key ${capText(r.key, 20)}`;
        cell.title = `${r.label}${min}${key}${r.source ? ` — ${capText(sourceLabel(r.source), 24)}` : ''}`;
      }
      if (col.level) {
        const lvl = col.level(r, this.settings);
        cell.dataset.level = lvl === null ? '' : String(lvl);
      }
    }
  }

  private rowAt(target: EventTarget | null): TableRow | null {
    const node = target instanceof Element ? target.closest<HTMLElement>('.tr') : null;
    if (!node || node.hidden || node.dataset.index === undefined) return null;
    return this.rows[Number(node.dataset.index)] ?? null;
  }

  private setHover(r: TableRow | null): void {
    const id = r && !r.isPage && !r.isGroup ? r.id : null;
    if (id === this.hovered) return;
    this.hovered = id;
    this.cb.hover(id);
  }

  private onClick(e: MouseEvent): void {
    const r = this.rowAt(e.target);
    if (!r) return;
    this.cursor = this.rows.indexOf(r);
    if (e.target instanceof Element && e.target.classList.contains('src') && r.source) {
      this.cb.openSource(r.source);
      return;
    }
    if (e.target instanceof Element && e.target.classList.contains('twisty') && r.hasChildren) {
      this.fold(r, !r.collapsed);
      return;
    }
    if (!r.isPage && !r.isGroup) this.cb.pin(r.id);
    this.schedule();
  }

  /** Tree view: folds (true) or unfolds a row's children. */
  private fold(r: TableRow, fold: boolean): void {
    if (fold) this.collapsed.add(r.id);
    else this.collapsed.delete(r.id);
    this.recompute();
  }

  private onKey(e: KeyboardEvent): void {
    if (e.target !== this.scroller) return;
    const cur = this.rows[this.cursor];
    if (this.view === 'tree' && cur && cur.hasChildren && (e.key === 'ArrowRight' || e.key === 'ArrowLeft')) {
      this.fold(cur, e.key === 'ArrowLeft');
    } else if (e.key === 'Enter' || e.key === ' ') {
      const r = this.rows[this.cursor];
      if (r && !r.isPage && !r.isGroup) this.cb.pin(r.id);
    } else if (e.key === 'Escape') {
      this.cb.pin(null);
    } else {
      const next = moveCursor(this.cursor, e.key, this.rows.length, pageSize(this.viewportPx(), ROW_HEIGHT_PX));
      if (next === this.cursor && !['ArrowDown', 'ArrowUp', 'PageDown', 'PageUp', 'Home', 'End'].includes(e.key)) return;
      this.cursor = next;
      this.scroller.scrollTop = scrollToReveal(next, this.scroller.scrollTop, this.viewportPx(), ROW_HEIGHT_PX);
      this.setHover(this.rows[next] ?? null);
      this.schedule();
    }
    e.preventDefault();
  }
}
