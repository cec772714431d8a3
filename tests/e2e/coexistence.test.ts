/**
 * Coexistence with the real React DevTools backend hook (npm
 * react-devtools-core) in both load orders, and with react-refresh's way of
 * wrapping an existing hook: React DevTools keeps processing every commit
 * and so do we.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { ROOT } from '../../scripts/chrome';
import { launch, lc, waitFor, type Harness } from './harness';

const rdtOps = (page: Page) => page.evaluate(() => (window as any).__rdtOperations as number);
const listCommits = async (page: Page) =>
  ((await lc.snapshot(page)) as any).components.find((c: any) => c.name === 'List')?.commits ?? 0;

async function bothSeeCommits(page: Page): Promise<void> {
  await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true && !!(window as any).__setItems));
  expect((await lc.state(page)).react).to.deep.equal({ renderers: 1, roots: 1 });
  await lc.enable(page);
  await waitFor(async () => (await listCommits(page)) === 1, { what: 'back-filled List' });
  for (let i = 2; i <= 4; i++) {
    const before = await rdtOps(page);
    await page.evaluate((n) => (window as any).__setItems(['a', 'b', 'c', 'x'.repeat(n)]), i);
    await waitFor(async () => (await listCommits(page)) === i, { what: `our commit ${i}` });
    await waitFor(async () => (await rdtOps(page)) > before, { what: `React DevTools operations after commit ${i}` });
  }
}

describe('hook coexistence (e2e)', function () {
  this.timeout(120_000);
  let h: Harness;
  before(async () => {
    h = await launch();
  });
  after(async () => h?.close());

  it('React DevTools hook installed after ours: it installs its real hook and both see every commit', async () => {
    const page = await h.newPage('rdt-after.html');
    const own = await page.evaluate(() => Object.prototype.hasOwnProperty.call(window, '__REACT_DEVTOOLS_GLOBAL_HOOK__'));
    expect(own, 'React DevTools defined its own hook on window').to.equal(true);
    await bothSeeCommits(page);
    await page.close();
  });

  it('React DevTools hook installed before ours: we wrap it in place and both see every commit', async () => {
    const page = await h.browser.newPage();
    await page.evaluateOnNewDocument('globalThis.__name = globalThis.__name || ((f) => f);');
    await page.evaluateOnNewDocument(fs.readFileSync(path.join(ROOT, 'build', 'fixtures', 'rdt.js'), 'utf8'));
    await page.goto(h.url('rdt-none.html'));
    const chained = await page.evaluate(() => (window as any).__LAYOUT_COST__.internals().hookChained);
    expect(chained).to.equal(1);
    await bothSeeCommits(page);
    await page.close();
  });

  it('react-refresh style wrapping of our hook keeps both working', async () => {
    const page = await h.newPage('refresh.html');
    await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true));
    expect(await page.evaluate(() => (window as any).__refreshInjected)).to.equal(true);
    await lc.enable(page);
    await waitFor(async () => (await listCommits(page)) === 1);
    const before = await page.evaluate(() => (window as any).__refreshCommits as number);
    await page.evaluate(() => (window as any).__setItems(['q']));
    await waitFor(async () => (await listCommits(page)) === 2, { what: 'our commit' });
    expect(await page.evaluate(() => (window as any).__refreshCommits as number)).to.be.greaterThan(before);
    await page.close();
  });
});
