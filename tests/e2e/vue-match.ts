/**
 * Compares the extension's snapshot with the independent walk of Vue's tree (vue-truth.ts), waiting until they agree
 * and failing with both listings (tests/e2e/vue.test.ts, firefox.test.ts).
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

/** Waits until the snapshot equals Vue's own tree (as multisets: components mounted later get later ids), names too. */
export async function expectVueMatches(page: Page, what: string): Promise<VueTruth[]> {
  let last: [string, string] = ['', ''];
  let truth: VueTruth[] = [];
  try {
    await waitFor(async () => {
      truth = await page.evaluate(vueTruth);
      const got = await comps(page);
      last = [got.map(line).sort().join('\n'), truth.map(line).sort().join('\n')];
      return truth.length > 0 && last[0] === last[1];
    }, { timeout: 15_000, what });
  } catch (e) {
    expect(last[0], what).to.equal(last[1]);
    throw e;
  }
  // Every name Vue's own tree gives (`name`, `__name`) is ours exactly.
  const ours = new Set((await comps(page)).map((c) => c.name));
  for (const t of truth) if (t.name !== null) expect(ours.has(t.name), `${t.name} by name`).to.equal(true);
  return truth;
}

