/**
 * The same extension in Firefox (issue 16; docs/FIREFOX.md): dist-firefox/ installed as a temporary add-on in
 * Firefox ESR over WebDriver BiDi. The API and the hook, counts against an independent walk of React's fibers on
 * React 18 and 19, meters drawn where the snapshot says, Ctrl+Shift+L by real key presses, the honest state Firefox's
 * timing gets (no Long Animation Frames), and the panel page's states and safety (the panel page in a window of its
 * own: BiDi cannot open Firefox's toolbox). Without a Firefox the file is skipped with a printed reason.
 */
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { findFirefox } from '../../scripts/chrome';
import { launchFirefox, lc, openPanelPage, waitFor, type Harness } from './harness';
import { waitForRows } from './panel-helpers';
import { anchorFor, frames, meterAt, setMode, shot, until } from './overlay-pixels';
import { expectMatches } from './truth-match';

describe('Firefox (e2e)', function () {
  this.timeout(120_000);
  let h: Harness;

  before(async function () {
    if (!findFirefox()) {
      console.log('      [firefox] skipped: no Firefox found (install firefox-esr, or set FIREFOX_PATH)');
      this.skip();
    }
    h = await launchFirefox();
  });
  after(async () => h?.close());

  it('the hook and the API: React found before enable, the agent on enable, and "no Long Animation Frames" said', async () => {
    const page = await h.newPage('counts-r19.html');
    await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: 'fixture' });
    const st = await lc.state(page);
    expect(st).to.deep.include({ enabled: false, mode: 'off', agent: false });
    expect(st.react).to.deep.equal({ renderers: 1, roots: 1 });
    await lc.enable(page);
    const on = await waitFor(async () => {
      const s = await lc.state(page);
      return s.agent && s.mode === 'components' ? s : null;
    }, { what: 'the agent' });
    expect(on.degraded.join(' ')).to.match(/no Long Animation Frames/);
    expect(on.droppedMessages).to.equal(0);
    await lc.disable(page);
    await waitFor(async () => (await lc.state(page)).mode === 'off', { what: 'off' });
    await page.close();
  });

  for (const v of ['18', '19']) {
    it(`React ${v}: counts equal an independent walk of React's fibers and the DOM, through updates`, async () => {
      const page = await h.newPage(`counts-r${v}.html`);
      await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true && !!(window as any).__addImperative), { what: 'fixture' });
      await lc.enable(page);
      await expectMatches(page);
      await page.evaluate(() => (window as any).__setItems(['a', 'c', 'd', 'e']));
      await page.evaluate(() => (window as any).__addImperative(5));
      const after = await expectMatches(page);
      expect(after.filter((t) => t.name === 'Item').map((t) => t.key)).to.deep.equal(['a', 'c', 'd', 'e']);
      // Nothing of ours threw into the page, and no message was refused on the way.
      expect((await lc.state(page)).droppedMessages).to.equal(0);
      await page.close();
    });
  }

  describe('the panel page', () => {
    const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;
    const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029]/;
    const notices = (panel: Page) => panel.$$eval('.notice', (n) => n.map((x) => x.textContent ?? ''));

    it('says what it sees: no React, React with the overlay off, then every component and the degraded timing', async () => {
      const page = await h.newPage('plain.html');
      const panel = await openPanelPage(h, page);
      try {
        await waitFor(async () => (await notices(panel)).includes('No React on this page'), { what: 'no-react notice' });
        await page.goto(h.url('counts-r19.html'), { waitUntil: 'load' });
        await waitFor(async () => (await notices(panel)).some((t) => /^React found .* overlay off/.test(t)), { what: 'react-off notice' });
        await lc.enable(page);
        const snap = await waitFor(async () => {
          const s = (await lc.snapshot(page)) as { components: { name: string }[] };
          return s.components.length >= 12 ? s : null;
        }, { what: 'components' });
        // Every component a row (plus <page>), by the names the snapshot gives.
        const rows = await waitForRows(panel.mainFrame(), (r) => r.length === snap.components.length + 1, 'a row per component');
        expect(rows.map((r) => r.cells.name).sort()).to.deep.equal(['<page>', ...snap.components.map((c) => c.name)].sort());
        await waitFor(async () => (await notices(panel)).some((t) => /no Long Animation Frames in this browser/.test(t)), { what: 'the degraded notice' });
      } finally {
        await panel.close();
        await page.close();
      }
    });

    it('shows hostile names as capped, inert text and runs none of them', async () => {
      const page = await h.newPage('hostile-r19-dev.html');
      await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: 'fixture' });
      const panel = await openPanelPage(h, page);
      try {
        await lc.enable(page);
        const names = await page.evaluate(() => (window as any).__hostileNames as Record<string, string>);
        const rows = await waitForRows(panel.mainFrame(), (r) => r.length >= Object.keys(names).length + 2, 'hostile rows');
        const texts = rows.map((r) => r.cells.name);
        for (const k of ['img', 'script', 'js', 'bdiEscape', 'entity']) expect(texts, k).to.include(names[k]);
        const long = texts.find((t) => t.startsWith('LongAAAA'));
        expect(long?.length).to.be.within(100, 200);
        expect(texts.find((t) => t.startsWith('Safe'))).to.equal('Safegnp.exeIso');
        for (const t of texts) {
          expect(BIDI.test(t), `bidi in ${t.slice(0, 40)}`).to.equal(false);
          expect(CONTROLS.test(t), `control in ${t.slice(0, 40)}`).to.equal(false);
        }
        const dom = await panel.evaluate(() => ({
          foreign: document.querySelectorAll('img, svg, iframe, object, embed, a[href], i, b').length,
          scripts: [...document.scripts].map((s) => s.getAttribute('src')),
        }));
        expect(dom).to.deep.equal({ foreign: 0, scripts: ['panel.js'] });
        // A name that ran would set __pwned on the window it ran in.
        expect(await panel.evaluate(() => (window as any).__pwned ?? null)).to.equal(null);
        expect(await page.evaluate(() => (window as any).__pwned ?? null)).to.equal(null);
      } finally {
        await panel.close();
        await page.close();
      }
    });
  });

  describe('the overlay', () => {
    let page: Page;
    const errors: string[] = [];
    before(async () => {
      page = await h.newPage();
      page.on('pageerror', (e) => errors.push(String((e as Error).message ?? e)));
      await page.goto(h.url('overlay.html'), { waitUntil: 'load' });
      await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: 'fixture' });
    });
    after(async () => page?.close());

    it('draws each drawn component\'s meter where the snapshot says, and never throws into the page', async () => {
      await setMode(page, 'components');
      await frames(page, 10);
      const drawn = await waitFor(async () => {
        const c = ((await lc.snapshot(page)) as { components: { name: string; drawn: boolean; bounds: any }[] }).components
          .filter((x) => x.drawn && x.bounds && anchorFor(x.bounds));
        return c.length >= 3 ? c : null;
      }, { what: 'drawn components' });
      const img = await until(page, (i) => drawn.every((c) => {
        const a = anchorFor(c.bounds)!;
        return meterAt(i, a.x, a.y);
      }), 'a meter at every drawn component\'s anchor');
      // And not where nothing is drawn: the page's blank top-left corner.
      expect(meterAt(img, 2, 2)).to.equal(false);
      expect(errors, errors.join(' | ')).to.deep.equal([]);
      await shot(page, 'firefox-overlay.png');
    });

    it('Ctrl+Shift+L by real key presses cycles Off → Components → Heatmap → Inspect → Off', async () => {
      await setMode(page, 'off');
      let pressed = 0;
      for (const mode of ['components', 'heatmap', 'inspect', 'off']) {
        // The worker folds presses closer than 150 ms into one: stay outside that window.
        await waitFor(() => Date.now() - pressed > 200, { what: 'the de-duplication window', interval: 20 });
        pressed = Date.now();
        await page.keyboard.down('Control');
        await page.keyboard.down('Shift');
        await page.keyboard.press('KeyL');
        await page.keyboard.up('Shift');
        await page.keyboard.up('Control');
        await waitFor(async () => (await lc.state(page)).mode === mode, { what: `mode ${mode} by key` });
      }
      expect(errors, errors.join(' | ')).to.deep.equal([]);
    });
  });
});
