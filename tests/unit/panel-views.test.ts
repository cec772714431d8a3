import { expect } from 'chai';
import { buildRows, byType, DEFAULT_SORT, treeRows } from '../../src/devtools-panel/table-model';
import type { ComponentRow, TableUpdate } from '../../src/protocol';

function row(id: number, name: string, parentId: number | null, layoutMs: number, extra: Partial<ComponentRow> = {}): ComponentRow {
  return {
    id, name, parentId, depth: 0, key: null, styleMs: 0, layoutMs, forcedMs: 0, lastFrameMs: layoutMs, authored: 1, rendered: 1,
    portaledIn: 0, commits: 1, ...extra,
  };
}
const update = (rows: ComponentRow[]): TableUpdate => ({ frameId: 0, frames: 1, rows, page: { styleMs: 0, layoutMs: 0.5, forcedMs: 0 }, pinned: null, strip: [] });

// App → Grid → Cell ×3; a List → Item → Item (an Item inside an Item).
const ROWS = buildRows(update([
  row(1, 'App', null, 10), row(2, 'Grid', 1, 9), row(3, 'Cell', 2, 3), row(4, 'Cell', 2, 3), row(5, 'Cell', 2, 2.5, { lastFrameMs: 7 }),
  row(6, 'List', 1, 1), row(7, 'Item', 6, 0.8), row(8, 'Item', 7, 0.3),
]));

describe('panel views', () => {
  it('By type: one row per name with its instances, summed over the outermost ones, the worst instance\'s last frame', () => {
    const t = byType(ROWS);
    const cell = t.find((r) => r.label.startsWith('Cell'))!;
    expect(cell).to.include({ label: 'Cell × 3', depth: 3, layoutMs: 8.5, lastFrameMs: 7, authored: 3, isGroup: true });
    // The nested Item is in its outer Item's inclusive figure already: not added twice.
    expect(t.find((r) => r.label.startsWith('Item'))).to.include({ label: 'Item × 2', layoutMs: 0.8 });
    expect(t.filter((r) => r.isPage)).to.have.length(1);
    expect(new Set(t.map((r) => r.id)).size).to.equal(t.length);
    expect(t.every((r) => r.isPage || r.id < 0)).to.equal(true);
  });

  it('Tree: depth first, siblings by the sort, self ms, folding, and a filter that keeps a match\'s ancestors', () => {
    const t = treeRows(ROWS, '', DEFAULT_SORT, new Set());
    expect(t.map((r) => `${'.'.repeat(r.treeDepth ?? 0)}${r.label}`)).to.deep.equal(
      ['<page>', 'App', '.Grid', '..Cell', '..Cell', '..Cell', '.List', '..Item', '...Item']);
    const grid = t.find((r) => r.label === 'Grid')!;
    expect(grid.lastFrameMs).to.be.closeTo(9 - 8.5, 1e-9); // self
    expect(grid).to.include({ hasChildren: true, collapsed: false });
    const folded = treeRows(ROWS, '', DEFAULT_SORT, new Set([2]));
    expect(folded.map((r) => r.label)).to.deep.equal(['<page>', 'App', 'Grid', 'List', 'Item', 'Item']);
    const filtered = treeRows(ROWS, 'item', DEFAULT_SORT, new Set());
    expect(filtered.map((r) => r.label)).to.deep.equal(['App', 'List', 'Item', 'Item']);
  });

  it('Tree: a 10 000-deep chain does not overflow the stack', () => {
    const deep: ComponentRow[] = [];
    for (let i = 1; i <= 10_000; i++) deep.push(row(i, `C${i}`, i === 1 ? null : i - 1, 1));
    const t = treeRows(buildRows(update(deep)), '', DEFAULT_SORT, new Set());
    expect(t).to.have.length(10_001);
    expect(t[t.length - 1].treeDepth).to.equal(9_999);
  });
});
