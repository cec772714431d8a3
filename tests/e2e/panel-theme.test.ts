/**
 * The panel follows the DevTools theme (chrome.devtools.panels.themeName),
 * light and dark, on the StressGrid demo; writes out/panel-light.png and
 * out/panel-dark.png (looked at by a person; the README shows one).
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Frame, Page } from 'puppeteer-core';
import { ROOT } from '../../scripts/chrome';
import { launch, lc, openPanel, waitFor, type Harness } from './harness';
import { domRows, panelState, waitForRows } from './panel-helpers';

const OUT = path.join(ROOT, 'out');

async function setDevToolsTheme(devtools: Page, theme: 'dark' | 'default'): Promise<void> {
  await devtools.evaluate(async (t) => {
    // @ts-expect-error DevTools-internal module path, resolved inside the DevTools frontend
    const Common = await import('./core/common/common.js');
    Common.Settings.Settings.instance().moduleSetting('ui-theme').set(t);
  }, theme);
}

async function shoot(panel: Frame, file: string): Promise<void> {
  const frameEl = await panel.frameElement();
  if (!frameEl) throw new Error('no panel frame element');
  fs.mkdirSync(OUT, { recursive: true });
  await frameEl.screenshot({ path: path.join(OUT, file) as `${string}.png` });
}

describe('DevTools panel theme (e2e)', function () {
  this.timeout(120_000);
  let h: Harness;
  let page: Page;
  let devtools: Page;
  let panel: Frame;

  before(async () => {
    h = await launch({ args: ['--window-size=1500,1000'] });
    // The grid ticks only for the pictures (`npm run screenshots`): the theme needs the table, not the demo's load (a
    // core's worth beside the other files of the parallel lane).
    page = await h.newPage(`demo/index.html?pct=10&seed=7${process.env.LC_PICTURES ? '' : '&paused=1'}`);
    await waitFor(() => page.evaluate(() => (window as any).__demo?.commits > 0), { what: 'demo mounted' });
    ({ devtools, panel } = await openPanel(h, page));
    await devtools.setViewport({ width: 1400, height: 760 });
    await lc.enable(page);
    await waitFor(() => panelState<boolean>(panel, 's.table && s.table.rows.length > 1000'), { what: 'demo rows', timeout: 20_000 });
  });
  after(async () => {
    await page?.evaluate(() => (window as any).__demo?.pause()).catch(() => undefined);
    await h?.close();
  });

  it('is light under the default DevTools theme', async () => {
    expect(await panel.evaluate(() => chrome.devtools.panels.themeName)).to.not.equal('dark');
    expect(await panel.evaluate(() => document.documentElement.dataset.theme)).to.equal('light');
    expect(await panel.evaluate(() => getComputedStyle(document.body).backgroundColor)).to.equal('rgb(255, 255, 255)');
    // Pin the costliest component with a real parent chain, so the screenshot shows the detail view.
    // A DOM click on the row that has that id now (a mouse click in the DevTools-hosted frame can miss, and the
    // table re-sorts twice a second under the demo's load: the row under the pointer may be another by then).
    await waitFor(async () => {
      const rows = await waitForRows(panel, (r) => r.length > 10, 'rows');
      const pick = rows.find((r) => r.cells.name !== '<page>' && Number(r.cells.depth) >= 2) ?? rows[1];
      const clicked = await panel.evaluate((id) => {
        const row = document.querySelector<HTMLElement>(`.tr[data-id="${id}"]:not([hidden])`);
        row?.click();
        return row !== null;
      }, pick.id);
      if (!clicked) return false;
      try {
        await waitFor(async () => (await lc.state(page)).pinned === pick.id, { what: 'pinned', timeout: 5000 });
        return true;
      } catch {
        return false;
      }
    }, { what: 'a row pinned', timeout: 40_000 });
    await waitFor(() => panel.$eval('.pinned-detail', (n) => !(n as HTMLElement).hidden), { what: 'detail shown' });
    await waitFor(async () => (await domRows(panel)).length > 10 && Date.now() > 0, { what: 'settled' });
    // For `npm run screenshots` (LC_PICTURES): let the 6 s sparkline fill a little for the picture.
    if (process.env.LC_PICTURES) await new Promise((r) => setTimeout(r, 2500));
    await shoot(panel, 'panel-light.png');
  });

  it('is dark under the dark DevTools theme, after DevTools reopens', async () => {
    await setDevToolsTheme(devtools, 'dark');
    await devtools.close();
    ({ devtools, panel } = await openPanel(h, page));
    await devtools.setViewport({ width: 1400, height: 760 });
    expect(await panel.evaluate(() => chrome.devtools.panels.themeName)).to.equal('dark');
    await waitFor(() => panel.evaluate(() => document.documentElement.dataset.theme === 'dark'), { what: 'dark theme' });
    expect(await panel.evaluate(() => getComputedStyle(document.body).backgroundColor)).to.equal('rgb(32, 33, 36)');
    await waitFor(() => panel.$eval('.pinned-detail', (n) => !(n as HTMLElement).hidden), { what: 'pinned detail again' });
    await waitForRows(panel, (r) => r.length > 10, 'rows');
    if (process.env.LC_PICTURES) await new Promise((r) => setTimeout(r, 1500));
    await shoot(panel, 'panel-dark.png');
    await setDevToolsTheme(devtools, 'default');
  });
});
