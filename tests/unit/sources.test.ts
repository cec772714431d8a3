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
import { declaredName, displayFile, lineColumn, mapUrlOf, nameOffset, SourceLocator } from '../../src/background/sources';
import { nameLooksMinified, namesLookMinified } from '../../src/protocol/names';

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
    const [r] = await loc.locate({ types: [{ typeId: 1, text }], scripts: [{ url: `${ORIGIN}/build/fixtures/sources-r19-min.js`, inline: null }] }, `${ORIGIN}/page.html`);
    expect(r.state).to.equal('mapped');
    expect(r.originalName).to.equal('AlphaPanel');
    expect(r.file).to.equal('tests/fixtures/src/sources.tsx');
    expect(r.fileLine).to.equal(definitionLine('AlphaPanel'));
    expect(r.url).to.equal(`${ORIGIN}/build/fixtures/sources-r19-min.js`);
    // Same origin as the frame: fetched with cookies.
    expect(fetched.every((f) => f.cookies)).to.equal(true);
    // Without a map: the bundle's own line, and the name stays.
    const [n] = await loc.locate({ types: [{ typeId: 2, text }], scripts: [{ url: `${ORIGIN}/build/fixtures/sources-r19-nomap.js`, inline: null }] }, `${ORIGIN}/page.html`);
    expect(n).to.include({ state: 'no-map', originalName: null, file: 'build/fixtures/sources-r19-nomap.js' });
    expect(n.fileLine).to.be.greaterThan(0);
  });

  it('another origin\'s scripts are read without cookies; non-http URLs not at all; unknown text is not-found', async () => {
    const loc = new SourceLocator(fetcher);
    fetched.length = 0;
    const r = await loc.locate({
      types: [{ typeId: 1, text: 'function nowhere(){return 1}' }],
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
    const [r] = await loc.locate({ types: [{ typeId: 7, text: 'function a(){return 1}' }], scripts: [{ url: `${ORIGIN}/#inline-1`, inline }] }, `${ORIGIN}/`);
    expect(r).to.include({ state: 'mapped', file: 'src/widget.tsx', fileLine: 1, originalName: 'Widget' });
    expect(mapUrlOf('x\n//# sourceMappingURL=a.map\ny\n//# sourceMappingURL=b.map\n', 'http://h/js/app.js')).to.equal('http://h/js/b.map');
    expect(mapUrlOf('no map here', 'http://h/app.js', 'c.map')).to.equal('http://h/c.map');
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
  });

  it('minified names are told from short real ones', () => {
    for (const n of ['a', 'Xe', 't', 'e$', 'a1b', 'n_']) expect(nameLooksMinified(n), n).to.equal(true);
    for (const n of ['App', 'Row', 'Grid', 'Cell', 'Anonymous', '']) expect(nameLooksMinified(n), n).to.equal(false);
    expect(namesLookMinified(['a', 'Xe', 'Qt', 'App'])).to.equal(true);
    expect(namesLookMinified(['Grid', 'Cell', 'Row', 'Xe'])).to.equal(false);
    expect(namesLookMinified(['a', 'b'])).to.equal(false);
  });
});
