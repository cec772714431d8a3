import { expect } from 'chai';
import { METER_HEIGHT_PX, METER_WIDTH_PX } from '../../src/overlay/anchor';
import { compareImportance, coveringFor, declutter } from '../../src/overlay/declutter';
import { planFrame, type PlanInput } from '../../src/overlay/plan';
import { DEFAULT_SETTINGS } from '../../src/overlay/settings';
import type { Rect } from '../../src/overlay/types';
import { node, tree, type TestNode } from './overlay-helpers';

const VP = { width: 1280, height: 900, dpr: 1 };
const RULES = {
  layoutFraction: 0.5, renderedFraction: 0.5, inflationFactor: 2,
  msRamp: DEFAULT_SETTINGS.msRamp, inflationRamp: DEFAULT_SETTINGS.inflationRamp,
};

function meterRect(at: { x: number; y: number }): Rect {
  return { x: at.x, y: at.y, width: METER_WIDTH_PX, height: METER_HEIGHT_PX };
}
function overlap(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}
function input(t: Map<number, TestNode>, o: Partial<PlanInput<TestNode>> = {}): PlanInput<TestNode> {
  return {
    mode: 'components', nodes: t.values(), get: (id) => t.get(id), page: node(0, { authored: 0, rendered: 0 }),
    viewport: VP, rtl: false, rules: RULES, pinned: null, hovered: null, highlighted: null, ...o,
  };
}

describe('overlay declutter: meters never overlap, nothing is drawn over what covers it', () => {
  it('moves a meter whose corner is taken along its box, most important keeps the corner', () => {
    // Three siblings whose boxes end 3 px apart: their corners would stack.
    const a = node(1, { layout: 0.1, bounds: { x: 0, y: 0, width: 300, height: 200 } });
    const b = node(2, { layout: 5, bounds: { x: 0, y: 0, width: 303, height: 200 } });
    const c = node(3, { layout: 1, bounds: { x: 0, y: 3, width: 300, height: 200 } });
    const items = [a, b, c].map((n) => ({ node: n, at: { x: n.bounds!.x + n.bounds!.width - 36, y: n.bounds!.y + 4 } }));
    const { kept, hidden } = declutter(items, VP, false, []);
    expect(hidden).to.equal(0);
    expect(kept.map((k) => k.node.id)).to.deep.equal([2, 3, 1]);
    expect(kept[0].at).to.deep.equal(items[1].at); // the costliest keeps its corner
    for (let i = 0; i < kept.length; i++) {
      for (let j = i + 1; j < kept.length; j++) expect(overlap(meterRect(kept[i].at), meterRect(kept[j].at))).to.equal(false);
      const bx = kept[i].node.bounds!;
      expect(kept[i].at.x).to.be.within(bx.x, bx.x + bx.width - METER_WIDTH_PX);
    }
  });

  it('leaves a meter out, counted, when its box has no free slot; the pinned one always wins', () => {
    const box = { x: 0, y: 0, width: 40, height: 40 };
    const items = [1, 2, 3].map((id) => ({ node: node(id, { layout: id, bounds: box }), at: { x: 4, y: 4 } }));
    const r = declutter(items, VP, false, [], [1]);
    expect(r.kept.map((k) => k.node.id)).to.deep.equal([1, 3]);
    expect(r.hidden).to.equal(1);
  });

  it('drops a meter on an occluder above its layer, keeps the ones inside it', () => {
    const dialog: Rect = { x: 200, y: 100, width: 400, height: 300 };
    const under = node(1, { layout: 9, bounds: { x: 0, y: 0, width: 600, height: 400 } });
    const inside = node(2, { layout: 1, layer: 1, bounds: { x: 300, y: 150, width: 200, height: 100 } });
    const items = [
      { node: under, at: { x: 564, y: 4 + 100 } }, // the corner falls on the dialog
      { node: inside, at: { x: 464, y: 154 } },
    ];
    const r = declutter(items, VP, false, [dialog]);
    expect(r.kept.map((k) => k.node.id)).to.include(2);
    for (const k of r.kept) if (k.node.id === 1) expect(overlap(meterRect(k.at), dialog)).to.equal(false);
    expect(coveringFor(0, [dialog])).to.deep.equal([dialog]);
    expect(coveringFor(1, [dialog])).to.deep.equal([]);
  });

  it('ranks by layout ms, then own inflation (portaled-in elements are not inflation), then size', () => {
    const hot = node(1, { layout: 3 });
    const inflated = node(2, { layout: 0, authored: 1, rendered: 50 });
    const portaled = node(3, { layout: 0, authored: 1, rendered: 80, portaledIn: 79 });
    const sorted = [portaled, inflated, hot].sort(compareImportance).map((n) => n.id);
    expect(sorted).to.deep.equal([1, 2, 3]);
  });

  it('plan: a dialog is a surface of its own; the page component under it keeps no meter and its outline is clipped', () => {
    const t = tree([
      [1, null, { layout: 2, authored: 50, rendered: 50, bounds: { x: 0, y: 0, width: 1280, height: 900 } }],
      // Small and cheap next to the page: it would never surface through; as a dialog root it is shown.
      [2, 1, { layout: 0, authored: 5, rendered: 5, layer: 1, surfaceRoot: true, bounds: { x: 400, y: 200, width: 300, height: 200 } }],
    ]);
    const occluders = [{ x: 0, y: 0, width: 1280, height: 900 }]; // a modal's backdrop
    const plan = planFrame(input(t, { occluders }));
    expect(plan.meters.map((m) => m.node.id)).to.deep.equal([2]);
    expect(plan.hidden).to.equal(1);
    const noDialog = planFrame(input(tree([
      [1, null, { layout: 2, authored: 50, rendered: 50, bounds: { x: 0, y: 0, width: 1280, height: 900 } }],
      [2, 1, { layout: 0, authored: 5, rendered: 5, bounds: { x: 400, y: 200, width: 300, height: 200 } }],
    ])));
    expect(noDialog.meters.map((m) => m.node.id)).to.deep.equal([1]);
    expect(plan.outlineCovers[0]).to.deep.equal([]); // the dialog's own outline: nothing above it
  });
});
