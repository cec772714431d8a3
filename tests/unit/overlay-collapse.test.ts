import { expect } from 'chai';
import { chainWinner, collapseCoinciding, COINCIDE_PX, isAncestor } from '../../src/overlay/collapse';
import { tree, type TestNode } from './overlay-helpers';

describe('overlay collapse of coinciding anchors', () => {
  // Provider → Shell → Panel → Grid: one box, so one corner.
  const t = tree([
    [1, null, { layout: 10, rendered: 202 }],
    [2, 1, { layout: 9.9, rendered: 201 }],
    [3, 2, { layout: 9.5, rendered: 200 }],
    [4, 3, { layout: 5, rendered: 150 }],
    [5, null, { layout: 1, rendered: 10 }],
  ]);
  const get = (id: number): TestNode | undefined => t.get(id);
  const at = (x: number, y: number) => ({ x, y });

  it('draws "a 200-element Component that is 99 % of a 202-element parent" once', () => {
    const out = collapseCoinciding([{ node: t.get(1)!, at: at(100, 10) }, { node: t.get(3)!, at: at(100, 10) }], get);
    expect(out).to.have.length(1);
    expect(out[0].node.id).to.equal(3);
    expect(out[0].chain.map((n) => n.id)).to.deep.equal([1, 3]);
  });

  it('picks the deepest member still holding ≥ 90 % of the shallowest one’s ms and rendered', () => {
    const items = [1, 2, 3, 4].map((id) => ({ node: t.get(id)!, at: at(100 + id, 10) }));
    const out = collapseCoinciding(items, get);
    expect(out).to.have.length(1);
    expect(out[0].node.id).to.equal(3); // 4 holds only 50 % of the ms
    expect(out[0].at).to.deep.equal(at(103, 10));
    expect(out[0].chain.map((n) => n.id)).to.deep.equal([1, 2, 3, 4]);
  });

  it('applies 90 % inclusively and to both numbers', () => {
    const c = tree([[1, null, { layout: 10, rendered: 100 }], [2, 1, { layout: 9, rendered: 90 }], [3, 2, { layout: 9, rendered: 89 }]]);
    expect(chainWinner([c.get(1)!, c.get(2)!, c.get(3)!]).id).to.equal(2);
    const q = tree([[1, null, { layout: 0, rendered: 0 }], [2, 1, { layout: 0, rendered: 0 }]]);
    expect(chainWinner([q.get(1)!, q.get(2)!]).id).to.equal(2); // a quiet wrapper chain folds to its deepest
  });

  it('collapses within 8 px on both axes, not beyond', () => {
    const near = collapseCoinciding([{ node: t.get(1)!, at: at(100, 10) }, { node: t.get(3)!, at: at(100 + COINCIDE_PX, 10 - COINCIDE_PX) }], get);
    expect(near).to.have.length(1);
    const far = collapseCoinciding([{ node: t.get(1)!, at: at(100, 10) }, { node: t.get(3)!, at: at(100 + COINCIDE_PX + 0.5, 10) }], get);
    expect(far).to.have.length(2);
  });

  it('leaves unrelated components alone even when their meters touch', () => {
    const out = collapseCoinciding([{ node: t.get(1)!, at: at(100, 10) }, { node: t.get(5)!, at: at(101, 10) }], get);
    expect(out.map((c) => c.node.id).sort()).to.deep.equal([1, 5]);
  });

  it('knows ancestry through parent links, bounded against cycles', () => {
    expect(isAncestor(t.get(1)!, t.get(4)!, get)).to.equal(true);
    expect(isAncestor(t.get(4)!, t.get(1)!, get)).to.equal(false);
    const cyc = tree([[1, 2], [2, 1], [3, null]]);
    expect(isAncestor(cyc.get(3)!, cyc.get(1)!, (id) => cyc.get(id))).to.equal(false);
  });
});
