import { expect } from 'chai';
import { planFrame, type PlanInput } from '../../src/overlay/plan';
import { DEFAULT_SETTINGS } from '../../src/overlay/settings';
import { node, tree, type TestNode } from './overlay-helpers';

const VP = { width: 1280, height: 900, dpr: 1 };
const RULES = {
  layoutFraction: 0.5, renderedFraction: 0.5, inflationFactor: 2,
  msRamp: DEFAULT_SETTINGS.msRamp, inflationRamp: DEFAULT_SETTINGS.inflationRamp,
};

function input(t: Map<number, TestNode>, o: Partial<PlanInput<TestNode>> = {}): PlanInput<TestNode> {
  return {
    mode: 'components', nodes: t.values(), get: (id) => t.get(id), page: node(0, { authored: 0, rendered: 0 }),
    viewport: VP, rtl: false, rules: RULES, pinned: null, hovered: null, highlighted: null, ...o,
  };
}

// App (whole page) ▸ Grid (big, inflated) ▸ Cell × 3 (small); App ▸ Tiny (30 px box, surfaces by inflation).
const app = (): Map<number, TestNode> => tree([
  [1, null, { layout: 10, authored: 100, rendered: 400, bounds: { x: 0, y: 0, width: 1280, height: 2000 } }],
  [2, 1, { layout: 9, authored: 40, rendered: 300, bounds: { x: 100, y: 100, width: 600, height: 400 } }],
  [3, 2, { layout: 1, authored: 10, rendered: 20, bounds: { x: 100, y: 100, width: 200, height: 100 } }],
  [4, 2, { layout: 1, authored: 10, rendered: 20, bounds: { x: 300, y: 100, width: 200, height: 100 } }],
  [5, 2, { layout: 1, authored: 10, rendered: 20, bounds: { x: 500, y: 100, width: 200, height: 100 } }],
  [6, 1, { layout: 0, authored: 1, rendered: 40, bounds: { x: 800, y: 100, width: 30, height: 30 } }],
]);

