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
import { METER_HEIGHT_PX, METER_WIDTH_PX } from '../../src/overlay/anchor';
import { frames, shot } from './overlay-pixels';
import type { Image } from './png';
import { expectMatches } from './truth-match';
import { DEFAULT_SETTINGS } from '../../src/overlay/settings';
import type { SnapshotComponent } from '../../src/protocol/snapshot';

type SnapComp = SnapshotComponent;

const call = (page: Page, fn: string, ...args: unknown[]): Promise<unknown> =>
  page.evaluate((f, a) => (window as any)[f](...a), fn, args);

async function snapshot(page: Page): Promise<SnapComp[]> {
  return ((await lc.snapshot(page)) as { components: SnapComp[] }).components.slice().sort((a, b) => a.id - b.id);
}

/** Every component equals the walk. Valid right after a back-fill (ids in tree order). */
const allMatch = (page: Page, rootIds = ['root']): Promise<unknown> => expectMatches(page, rootIds);
/** Every component equals the walk, compared as multisets (components mounted since enable have later ids). */
const walkMatch = (page: Page, rootIds = ['root']): Promise<unknown> => expectMatches(page, rootIds, { ordered: false });

interface Box { x: number; y: number; width: number; height: number }
const overlaps = (a: Box, b: Box): boolean =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The drawn meters' rects; fails if two overlap. */
async function meters(page: Page): Promise<{ name: string; rect: Box; layer: number }[]> {
  const snap = (await lc.snapshot(page)) as { components: (SnapComp & { meterAt: { x: number; y: number } | null; layer: number })[] };
  const out = snap.components.filter((c) => c.meterAt !== null)
    .map((c) => ({ name: c.name, layer: c.layer, rect: { ...c.meterAt!, width: METER_WIDTH_PX, height: METER_HEIGHT_PX } }));
  for (let i = 0; i < out.length; i++) {
    for (let j = i + 1; j < out.length; j++) {
      expect(overlaps(out[i].rect, out[j].rect), `${out[i].name} and ${out[j].name} overlap`).to.equal(false);
    }
  }
  return out;
}

/** Screenshot pixels that differ between two shots outside `keep` rects. */
function diffOutside(a: Image, b: Image, keep: Box[]): number {
  let n = 0;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      if (keep.some((k) => x >= k.x - 1 && x <= k.x + k.width + 1 && y >= k.y - 1 && y <= k.y + k.height + 1)) continue;
      const i = (y * a.width + x) * 4;
      if (a.data[i] !== b.data[i] || a.data[i + 1] !== b.data[i + 1] || a.data[i + 2] !== b.data[i + 2]) n++;
    }
  }
  return n;
}

/** The element's box in viewport CSS px. */
const boxOf = (page: Page, sel: string): Promise<Box> => page.evaluate((s) => {
  const r = document.querySelector(s)!.getBoundingClientRect();
  return { x: r.x, y: r.y, width: r.width, height: r.height };
}, sel);

