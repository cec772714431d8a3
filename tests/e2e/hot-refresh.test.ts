/**
 * Fast Refresh (issue 44), driven by React Refresh's own runtime as a dev server's plugin drives it: a hot update is a
 * later script that defines a component again under its family id and calls performReactRefresh(). Checked against
 * React's own fibers (an independent walk) and the hot script's own text.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { ROOT } from '../../scripts/chrome';
import { launch, lc, waitFor, type Harness } from './harness';
import { expectMatches } from './truth-match';

/** The 1-based line of `function Counter` in a built hot-update script (the truth for its source line). */
function counterLine(file: string): number {
  const lines = fs.readFileSync(path.join(ROOT, 'build', 'fixtures', file), 'utf8').split('\n');
  return lines.findIndex((l) => /function Counter\b/.test(l)) + 1;
}

async function hotUpdate(page: Page, n: number): Promise<void> {
  await page.evaluate((src) => {
    const s = document.createElement('script');
    s.src = src;
    document.body.append(s);
  }, `/build/fixtures/hot-${n}.js`);
  await waitFor(() => page.evaluate((k) => (window as any).__hotApplied === k, n), { what: `hot update ${n} applied` });
}

const counters = async (page: Page): Promise<any[]> =>
  ((await lc.snapshot(page)) as { components: any[] }).components.filter((c) => c.name === 'Counter');

describe('Fast Refresh (e2e)', function () {
  this.timeout(120_000);
  let h: Harness;
  before(async () => {
    h = await launch();
  });
  after(async () => h?.close());

  // Whether the record sat under the fiber React's remount cuts loose depended on how many commits came before.
  for (const clicks of [1, 2, 3]) {
    it(`a remount after ${clicks} commit${clicks === 1 ? '' : 's'} leaves one Counter, equal to React's fibers`, async () => {
      const page = await h.newPage('hot-r19-dev.html');
      await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: 'fixture' });
      await lc.enable(page);
      await expectMatches(page);
      for (let i = 0; i < clicks; i++) {
        await page.evaluate(() => (window as any).__bump());
        await waitFor(() => page.evaluate((k) => document.querySelector('.counter')?.textContent === `v1 ${k}`, i + 1), { what: 'the bump' });
      }
      await hotUpdate(page, 1);
      expect(await page.$eval('.counter', (e) => e.textContent)).to.equal(`v2 ${clicks}/0`);
      // The remounted Counter has a later id than its sibling: compared as a multiset.
      await expectMatches(page, ['root'], { ordered: false });
      const after = await counters(page);
      expect(after.map((c) => c.name)).to.deep.equal(['Counter']);
      await page.close();
    });
  }

  it('an edit in place keeps state, and the source line follows the new definition', async () => {
    const page = await h.newPage('hot-r19-dev.html');
    await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: 'fixture' });
    await lc.enable(page);
    await hotUpdate(page, 1);
    await page.evaluate(() => (window as any).__bumpInner());
    await waitFor(() => page.evaluate(() => document.querySelector('.counter')?.textContent === 'v2 0/1'), { what: 'inner state' });
    const placed = async (file: string): Promise<void> => {
      const line = counterLine(file);
      expect(line).to.be.greaterThan(0);
      await waitFor(async () => {
        const [c] = await counters(page);
        return c?.source?.file?.endsWith(file) && c.source.line === line;
      }, { timeout: 15_000, what: `Counter placed at ${file}:${line}` }).catch(async (e) => {
        throw new Error(`${(e as Error).message}; last: ${JSON.stringify((await counters(page)).map((c) => c.source))}`);
      });
    };
    await placed('hot-1.js');
    await hotUpdate(page, 2);
    // Updated in place: the state survived, no new instance.
    expect(await page.$eval('.counter', (e) => e.textContent)).to.equal('v3 0/1');
    await expectMatches(page, ['root'], { ordered: false });
    expect((await counters(page)).length).to.equal(1);
    await placed('hot-2.js');
    await page.close();
  });
});
