/**
 * What a change costs (issue 43): the selector index (css-index.ts), the property tables (css-kinds.ts), React's prop
 * diffs (react/props.ts), the frame's cause table (causes.ts) and its weighing (weigh.ts). Pure: the DOM they need is
 * a few plain objects shaped like elements.
 */
import { expect } from 'chai';
import { CHANGE_ADDED, CHANGE_BOX, CHANGE_FOREIGN, CHANGE_RESIZE, CHANGE_STYLE, CHANGE_STYLE_TREE, CHANGE_TEXT, type ComponentSink } from '../../src/inject/agent/adapter';
import { Causes } from '../../src/inject/agent/pipeline/causes';
import { CssIndex, selectorTokens } from '../../src/inject/agent/pipeline/css-index';
import { K_LAYOUT, K_STYLE, K_TREE, kebab, propertyKind, styleTextKind } from '../../src/inject/agent/pipeline/css-kinds';
import { ADDED_MS, noteSeen, weigh, type Weights } from '../../src/inject/agent/pipeline/weigh';
import { PASS_MS } from '../../src/protocol/layout-pass';
import { PROBE_BOX, PROBE_LEAF, PROBE_TEXT, type Probes } from '../../src/inject/agent/pipeline/probes';
import { diffProps } from '../../src/inject/agent/react/props';

/** A style rule as a CSSStyleSheet exposes it. */
function rule(selectorText: string, props: string[]): unknown {
  const style = Object.assign([...props], { length: props.length });
  return { selectorText, style };
}

function sheet(...rules: unknown[]): CSSStyleSheet {
  return { cssRules: Object.assign([...rules], { length: rules.length }) } as unknown as CSSStyleSheet;
}

/** Element-shaped objects: parentElement, firstElementChild, isConnected and a subtree count. */
function el(parent: FakeEl | null = null, children = 0): FakeEl {
  const e: FakeEl = {
    parentElement: parent, firstElementChild: null, isConnected: true,
    getElementsByTagName: () => ({ length: children }),
  };
  if (children > 0) e.firstElementChild = {};
  return e;
}
interface FakeEl {
  parentElement: FakeEl | null;
  firstElementChild: object | null;
  isConnected: boolean;
  getElementsByTagName(t: string): { length: number };
}
const E = (x: FakeEl): Element => x as unknown as Element;

