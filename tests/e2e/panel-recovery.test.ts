/**
 * The panel stays in step with the page (issue 5): after the service worker
 * is stopped, after DevTools closes and reopens, after a reload and an SPA
 * navigation it shows live data again within about two seconds; with React
 * in several frames a frame picker chooses which one it shows.
 */
import os from 'node:os';
import { expect } from 'chai';
import type { Frame, Page } from 'puppeteer-core';
import { launch, lc, openPanel, waitFor, type Harness } from './harness';
import { domRows, panelState, snapshot, stopWorker, waitForRows } from './panel-helpers';

/**
 * "About two seconds" (issue 5), with a little slack for two shared cores; twice that on a machine loaded past two
 * runnable threads a core (beside a CPU hog and three test files a run read 2.65 s), as the timing tests allow a
 * loaded machine more.
 */
const liveAgainMs = (): number => (os.loadavg()[0] > 2 * os.cpus().length ? 5000 : 2500);

describe('DevTools panel recovery (e2e)', function () {
  this.timeout(120_000);
  let h: Harness;
  let page: Page;
  let devtools: Page;
  let panel: Frame;

  before(async () => {
    h = await launch();
    page = await h.newPage('basic-r19-dev.html');
    await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: 'fixture' });
    ({ devtools, panel } = await openPanel(h, page));
    await lc.enable(page);
    await waitForRows(panel, (r) => r.filter((x) => x.cells.name === 'Item').length === 3, 'three Items');
  });
  after(async () => h?.close());

  /** Adds an Item on the page and measures how long until the panel shows it. */
  async function liveWithin(label: string, items: string[]): Promise<number> {
    const t = Date.now();
    await page.evaluate((x) => (window as any).__setItems(x), items);
    await waitForRows(panel, (r) => r.filter((x) => x.cells.name === 'Item').length === items.length, `${label}: ${items.length} Items`, liveAgainMs() + 5000);
    return Date.now() - t;
  }

  it('recovers after the service worker is stopped and restarted', async () => {
    // The clock starts when the worker is told to stop: stopWorker returns only once a new one runs.
    const { stoppedAt } = await stopWorker(h);
    const back = Date.now() - stoppedAt;
    await waitFor(() => panelState<boolean>(panel, 's.connected'), { what: 'panel reconnected' });
    const ms = await liveWithin('after the worker restart', ['a', 'b', 'c', 'd']);
    const total = Date.now() - stoppedAt;
    console.log(`      live again ${total} ms after the worker was stopped (a new worker ran at ${back} ms; ${ms} ms for the new row)`);
    expect(total).to.be.below(liveAgainMs());
    // The page → panel path works too: the mode set by the page shows in the panel.
    await lc.enable(page, 'heatmap');
    await waitFor(() => panelState<boolean>(panel, "s.mode === 'heatmap'"), { what: 'panel sees heatmap' });
    // And panel → page.
    await panel.select('#mode', 'components');
    await waitFor(async () => (await lc.state(page)).mode === 'components', { what: 'page sees components' });
  });

  it('recovers after DevTools closes and reopens, with the keys of what mounted meanwhile', async () => {
    await devtools.close();
    // Nothing shows keys now: the agent holds them (docs/PERFORMANCE.md, state per component). An Item mounts meanwhile.
    await waitFor(async () => Number((await lc.internals(page)).keys) === 0, { what: 'the agent holding keys' });
    await page.evaluate(() => (window as any).__setItems(['a', 'b', 'c', 'shut']));
    const t = Date.now();
    ({ devtools, panel } = await openPanel(h, page));
    const opened = Date.now() - t;
    const t2 = Date.now();
    await waitForRows(panel, (r) => r.filter((x) => x.cells.name === 'Item').length === 4, 'rows after reopening', 10_000);
    const ms = Date.now() - t2;
    console.log(`      rows ${ms} ms after the panel frame appeared (DevTools took ${opened} ms to open)`);
    expect(ms).to.be.below(liveAgainMs());
    // The held key came over when the panel opened: the row's name says it, as the snapshot (the page's fibers) does.
    const keyed = (await snapshot(page)).components.filter((c) => c.name === 'Item').map((c) => [c.id, c.key] as const);
    expect(keyed.map(([, k]) => k).sort()).to.deep.equal(['a', 'b', 'c', 'shut']);
    for (const [id, k] of keyed) {
      await waitFor(() => panel.$eval(`.tr[data-id="${id}"] .col-name`, (c) => (c as HTMLElement).title).then((x) => x.includes(` — key ${k}`)),
        { what: `the key of Item ${k} in its row` });
    }
    await liveWithin('after reopening', ['a', 'b']);
  });

  it('recovers after a reload, with fresh components', async () => {
    // Component ids restart at 1 in every document, so the old document's rows could pass for the new one's.
    // Make them differ first: three Items with new keys get ids the reloaded document (a, b, c) never reaches,
    // and the panel shows the old document with as many Items as the new one will have.
    await page.evaluate(() => (window as any).__setItems(['old1', 'old2', 'old3']));
    const old = await waitFor(async () => {
      const s = await snapshot(page);
      return s.components.filter((c) => c.name === 'Item').map((c) => c.key).sort().join() === 'old1,old2,old3' ? s : null;
    }, { what: 'the old document\'s three new Items' });
    const oldIds = old.components.map((c) => c.id).sort((x, y) => x - y);
    const shownIds = (rows: { id: number; cells: { name: string } }[]) => rows.filter((r) => r.cells.name !== '<page>').map((r) => r.id).sort((x, y) => x - y);
    await waitForRows(panel, (r) => shownIds(r).join() === oldIds.join(), 'the old document\'s rows');
    await page.reload({ waitUntil: 'load' });
    const t = Date.now();
    await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: 'fixture again' });
    const fresh = await waitFor(async () => {
      const s = await snapshot(page);
      return s.components.filter((c) => c.name === 'Item').length === 3 ? s : null;
    }, { what: 'the new document\'s components' });
    const newIds = fresh.components.map((c) => c.id).sort((x, y) => x - y);
    expect(newIds, 'ids that tell the documents apart').to.not.deep.equal(oldIds);
    const rows = await waitForRows(panel, (r) => shownIds(r).join() === newIds.join(), 'the new document\'s rows', 10_000);
    const ms = Date.now() - t;
    console.log(`      rows ${ms} ms after the reload's load event`);
    expect(ms).to.be.below(liveAgainMs());
    // The overlay stayed on (a panel inspects the tab) and each row is the new document's component.
    expect((await lc.state(page)).mode).to.not.equal('off');
    for (const c of fresh.components) expect(rows.find((r) => r.id === c.id)?.cells.name, `row ${c.id}`).to.equal(c.name);
  });

  it('follows an SPA navigation', async () => {
    await page.goto(h.url('panel-grid-r19-dev.html?n=12'), { waitUntil: 'load' });
    await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: 'grid fixture' });
    await lc.enable(page);
    await waitForRows(panel, (r) => r.filter((x) => x.cells.name === 'Cell').length === 12, '12 Cells', 10_000);
    const t = Date.now();
    await page.evaluate(() => (window as any).__navigate('settings'));
    await waitForRows(panel, (r) => r.some((x) => x.cells.name === 'SettingsRoute') && !r.some((x) => x.cells.name === 'Cell'), 'the new route', 10_000);
    const ms = Date.now() - t;
    console.log(`      new route shown ${ms} ms after pushState`);
    expect(ms).to.be.below(liveAgainMs());
  });

  it('offers a frame picker when React runs in several frames', async () => {
    await page.goto(h.url('panel-frames.html'), { waitUntil: 'load' });
    await waitFor(() => page.frames().filter((f) => f.url().includes('fixture') || f.url().includes('r19-dev')).length === 2, { what: 'frames' });
    for (const f of page.frames().slice(1)) await waitFor(() => f.evaluate(() => (window as any).__fixtureReady === true), { what: 'frame fixture' });
    await lc.enable(page.frames()[1]);
    await waitFor(() => panel.$eval('.frame-picker', (n) => !(n as HTMLElement).hidden), { what: 'frame picker shown' });
    await waitFor(() => panel.$$eval('#frame option', (o) => o.length === 3), { what: 'top + two frames' });
    const options = await panel.$$eval('#frame option', (o) => o.map((x) => ({ value: (x as HTMLOptionElement).value, text: x.textContent ?? '' })));
    expect(options[0].text).to.match(/^top — .*\(no React\)$/);
    const grid = options.find((o) => o.text.includes('panel-grid'))!;
    const basic = options.find((o) => o.text.includes('basic-r19-dev'))!;
    await panel.select('#frame', grid.value);
    // 30 Cells do not all fit on screen (the table is virtualized): count them in the panel's model.
    await waitFor(() => panelState<boolean>(panel, "s.table && s.table.rows.filter((r) => r.name === 'Cell').length === 30"), { what: 'the grid frame\'s 30 Cells' });
    await waitForRows(panel, (r) => r.some((x) => x.cells.name === 'Cell'), 'Cell rows shown');
    await panel.select('#frame', basic.value);
    const rows = await waitForRows(panel, (r) => r.some((x) => x.cells.name === 'List') && !r.some((x) => x.cells.name === 'Cell'),
      'the basic frame\'s rows only', 10_000);
    // Pinning from the panel reaches the chosen frame.
    const list = rows.find((r) => r.cells.name === 'List')!;
    await panel.click(`.tr[data-id="${list.id}"]:not([hidden])`);
    const basicFrame = page.frames().find((f) => f.url().includes('basic-r19-dev'))!;
    await waitFor(async () => (await lc.state(basicFrame)).pinned === list.id, { what: 'pinned in the basic frame' });
    expect((await domRows(panel)).length).to.be.greaterThan(1);
  });
});
