/**
 * Whose code a component is (issue 44): the app's own, a library's or the framework's, from where its type is
 * defined. The paths are what real bundlers and dev servers give: a source map's original file, or a script URL.
 */
import { expect } from 'chai';
import { kindOfLocation, kindOfType } from '../../src/protocol/component-kind';
import { buildRows, ownRows, parseQuery, rowMatches, treeRows, viewRows, type TableRow } from '../../src/devtools-panel/table-model';
import { buildTree, chooseInTree } from '../../src/overlay/surface';
import type { ComponentRow } from '../../src/protocol';

describe('component kinds: own, library, framework', () => {
  it('tells them apart from source-map files and script URLs of Vite, Next.js, webpack and esbuild', () => {
    const cases: [string, string | null][] = [
      ['http://localhost:5173/src/App.tsx', 'own'],
      ['http://localhost:5173/src/App.tsx?t=1700000000000', 'own'],
      ['webpack://app/./src/components/Card.tsx', 'own'],
      ['turbopack:///[project]/app/TodoPanel.tsx', 'own'],
      ['http://127.0.0.1:8080/node_modules/recharts/es6/chart/PieChart.js', 'library'],
      ['webpack://app/./node_modules/@headlessui/react/dist/components/menu/menu.js', 'library'],
      ['http://localhost:5173/node_modules/.vite/deps/recharts.js?v=1a2b3c', 'library'],
      ['/home/me/app/node_modules/.pnpm/react-window@1.8.10/node_modules/react-window/dist/index.esm.js', 'library'],
      ['https://esm.sh/react-select@5', 'library'],
      ['http://localhost:5173/node_modules/react-dom/cjs/react-dom.development.js', 'framework'],
      ['turbopack:///[project]/node_modules/next/dist/client/components/react-dev-overlay/ui/container.js', 'framework'],
      ['http://localhost:3000/_next/static/chunks/framework-0a1b2c.js', 'framework'],
      ['http://localhost:5173/@vite/client', 'framework'],
      ['/app/node_modules/.pnpm/next@16.0.0/node_modules/next/dist/client/app-index.js', 'framework'],
      // Next 16's dev overlay: its precompiled map's sources, passed on by the Turbopack chunk's map.
      ['webpack://next/./src/next-devtools/dev-overlay.browser.tsx', 'framework'],
      ['webpack://nextapp/./src/index.tsx', 'own'],
      // A package named like a framework one is not one.
      ['http://localhost:5173/node_modules/react-select/dist/Select.js', 'library'],
      ['http://localhost:5173/node_modules/next-themes/dist/index.mjs', 'library'],
      ['', null],
    ];
    for (const [where, kind] of cases) expect(kindOfLocation(where), where).to.equal(kind);
    expect(kindOfLocation(null)).to.equal(null);
  });

  it('the mapped original decides over the bundle that holds it; a type not placed is own', () => {
    expect(kindOfType('webpack://app/./node_modules/recharts/es6/Pie.js', 'http://h/static/js/main.js')).to.equal('library');
    expect(kindOfType('webpack://app/./src/Pie.tsx', 'http://h/node_modules/.vite/deps/chunk.js')).to.equal('own');
    expect(kindOfType(null, 'http://h/node_modules/.vite/deps/recharts.js')).to.equal('library');
    expect(kindOfType(null, null)).to.equal('own');
  });
});

