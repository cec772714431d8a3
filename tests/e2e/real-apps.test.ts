/**
 * Real third-party React libraries (issue #9): recharts 3, react-router 7,
 * @headlessui/react 2, @tanstack/react-virtual 3, and the minimal
 * portal repro. Counts are checked against the independent fiber/DOM walk
 * (fiber-truth.ts), degraded reasons against what the page really does,
 * and screenshots go to out/real-*.png for a human to look at.

 */
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { launch, lc, waitFor, type Harness } from './harness';
import { groundTruth, type Truth } from './fiber-truth';
import { frames, shot } from './overlay-pixels';

interface SnapComp {
  id: number; name: string; parentId: number | null; depth: number; authored: number; rendered: number; portaledIn: number; drawn: boolean;
}

const call = (page: Page, fn: string, ...args: unknown[]): Promise<unknown> =>
  page.evaluate((f, a) => (window as any)[f](...a), fn, args);

async function snapshot(page: Page): Promise<SnapComp[]> {
  return ((await lc.snapshot(page)) as { components: SnapComp[] }).components.slice().sort((a, b) => a.id - b.id);
}

const line = (t: { depth: number; authored: number; rendered: number; portaledIn: number }): string =>
  `${'  '.repeat(t.depth)}authored=${t.authored} rendered=${t.rendered} portaledIn=${t.portaledIn}`;

/**
 * Every component equals the walk. Valid right after a back-fill (ids in
 * tree order); after later mounts, compare the roots (`rootsMatch`).
 */
async function allMatch(page: Page, rootIds = ['root']): Promise<void> {
  let last: [string, string] = ['', ''];
  try {
    await waitFor(async () => {
      const truth: Truth[] = await page.evaluate(groundTruth, rootIds);
      const got = await snapshot(page);
      last = [got.map(line).join('\n'), truth.map(line).join('\n')];
      return truth.length > 0 && last[0] === last[1];
    }, { timeout: 8000, what: 'snapshot to match the fiber walk' });
  } catch (e) {
    expect(last[0]).to.equal(last[1]);
    throw e;
  }
}

/** Each root component's totals equal the walk's (any number of mounts since enable). */
async function rootsMatch(page: Page, rootIds = ['root']): Promise<void> {
  let last: [string, string] = ['', ''];
  try {
    await waitFor(async () => {
      const truth: Truth[] = await page.evaluate(groundTruth, rootIds);
      const got = await snapshot(page);
      last = [got.filter((c) => c.parentId === null).map(line).join('\n'), truth.filter((t) => t.depth === 0).map(line).join('\n')];
      return last[1] !== '' && last[0] === last[1];
    }, { timeout: 8000, what: 'root totals to match the fiber walk' });
  } catch (e) {
    expect(last[0]).to.equal(last[1]);
    throw e;
  }
}

