import { expect } from 'chai';
import { capLargestFirst, MAX_METERS } from '../../src/overlay/cap';
import { heat, HEATMAP_TOP_N, rankHeatmap } from '../../src/overlay/heatmap';
import { DEFAULT_SETTINGS } from '../../src/overlay/settings';
import { node } from './overlay-helpers';

const RAMPS = { msRamp: DEFAULT_SETTINGS.msRamp, inflationRamp: DEFAULT_SETTINGS.inflationRamp };

describe('overlay Heatmap choice', () => {
  it('qualifies by layout ms above the noise floor or inflation past green', () => {
    expect(heat(node(1, { layout: 0, authored: 10, rendered: 30 }), RAMPS)).to.equal(-1); // 3× is green
    expect(heat(node(1, { layout: 0, authored: 10, rendered: 31 }), RAMPS)).to.equal(1);
    expect(heat(node(1, { layout: 0.5, authored: 1, rendered: 1 }), RAMPS)).to.equal(0);
    expect(heat(node(1, { layout: 0.01, authored: 1, rendered: 1 }), RAMPS)).to.equal(-1);
    expect(heat(node(1, { layout: 20, authored: 1, rendered: 5 }), RAMPS)).to.equal(3); // worse of red ms and yellow 5×
  });

  it('keeps the top 10 at any depth, hottest first', () => {
    const nodes = Array.from({ length: 50 }, (_, i) => node(i + 1, { layout: i * 0.1 + 0.1, depth: i % 7 }));
    const top = rankHeatmap(nodes, RAMPS, HEATMAP_TOP_N);
    expect(top.map((n) => n.id)).to.deep.equal([50, 49, 48, 47, 46, 45, 44, 43, 42, 41]);
  });

  it('ranks a red inflation above a yellow layout time, and breaks ties by ms, then ratio, then id', () => {
    const a = node(1, { layout: 5 }); // yellow ms
    const b = node(2, { layout: 0, authored: 1, rendered: 50 }); // red inflation
    const c = node(3, { layout: 5, authored: 1, rendered: 2 });
    const d = node(4, { layout: 5 });
    expect(rankHeatmap([a, b, c, d], RAMPS, 10).map((n) => n.id)).to.deep.equal([2, 3, 1, 4]);
  });

  it('includes the <page> bucket like any other subtree', () => {
    const page = node(0, { layout: 12, authored: 0, rendered: 0 });
    const top = rankHeatmap([node(1, { layout: 3 }), page], RAMPS, 10);
    expect(top[0].id).to.equal(0);
  });

  it('returns fewer than N when fewer qualify, and nothing for k = 0', () => {
    expect(rankHeatmap([node(1, { layout: 1 }), node(2)], RAMPS, 10).map((n) => n.id)).to.deep.equal([1]);
    expect(rankHeatmap([node(1, { layout: 1 })], RAMPS, 0)).to.deep.equal([]);
  });
});

describe('overlay capping', () => {
  it('keeps everything, largest first, under the cap', () => {
    const r = capLargestFirst([node(1, { rendered: 5 }), node(2, { rendered: 50 }), node(3, { rendered: 5, depth: -1 })], 10);
    expect(r.capped).to.equal(false);
    expect(r.kept.map((n) => n.id)).to.deep.equal([2, 3, 1]);
  });

  it('cuts to the largest few hundred and says so', () => {
    const many = Array.from({ length: 50_000 }, (_, i) => node(i + 1, { rendered: (i * 7919) % 50_000 }));
    const r = capLargestFirst(many);
    expect(r.capped).to.equal(true);
    expect(r.kept).to.have.length(MAX_METERS);
    expect(MAX_METERS).to.be.within(100, 500);
    const minKept = Math.min(...r.kept.map((n) => n.rendered));
    expect(many.filter((n) => n.rendered > minKept).length).to.be.lessThan(MAX_METERS);
  });

  it('is not capped at exactly the cap', () => {
    expect(capLargestFirst(Array.from({ length: 3 }, (_, i) => node(i)), 3).capped).to.equal(false);
  });
});
