/**
 * Finding component types in scripts and mapping them (issue 15; src/background/sources.ts), against the sources
 * fixture built by esbuild: minified with a linked map, minified without one. The function texts are what
 * Function.prototype.toString returns for the bundle's own functions (found by evaluating nothing: the test slices
 * them out of the bundle the way V8's toString does, from the minified name's `function` keyword).
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ROOT } from '../../scripts/chrome';
import { declaredName, displayFile, evalModuleHolding, lineColumn, lineDeclaration, mapUrlOf, nameOffset, SourceLocator } from '../../src/background/sources';
import { nameLooksMinified, namesLookMinified } from '../../src/protocol/names';
import { renamedFrom } from '../../src/content/agent/sources';
import { creatorFrame, debugHintValidator } from '../../src/protocol/sources';

const BUILD = path.join(ROOT, 'build', 'fixtures');
const ORIGIN = 'http://app.test';
const files: Record<string, string> = {
  [`${ORIGIN}/build/fixtures/sources-r19-min.js`]: 'sources-r19-min.js',
  [`${ORIGIN}/build/fixtures/sources-r19-min.js.map`]: 'sources-r19-min.js.map',
  [`${ORIGIN}/build/fixtures/sources-r19-nomap.js`]: 'sources-r19-nomap.js',
};
const fetched: { url: string; cookies: boolean }[] = [];
const fetcher = async (url: string, cookies: boolean) => {
  fetched.push({ url, cookies });
  const f = files[url];
  if (!f) return { ok: false, status: 404, text: '', header: () => null };
  return { ok: true, status: 200, text: fs.readFileSync(path.join(BUILD, f), 'utf8'), header: () => null };
};

/** The source lines of the fixture's component definitions (the truth). */
function definitionLine(name: string): number {
  const lines = fs.readFileSync(path.join(ROOT, 'tests/fixtures/src/sources.tsx'), 'utf8').split('\n');
  const re = new RegExp(`(?:function ${name}\\b|class ${name}\\b|const ${name} = (?!React))`);
  return lines.findIndex((l) => re.test(l)) + 1;
}

