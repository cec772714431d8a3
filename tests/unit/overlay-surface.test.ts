import { expect } from 'chai';
import { buildTree, chooseComponents, chooseInTree, MS_NOISE_FLOOR, surfacesThrough } from '../../src/overlay/surface';
import { node, tree } from './overlay-helpers';

const RULES = { layoutFraction: 0.5, renderedFraction: 0.5, inflationFactor: 2 };

describe('overlay surface-through rule', () => {
  const parent = node(1, { layout: 10, authored: 100, rendered: 400 }); // ratio 4

  it('surfaces a child with more than 50 % of the parent layout ms, not exactly 50 %', () => {
    expect(surfacesThrough(node(2, { layout: 5.01, authored: 10, rendered: 10 }), parent, RULES)).to.equal(true);
    expect(surfacesThrough(node(2, { layout: 5, authored: 10, rendered: 10 }), parent, RULES)).to.equal(false);
  });

  it('surfaces a child with more than 50 % of the parent rendered count, not exactly 50 %', () => {
    expect(surfacesThrough(node(2, { authored: 100, rendered: 201 }), parent, RULES)).to.equal(true);
    expect(surfacesThrough(node(2, { authored: 100, rendered: 200 }), parent, RULES)).to.equal(false);
  });

  it('surfaces a child with more than 2× the parent inflation ratio, not exactly 2×', () => {
    expect(surfacesThrough(node(2, { authored: 10, rendered: 81 }), parent, RULES)).to.equal(true); // 8.1 > 8
    expect(surfacesThrough(node(2, { authored: 10, rendered: 80 }), parent, RULES)).to.equal(false); // 8 = 8
  });

  it('ignores layout ms under the noise floor', () => {
    const quiet = node(1, { layout: 0, authored: 100, rendered: 400 });
    expect(surfacesThrough(node(2, { layout: MS_NOISE_FLOOR / 2, authored: 10, rendered: 10 }), quiet, RULES)).to.equal(false);
    expect(surfacesThrough(node(2, { layout: MS_NOISE_FLOOR, authored: 10, rendered: 10 }), quiet, RULES)).to.equal(true);
  });

  it('follows the thresholds from settings', () => {
    const strict = { layoutFraction: 0.9, renderedFraction: 0.9, inflationFactor: 5 };
    expect(surfacesThrough(node(2, { layout: 6, authored: 100, rendered: 300 }), parent, strict)).to.equal(false);
  });
});

describe('overlay Components-mode choice', () => {
  it('shows the root and hides quiet, small descendants', () => {
    const t = tree([
      [1, null, { rendered: 1000, authored: 500, layout: 10 }],
      [2, 1, { rendered: 100, authored: 50, layout: 1 }],
      [3, 1, { rendered: 100, authored: 50, layout: 1 }],
    ]);
    expect(chooseComponents(t.values(), RULES).map((n) => n.id)).to.deep.equal([1]);
  });

  it('lets a hotspot deep down surface through a chain of hidden wrappers', () => {
    const t = tree([
      [1, null, { rendered: 1000, authored: 500, layout: 10 }],
      [2, 1, { rendered: 300, authored: 150, layout: 9 }], // 90 % of ms → shows
      [3, 2, { rendered: 100, authored: 50, layout: 1 }], // hidden under 2
      [4, 3, { rendered: 20, authored: 10, layout: 0.9 }], // hidden
      [5, 1, { rendered: 50, authored: 50, layout: 0 }], // hidden
      [6, 5, { rendered: 40, authored: 2, layout: 0 }], // 20× vs 1's 2× → surfaces, compared to 1 (nearest shown)
    ]);
    expect(chooseComponents(t.values(), RULES).map((n) => n.id)).to.deep.equal([1, 2, 6]);
  });

  it('compares against the nearest shown ancestor, not the direct parent', () => {
    const t = tree([
      [1, null, { rendered: 1000, authored: 1000, layout: 10 }],
      [2, 1, { rendered: 10, authored: 10, layout: 0.1 }], // hidden
      [3, 2, { rendered: 8, authored: 8, layout: 0.09 }], // > 50 % of 2, but not of 1 → hidden
    ]);
    expect(chooseComponents(t.values(), RULES).map((n) => n.id)).to.deep.equal([1]);
  });

  it('treats components with an unmounted parent as roots, and several roots as several', () => {
    const t = tree([[1, null], [2, 99], [3, null]]);
    expect(chooseComponents(t.values(), RULES).map((n) => n.id).sort()).to.deep.equal([1, 2, 3]);
  });

  it('skips parent cycles instead of looping, and survives a 20 000-deep chain', () => {
    const cyc = [node(1, { parentId: 2 }), node(2, { parentId: 1 }), node(3)];
    expect(chooseComponents(cyc, RULES).map((n) => n.id)).to.deep.equal([3]);
    const deep = Array.from({ length: 20_000 }, (_, i) => node(i + 1, { parentId: i === 0 ? null : i, depth: i, rendered: 100 }));
    expect(chooseComponents(deep, RULES).length).to.equal(20_000); // each holds > 50 % of its parent's count
  });

  it('matches the rule read literally (each node against its nearest shown ancestor, parents first, siblings in order) on random forests', () => {
    // The reference: recursion from each root over children in iteration order, as the rule reads.
    const reference = (nodes: ReturnType<typeof node>[], skip?: (n: ReturnType<typeof node>) => boolean): number[] => {
      const byId = new Map(nodes.map((n) => [n.id, n]));
      const kids = new Map<number, number[]>();
      const roots: number[] = [];
      for (const n of byId.values()) {
        if (n.parentId === null || n.parentId === n.id || !byId.has(n.parentId)) roots.push(n.id);
        else kids.set(n.parentId, [...(kids.get(n.parentId) ?? []), n.id]);
      }
      const out: number[] = [];
      const visit = (id: number, cover: ReturnType<typeof node> | null): void => {
        const n = byId.get(id)!;
        const show = !(skip?.(n) ?? false) && (cover === null || n.surfaceRoot === true || surfacesThrough(n, cover, RULES));
        if (show) out.push(id);
        for (const k of kids.get(id) ?? []) visit(k, show ? n : cover);
      };
      for (const r of roots) visit(r, null);
      return out;
    };
    let seed = 7;
    const rand = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let trial = 0; trial < 300; trial++) {
      const size = 1 + Math.floor(rand() * 60);
      // Small ids (the agent's), and every third trial sparse ones (a long-lived page's): both indexes.
      const scale = trial % 3 === 0 ? 100_003 : 1;
      const nodes = Array.from({ length: size }, (_, i) => node(scale * (1 + Math.floor(rand() * size * 1.2)), {
        // Parents mostly earlier ids, some missing, some later (out of order), some cycles.
        parentId: rand() < 0.1 ? null : scale * (1 + Math.floor(rand() * size * 1.3)),
        layout: rand() < 0.5 ? rand() * 10 : 0, authored: Math.floor(rand() * 20), rendered: Math.floor(rand() * 400),
        surfaceRoot: rand() < 0.05, depth: i,
      }));
      expect(chooseComponents(nodes, RULES).map((n) => n.id), `trial ${trial}`).to.deep.equal(reference(nodes));
      // Skipped components (another layer's, a wrapper chain's) show nothing and cover nothing, roots among them.
      const skip = (n: ReturnType<typeof node>): boolean => n.id % 5 === 0;
      expect(chooseInTree(buildTree(nodes), RULES, skip).map((n) => n.id), `trial ${trial}, skipping`).to.deep.equal(reference(nodes, skip));
    }
  });
});
