/**
 * The panel against hostile component names (markup, script, javascript:
 * URLs, a 100 000-character name, bidi overrides, control characters) and
 * a 5 000-component table (virtualized: only visible rows in the DOM).
 */
import { expect } from 'chai';
import type { Frame, Page } from 'puppeteer-core';
import { launch, lc, openPanel, waitFor, type Harness } from './harness';
import { BIDI, CONTROLS, domRows, panelState, rowSel, snapshot, waitForRows } from './panel-helpers';


describe('DevTools panel safety and scale (e2e)', function () {
  this.timeout(120_000);
  let h: Harness;
  let page: Page;
  let devtools: Page;
  let panel: Frame;

  before(async () => {
    h = await launch();
  });
  after(async () => h?.close());

  it('shows hostile names as capped, inert text and runs none of them', async () => {
    page = await h.newPage('hostile-r19-dev.html');
    await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: 'fixture' });
    ({ devtools, panel } = await openPanel(h, page));
    await lc.enable(page);
    const names = await page.evaluate(() => (window as any).__hostileNames as Record<string, string>);
    const rows = await waitForRows(panel, (r) => r.length >= Object.keys(names).length + 2, 'hostile rows');
    const texts = rows.map((r) => r.cells.name);
    // Markup, script and URLs: shown verbatim, as text.
    for (const k of ['img', 'script', 'js', 'bdiEscape', 'entity']) expect(texts, k).to.include(names[k]);
    // The 100 000-character name: capped at 200 characters (the agent already cuts names at 200;
    // the panel's own cap adds an ellipsis past that), never rendered in full.
    const long = texts.find((t) => t.startsWith('LongAAAA'));
    expect(long, 'long name row').to.not.equal(undefined);
    expect(long!.length).to.be.within(100, 200);
    expect(long).to.not.include('END');
    // Bidi overrides and control characters are gone.
    const bidi = texts.find((t) => t.startsWith('Safe'));
    expect(bidi).to.equal('Safegnp.exeIso');
    expect(texts.some((t) => t.startsWith('Ctl'))).to.equal(true);
    for (const t of texts) {
      expect(BIDI.test(t), `bidi in ${t.slice(0, 40)}`).to.equal(false);
      expect(CONTROLS.test(t), `control in ${t.slice(0, 40)}`).to.equal(false);
    }
    // Structure: every name cell holds the tree view's twisty (our own glyph, text only), one <bdi> holding only
    // text, and the source label (text only); no markup made it into the panel.
    const dom = await panel.evaluate(() => ({
      nameCells: [...document.querySelectorAll('.tr:not([hidden]) .col-name')].map((c) =>
        c.childNodes.length === 3 && (c.children[0] as Element).className === 'twisty' && (c.children[1] as Element).tagName === 'BDI'
        && (c.children[2] as Element).className === 'src'
        && [...c.childNodes].every((e) => [...e.childNodes].every((n) => n.nodeType === 3))),
      foreign: document.querySelectorAll('img, svg, iframe, object, embed, a[href], i, b').length,
      scripts: [...document.scripts].map((s) => s.getAttribute('src')),
      // Everything that carries page-supplied text: names, the pinned title, the chain, keys; tooltips
      // may add up to 80 characters of the panel's own (" — key …" with the key capped at 60).
      longest: Math.max(...[...document.querySelectorAll('.col-name bdi, #pinned-name, .chain bdi, .pinned-key')].map((e) => e.textContent!.length),
        ...[...document.querySelectorAll('[title]')].map((e) => e.getAttribute('title')!.length - 80)),
      rowHeights: [...new Set([...document.querySelectorAll('.tr:not([hidden])')].map((r) => r.getBoundingClientRect().height))],
    }));
    expect(dom.nameCells.every(Boolean)).to.equal(true);
    expect(dom.foreign).to.equal(0);
    expect(dom.scripts).to.deep.equal(['panel.js']);
    expect(dom.longest).to.be.at.most(200);
    expect(dom.rowHeights).to.deep.equal([22]);
    // Filtering by markup finds the one row, as text.
    await panel.type('#filter', '<img');
    await waitForRows(panel, (r) => r.length === 1 && r[0].cells.name === names.img, 'filter by <img');
    await panel.$eval('#filter', (i) => { (i as HTMLInputElement).value = ''; i.dispatchEvent(new Event('input')); });
    // Pinning the long name: capped in the detail view and the chain too.
    const snap = await snapshot(page);
    const longC = snap.components.find((c) => c.name.startsWith('LongAAAA'))!;
    await waitFor(() => panel.$(rowSel(longC.id)), { what: 'long row' });
    await panel.click(rowSel(longC.id));
    await waitFor(async () => (await lc.state(page)).pinned === longC.id, { what: 'pinned long' });
    await waitFor(() => panel.$eval('#pinned-name', (n) => (n.textContent ?? '').startsWith('LongAAAA')), { what: 'pinned name' });
    expect((await panel.$eval('#pinned-name', (n) => n.textContent))!.length).to.be.at.most(200);
    // Nothing ran anywhere.
    const pwned = async (f: Page | Frame) => f.evaluate(() => (window as any).__pwned);
    expect(await pwned(page)).to.equal(undefined);
    expect(await pwned(panel)).to.equal(undefined);
    expect(await pwned(devtools)).to.equal(undefined);
    // The filter is remembered per site, and a clear made just before DevTools closes is too (written as the panel goes
    // away, not only when typing pauses: the 5 000-row test once opened on this site's '<img' filter).
    await panel.type('#filter', 'Long');
    const saved = (): Promise<string[]> => panel.evaluate(() => chrome.storage.local.get('filters').then((g: any) => Object.values(g.filters ?? {}) as string[]));
    await waitFor(async () => (await saved()).includes('Long'), { what: 'the filter saved' });
    await panel.$eval('#filter', (i) => { (i as HTMLInputElement).value = ''; i.dispatchEvent(new Event('input')); });
    await devtools.close();
    ({ devtools, panel } = await openPanel(h, page));
    await waitFor(() => panelState<boolean>(panel, 's.status !== null'), { what: 'the panel again, with the page\'s status' });
    await new Promise((r) => setTimeout(r, 500));
    expect(await saved(), 'written as the panel went away').to.not.include('Long');
    expect(await panel.$eval('#filter', (i) => (i as HTMLInputElement).value), 'the filter cleared before the close').to.equal('');
    await devtools.close();
    await page.close();
  });

  it('keeps 5 000 components smooth: only visible rows in the DOM, refreshed a few times a second', async () => {
    page = await h.newPage('panel-grid-r19-dev.html?n=5000');
    await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: 'fixture' });
    ({ devtools, panel } = await openPanel(h, page));
    await lc.enable(page);
    await waitFor(() => panelState<boolean>(panel, 's.table && s.table.rows.length >= 5002'), { what: '5 000 rows in the model', timeout: 20_000 });
    // Beside a CPU hog and two other test files the panel once painted no row in 10 s after its model held them all:
    // 20 s, and what the panel showed then if it still has not.
    await waitForRows(panel, (r) => r.length > 10, 'rows painted', 20_000).catch(async (e: Error) => {
      const seen = await panel.evaluate(() => {
        const sc = document.getElementById('table');
        return JSON.stringify({ visibility: document.visibilityState, height: sc?.clientHeight, rows: document.querySelectorAll('.tr').length,
          hidden: document.querySelectorAll('.tr[hidden]').length, count: sc?.getAttribute('aria-rowcount'), filter: (document.getElementById('filter') as HTMLInputElement | null)?.value,
          notice: document.querySelector('.notice')?.textContent });
      }).catch((x: Error) => x.message);
      throw new Error(`${e.message}; the panel: ${seen}`);
    });
    const inDom = await panel.$$eval('.tr', (r) => r.length);
    expect(inDom).to.be.below(100);
    // Scroll to the very end and back: the last row appears, the DOM stays small, each repaint is quick.
    const scrollTimes = () => panel.evaluate(async () => {
      // No named helpers in here: the test transpiler would wrap them in a __name() the panel lacks.
      const sc = document.getElementById('table')!;
      const times: number[] = [];
      for (const top of [sc.scrollHeight, 0, sc.scrollHeight / 2, sc.scrollHeight]) {
        const t = performance.now();
        sc.scrollTop = top;
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        times.push(performance.now() - t);
      }
      return { times, rows: document.querySelectorAll('.tr').length };
    });
    let timing = await scrollTimes();
    // Beside a CPU hog one repaint of four once took 356 ms (the other three 11–38): a slow sequence is scrolled once
    // more, and the second is held to the bound. A panel that is slow to repaint is slow twice.
    if (Math.max(...timing.times) >= 250) timing = await scrollTimes();
    expect(timing.rows).to.be.below(100);
    const total = await panelState<number>(panel, 'document.getElementById("table").getAttribute("aria-rowcount") - 1');
    // The rows follow the scroll on the list's next render: beside a hog and two other files the DOM once still held
    // an earlier position's rows (the last one 459) a frame after the scroll. Waited for; the repaint's time is above.
    let lastIndex = -1;
    await waitFor(async () => {
      const rows = await domRows(panel);
      lastIndex = rows.length > 0 ? rows[rows.length - 1].index : -1;
      return lastIndex === total - 1;
    }, { what: 'the last row after scrolling to the end', timeout: 10_000 }).catch(() => undefined);
    expect(lastIndex, 'the last row in the DOM after scrolling to the end').to.equal(total - 1);
    expect(Math.max(...timing.times), JSON.stringify(timing.times)).to.be.below(250);
    // Sorting 5 000 rows by name is quick too.
    const sortMs = await panel.evaluate(async () => {
      const t = performance.now();
      (document.querySelector('.th[data-sort="name"]') as HTMLElement).click();
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      return performance.now() - t;
    });
    expect(sortMs).to.be.below(500);
    // Refreshed a few times a second: at least once a second (a panel that stops refreshing fails here), at most
    // once per 250 ms (TABLE_MIN_INTERVAL_MS). Timed from one refresh to the sixth after it, so the window holds
    // six whole intervals whatever the phase: at the cap that is 1.5 s, at 1 a second 6 s.
    const renders = () => panelState<number>(panel, 's.tableRenders');
    const r0 = await renders();
    const r1 = await waitFor(async () => { const n = await renders(); return n > r0 ? n : null; }, { what: 'a table refresh', timeout: 2_000, interval: 10 });
    const t1 = Date.now();
    const r2 = await waitFor(async () => { const n = await renders(); return n >= r1 + 6 ? n : null; },
      { what: 'six more table refreshes within 6 s (one a second at least)', timeout: 6_000, interval: 10 });
    const ms = Date.now() - t1;
    console.log(`      ${r2 - r1} table refreshes in ${ms} ms`);
    expect((r2 - r1) / (ms / 1000), `${r2 - r1} refreshes in ${ms} ms`).to.be.within(1, 4.5);
    await devtools.close();
    await page.close();
  });
});