describe('the table: your components first, filters by name, kind and file', () => {
  const row = (id: number, name: string, parentId: number | null, kind: 'own' | 'library' | 'framework', file: string, layoutMs: number): ComponentRow => ({
    id, name, parentId, depth: 0, key: null, styleMs: 0, layoutMs, forcedMs: 0, lastFrameMs: 0, authored: 1, rendered: 1, portaledIn: 0,
    commits: 1, source: { file, line: 1, column: 1, url: `http://h/${file}`, state: 'mapped' }, kind,
  });
  const rows = buildRows({
    frameId: 1, frames: 1, pinned: null, strip: [], page: { styleMs: 0, layoutMs: 0, forcedMs: 0 },
    rows: [
      row(1, 'App', null, 'own', 'src/App.tsx', 9),
      row(2, 'ResponsiveContainer', 1, 'library', 'node_modules/recharts/es6/Responsive.js', 8),
      row(3, 'Surface', 2, 'library', 'node_modules/recharts/es6/Surface.js', 8),
      row(4, 'ChartCard', 3, 'own', 'src/cards/ChartCard.tsx', 7),
      row(5, 'Router', null, 'framework', 'node_modules/next/dist/client/router.js', 1),
    ],
  });

  it('hides library and framework rows, re-parenting yours to your nearest component', () => {
    const own = ownRows(rows);
    expect(own.map((r) => r.label)).to.deep.equal(['<page>', 'App', 'ChartCard']);
    expect(own.find((r) => r.label === 'ChartCard')!.parentId).to.equal(1);
    // The tree view nests ChartCard straight under App, its figures untouched.
    const tree = treeRows(own, '', { key: 'layoutMs', dir: 'desc' }, new Set());
    expect(tree.map((r) => [r.label, r.treeDepth ?? 0, r.layoutMs])).to.deep.equal([['<page>', 0, 0], ['App', 0, 9], ['ChartCard', 1, 7]]);
  });

  it('leaves out a row whose type is still being placed, and re-parents past it', () => {
    const placing = buildRows({
      frameId: 1, frames: 1, pinned: null, strip: [], page: { styleMs: 0, layoutMs: 0, forcedMs: 0 },
      rows: [row(1, 'App', null, 'own', 'src/App.tsx', 9), { ...row(2, 'Pie', 1, 'own', 'src/Pie.tsx', 8), placing: true },
        row(3, 'Card', 2, 'own', 'src/Card.tsx', 7)],
    });
    const own = ownRows(placing);
    expect(own.map((r) => r.label)).to.deep.equal(['<page>', 'App', 'Card']);
    expect(own.find((r) => r.label === 'Card')!.parentId).to.equal(1);
  });

  it('parses kind: and file: tokens; the rest is a name', () => {
    expect(parseQuery('  Card kind:library,framework file:SRC/cards ')).to.deep.equal({ text: 'card', files: ['src/cards'], kinds: ['library', 'framework'] });
    expect(parseQuery('kind:nonsense')).to.deep.equal({ text: '', files: [], kinds: [] });
    const names = (q: string): string[] => viewRows(rows, q, { key: 'name', dir: 'asc' }).map((r: TableRow) => r.label);
    expect(names('kind:library')).to.deep.equal(['ResponsiveContainer', 'Surface']);
    expect(names('file:src/cards')).to.deep.equal(['ChartCard']);
    expect(names('kind:own app')).to.deep.equal(['App']);
    expect(names('page')).to.deep.equal(['<page>']);
    expect(rowMatches(rows[0], parseQuery('kind:own'))).to.equal(false); // <page> has no kind
  });
});

describe('the overlay: a skipped component draws nothing and covers nothing', () => {
  it('a library wrapper between two of yours: your child is compared with your parent', () => {
    const node = (id: number, parentId: number | null, layout: number) => ({ id, parentId, depth: 0, layout, authored: 1, rendered: 1, bounds: null });
    const nodes = [node(1, null, 10), node(2, 1, 9), node(3, 2, 8)];
    const rules = { layoutFraction: 0.5, renderedFraction: 2, inflationFactor: 100 };
    // Without skipping, 3 is compared with 2 (shown: 9 > 5): 8 > 4.5, shown too.
    expect(chooseInTree(buildTree(nodes), rules).map((n) => n.id)).to.deep.equal([1, 2, 3]);
    // Skipping 2: it shows nothing, and 3 is compared with 1 (8 > 5): shown.
    expect(chooseInTree(buildTree(nodes), rules, (n) => n.id === 2).map((n) => n.id)).to.deep.equal([1, 3]);
    // A skipped root covers nothing: its child shows as a root would.
    expect(chooseInTree(buildTree(nodes), rules, (n) => n.id === 1).map((n) => n.id)).to.deep.equal([2, 3]);
  });
});

describe('"names look minified" judges the app\'s own code', () => {
  it('a framework\'s minified components (Next.js\'s dev overlay) do not make a readable app minified', async () => {
    const { SourceBook } = await import('../../src/content/agent/sources');
    const book = new SourceBook();
    const placed = (typeId: number, url: string) => ({
      typeId, url, line: 1, column: 0, state: 'mapped' as const, file: url, fileUrl: url, fileLine: 1, fileColumn: 0, originalName: null, why: null,
    });
    const names: [number, string, string][] = [
      [101, 'TodoPanel', 'turbopack:///[project]/app/TodoPanel.tsx'], [102, 'TodoItem', 'turbopack:///[project]/app/TodoItem.tsx'],
      [103, 'e', 'turbopack:///[project]/node_modules/next/dist/client/components/react-dev-overlay/ui/a.js'],
      [104, 't', 'turbopack:///[project]/node_modules/next/dist/client/components/react-dev-overlay/ui/b.js'],
      [105, 'n', 'turbopack:///[project]/node_modules/next/dist/client/components/react-dev-overlay/ui/c.js'],
    ];
    for (const [agentId, name] of names) book.noteName(book.localType(agentId), name);
    expect(book.ownNamesMinified()).to.equal(null); // nothing placed yet: the agent's judgement stands
    book.onTypes(names.map(([agentId]) => ({ typeId: agentId, text: `function x${agentId}(){}`, length: 16, hint: null })));
    book.onLocated(names.map(([agentId, , url]) => placed(book.localType(agentId), url)));
    expect(book.ownNamesMinified()).to.equal(false);
    // The same minified names in the app's own files: minified.
    const own = new SourceBook();
    for (const [agentId, name] of names) own.noteName(own.localType(agentId), name);
    own.onTypes(names.map(([agentId]) => ({ typeId: agentId, text: `function x${agentId}(){}`, length: 16, hint: null })));
    own.onLocated(names.map(([agentId]) => placed(own.localType(agentId), `http://localhost:3000/src/${agentId}.js`)));
    expect(own.ownNamesMinified()).to.equal(true);
  });
});