describe('component sources: locating and mapping', () => {
  before(function () {
    if (!fs.existsSync(path.join(BUILD, 'sources-r19-min.js.map'))) this.skip();
  });

  it('finds a function\'s text in the minified bundle and maps it to its file, line and original name', async () => {
    const bundle = fs.readFileSync(path.join(BUILD, 'sources-r19-min.js'), 'utf8');
    // The minified AlphaPanel: the function that renders className "alpha".
    const at = bundle.lastIndexOf('function', bundle.indexOf('className:"alpha"'));
    const end = bundle.indexOf('}', bundle.indexOf('className:"alpha"')) + 1;
    const text = bundle.slice(at, end);
    expect(/^function [\w$]{1,2}\(/.test(text), text).to.equal(true);
    const loc = new SourceLocator(fetcher);
    fetched.length = 0;
    const [r] = await loc.locate({ types: [{ typeId: 1, text, hint: null }], scripts: [{ url: `${ORIGIN}/build/fixtures/sources-r19-min.js`, inline: null }] }, `${ORIGIN}/page.html`);
    expect(r.state).to.equal('mapped');
    expect(r.originalName).to.equal('AlphaPanel');
    expect(r.file).to.equal('tests/fixtures/src/sources.tsx');
    expect(r.fileLine).to.equal(definitionLine('AlphaPanel'));
    expect(r.url).to.equal(`${ORIGIN}/build/fixtures/sources-r19-min.js`);
    // Same origin as the frame: fetched with cookies.
    expect(fetched.every((f) => f.cookies)).to.equal(true);
    // Without a map: the bundle's own line, and the name stays.
    const [n] = await loc.locate({ types: [{ typeId: 2, text, hint: null }], scripts: [{ url: `${ORIGIN}/build/fixtures/sources-r19-nomap.js`, inline: null }] }, `${ORIGIN}/page.html`);
    expect(n).to.include({ state: 'no-map', originalName: null, file: 'build/fixtures/sources-r19-nomap.js' });
    expect(n.fileLine).to.be.greaterThan(0);
  });

  it('another origin\'s scripts are read without cookies; non-http URLs not at all; unknown text is not-found', async () => {
    const loc = new SourceLocator(fetcher);
    fetched.length = 0;
    const r = await loc.locate({
      types: [{ typeId: 1, text: 'function nowhere(){return 1}', hint: null }],
      scripts: [{ url: `${ORIGIN}/build/fixtures/sources-r19-nomap.js`, inline: null }, { url: 'file:///etc/passwd', inline: null },
        { url: 'chrome-extension://x/a.js', inline: null }],
    }, 'http://other.test/');
    expect(r[0].state).to.equal('not-found');
    expect(fetched).to.deep.equal([{ url: `${ORIGIN}/build/fixtures/sources-r19-nomap.js`, cookies: false }]);
  });

  it('inline scripts and inline (data:) maps; the map URL comes from the last sourceMappingURL comment', async () => {
    const map = { version: 3, sources: ['src/widget.tsx'], names: ['Widget'], mappings: 'AAAA,SAASA' };
    const inline = `function a(){return 1}\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(JSON.stringify(map)).toString('base64')}`;
    const loc = new SourceLocator(fetcher);
    const [r] = await loc.locate({ types: [{ typeId: 7, text: 'function a(){return 1}', hint: null }], scripts: [{ url: `${ORIGIN}/#inline-1`, inline }] }, `${ORIGIN}/`);
    // An inline map's relative sources are the script's neighbours (what DevTools opens).
    expect(r).to.include({ state: 'mapped', file: 'src/widget.tsx', fileUrl: `${ORIGIN}/src/widget.tsx`, fileLine: 1, originalName: 'Widget' });
    expect(mapUrlOf('x\n//# sourceMappingURL=a.map\ny\n//# sourceMappingURL=b.map\n', 'http://h/js/app.js')).to.equal('http://h/js/b.map');
    expect(mapUrlOf('no map here', 'http://h/app.js', 'c.map')).to.equal('http://h/c.map');
    // An inline map of megabytes (the comment starts far from the end); a mention inside code is not a comment.
    const big = `x = "//# sourceMappingURL=wrong.map";\n//# sourceMappingURL=data:application/json;base64,${'A'.repeat(3_000_000)}\n`;
    expect(mapUrlOf(big, 'http://h/app.js')?.length).to.equal(3_000_000 + 'data:application/json;base64,'.length);
    expect(mapUrlOf('s = "//# sourceMappingURL=wrong.map" + x;\n', 'http://h/app.js')).to.equal(null);
  });

  it('the newest script holding a type\'s text wins: after a hot update the old module may hold the same text', async () => {
    const fn = 'function Counter(){return 1}';
    const served: Record<string, string> = {
      [`${ORIGIN}/src/App.tsx`]: `${fn}\n`,
      [`${ORIGIN}/src/App.tsx?t=1700000000000`]: `// moved down\n\n${fn}\n`,
    };
    const loc = new SourceLocator(async (url) => ({ ok: true, status: 200, text: served[url] ?? '', header: () => null }));
    const [r] = await loc.locate({ types: [{ typeId: 1, text: fn, hint: null }],
      scripts: [{ url: `${ORIGIN}/src/App.tsx`, inline: null }, { url: `${ORIGIN}/src/App.tsx?t=1700000000000`, inline: null }] }, `${ORIGIN}/`);
    expect(r).to.include({ url: `${ORIGIN}/src/App.tsx?t=1700000000000`, fileLine: 3 });
  });

  it('a type in a webpack eval module: found escaped, mapped by the module\'s inline map, named from the original', async () => {
    // The module as esbuild-loader would hand it to webpack: a renamed inner function (Panel2) on line 2 of the output.
    const map = { version: 3, sources: ['webpack://app/./src/Panel.tsx'], names: [],
      sourcesContent: ['import { forwardRef } from "react";\nexport const Panel = forwardRef(function Panel(p, ref) {\n  return null;\n});\n'],
      mappings: ';AACA,oCAAmC' };
    const fn = 'function Panel2(p, ref) {\n  return null;\n}';
    const code = `const Panel = forwardRef(${fn});\n//# sourceURL=[module]\n`
      + `//# sourceMappingURL=data:application/json;charset=utf-8;base64,${Buffer.from(JSON.stringify(map)).toString('base64')}\n`
      + '//# sourceURL=webpack-internal:///./src/Panel.tsx\n';
    const bundle = `var m = {\n"./src/Panel.tsx": (() => {\neval(${JSON.stringify(`\n${code}`)});\n})\n};\n`;
    const loc = new SourceLocator(async () => ({ ok: true, status: 200, text: bundle, header: () => null }));
    const [r] = await loc.locate({ types: [{ typeId: 1, text: fn, hint: null }], scripts: [{ url: `${ORIGIN}/main.js`, inline: null }] }, `${ORIGIN}/`);
    expect(r).to.include({ state: 'mapped', url: 'webpack-internal:///./src/Panel.tsx', file: 'app/src/Panel.tsx', fileLine: 2, originalName: 'Panel' });
    // Text in none of its modules: not found.
    const [n] = await loc.locate({ types: [{ typeId: 2, text: 'function Other() {}', hint: null }], scripts: [{ url: `${ORIGIN}/main.js`, inline: null }] }, `${ORIGIN}/`);
    expect(n.state).to.equal('not-found');
  });

  it('indexed (sectioned) maps, as Turbopack\'s dev chunks write them, are mapped like plain ones', async () => {
    // Two sections: the chunk's runtime, then the app's module from generated line 3 (0-based 2).
    const map = {
      version: 3,
      sections: [
        { offset: { line: 0, column: 0 }, map: { version: 3, sources: ['turbopack:///[turbopack]/runtime.ts'], names: [], mappings: 'AAAA' } },
        { offset: { line: 2, column: 0 }, map: { version: 3, sources: ['turbopack:///[project]/app/TodoPanel.tsx'], names: ['TodoPanel'], mappings: 'AAIAA' } },
      ],
    };
    const chunk = 'function r(){return 0}\n// app/TodoPanel.tsx\nfunction t(){return 2}\n//# sourceMappingURL=chunk.js.map\n';
    const served: Record<string, string> = { [`${ORIGIN}/_next/static/chunks/chunk.js`]: chunk, [`${ORIGIN}/_next/static/chunks/chunk.js.map`]: JSON.stringify(map) };
    const loc = new SourceLocator(async (url) => served[url] === undefined
      ? { ok: false, status: 404, text: '', header: () => null } : { ok: true, status: 200, text: served[url], header: () => null });
    const [r] = await loc.locate({ types: [{ typeId: 3, text: 'function t(){return 2}', hint: null }],
      scripts: [{ url: `${ORIGIN}/_next/static/chunks/chunk.js`, inline: null }] }, `${ORIGIN}/`);
    expect(r).to.include({ state: 'mapped', fileLine: 5, originalName: 'TodoPanel' });
    expect(r.file).to.match(/app\/TodoPanel\.tsx$/);
  });

  it('text in no script: React\'s debug information places it, mapped when the frame\'s script has a map', async () => {
    const map = { version: 3, sources: ['src/widget.tsx'], names: [], mappings: 'AAAA;AACA;AAEE' };
    const evald = `a\nb\nfunction Widget(){return jsx("div")}\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(JSON.stringify(map)).toString('base64')}`;
    const served: Record<string, string> = { [`${ORIGIN}/chunk.txt`]: evald, [`${ORIGIN}/other.txt`]: evald.replace('Widget', 'Gadget') };
    const loc = new SourceLocator(async (url) => (served[url] !== undefined
      ? { ok: true, status: 200, text: served[url], header: () => null } : { ok: false, status: 404, text: '', header: () => null }));
    const text = 'function Widget(){return jsx("div")}';
    const r = await loc.locate({
      types: [
        // React ≤ 18: _debugSource, the original file already.
        { typeId: 1, text, hint: { kind: 'source', url: '/home/me/app/src/widget.tsx', line: 12, column: 5 } },
        // React 19: a _debugStack frame in an eval'd script whose sourceURL can be fetched and names a map.
        { typeId: 2, text, hint: { kind: 'stack', url: `${ORIGIN}/chunk.txt`, line: 3, column: 19 } },
        // webpack-internal:// (eval-source-map): shown as the frame gives it, nothing fetched.
        { typeId: 3, text, hint: { kind: 'stack', url: 'webpack-internal:///./src/grid/cell.tsx', line: 40, column: 3 } },
        // A frame in a script that does not hold the function: code evaluated under its URL (a hot update).
        { typeId: 5, text, hint: { kind: 'stack', url: `${ORIGIN}/other.txt`, line: 3, column: 19 } },
      ],
      scripts: [{ url: `${ORIGIN}/build/fixtures/sources-r19-nomap.js`, inline: null }],
    }, `${ORIGIN}/`);
    expect(r.find((x) => x.typeId === 1)).to.include({ state: 'react-debug', file: 'home/me/app/src/widget.tsx', fileLine: 12, fileColumn: 4, url: null });
    // The frame's script holds the function's text: placed there by it (the definition, not the first element), and
    // mapped: generated line 3 maps to the original line 4, column 2 (AAEE: two lines and two columns on).
    const by = new Map(r.map((x) => [x.typeId, x]));
    expect(by.get(2)).to.include({ state: 'mapped', file: 'src/widget.tsx', fileUrl: `${ORIGIN}/src/widget.tsx`, fileLine: 4, fileColumn: 2, url: `${ORIGIN}/chunk.txt`, line: 3 });
    expect(by.get(3)).to.include({ state: 'react-debug', file: 'src/grid/cell.tsx', fileLine: 40, fileUrl: 'webpack-internal:///./src/grid/cell.tsx' });
    // Not in the frame's script: its line as the frame gives it, not mapped through a map of other code.
    expect(by.get(5)).to.include({ state: 'react-debug', url: `${ORIGIN}/other.txt`, line: 3, fileLine: 3, file: 'other.txt' });
    expect(by.get(5)!.why).to.match(/not in the script its stack names/);
    // Found in a script, the text wins over the hint.
    const bundle = fs.readFileSync(path.join(BUILD, 'sources-r19-nomap.js'), 'utf8');
    const [found] = await new SourceLocator(fetcher).locate({
      types: [{ typeId: 4, text: bundle.slice(0, 40), hint: { kind: 'source', url: 'x.tsx', line: 1, column: 1 } }],
      scripts: [{ url: `${ORIGIN}/build/fixtures/sources-r19-nomap.js`, inline: null }],
    }, `${ORIGIN}/`);
    expect(found.state).to.equal('no-map');
  });

  it('a hot update that keeps its chunk\'s URL (Turbopack): the chunk and its map are read again, and the new function placed in them', async () => {
    const mapOf = (mappings: string): string => JSON.stringify({ version: 3, sources: ['app/panel.tsx'], names: [], mappings });
    const before = 'x\nfunction Panel(){return jsx("p")}\n//# sourceMappingURL=chunk.js.map';
    const after = 'x\ny\nfunction Panel(){return jsx("p", {id: 1})}\n//# sourceMappingURL=chunk.js.map';
    const served: Record<string, string> = { [`${ORIGIN}/chunk.js`]: before, [`${ORIGIN}/chunk.js.map`]: mapOf('AAAA;AACA') };
    let fetches = 0;
    const loc = new SourceLocator(async (url) => {
      fetches++;
      return served[url] !== undefined ? { ok: true, status: 200, text: served[url], header: () => null } : { ok: false, status: 404, text: '', header: () => null };
    });
    const ask = (text: string, line: number, hot = false) => loc.locate({
      types: [{ typeId: 1, text, hint: { kind: 'stack', url: `${ORIGIN}/chunk.js`, line, column: 20 }, hot }],
      scripts: [{ url: `${ORIGIN}/chunk.js`, inline: null }],
    }, `${ORIGIN}/`);
    const [first] = await ask('function Panel(){return jsx("p")}', 2);
    expect(first).to.include({ state: 'mapped', line: 2, fileLine: 2 });
    // The edit: the file on the server now holds the new code two lines on, with a map of its own.
    served[`${ORIGIN}/chunk.js`] = after;
    served[`${ORIGIN}/chunk.js.map`] = mapOf('AAAA;AACA;AAEA');
    const n = fetches;
    const [second] = await ask('function Panel(){return jsx("p", {id: 1})}', 3);
    expect(second).to.include({ state: 'mapped', line: 3, fileLine: 4 });
    expect(fetches - n, 'the script and its map, once each').to.equal(2);
    // A definition moved one line down, its text the same: only a hot type reads the file again (the cached text holds
    // the same function where it was).
    served[`${ORIGIN}/chunk.js`] = after.replace('y\n', 'y\nz\n');
    served[`${ORIGIN}/chunk.js.map`] = mapOf('AAAA;AACA;AACA;AAEA');
    const [stale] = await ask('function Panel(){return jsx("p", {id: 1})}', 4);
    expect(stale).to.include({ line: 3 });
    const [moved] = await ask('function Panel(){return jsx("p", {id: 1})}', 4, true);
    expect(moved).to.include({ state: 'mapped', line: 4, fileLine: 5 });
  });

  it('the frame that created an element: the one after React\'s, in V8 and Firefox formats; bad hints are dropped', () => {
    const v8 = 'Error: react-stack-top-frame\n    at exports.jsx (http://h/react.js:10:5)\n    at Cell (http://h/src/cell.tsx?t=1:42:7)\n    at react_stack_bottom_frame (http://h/r.js:1:1)';
    expect(creatorFrame(v8)).to.deep.equal({ url: 'http://h/src/cell.tsx?t=1', line: 42, column: 7 });
    expect(creatorFrame('Error: x\n    at jsxDEV (a.js:1:1)\n    at webpack-internal:///./src/a.tsx:3:9')).to.deep.equal({ url: 'webpack-internal:///./src/a.tsx', line: 3, column: 9 });
    expect(creatorFrame('jsx@http://h/react.js:10:5\nCell@http://h/src/cell.tsx:42:7\n')).to.deep.equal({ url: 'http://h/src/cell.tsx', line: 42, column: 7 });
    // React's stand-in once it stops tracking owners, and stacks with one frame: nothing.
    expect(creatorFrame('Error: react-stack-top-frame\n    at UnknownOwner (r.js:1:1)\n    at react_stack_bottom_frame (r.js:2:2)')).to.equal(null);
    expect(creatorFrame('Error: x\n    at jsx (r.js:1:1)')).to.equal(null);
    expect(creatorFrame('')).to.equal(null);
    expect(debugHintValidator({ kind: 'stack', url: 'u', line: 0, column: 1 })).to.equal(null);
    expect(debugHintValidator({ kind: 'eval', url: 'u', line: 1, column: 1 })).to.equal(null);
    expect(debugHintValidator({ kind: 'source', url: 'u', line: 1, column: 1 })).to.deep.equal({ kind: 'source', url: 'u', line: 1, column: 1 });
  });

  it('lines, columns, names and display paths', () => {
    expect(lineColumn([0, 5, 9], 7)).to.deep.equal({ line: 2, column: 2 });
    expect(nameOffset('const Xe=(a)=>1', 9, '(a)=>1')).to.equal(6);
    expect(nameOffset('x={Ab:function(){}}', 6, 'function(){}')).to.equal(3);
    expect(nameOffset('function Qt(e){}', 0, 'function Qt(e){}')).to.equal(9);
    expect(nameOffset('return (a)=>1', 7, '(a)=>1')).to.equal(-1);
    expect(displayFile('webpack://my-app/./src/grid/cell.tsx')).to.equal('my-app/src/grid/cell.tsx');
    expect(displayFile('http://h:5173/src/App.tsx')).to.equal('src/App.tsx');
    const memo = 'const HotelRow = React.memo(function HotelRowView({ k }) {';
    expect(declaredName(memo, memo.indexOf('function'))).to.equal('HotelRowView');
    expect(declaredName('const EchoCard = ({ title }) => {', 16)).to.equal('EchoCard');
    expect(declaredName('class LimaHeader extends React.Component {', 0)).to.equal('LimaHeader');
    expect(declaredName('const Q = React.memo(() => {', 21)).to.equal(null);
    // Vite's minifier writes `v=class extends f.Component{…}` and maps `v` to the class's own name.
    expect(nameOffset('},v=class extends f.Component{}', 4, 'class extends f.Component{}')).to.equal(2);
    expect(declaredName('export class Clock extends Component<object> {', 13)).to.equal('Clock');
    expect(declaredName('export class Clock extends Component<object> {', 7)).to.equal('Clock');
    expect(declaredName('const x = class extends Base {', 10)).to.equal('x');
    // Maps without columns (webpack's cheap modes): the line's declaration.
    expect(lineDeclaration('export const Panel = forwardRef<HTMLElement, P>(function Panel({ title }, ref) {')).to.equal('Panel');
    expect(lineDeclaration('export class Clock extends Component<object> {')).to.equal('Clock');
    expect(lineDeclaration('export const Row = ({ a }) => {')).to.equal('Row');
    expect(lineDeclaration('  return <li>{label}</li>;')).to.equal(null);
  });

  it('an eval\'d module (webpack\'s eval source maps): found by its escaped text, its code and sourceURL read as data', () => {
    const code = 'function Tag({ label }) {\n  return "<li>" + label;\n}\n//# sourceURL=[module]\n'
      + '//# sourceMappingURL=data:application/json;base64,e30=\n//# sourceURL=webpack-internal:///./src/Tags.tsx\n';
    const bundle = `var __modules = {\n"./src/Tags.tsx": (() => { eval(${JSON.stringify(code)}); }),\n"./src/x.tsx": (() => { eval("1"); })};`;
    const mod = evalModuleHolding(bundle, 'function Tag({ label }) {\n  return "<li>" + label;\n}');
    expect(mod).to.deep.equal({ code, url: 'webpack-internal:///./src/Tags.tsx' });
    expect(mapUrlOf(mod!.code, mod!.url)).to.equal('data:application/json;base64,e30=');
    expect(evalModuleHolding(bundle, 'function Other() {}')).to.equal(null);
    // A broken literal is not run or thrown: no module.
    expect(evalModuleHolding('eval("function A() {}\\', 'function A() {}')).to.equal(null);
  });

  it('minified names are told from short real ones', () => {
    for (const n of ['a', 'Xe', 't', 'e$', 'a1b', 'n_']) expect(nameLooksMinified(n), n).to.equal(true);
    for (const n of ['App', 'Row', 'Grid', 'Cell', 'Anonymous', '']) expect(nameLooksMinified(n), n).to.equal(false);
    // A bundler's rename apart from a binding of the same name is shown by the map's original name.
    for (const [n, o] of [['Panel2', 'Panel'], ['Panel$1', 'Panel'], ['Row_1', 'Row']]) expect(renamedFrom(n, o), n).to.equal(true);
    for (const [n, o] of [['Panel', 'Panel'], ['PanelX', 'Panel'], ['Panel2', 'Pane'], ['Row', 'Row2']]) expect(renamedFrom(n, o), n).to.equal(false);
    expect(namesLookMinified(['a', 'Xe', 'Qt', 'App'])).to.equal(true);
    expect(namesLookMinified(['Grid', 'Cell', 'Row', 'Xe'])).to.equal(false);
    expect(namesLookMinified(['a', 'b'])).to.equal(false);
  });
});