describe('causes: what a change costs the engine', () => {
  it('reads the tokens of selectors, and which sit left of a combinator or inside :has()', () => {
    const seen = (sel: string): string[] => {
      const out: string[] = [];
      selectorTokens(sel, (t, tree) => out.push(tree ? `${t}*` : t));
      return out;
    };
    expect(seen('.a.b')).to.deep.equal(['.a', '.b']);
    expect(seen('.dark .row > td')).to.deep.equal(['.dark*', '.row*']);
    expect(seen('#x [data-y="a]b"] ~ .z:not(.q)')).to.deep.equal(['#x*', '[data-y*', '.z', '.q']);
    expect(seen('.a , .b:hover')).to.deep.equal(['.a', '.b']);
    expect(seen('input:checked + label')).to.deep.equal(['[checked*']);
    expect(seen('.card:has(.open)')).to.deep.equal(['.card', '.open*']);
    expect(seen('[aria-pressed=true]')).to.deep.equal(['[aria-pressed']);
    expect(seen('.a\\:hover')).to.deep.equal(['.a:hover']);
  });

  it('classifies properties: colour and transforms restyle without layout; inherited ones reach the subtree', () => {
    expect(propertyKind('color')).to.equal(K_STYLE | K_TREE);
    expect(propertyKind('transform')).to.equal(K_STYLE);
    expect(propertyKind('opacity')).to.equal(K_STYLE);
    expect(propertyKind('width')).to.equal(K_STYLE | K_LAYOUT);
    expect(propertyKind('fontSize')).to.equal(K_STYLE | K_LAYOUT | K_TREE);
    expect(propertyKind('some-future-property')).to.equal(K_STYLE | K_LAYOUT);
    expect(kebab('WebkitTransform')).to.equal('-webkit-transform');
    expect(styleTextKind('color: red; width: 3px', 'color: blue; width: 3px')).to.equal(K_STYLE | K_TREE);
    expect(styleTextKind('transform: none', 'transform: none; height: 2px')).to.equal(K_STYLE | K_LAYOUT);
  });

  it('reads a style text change the same whether the two texts line up declaration by declaration or not', () => {
    // A reference: each text as a map of trimmed, lower-cased names to trimmed values; the properties whose value
    // differs or that one side lacks, OR-ed.
    const decls = (t: string): Map<string, string> => {
      const m = new Map<string, string>();
      for (const part of t.split(';')) {
        const c = part.indexOf(':');
        if (c < 0 || part.slice(0, c).trim() === '') continue;
        m.set(part.slice(0, c).trim().toLowerCase(), part.slice(c + 1).trim());
      }
      return m;
    };
    const reference = (x: string, y: string): number => {
      const a = decls(x), b = decls(y);
      let k = 0;
      for (const [p, v] of a) if (b.get(p) !== v) k |= propertyKind(p);
      for (const [p] of b) if (!a.has(p)) k |= propertyKind(p);
      return k;
    };
    const texts = ['', 'width: 21px;', 'width: 22px;', 'width:22px', ' width : 22px ; ', 'color: red; width: 22px;',
      'width: 22px; color: red;', 'width: 22px; color: blue;', 'WIDTH: 22px', 'transform: translate(1px, 2px); opacity: 0.5',
      'transform: translate(1px, 3px); opacity: 0.5', 'transform: translate(1px, 3px); opacity: 1', ';;width: 21px;;',
      'background: url("a;b")', 'background: url("a;c")', ': x; width: 21px', 'top: 1px; left: 2px; width: 3px',
      'top: 1px; left: 2px; width: 4px', 'top: 1px; left: 2px', 'color: red !important', 'color: blue !important'];
    let checked = 0;
    for (const x of texts) for (const y of texts) {
      // A `;` inside a value is split the same way by both (neither parses CSS), so they agree there too.
      expect(styleTextKind(x, y), `${JSON.stringify(x)} → ${JSON.stringify(y)}`).to.equal(reference(x, y));
      checked++;
    }
    expect(checked).to.equal(texts.length ** 2);
    expect(styleTextKind('width: 21px;', 'width: 22px;')).to.equal(K_STYLE | K_LAYOUT);
    expect(styleTextKind('top: 1px; color: red', 'top: 1px; color: blue')).to.equal(K_STYLE | K_TREE);
    expect(styleTextKind(null, 'opacity: 1')).to.equal(K_STYLE);
  });

  it('indexes the sheets: a class no selector reads costs nothing; a colour rule is style; a width rule layout', () => {
    let now = 0;
    const sheets = [sheet(rule('.cell.b1', ['color']), rule('.kind.wide', ['width']), rule('.dark .row', ['color']),
      rule('[aria-busy]', ['cursor']), rule('#main', ['padding-top']))];
    const index = new CssIndex(() => sheets, () => now);
    expect(index.classChange('cell b0', 'cell b1')).to.equal(K_STYLE);
    expect(index.classChange('kind', 'kind wide')).to.equal(K_STYLE | K_LAYOUT);
    expect(index.classChange('theme', 'theme dark')).to.equal(K_STYLE | K_TREE);
    expect(index.classChange('x', 'x y')).to.equal(0);
    expect(index.attributeChange('aria-pressed', 'true', 'false')).to.equal(0);
    expect(index.attributeChange('aria-busy', null, 'true')).to.equal(K_STYLE);
    expect(index.attributeChange('id', 'side', 'main')).to.equal(K_STYLE | K_LAYOUT);
    expect(index.builds).to.equal(1);
    // CSS-in-JS inserts a rule for a new class: the index follows once the rule count changed (checked each second,
    // when a lookup meets a pair it has not seen, and every 64 lookups); the pairs seen before are read anew.
    (sheets[0].cssRules as unknown as unknown[]).push(rule('.y', ['margin-left']));
    Object.assign(sheets[0].cssRules, { length: 6 });
    now = 1500;
    expect(index.classChange('w', 'w y')).to.equal(K_STYLE | K_LAYOUT);
    expect(index.builds).to.equal(2);
    expect(index.classChange('x', 'x y')).to.equal(K_STYLE | K_LAYOUT);
    // A sheet it cannot read (cross-origin): an unknown token is style and layout, the safe side.
    const hidden = { get cssRules(): CSSRuleList { throw new Error('SecurityError'); } } as unknown as CSSStyleSheet;
    const partial = new CssIndex(() => [sheets[0], hidden], () => 0);
    expect(partial.classChange('x', 'x unknown')).to.equal(K_STYLE | K_LAYOUT);
    expect(partial.classChange('cell b1', 'cell')).to.equal(K_STYLE);
  });

  it('reads only the props a re-render really changed, each as the DOM sees it', () => {
    const calls: string[] = [];
    const sink = {
      attributeKind: (name: string, b: string | null, a: string | null) => (calls.push(`attr ${name} ${b}→${a}`), K_STYLE),
      styleKind: (name: string) => (calls.push(`style ${name}`), name === 'width' ? K_STYLE | K_LAYOUT : K_STYLE),
    } as unknown as ComponentSink;
    const div = { namespaceURI: 'http://www.w3.org/1999/xhtml' } as unknown as Element;
    const click = (): void => {};
    // A wasted render: new objects, equal values, a new handler.
    expect(diffProps(sink, div, { className: 'a', style: { width: 3 }, onClick: click, children: 'x' },
      { className: 'a', style: { width: 3 }, onClick: () => {}, children: 'x' })).to.equal(0);
    expect(calls).to.deep.equal([]);
    // A leaf (text child): its width change resizes it in its line.
    let how = diffProps(sink, div, { className: 'a b', style: { width: 4, color: 'red' }, 'aria-pressed': true, tabIndex: 0, children: 'y' },
      { className: 'a', style: { width: 3 }, 'aria-pressed': false, children: 'y', title: 't' });
    expect(calls).to.deep.equal(['style width', 'style color', 'attr aria-pressed false→true', 'attr tabindex null→0',
      'attr title t→null', 'attr class a→a b']);
    expect(how).to.equal(CHANGE_STYLE | CHANGE_RESIZE);
    // With element children it is a box; a text change beside a class change on a leaf needs no look-up of the class.
    calls.length = 0;
    how = diffProps(sink, div, { style: { width: 4 }, children: [{}] }, { style: { width: 3 }, children: [{}] });
    expect(how).to.equal(CHANGE_STYLE | CHANGE_BOX);
    how = diffProps(sink, div, { className: 'cell b2', children: 42 }, { className: 'cell b1', children: 41 });
    expect(how).to.equal(CHANGE_TEXT | CHANGE_STYLE);
    expect(calls).to.deep.equal(['style width']);
    // A removed prop is found whatever order the two objects list their keys in (the same order is the short cut).
    calls.length = 0;
    expect(diffProps(sink, div, { id: 'q', className: 'a' }, { className: 'a', id: 'q', hidden: true })).to.equal(CHANGE_STYLE);
    expect(diffProps(sink, div, { className: 'a', id: 'q' }, { className: 'a', id: 'q', hidden: true })).to.equal(CHANGE_STYLE);
    expect(diffProps(sink, div, { className: 'a', id: 'q' }, { className: 'a', id: 'q' })).to.equal(0);
    expect(diffProps(sink, div, { title: 'x', id: 'q', className: 'a' }, { hidden: true, id: 'q', className: 'a' })).to.equal(CHANGE_STYLE);
    expect(calls).to.deep.equal(['attr hidden true→null', 'attr hidden true→null', 'attr title null→x', 'attr hidden true→null']);
    // Removed props are looked for only when the old props hold more keys than the new ones share with them: a prop
    // named like an inherited method is no shared key, and a key whose old value is undefined counts as absent.
    calls.length = 0;
    expect(diffProps(sink, div, { toString: 'x', id: 'q' }, { id: 'q', hidden: true })).to.equal(CHANGE_STYLE);
    expect(diffProps(sink, div, { id: 'q', title: undefined }, { id: 'q', title: undefined, hidden: true })).to.equal(CHANGE_STYLE);
    expect(diffProps(sink, div, { id: 'q' }, { id: 'q', title: undefined })).to.equal(0);
    expect(calls).to.deep.equal(['attr hidden true→null', 'attr hidden true→null']);
  });

  it('keeps per component the places its changes dirtied, one per parent for siblings, and how they restyle', () => {
    const causes = new Causes(() => [sheet(rule('.dark .row', ['color']), rule('.wide', ['width']))], () => 0, 1 << 20, 1 << 21);
    const a = { id: 1, marks: 0 }, b = { id: 2, marks: 0 };
    const grid = el(), ul = el();
    const cells = [el(grid), el(grid), el(grid)];
    for (const c of cells) causes.add(a, E(c), CHANGE_TEXT);
    causes.add(b, E(el(ul)), CHANGE_TEXT);
    const box = el(null, 300);
    causes.attribute(b, E(box), 'class', 'theme', 'theme dark');
    causes.attribute(b, E(box), 'class', 'x', 'x wide');
    causes.attribute(b, E(box), 'aria-hidden', null, 'true');
    causes.add(a, E(el(grid)), CHANGE_ADDED);
    // Logged as they came (seven: the aria-* change no selector reads is none), marked as the commit's.
    expect(causes.changes).to.equal(7);
    expect(causes.committed(a) && causes.committed(b)).to.equal(true);
    expect(causes.alike()).to.equal(false);
    causes.build();
    expect(causes.length).to.equal(2);
    const [sa, sb] = causes.slots;
    expect(sa.owner).to.equal(a);
    expect(sa.texts.n).to.equal(3);
    expect(sa.added.n).to.equal(1);
    expect(sb.trees.items.slice(0, sb.trees.n)).to.deep.equal([E(box)]);
    expect(sb.boxes.items.slice(0, sb.boxes.n)).to.deep.equal([E(box)]);
    expect(sb.bits & (CHANGE_STYLE_TREE | CHANGE_BOX)).to.equal(CHANGE_STYLE_TREE | CHANGE_BOX);
    expect(sb.committed).to.equal(true);
    causes.clear();
    expect(causes.changes).to.equal(0);
    expect(causes.committed(a)).to.equal(false);
    // A change that restyles only itself and moves nothing: no layout in it.
    causes.kind(a, E(el(null, 5)), propertyKind('opacity'));
    causes.build();
    // A component's one change of at most one grouped kind needs no slot: listed as it is (weigh.ts).
    expect(causes.length).to.equal(0);
    expect(causes.singleCount).to.equal(1);
    expect(causes.loggedHow(causes.singles[0])).to.equal(CHANGE_STYLE);
    causes.clear();
    // The same component changing twice gets a slot, as does a change of two grouped kinds.
    causes.add(a, E(el(null, 5)), CHANGE_TEXT);
    causes.add(b, E(el(null, 5)), CHANGE_TEXT | CHANGE_RESIZE);
    causes.add(a, E(el(null, 5)), CHANGE_STYLE);
    causes.build();
    expect(causes.slots.slice(0, causes.length).map((s) => s.owner)).to.deep.equal([a, b]);
    expect(causes.slots[0].layout).to.equal(true);
    expect(causes.slots[0].bits).to.equal(CHANGE_TEXT | CHANGE_STYLE);
    expect(causes.singleCount).to.equal(0);
    causes.clear();
    // Two commits before one frame: the same place changed twice is one change, still a single; the second kind it
    // brings merges into the first.
    const cell = E(el(null, 5)), other = E(el(null, 5));
    causes.add(a, cell, CHANGE_TEXT);
    causes.add(b, other, CHANGE_TEXT);
    causes.add(a, cell, CHANGE_TEXT | CHANGE_STYLE);
    causes.add(b, E(el(null, 5)), CHANGE_TEXT);
    causes.build();
    expect(causes.singleCount).to.equal(1);
    expect(causes.loggedOwner(causes.singles[0])).to.equal(a);
    expect(causes.loggedHow(causes.singles[0])).to.equal(CHANGE_TEXT | CHANGE_STYLE);
    expect(causes.slots.slice(0, causes.length).map((s) => s.owner)).to.deep.equal([b]);
    expect(causes.slots[0].texts.n).to.equal(2);
    // The same, commit by commit: a second commit that repeats the first place by place is merged as it comes (no
    // log entry); one that changes another place there is logged, and the sorting above still applies.
    causes.clear();
    const c2 = { id: 3, marks: 0 };
    const third = E(el(null, 5));
    causes.add(a, cell, CHANGE_TEXT);
    causes.add(b, other, CHANGE_TEXT);
    causes.add(c2, third, CHANGE_TEXT);
    causes.commitEnd();
    causes.add(a, cell, CHANGE_TEXT | CHANGE_STYLE);
    causes.add(b, E(el(null, 5)), CHANGE_TEXT);
    causes.add(c2, third, CHANGE_TEXT);
    causes.commitEnd();
    expect(causes.changes).to.equal(4);
    causes.build();
    expect(causes.singleCount).to.equal(2);
    expect(causes.loggedHow(causes.singles[0])).to.equal(CHANGE_TEXT | CHANGE_STYLE);
    expect(causes.loggedOwner(causes.singles[1])).to.equal(c2);
    expect(causes.slots.slice(0, causes.length).map((s) => s.owner)).to.deep.equal([b]);
    expect(causes.slots[0].texts.n).to.equal(2);
    // A header's one change, then the grid ticked twice: the second tick lines up with the first (the frame's largest
    // commit of new changes), not with the header's; other code's change between them moves nothing.
    causes.clear();
    const header = { id: 10, marks: 0 }, headText = E(el(null, 5));
    const gridCells = [11, 12, 13].map((id) => ({ id, marks: 0, site: E(el(null, 5)) }));
    causes.add(header, headText, CHANGE_TEXT);
    causes.commitEnd();
    for (const c of gridCells) causes.add(c, c.site, CHANGE_TEXT);
    causes.commitEnd();
    causes.add({ id: 14, marks: 0 }, E(el(null, 5)), CHANGE_TEXT | CHANGE_FOREIGN);
    for (const c of gridCells) causes.add(c, c.site, CHANGE_TEXT);
    causes.commitEnd();
    causes.add(header, headText, CHANGE_TEXT);
    causes.commitEnd();
    // The header's second change did not line up (a repeat, sorted out by `build`); every cell's did.
    expect(causes.changes).to.equal(1 + 3 + 1 + 1);
    causes.build();
    expect(causes.length, 'no slot: every owner one change in one place').to.equal(0);
    // The second tick's changes are not the first's one for one: a cell left as it was (a value drawn again), and a
    // cell new to the frame. The rest still line up, past the gap.
    causes.clear();
    const row = [21, 22, 23, 24, 25, 26].map((id) => ({ id, marks: 0, site: E(el(null, 5)) }));
    for (const c of row.slice(0, 5)) causes.add(c, c.site, CHANGE_TEXT);
    causes.commitEnd();
    for (const c of [row[0], row[1], row[3], row[4], row[5]]) causes.add(c, c.site, CHANGE_TEXT);
    causes.commitEnd();
    expect(causes.changes, 'five, and the new one').to.equal(6);
    causes.build();
    expect(causes.length).to.equal(0);
    // A merge is not made across kinds that weigh apart: a box change after a text change is logged on its own.
    causes.clear();
    causes.add(a, cell, CHANGE_TEXT);
    causes.commitEnd();
    causes.add(a, cell, CHANGE_BOX);
    expect(causes.changes).to.equal(2);
    // Changes of several components under one parent, none moving a box: alike, straight from the log.
    causes.clear();
    for (const c of cells) causes.add({ id: 9, marks: 0 }, E(c), CHANGE_TEXT | CHANGE_STYLE, E(grid));
    expect(causes.alike()).to.equal(true);
  });

  it('weighs causes: probed ms (a group\'s shared by its sites\' components), new text and inserted elements', () => {
    const causes = new Causes(() => [], () => 0, 1 << 20, 1 << 21);
    const grid = el(), ul = el();
    const cells = [{ id: 1, marks: 0 }, { id: 2, marks: 0 }, { id: 3, marks: 0 }, { id: 4, marks: 0 }];
    for (const c of cells) causes.add(c, E(el(grid)), CHANGE_TEXT);
    const ticker = { id: 5, marks: 0 };
    causes.add(ticker, E(el(ul)), CHANGE_TEXT);
    const box = { id: 6, marks: 0 };
    causes.add(box, E(el(null, 300)), CHANGE_BOX | CHANGE_STYLE);
    const mounted = { id: 7, marks: 0 };
    causes.add(mounted, E(el(ul, 9)), CHANGE_ADDED);
    const asked: [number, unknown, number, boolean][] = [];
    let settled = 0;
    const probes = {
      estimate(flavor: number, key: FakeEl, sites: unknown[], want: boolean) {
        asked.push([flavor, key, sites.length, want]);
        if (flavor === PROBE_BOX) return { one: 1.5, per: 0, at: 0 };
        // The grid: 2 ms for one cell, 0.5 ms for each further one.
        return key === grid ? { one: 2, per: 0.5, at: 0 } : null;
      },
      settle() {
        settled++;
      },
    } as unknown as Probes;
    const w: Weights<{ id: number; marks: number }> = { owners: [], layout: [], style: [], explainedMs: -1, bySeen: false };
    // The frame's layout: 12 ms.
    weigh(causes, probes, w, 12);
    // Each component once, whatever the order (slots first, then the changes that need none: causes.ts `build`).
    expect(w.owners.map((o) => o.id).sort()).to.deep.equal([1, 2, 3, 4, 5, 6, 7]);
    const by = (id: number): number => w.owners.findIndex((o) => o.id === id);
    const layout = (id: number): number => w.layout[by(id)];
    expect(w.explainedMs).to.equal(-1); // one place was not probed
    // The grid's four cells share its 2 + 3 × 0.5 ms and the pass's own cost.
    const cell = (3.5 + PASS_MS) / 4;
    for (let id = 1; id <= 4; id++) expect(layout(id)).to.be.closeTo(cell, 1e-9);
    expect(layout(6)).to.be.closeTo(1.5 + PASS_MS, 1e-9);
    // Not probed yet (queued): the frame's layout less what the probed ones explain, shared, plus what each brought.
    const rest = (12 - (3.5 + PASS_MS) - (1.5 + PASS_MS)) / 2;
    expect(layout(5)).to.be.closeTo(rest, 1e-9);
    expect(layout(7)).to.be.closeTo(rest + 10 * ADDED_MS, 1e-9);
    expect([1, 2, 3, 4, 5, 6, 7].map((id) => w.style[by(id)])).to.deep.equal([0, 0, 0, 0, 0, 1, 10]);
    expect(asked.every(([, , , want]) => want)).to.equal(true);
    // The grid was asked for once, with its four cells as the sample (their text changed: the text probe).
    expect(asked.filter(([f, key]) => f === PROBE_TEXT && key === grid).map(([, , n]) => n)).to.deep.equal([4]);
    // Once the frame's places are all asked for: the ones due queued with the rest (probes.ts, `settle`).
    expect(settled).to.equal(1);
    // A frame whose layout the probed places more than explain: the unprobed weigh a pass each, not a share of nothing.
    weigh(causes, probes, w, 2);
    expect(layout(5)).to.be.closeTo(PASS_MS, 1e-9);
    expect(layout(7)).to.be.closeTo(PASS_MS + 10 * ADDED_MS, 1e-9);
  });

  it('weighs a pass for each parent among a place\'s components: texts that change apart, cells their grid renders', () => {
    const causes = new Causes(() => [], () => 0, 1 << 20, 1 << 21);
    type Owner = { id: number; marks: number; parent?: Owner | null };
    const section = el(), grid = el();
    // Three one-line texts side by side in one element, each rendered by a component of its own (heavy-light's lights).
    const lights: Owner[] = [1, 2, 3].map((id) => ({ id, marks: 0, parent: { id: 10 + id, marks: 0 } }));
    for (const o of lights) causes.add(o, E(el(section)), CHANGE_TEXT);
    // Four cells rendered by one grid component.
    const gridOwner: Owner = { id: 20, marks: 0 };
    const cells: Owner[] = [4, 5, 6, 7].map((id) => ({ id, marks: 0, parent: gridOwner }));
    for (const c of cells) causes.add(c, E(el(grid)), CHANGE_TEXT);
    const probes = {
      estimate: (_f: number, key: FakeEl) => key === grid ? { one: 2, per: 0.5 } : key === section ? { one: 0.1, per: 0.05 } : null,
      settle() {},
    } as unknown as Probes;
    const w: Weights<Owner> = { owners: [], layout: [], style: [], explainedMs: -1, bySeen: false };
    weigh(causes, probes, w, 5);
    const layout = (id: number): number => w.layout[w.owners.findIndex((o) => o.id === id)];
    // Each text alone would have cost a pass: the place weighs three, each text its third of it all.
    for (const o of lights) expect(layout(o.id)).to.be.closeTo((0.1 + 2 * 0.05 + 3 * PASS_MS) / 3, 1e-9);
    // The grid's cells changed with their grid's render: one pass between them.
    for (const c of cells) expect(layout(c.id)).to.be.closeTo((2 + 3 * 0.5 + PASS_MS) / 4, 1e-9);
    // The same texts rendered by one parent (a list's items): one pass, as a grid's cells.
    const causes2 = new Causes(() => [], () => 0, 1 << 20, 1 << 21);
    const list: Owner = { id: 30, marks: 0 };
    const items: Owner[] = [1, 2, 3].map((id) => ({ id, marks: 0, parent: list }));
    for (const o of items) causes2.add(o, E(el(section)), CHANGE_TEXT);
    for (const c of cells) causes2.add(c, E(el(grid)), CHANGE_TEXT);
    weigh(causes2, probes, w, 5);
    for (const o of items) expect(layout(o.id)).to.be.closeTo((0.1 + 2 * 0.05 + PASS_MS) / 3, 1e-9);
  });

  it('gives the layout its probed places leave unexplained to the component whose places are not all probed', () => {
    const causes = new Causes(() => [], () => 0, 1 << 20, 1 << 21);
    const grid = el(), ul = el();
    // A grid of boxes, one of them probed (2 ms), the other not yet; a text beside it, probed (0.1 ms).
    const boxes = { id: 1, marks: 0 }, probed = el(grid, 5), unprobed = el(grid, 5);
    causes.add(boxes, E(probed), CHANGE_BOX);
    causes.add(boxes, E(unprobed), CHANGE_BOX);
    const text = { id: 2, marks: 0 };
    causes.add(text, E(el(ul)), CHANGE_TEXT);
    const probes = {
      estimate: (flavor: number, key: FakeEl) => flavor === PROBE_BOX ? (key === probed ? { one: 2, per: 0 } : null) : { one: 0.1, per: 0 },
      settle() {},
    } as unknown as Probes;
    const w: Weights<{ id: number; marks: number }> = { owners: [], layout: [], style: [], explainedMs: -1, bySeen: false };
    weigh(causes, probes, w, 10);
    const layout = (id: number): number => w.layout[w.owners.findIndex((o) => o.id === id)];
    expect(w.explainedMs, 'a place not probed: the frame is not explained').to.equal(-1);
    // The frame's 10 ms less the probed 2.15 and 0.25 go to the grid: its probed box and what the rest left unexplained.
    expect(layout(2)).to.be.closeTo(0.1 + PASS_MS, 1e-9);
    expect(layout(1)).to.be.closeTo(10 - (0.1 + PASS_MS), 1e-9);
    // When the probed places explain the frame already, the grid weighs its probed box.
    weigh(causes, probes, w, 1);
    expect(layout(1)).to.be.closeTo(2 + PASS_MS, 1e-9);
  });

  it('asks for no probe when the frame\'s changes all sit in one place (a grid\'s cells)', () => {
    const causes = new Causes(() => [], () => 0, 1 << 20, 1 << 21);
    const grid = el();
    for (let i = 1; i <= 3; i++) causes.add({ id: i, marks: 0 }, E(el(grid)), CHANGE_TEXT);
    const asked: boolean[] = [];
    const probes = { estimate: (_f: number, _k: unknown, _s: unknown, want: boolean) => (asked.push(want), null), settle() {} } as unknown as Probes;
    const w: Weights<{ id: number; marks: number }> = { owners: [], layout: [], style: [], explainedMs: -1, bySeen: false };
    weigh(causes, probes, w, 5);
    expect(asked).to.deep.equal([]);
    expect(w.layout).to.deep.equal([1 , 1 , 1 ]);
  });

  it('tells the probes a frame whose changes all sit in one place of one kind: its layout is that place\'s cost', () => {
    const seen: unknown[][] = [];
    const probes = { seen: (...a: unknown[]) => seen.push(a) } as unknown as Probes;
    const frame = (changes: (causes: Causes) => void): unknown[][] => {
      const causes = new Causes(() => [], () => 0, 1 << 20, 1 << 21);
      changes(causes);
      seen.length = 0;
      noteSeen(causes, probes, 7);
      return seen.slice();
    };
    const grid = el(), other = el();
    // A grid's cells, their text and colour, given their parent (a commit) or read from the DOM (the observer's).
    expect(frame((c) => {
      for (let i = 1; i <= 3; i++) c.add({ id: i, marks: 0 }, E(el(grid)), CHANGE_TEXT | CHANGE_STYLE, E(grid));
    })).to.deep.equal([[PROBE_TEXT, grid, 3, 7]]);
    expect(frame((c) => {
      for (let i = 1; i <= 2; i++) c.add({ id: i, marks: 0 }, E(el(grid)), CHANGE_RESIZE);
      c.add({ id: 3, marks: 0 }, E(el(grid)), CHANGE_STYLE);
    })).to.deep.equal([[PROBE_LEAF, grid, 2, 7]]);
    // Two places, two kinds in one place, a box, or nothing that relayouts: no place's own cost.
    expect(frame((c) => {
      c.add({ id: 1, marks: 0 }, E(el(grid)), CHANGE_TEXT);
      c.add({ id: 2, marks: 0 }, E(el(other)), CHANGE_TEXT);
    })).to.deep.equal([]);
    expect(frame((c) => {
      c.add({ id: 1, marks: 0 }, E(el(grid)), CHANGE_TEXT);
      c.add({ id: 2, marks: 0 }, E(el(grid)), CHANGE_RESIZE);
    })).to.deep.equal([]);
    expect(frame((c) => c.add({ id: 1, marks: 0 }, E(el(grid)), CHANGE_TEXT | CHANGE_BOX))).to.deep.equal([]);
    expect(frame((c) => c.add({ id: 1, marks: 0 }, E(el(grid)), CHANGE_STYLE))).to.deep.equal([]);
  });
});
