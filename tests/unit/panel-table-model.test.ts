import { expect } from 'chai';
import type { ComponentRow, TableUpdate } from '../../src/protocol';
import { buildRows, nextSort, PAGE_ROW_ID, SORT_KEYS, viewRows, type TableRow } from '../../src/devtools-panel/table-model';

function row(id: number, name: string, o: Partial<ComponentRow> = {}): ComponentRow {
  return {
    id, name, parentId: null, depth: 0, key: null, styleMs: 0, layoutMs: 0, forcedMs: 0, lastFrameMs: 0,
    authored: 1, rendered: 1, portaledIn: 0, commits: 0, ...o,
  };
}

function update(rows: ComponentRow[]): TableUpdate {
  return { frameId: 0, frames: 10, rows, page: { styleMs: 0.5, layoutMs: 3, forcedMs: 0 }, pinned: null, strip: [] };
}

const rows = buildRows(update([
  row(1, 'App', { layoutMs: 5, authored: 10, rendered: 100, commits: 2, depth: 0 }),
  row(2, 'Grid', { layoutMs: 9, authored: 50, rendered: 60, commits: 7, depth: 1 }),
  row(3, 'cell', { layoutMs: 1, authored: 0, rendered: 4, commits: 1, depth: 2, styleMs: 2 }),
]));

describe('panel table model', () => {
  it('includes the <page> row first', () => {
    expect(rows[0]).to.include({ id: PAGE_ROW_ID, isPage: true, label: '<page>', layoutMs: 3 });
    expect(rows.length).to.equal(4);
  });

  it('computes the inflation ratio as the overlay does (authored 0 divides by 1)', () => {
    expect(rows[1].ratio).to.equal(10);
    expect(rows[3].ratio).to.equal(4);
    expect(rows[0].ratio).to.equal(null);
  });

  it('sorts by every number both ways, ties by id', () => {
    for (const key of SORT_KEYS) {
      for (const dir of ['asc', 'desc'] as const) {
        const out = viewRows(rows, '', { key, dir });
        expect(out.length).to.equal(4);
        for (let i = 1; i < out.length; i++) {
          const a = out[i - 1], b = out[i];
          const va = key === 'name' ? a.search : key === 'ratio' ? a.ratio ?? -1 : (a[key] as number);
          const vb = key === 'name' ? b.search : key === 'ratio' ? b.ratio ?? -1 : (b[key] as number);
          if (va === vb) expect(a.id).to.be.below(b.id);
          else expect(dir === 'asc' ? va < vb : va > vb, `${key} ${dir}`).to.equal(true);
        }
      }
    }
  });

  it('sorts by layout ms descending: Grid, App, <page>, cell', () => {
    expect(viewRows(rows, '', { key: 'layoutMs', dir: 'desc' }).map((r: TableRow) => r.label))
      .to.deep.equal(['Grid', 'App', '<page>', 'cell']);
  });

  it('filters case-insensitively by name', () => {
    expect(viewRows(rows, 'GRI', { key: 'name', dir: 'asc' }).map((r) => r.id)).to.deep.equal([2]);
    expect(viewRows(rows, '  ', { key: 'name', dir: 'asc' }).length).to.equal(4);
    expect(viewRows(rows, 'page', { key: 'name', dir: 'asc' }).map((r) => r.id)).to.deep.equal([0]);
  });

  it('cycles the sort: a new column starts at its default direction, the same column flips', () => {
    expect(nextSort({ key: 'layoutMs', dir: 'desc' }, 'name')).to.deep.equal({ key: 'name', dir: 'asc' });
    expect(nextSort({ key: 'name', dir: 'asc' }, 'name')).to.deep.equal({ key: 'name', dir: 'desc' });
    expect(nextSort({ key: 'name', dir: 'asc' }, 'commits')).to.deep.equal({ key: 'commits', dir: 'desc' });
  });

  it('caps hostile names in the label and filters on the capped label', () => {
    const r = buildRows(update([row(9, '\u202E' + 'x'.repeat(400))]))[1];
    expect(r.label.length).to.equal(200);
    expect(r.label.includes('\u202E')).to.equal(false);
  });

  it('sorts 20 000 rows quickly: n log n comparisons, each reading a few precomputed fields', () => {
    // Counted, not timed: every field read of every row goes through a Proxy, and the budget is a few reads per
    // comparison of a merge sort (n log2 n of them). A quadratic sort, or work per comparison that reads the
    // row over and over, runs out of it at once, whatever the machine's speed.
    const n = 20_000;
    const many = buildRows(update(Array.from({ length: n }, (_, i) => row(i + 1, `C${i}`, { layoutMs: (i * 7919) % 101 }))));
    let reads = 0, budget = 0, counting = false;
    const counted = many.map((r) => new Proxy(r, {
      get(target, key, receiver) {
        if (counting && ++reads > budget) throw new Error(`more than ${budget} row reads`);
        return Reflect.get(target, key, receiver);
      },
    }));
    const perComparison = 6; // two fields of each row, and the ids on a tie
    const within = (filter: string, spec: { key: (typeof SORT_KEYS)[number]; dir: 'asc' | 'desc' }): TableRow[] => {
      const m = filter === '' ? counted.length : counted.filter((r) => r.search.includes(filter)).length;
      reads = 0;
      budget = counted.length + perComparison * Math.ceil(m * Math.log2(m));
      counting = true;
      try {
        return viewRows(counted, filter, spec);
      } finally {
        counting = false;
      }
    };
    const byMs = within('c1', { key: 'layoutMs', dir: 'desc' });
    expect(byMs.length).to.equal(11_111); // C1, C10–C19, C100–C199, C1000–C1999, C10000–C19999
    expect(byMs.every((r, i) => i === 0 || byMs[i - 1].layoutMs > r.layoutMs || (byMs[i - 1].layoutMs === r.layoutMs && byMs[i - 1].id < r.id))).to.equal(true);
    const byName = within('', { key: 'name', dir: 'asc' });
    expect(byName.length).to.equal(n + 1);
    expect(byName.every((r, i) => i === 0 || byName[i - 1].search < r.search)).to.equal(true);
  });
});
