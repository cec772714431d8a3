/**
 * Compares the extension's snapshot with an independent walk of a framework's own tree (vue-truth.ts, preact-truth.ts),
 * waiting until they agree and failing with both listings (vue.test.ts, preact.test.ts, firefox.test.ts).
 */
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { lc, waitFor } from './harness';
import { vueTruth, type VueTruth } from './vue-truth';

export interface Comp {
  id: number;
  name: string;
  kind: 'own' | 'library' | 'framework';
  meterAt: { x: number; y: number } | null;
  layer: number;
  parentId: number | null;
  depth: number;
  key: string | null;
  authored: number;
  rendered: number;
  layoutMs: number;
  bounds: { x: number; y: number; width: number; height: number } | null;
}

export const comps = async (page: Page): Promise<Comp[]> => ((await lc.snapshot(page)) as { components: Comp[] }).components;
const line = (t: { depth: number; key: string | null; authored: number; rendered: number }): string =>
  `depth=${t.depth} key=${t.key ?? ''} authored=${t.authored} rendered=${t.rendered}`;

/** A framework's own tree as the tests walk it in the page: a function page.evaluate runs (vue-truth.ts, preact-truth.ts). */
type TruthOf = () => { depth: number; key: string | null; authored: number; rendered: number; name: string | null }[];

/**
 * Waits until the snapshot equals the framework's own tree as `truthOf` walks it (as multisets: components mounted later
 * get later ids), names too, failing with both listings.
 */
export async function expectTreeMatches<T extends ReturnType<TruthOf>[number]>(page: Page, truthOf: () => T[], what: string): Promise<T[]> {
  let last: [string, string] = ['', ''];
  let truth: T[] = [];
  let missing: string[] = [];
  try {
    await waitFor(async () => {
      truth = await page.evaluate(truthOf);
      const got = await comps(page);
      last = [got.map(line).sort().join('\n'), truth.map(line).sort().join('\n')];
      // Every name the framework's own tree gives is ours exactly, in the same snapshot (one clean-clone run beside a
      // CPU hog read the library page's root without its name once, right after the tree matched).
      const ours = new Set(got.map((c) => c.name));
      missing = truth.flatMap((t) => (t.name !== null && !ours.has(t.name) ? [t.name] : []));
      return truth.length > 0 && last[0] === last[1] && missing.length === 0;
    }, { timeout: 15_000, what });
  } catch (e) {
    expect(last[0], what).to.equal(last[1]);
    expect(missing, `${what}: names of the framework's tree not in the snapshot`).to.deep.equal([]);
    throw e;
  }
  return truth;
}

/** The snapshot against Vue's own tree (`name`, `__name` for names). */
export function expectVueMatches(page: Page, what: string): Promise<VueTruth[]> {
  return expectTreeMatches(page, vueTruth, what);
}