/** Our own UI, left out of comparisons: the legend's corner (bottom-left, for the first seconds) and the mode caption. */
const LEGEND: Box = { x: 0, y: 800, width: 460, height: 100 };
const MODE_CAPTION: Box = { x: 440, y: 0, width: 400, height: 40 };

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

  /**
   * The development dashboard, loaded once for the tests that only read it (counts, portal layers, then the tooltip,
   * which hovers and closes it): each load costs its mount animations and the placing of 90 types by the source map.
   */
  let dashboard: Page | null = null;
  const dashboardDev = async (): Promise<Page> => {
    if (dashboard === null || dashboard.isClosed()) dashboard = await open('real-dashboard-dev.html', 10_000);
    return dashboard;
  };

  it('recharts dashboard: counts equal the walk, the developer\'s components by name, nothing degraded', async () => {
    const page = await dashboardDev();
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
  });

  it('your components first from the first frame: no library meter while types are being placed', async () => {
    const w = await h.worker();
    // As below: every component with elements surfaces through its parent's meter; libraries hidden (the default).
    await w.evaluate((st) => chrome.storage.local.set({ settings: st }), { ...DEFAULT_SETTINGS, surfaceRenderedFraction: 0 });
    const page = await h.newPage();
    try {
      await page.goto(h.url('real-dashboard-dev.html'), { waitUntil: 'load' });
      await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: 'ready' });
      // From the moment the overlay goes on until every type is placed: every component that got a meter, by id.
      await lc.enable(page);
      const drawn = new Set<number>();
      let polls = 0, placedAll = false;
      for (const until = Date.now() + 20_000; Date.now() < until && !placedAll; polls++) {
        const comps = await snapshot(page);
        for (const c of comps) if (c.drawn) drawn.add(c.id);
        placedAll = comps.length > 0 && comps.every((c) => c.source !== null);
      }
      expect(placedAll, 'every component placed within 20 s').to.equal(true);
      const final = new Map((await snapshot(page)).map((c) => [c.id, c]));
      const foreign = [...drawn].map((id) => final.get(id)).filter((c) => c !== undefined && c.kind !== 'own').map((c) => `${c!.kind} ${c!.name}`);
      console.log(`      [real] before placing: ${polls} snapshots, ${drawn.size} components drawn, of them not the app's own: ${foreign.length}`);
      expect(foreign, 'meters drawn for library or framework components').to.deep.equal([]);
      // Placed, the app's own get their meters (beside a CPU hog everything was placed before a first meter once: the
      // check above then had nothing to judge, but this still holds).
      await waitFor(async () => (await snapshot(page)).some((c) => c.drawn && c.kind === 'own'), { what: 'own meters' });
    } finally {
      await w.evaluate((st) => chrome.storage.local.set({ settings: st }), { ...DEFAULT_SETTINGS });
      await page.close();
    }
  });

  it('your components first: recharts\' own components are "library" by the source map; meters for yours only unless asked', async () => {
    const w = await h.worker();
    // Every component with elements surfaces through its parent's meter (the page is idle: no ms to surface by).
    const libraries = (on: boolean) => w.evaluate((st) => chrome.storage.local.set({ settings: st }),
      { ...DEFAULT_SETTINGS, surfaceRenderedFraction: 0, showLibraries: on });
    await libraries(true);
    const page = await open('real-dashboard-dev.html', 10_000);
    try {
      // Every type placed through the build's source map: the app's file, or a package under node_modules.
      const placed = async () => (await lc.snapshot(page) as { components: SnapshotComponent[] }).components;
      await waitFor(async () => (await placed()).every((c) => c.source !== null), { timeout: 20_000, what: 'every component placed' });
      const all = await placed();
      for (const c of all) {
        const own = c.source!.file.startsWith('tests/fixtures/src/');
        expect(c.kind, `${c.name} at ${c.source!.file}`).to.equal(own ? 'own' : /node_modules\/(react|react-dom|scheduler)\//.test(c.source!.file) ? 'framework' : 'library');
      }
      expect(all.filter((c) => c.name === 'ChartCard').map((c) => c.kind)).to.deep.equal(['own', 'own', 'own', 'own']);
      expect(all.filter((c) => c.kind === 'library').length).to.be.greaterThan(20);
      // Shown: some library components surface through with meters of their own.
      await frames(page, 3);
      const drawnKinds = async () => (await placed()).filter((c) => c.drawn).map((c) => `${c.kind} ${c.name}`);
      await waitFor(async () => (await drawnKinds()).some((k) => k.startsWith('library')), { what: 'a library meter while shown' });
      // Hidden (the default): not one library or framework meter; the developer's components keep theirs.
      await libraries(false);
      await waitFor(async () => {
        const d = await drawnKinds();
        return d.length > 0 && d.every((k) => k.startsWith('own'));
      }, { what: 'meters for own components only' }).catch(async (e) => {
        throw new Error(`${(e as Error).message}: ${(await drawnKinds()).join(', ')}`);
      });
      expect((await drawnKinds()).filter((k) => k === 'own ChartCard').length).to.be.greaterThan(0);
      // Nothing is lost: the snapshot still lists every component, library ones too.
      expect((await placed()).length).to.equal(all.length);
    } finally {
      await w.evaluate((st) => chrome.storage.local.set({ settings: st }), { ...DEFAULT_SETTINGS });
      await page.close();
    }
  });

  it('recharts portals its shapes into empty <g> layers a sibling renders: counted there as portaled in', async () => {
    const page = await dashboardDev();
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
  });

  // The tooltip portals into the chart's own wrapper <div> (inside RevenueChart's top host). Its content grows from
  // 2 to 14 elements on hover: every ancestor's rendered must follow (it stayed 11 short before the portal fix).
  it('recharts tooltip: ancestors\' counts follow the tooltip filling in inside its portal', async () => {
    const page = await dashboardDev();
    await meters(page);
    await call(page, '__hoverBar', 3);
    await waitFor(() => page.evaluate(() => document.querySelectorAll('.recharts-tooltip-item').length > 0), { what: 'tooltip' });
    await walkMatch(page);
    await page.close();
  });

  // Issue #9 item 6: recharts' Redux store (RTK autoBatchEnhancer) notifies React from a rAF callback; the SyncLane
  // re-render runs in the microtask checkpoint after it. Measured by the frame loop's second native callback, it must
  // not be taken for "a native requestAnimationFrame".
  it('recharts animations: the LoAF cross-check does not report a native requestAnimationFrame', async () => {
    const page = await open('real-dashboard.html', 10_000);
    const framesBefore = ((await lc.snapshot(page)) as { frames: { count: number } }).frames.count;
    let drawn = 0;
    const measuredSince = async (): Promise<number> => ((await lc.snapshot(page)) as { frames: { count: number } }).frames.count - framesBefore;
    // The animations last their duration (1.5 s) however fast the machine draws: as many as it takes for 20 measured
    // frames (two on a quiet machine), at most eight.
    for (let k = 0; k < 8 && (k < 2 || (await measuredSince()) < 20); k++) {
      await call(page, '__setRange', k % 2 === 0 ? 1 : 0);
      await waitFor(() => call(page, '__animating'), { what: 'animation start' });
      await waitFor(() => call(page, '__animating').then((x) => !x), { timeout: 10_000, what: 'animation end' });
      drawn = Math.max(drawn, (await meters(page)).length); // the animated charts' meters never overlap
    }
    await frames(page, 5);
    const state = await lc.state(page);
    const measured = ((await lc.snapshot(page)) as { frames: { count: number } }).frames.count - framesBefore;
    // Not a vacuous pass: the cross-check ran (Long Animation Frames observed), the animations' frames were measured and
    // meters were drawn over them.
    expect(state.outside, 'the Long Animation Frames cross-check runs').to.not.equal(null);
    expect(measured).to.be.at.least(20);
    expect(drawn).to.be.at.least(1);
    expect(state.degraded.filter((d: string) => /requestAnimationFrame/.test(d))).to.deep.equal([]);
    await page.close();
  });

  it('router + headlessui: menu, popover, tooltip and dialog through portals; counts follow; Escape reaches the page', async () => {
    const page = await open('real-router.html');
    await allMatch(page);
    await call(page, '__openMenu');
    await waitFor(() => page.evaluate(() => document.querySelectorAll('#headlessui-portal-root [role="menuitem"]').length === 6), { what: 'menu' });
    await walkMatch(page);
    // The menu is a surface of its own: a meter on it; the page's meters stay off it; none overlap.
    const menu = await boxOf(page, '#headlessui-portal-root .menu');
    await waitFor(async () => (await meters(page)).some((m) => m.layer > 0 && overlaps(m.rect, menu)), { what: 'a meter on the menu' });
    for (const m of await meters(page)) if (m.layer === 0) expect(overlaps(m.rect, menu), `${m.name} on the menu`).to.equal(false);
    await shot(page, 'real-router-menu.png');
    await call(page, '__closeMenu');
    await call(page, '__openPopover');
    await waitFor(() => page.evaluate(() => document.querySelector('#headlessui-portal-root .popover') !== null), { what: 'popover' });
    await walkMatch(page);
    await call(page, '__closePopover');
    await call(page, '__showTooltip');
    await waitFor(() => page.evaluate(() => document.querySelector('body > [role="tooltip"]') !== null), { what: 'tooltip' });
    await walkMatch(page);
    await call(page, '__hideTooltip');
    await call(page, '__openDialog');
    await waitFor(() => page.evaluate(() => document.querySelector('#headlessui-portal-root .dialog-panel') !== null), { what: 'dialog' });
    await walkMatch(page);
    // Nothing drawn over the modal: outside the dialog's panel (and our legend's corner) the page looks exactly as
    // it does with the overlay off; the dialog itself has a meter.
    const panel = await boxOf(page, '#headlessui-portal-root .dialog-panel');
    await waitFor(async () => (await meters(page)).some((m) => overlaps(m.rect, panel)), { what: 'the dialog\'s meter' });
    await frames(page, 3);
    const on = await shot(page, 'real-router-dialog.png');
    await lc.disable(page);
    await waitFor(() => page.evaluate(() => document.querySelector('layout-cost-overlay') === null), { what: 'overlay off' });
    await frames(page, 2);
    const off = await shot(page);
    expect(diffOutside(on, off, [panel, LEGEND, MODE_CAPTION]), 'pixels changed outside the dialog').to.equal(0);
    await lc.enable(page);
    await waitFor(async () => (await meters(page)).length > 0, { what: 'meters again' });
    await page.keyboard.press('Escape');
    await waitFor(() => call(page, '__dialogOpen').then((x) => !x), { what: 'dialog closed by Escape' });
    expect(await call(page, '__escapes')).to.equal(1);
    await walkMatch(page);
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
      await walkMatch(page);
    }
    await shot(page, 'real-router-dev.png');
    await page.close();
  });

  it('virtual table: scrolling to row 10 000 mounts its rows; counts follow', async () => {
    const page = await open('real-virtual-dev.html');
    await allMatch(page);
    await call(page, '__scrollTo', 10_000);
    await waitFor(() => call(page, '__visibleRows').then((r) => Array.isArray(r) && r[0] === 9995), { what: 'rows 9995…' });
    await walkMatch(page);
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
    await walkMatch(page);
    const menu = await page.evaluate(() => {
      const el = [...document.querySelectorAll('[role="menu"]')].pop()!;
      const r = el.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    });
    await waitFor(async () => (await meters(page)).some((m) => m.layer > 0 && overlaps(m.rect, menu)), { what: 'a meter on the menu' });
    for (const m of await meters(page)) if (m.layer === 0) expect(overlaps(m.rect, menu), `${m.name} on the menu`).to.equal(false);
    await shot(page, 'real-editor-menu.png');
    await call(page, '__closeMenu');
    await waitFor(() => call(page, '__menuOpen').then((x) => x === null), { what: 'menu closed' });
    await call(page, '__selectLayer', 20);
    await walkMatch(page);
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
