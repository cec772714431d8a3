/**
 * Compares the extension's snapshot with the independent fiber walk
 * (fiber-truth.ts), waiting until they agree and failing with both listings.
 */
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { groundTruth, type Truth } from './fiber-truth';
import { lc, waitFor } from './harness';

export async function ours(page: Page): Promise<Truth[]> {
  const snap = (await lc.snapshot(page)) as { components: any[] };
  return snap.components
    .sort((a, b) => a.id - b.id)
    .map((c) => ({ depth: c.depth, key: c.key, authored: c.authored, rendered: c.rendered, portaledIn: c.portaledIn, name: c.name }));
}

const line = (t: Truth): string =>
  `${'  '.repeat(t.depth)}${t.key ?? ''} authored=${t.authored} rendered=${t.rendered} portaledIn=${t.portaledIn}`;

/**
 * Waits until the snapshot equals the independent walk; fails with both on timeout. `ordered`: ids follow the
 * walk's order (a tree mounted in one go); otherwise (components mounted later get later ids) the two are
 * compared as multisets of lines.
 */
export async function expectMatches(page: Page, rootIds = ['root'], opts: { ordered?: boolean; timeout?: number } = {}): Promise<Truth[]> {
  const ordered = opts.ordered ?? true;
  const listing = (ts: Truth[]): string => (ordered ? ts.map(line) : ts.map((t) => line(t).trimStart() + ` depth=${t.depth}`).sort()).join('\n');
  let last: [Truth[], Truth[]] = [[], []];
  try {
    await waitFor(async () => {
      const truth = await page.evaluate(groundTruth, rootIds);
      const got = await ours(page);
      last = [got, truth];
      return truth.length > 0 && listing(got) === listing(truth);
    }, { timeout: opts.timeout ?? 8000, what: 'snapshot to match the fiber walk' });
  } catch (e) {
    expect(listing(last[0])).to.equal(listing(last[1]));
    throw e;
  }
  // Wherever the fixture set a displayName, ours must be exactly it.
  if (ordered) for (let i = 0; i < last[1].length; i++) if (last[1][i].name) expect(last[0][i].name).to.equal(last[1][i].name);
  return last[1];
}