describe('real apps (e2e)', function () {
  this.timeout(120_000);
  let h: Harness;
  let errors: string[] = [];

  before(async () => {
    h = await launch();
  });
  after(async () => h?.close());

  /** Loads a fixture, waits for it, lets mount animations finish, enables the overlay. */
  async function open(p: string, settle = 0): Promise<Page> {
    errors = [];
    const page = await h.newPage();
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(h.url(p), { waitUntil: 'load' });
    await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: `${p} ready` });
    if (settle) await waitFor(() => call(page, '__animating').then((x) => !x), { timeout: settle, what: 'animations to end' });
    await lc.enable(page);
    await waitFor(async () => (await snapshot(page)).length > 0, { what: 'components' });
    await frames(page, 3);
    return page;
  }

  it('recharts dashboard: counts equal the walk, the developer\'s components by name, nothing degraded', async () => {
    const page = await open('real-dashboard-dev.html', 10_000);
    await allMatch(page);
    const names = (await snapshot(page)).map((c) => c.name);
    for (const n of ['Dashboard', 'RangePicker', 'KpiRow', 'RevenueChart', 'TrafficChart', 'SignupsChart', 'ChannelsChart']) {
      expect(names, n).to.include(n);
    }
    expect(names.filter((n) => n === 'ChartCard')).to.have.length(4);
    expect(names.filter((n) => n === 'KpiCard')).to.have.length(4);
    expect((await lc.state(page)).degraded).to.deep.equal([]);
    await shot(page, 'real-dashboard.png');
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it('recharts portals its shapes into empty <g> layers a sibling renders: counted there as portaled in', async () => {
    const page = await open('real-dashboard-dev.html', 10_000);
    // A cartesian chart: 12 zIndex layers (grid, bars, lines, axes, labels, cursors…), each an empty <g> that
    // ZIndexSvgPortal renders and ZIndexLayer components elsewhere in the tree portal into.
    const layers = await page.evaluate(() => [...document.querySelector('.recharts-wrapper')!.querySelectorAll('g[class^="recharts-zIndex-layer_"]')]
      .map((g) => g.querySelectorAll('*').length));
    expect(layers).to.have.length(12);
    const svgPortals = (await snapshot(page)).filter((c) => c.name === 'ZIndexSvgPortal');
    expect(svgPortals.length).to.be.greaterThan(0);
    for (const c of svgPortals) {
      expect(c.authored, 'the <g> itself').to.equal(1);
      expect(c.rendered - c.portaledIn, 'nothing but the <g> is its own').to.equal(1);
    }
    expect(svgPortals.some((c) => c.portaledIn > 0)).to.equal(true);
    await page.close();
  });

  // Pending: the tooltip portals into the chart's own wrapper <div> (inside RevenueChart's top host). Its content
  // grows from 2 to 14 elements on hover; the Tooltip's own counts follow, every ancestor's rendered stays 11 short
  // (Dashboard 688, the walk 699) until a disable/enable back-fills it.
  it('recharts tooltip: ancestors\' counts follow the tooltip filling in inside its portal', async () => {
    const page = await open('real-dashboard-dev.html', 10_000);
    await call(page, '__hoverBar', 3);
    await waitFor(() => page.evaluate(() => document.querySelectorAll('.recharts-tooltip-item').length > 0), { what: 'tooltip' });
    await rootsMatch(page);
    await page.close();
  });

  // Pending (issue #9 item 6): recharts' Redux store (RTK autoBatchEnhancer) notifies React from a rAF callback; the
  // SyncLane re-render runs in the microtask checkpoint after the frame loop's native callback, outside its span and
  // after the frame-end measurement, so the Long Animation Frames cross-check blames "a native requestAnimationFrame".
  it('recharts animations: the LoAF cross-check does not report a native requestAnimationFrame', async () => {
    const page = await open('real-dashboard.html', 10_000);
    for (const range of [1, 2, 0]) {
      await call(page, '__setRange', range);
      await waitFor(() => call(page, '__animating'), { what: 'animation start' });
      await waitFor(() => call(page, '__animating').then((x) => !x), { timeout: 10_000, what: 'animation end' });
    }
    await frames(page, 5);
    const { degraded } = await lc.state(page);
    expect(degraded.filter((d: string) => /requestAnimationFrame/.test(d))).to.deep.equal([]);
    await page.close();
  });

  it('router + headlessui: menu, popover, tooltip and dialog through portals; counts follow; Escape reaches the page', async () => {
    const page = await open('real-router.html');
    await allMatch(page);
    await call(page, '__openMenu');
    await waitFor(() => page.evaluate(() => document.querySelectorAll('#headlessui-portal-root [role="menuitem"]').length === 6), { what: 'menu' });
    await rootsMatch(page);
    await shot(page, 'real-router-menu.png');
    await call(page, '__closeMenu');
    await call(page, '__openPopover');
    await waitFor(() => page.evaluate(() => document.querySelector('#headlessui-portal-root .popover') !== null), { what: 'popover' });
    await rootsMatch(page);
    await call(page, '__closePopover');
    await call(page, '__showTooltip');
    await waitFor(() => page.evaluate(() => document.querySelector('body > [role="tooltip"]') !== null), { what: 'tooltip' });
    await rootsMatch(page);
    await call(page, '__hideTooltip');
    await call(page, '__openDialog');
    await waitFor(() => page.evaluate(() => document.querySelector('#headlessui-portal-root .dialog-panel') !== null), { what: 'dialog' });
    await rootsMatch(page);
    await shot(page, 'real-router-dialog.png');
    await page.keyboard.press('Escape');
    await waitFor(() => call(page, '__dialogOpen').then((x) => !x), { what: 'dialog closed by Escape' });
    expect(await call(page, '__escapes')).to.equal(1);
    await rootsMatch(page);
    expect((await lc.state(page)).degraded).to.deep.equal([]);
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it('router: navigating mounts the route\'s components by name and counts follow', async () => {
    const page = await open('real-router-dev.html');
    expect((await snapshot(page)).map((c) => c.name)).to.include.members(['Shell', 'ProjectsPage']);
    for (const [path, name] of [['/projects/2', 'ProjectPage'], ['/settings', 'SettingsPage'], ['/', 'ProjectsPage']]) {
      await call(page, '__navigate', path);
      await waitFor(() => call(page, '__path').then((x) => x === path), { what: path });
      await waitFor(async () => (await snapshot(page)).some((c) => c.name === name), { what: name });
      await rootsMatch(page);
    }
    await shot(page, 'real-router-dev.png');
    await page.close();
  });

  it('virtual table: scrolling to row 10 000 mounts its rows; counts follow', async () => {
    const page = await open('real-virtual-dev.html');
    await allMatch(page);
    await call(page, '__scrollTo', 10_000);
    await waitFor(() => call(page, '__visibleRows').then((r) => Array.isArray(r) && r[0] === 9995), { what: 'rows 9995…' });
    await rootsMatch(page);
    const rows = await page.evaluate(() => document.querySelectorAll('#root .vrow').length);
    await waitFor(async () => (await snapshot(page)).filter((c) => c.name === 'Row').length === rows, { what: 'one Row per row' });
    await shot(page, 'real-virtual.png');
    expect((await lc.state(page)).degraded).to.deep.equal([]);
    await page.close();
  });

  it('editor: one large component; menus through portals; counts follow', async () => {
    const page = await open('real-editor-dev.html');
    await allMatch(page);
    await call(page, '__openMenu', 'File');
    await waitFor(() => call(page, '__menuOpen').then((x) => x === 'File'), { what: 'File menu' });
    await rootsMatch(page);
    await shot(page, 'real-editor-menu.png');
    await call(page, '__closeMenu');
    await waitFor(() => call(page, '__menuOpen').then((x) => x === null), { what: 'menu closed' });
    await call(page, '__selectLayer', 20);
    await rootsMatch(page);
    expect((await lc.state(page)).degraded).to.deep.equal([]);
    await page.close();
  });

  for (const v of [19, 18]) {
    it(`portal repro (React ${v}): a portal into <body> and one into a sibling's element`, async () => {
      const page = await open(`portal-repro-r${v}.html`);
      await allMatch(page, ['root', 'root2']);
      await call(page, '__open');
      await call(page, '__portalIntoSibling');
      await waitFor(() => page.evaluate(() => document.querySelector('body > div > b') !== null && document.querySelector('#slot > i') !== null), { what: 'portals' });
      await allMatch(page, ['root', 'root2']); // no component mounted since enable: ids are still in tree order
      const get = async (n: string) => (await snapshot(page)).find((c) => c.name === n)!;
      expect(await get('Outside')).to.deep.include({ authored: 2, rendered: 2 });
      expect(await get('Target')).to.deep.include({ authored: 2, rendered: 3, portaledIn: 1 });
      expect(await get('Into')).to.deep.include({ authored: 1, rendered: 1, portaledIn: 0 });
      await shot(page, `real-portal-repro-r${v}.png`);
      await call(page, '__close');
      await call(page, '__portalIntoSibling', false);
      await allMatch(page, ['root', 'root2']);
      await page.close();
    });
  }
});