describe('a type being placed (issue 44: no meter that appears and goes)', () => {
  it('is left out of the own-only views until its kind is known, and shown as the app\'s own if no answer comes', async () => {
    const { SourceBook, PLACING_MS } = await import('../../src/content/agent/sources');
    let now = 1000;
    const timers: { at: number; fn: () => void }[] = [];
    const book = new SourceBook(() => now, (fn, ms) => timers.push({ at: now + ms, fn }));
    const advance = (to: number): void => {
      now = to;
      for (let t = timers.findIndex((x) => x.at <= now); t >= 0; t = timers.findIndex((x) => x.at <= now)) timers.splice(t, 1)[0].fn();
    };
    const text = (agentId: number) => ({ typeId: agentId, text: `function x${agentId}(){}`, length: 16, hint: null });
    const at = (typeId: number, url: string) => ({
      typeId, url, line: 1, column: 0, state: 'mapped' as const, file: url, fileUrl: url, fileLine: 1, fileColumn: 0, originalName: null, why: null,
    });
    book.onTypes([text(1), text(2), text(3)]);
    const [lib, own, lost] = [1, 2, 3].map((a) => book.localType(a));
    for (const t of [lib, own, lost]) {
      expect(book.placing(t), `type ${t} before an answer`).to.equal(true);
      expect(book.foreign(t), 'hidden meanwhile').to.equal(true);
      expect(book.kindOf(t), 'the snapshot still says own').to.equal('own');
    }
    advance(1500);
    book.onLocated([at(lib, 'http://localhost:5173/node_modules/.vite/deps/recharts.js'), at(own, 'http://localhost:5173/src/App.tsx')]);
    expect([book.placing(lib), book.foreign(lib), book.kindOf(lib)]).to.deep.equal([false, true, 'library']);
    expect([book.placing(own), book.foreign(own), book.kindOf(own)]).to.deep.equal([false, false, 'own']);
    expect(book.placing(lost)).to.equal(true);
    // No answer for the third: after PLACING_MS it is shown as the app's own, and the version says so (a redraw).
    const v = book.version;
    advance(1000 + PLACING_MS - 1);
    expect(book.placing(lost)).to.equal(true);
    advance(1000 + PLACING_MS + 2);
    expect([book.placing(lost), book.foreign(lost), book.kindOf(lost)]).to.deep.equal([false, false, 'own']);
    expect(book.version).to.be.greaterThan(v);
    // A type seen again (a hot update's new text) that was placed before is not hidden again.
    book.onTypes([{ ...text(2), text: 'function x2(){ return 1 }', hot: true }]);
    expect(book.placing(own)).to.equal(false);
    // A hot update's new type for a component already shown stays shown while it is placed again.
    book.onTypes([{ ...text(9), hot: true }]);
    expect(book.placing(book.localType(9))).to.equal(false);
    // A new one later gets its own window; reset forgets every window.
    book.onTypes([text(4)]);
    expect(book.placing(book.localType(4))).to.equal(true);
    book.reset();
    expect(book.placing(1)).to.equal(false);
    // Components not typed yet (type 0): hidden while components keep mounting, shown PLACING_MS after the last mount.
    expect(book.foreign(0)).to.equal(false);
    const v0 = book.version;
    book.noteMounts();
    expect([book.placing(0), book.foreign(0)]).to.deep.equal([true, true]);
    expect(book.version, 'mounts send the panel no whole table').to.equal(v0);
    advance(now + PLACING_MS - 500);
    book.noteMounts(); // more mounted: the window runs from here
    advance(now + PLACING_MS - 1);
    expect(book.placing(0)).to.equal(true);
    const w = book.version, d = book.drawVersion;
    advance(now + 2);
    expect([book.placing(0), book.foreign(0)]).to.deep.equal([false, false]);
    expect(book.drawVersion, 'the overlay redraws').to.be.greaterThan(d);
    expect(book.version, 'the panel gets no whole table').to.equal(w);
  });
});
