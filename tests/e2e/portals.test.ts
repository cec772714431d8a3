/**
 * Counts through portals (issue 9, items 1 and 2) on the issue's minimal
 * repro, React 18 and 19: a component that starts rendering a portal into
 * <body> after mount must not change its ancestors' rendered counts (their
 * DOM does not hold it), and a portal into an element a sibling rendered is
 * counted once — as the sibling's "portaled in", never as its inflation.
 * Every state is checked against the independent fiber walk, and against the
 * figures the issue states.
 */
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { launch, lc, waitFor, type Harness } from './harness';
import { expectMatches } from './truth-match';

interface Row { name: string; authored: number; rendered: number; portaledIn: number }

async function rows(page: Page): Promise<Record<string, Row>> {
  const snap = (await lc.snapshot(page)) as { components: Row[] };
  return Object.fromEntries(snap.components.map((c) => [c.name, c]));
}

async function counts(page: Page, name: string): Promise<string> {
  const r = (await rows(page))[name];
  return r ? `${r.authored}/${r.rendered}/${r.portaledIn}` : 'missing';
}

describe('counts through portals (e2e)', function () {
  this.timeout(120_000);
  let h: Harness;
  before(async () => {
    h = await launch();
  });
  after(async () => h?.close());

  for (const v of ['18', '19']) {
    it(`React ${v}: a portal opened after mount leaves its ancestors' rendered alone; one into a sibling's element is counted once`, async () => {
      const page = await h.newPage(`portal-repro-r${v}.html`);
      await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: 'fixture' });
      await lc.enable(page);
      const roots = ['root', 'root2'];
      await expectMatches(page, roots);
      // authored/rendered/portaledIn, as the issue states them.
      expect(await counts(page, 'App')).to.equal('3/3/0');

      await page.evaluate(() => (window as any).__open());
      await expectMatches(page, roots, { ordered: false });
      expect(await counts(page, 'App')).to.equal('5/3/0');
      expect(await counts(page, 'Panel')).to.equal('4/2/0');
      expect(await counts(page, 'Outside')).to.equal('2/2/0');

      await page.evaluate(() => (window as any).__close());
      await expectMatches(page, roots, { ordered: false });
      expect(await counts(page, 'App')).to.equal('3/3/0');
      expect(await counts(page, 'Outside')).to.equal('0/0/0');

      // Into portals <i/> into #slot, which its sibling Target rendered.
      await page.evaluate(() => (window as any).__portalIntoSibling(true));
      await expectMatches(page, roots, { ordered: false });
      expect(await counts(page, 'Case2')).to.equal('4/4/0');
      expect(await counts(page, 'Target')).to.equal('2/3/1');
      expect(await counts(page, 'Into')).to.equal('1/1/0');
      const snap = (await lc.snapshot(page)) as { components: Row[] };
      expect(snap.components.find((c) => c.name === 'Target')).to.include({ rendered: 3, portaledIn: 1 });

      await page.evaluate(() => (window as any).__portalIntoSibling(false));
      await expectMatches(page, roots, { ordered: false });
      expect(await counts(page, 'Target')).to.equal('2/2/0');

      // Open again after all that: still exact.
      await page.evaluate(() => (window as any).__open());
      await expectMatches(page, roots, { ordered: false });
      expect(await counts(page, 'App')).to.equal('5/3/0');
      await page.close();
    });
  }
});