describe('overlay frame plan', () => {
  it('Components: meters at the top-right corners of the shown subtrees, each with an outline', () => {
    const p = planFrame(input(app()));
    expect(p.meters.map((m) => [m.node.id, m.at.x, m.at.y])).to.deep.equal([[1, 1244, 4], [2, 664, 104]]);
    expect(p.outlines).to.have.length(2);
    expect(p.capped).to.equal(false);
  });

  it('a flashed layout shift: the cause outlined and captioned, the moved ones outlined, in every mode, bounds asked for', () => {
    for (const mode of ['components', 'heatmap', 'inspect'] as const) {
      const p = planFrame(input(app(), { mode, flash: { cause: 3, moved: [4, 5, 3, 99] } }));
      expect(p.causeOutlines, mode).to.deep.equal([{ x: 100, y: 100, width: 200, height: 100 }]);
      // The cause is not drawn twice; an unknown id draws nothing.
      expect(p.movedOutlines, mode).to.deep.equal([{ x: 300, y: 100, width: 200, height: 100 }, { x: 500, y: 100, width: 200, height: 100 }]);
      expect(p.captions.filter((c) => c.shiftCause).map((c) => c.node.id), mode).to.deep.equal([3]);
      expect(p.wantBounds, mode).to.include.members([3, 4, 5]);
    }
    const none = planFrame(input(app()));
    expect([none.causeOutlines, none.movedOutlines]).to.deep.equal([[], []]);
  });

  it('Components: asks for bounds of every shown candidate, the tiny one included', () => {
    const p = planFrame(input(app()));
    expect(p.wantBounds.sort()).to.deep.equal([1, 2, 6]);
  });

  it('Components: draws nothing for a subtree under 40 px even when it surfaces', () => {
    const p = planFrame(input(app()));
    expect(p.meters.some((m) => m.node.id === 6)).to.equal(false);
  });

  it('Components: caps what it draws and reports it', () => {
    const t = tree(Array.from({ length: 20 }, (_, i): [number, number | null, Partial<TestNode>] =>
      [i + 1, null, { rendered: 100 + i, bounds: { x: i * 60, y: 0, width: 50, height: 50 } }]));
    const p = planFrame(input(t, { maxMeters: 5 }));
    expect(p.capped).to.equal(true);
    expect(p.meters.map((m) => m.node.id).sort((a, b) => a - b)).to.deep.equal([16, 17, 18, 19, 20]);
    expect(p.wantBounds).to.have.length(5);
  });

  it('Components: collapses a wrapper chain sharing one box into its deepest ≥ 90 % member', () => {
    const box = { x: 0, y: 0, width: 500, height: 500 };
    const t = tree([[1, null, { rendered: 202, bounds: box }], [2, 1, { rendered: 201, bounds: box }], [3, 2, { rendered: 200, bounds: box }]]);
    const p = planFrame(input(t));
    expect(p.meters.map((m) => m.node.id)).to.deep.equal([3]);
    expect(p.meters[0].chain.map((n) => n.id)).to.deep.equal([1, 2, 3]);
  });

  it('Heatmap: the top 10 by heat at any depth, <page> included and labelled', () => {
    const t = tree(Array.from({ length: 30 }, (_, i): [number, number | null, Partial<TestNode>] =>
      [i + 1, i === 0 ? null : 1, { layout: i === 0 ? 100 : i * 0.3, bounds: { x: (i % 10) * 120, y: Math.floor(i / 10) * 120, width: 100, height: 100 } }]));
    const page = node(0, { layout: 50, authored: 0, rendered: 0 });
    const p = planFrame(input(t, { mode: 'heatmap', page }));
    expect(p.meters).to.have.length(10);
    const ids = p.meters.map((m) => m.node.id);
    expect(ids).to.include(0);
    expect(ids).to.include(1);
    expect(ids).to.include(30);
    expect(ids).to.not.include(2);
    expect(p.meters.find((m) => m.node.id === 0)!.label).to.equal('<page>');
    expect(p.wantBounds).to.not.include(0);
  });

  it('Inspect: nothing until hover, then that component only', () => {
    expect(planFrame(input(app(), { mode: 'inspect' })).meters).to.deep.equal([]);
    const p = planFrame(input(app(), { mode: 'inspect', hovered: 4 }));
    expect(p.meters.map((m) => m.node.id)).to.deep.equal([4]);
    expect(p.accentOutlines).to.deep.equal([{ x: 300, y: 100, width: 200, height: 100 }]);
    expect(p.wantBounds).to.deep.equal([4]);
    expect(p.captions.map((c) => [c.node.id, c.pinned])).to.deep.equal([[4, false]]);
  });

  it('Pinned: outline in the pin color and a caption at its meter, in any mode', () => {
    const p = planFrame(input(app(), { mode: 'inspect', pinned: 2, hovered: 2 }));
    expect(p.pinOutline).to.deep.equal({ x: 100, y: 100, width: 600, height: 400 });
    expect(p.accentOutlines).to.deep.equal([]);
    expect(p.captions.map((c) => [c.node.id, c.pinned])).to.deep.equal([[2, true]]);
    expect(p.captions[0].at).to.deep.equal({ x: 664, y: 104 });
    const q = planFrame(input(app(), { pinned: 6 }));
    expect(q.captions.map((c) => c.node.id)).to.deep.equal([6]); // too small for a meter, still captioned at its corner
    expect(q.captions[0].at).to.deep.equal({ x: 800 + 30 - 4 - 32, y: 104 });
    expect(q.wantBounds[0]).to.equal(6);
  });

  it('the panel’s hovered row gets an accent outline', () => {
    const p = planFrame(input(app(), { highlighted: 5 }));
    expect(p.accentOutlines).to.deep.equal([{ x: 500, y: 100, width: 200, height: 100 }]);
  });
});
