/**
 * The overlay in real headless Chromium, read back from screenshot pixels:
 * meters at the corners the agent's bounds predict, colors following the
 * ramps, suppression under 40 px, the collapsed wrapper chain, the three
 * modes, pinning, Esc, Ctrl+Shift+L, clicks reaching the page, no Layout
 * events of its own, a nested scroller and 200 %. Fixture: overlay.html.
 */
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { DEFAULT_SETTINGS } from '../../src/overlay/settings';
import { pageAnchor } from '../../src/overlay/anchor';
import { MAX_METERS } from '../../src/overlay/cap';
import { BODY_WIDTH_PX, MS_CEILING } from '../../src/overlay/meter';
import { rampLevel, type Ramp } from '../../src/overlay/ramps';
import { launch, lc, waitFor, type Harness } from './harness';
import {
  anchorFor, at, blankAt, byName, comps, diffCount, frames, isAuthoredGrey, levelOf, meterAt, near, OUTLINE_ON_WHITE,
  PIN_RGB, setMode, shot, tailSample, TEXT_BG_ON_WHITE, until, WHITE, type Comp,
} from './overlay-pixels';
import type { Image } from './png';

describe('overlay (e2e)', function () {
  this.timeout(120_000);
  let h: Harness;
  let page: Page;
  let baseline: Image;

  before(async () => {
    h = await launch();
    page = await h.newPage('overlay.html');
    await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: 'fixture' });
    await frames(page, 3);
    baseline = await shot(page, 'overlay-off.png');
  });
  after(async () => h?.close());

  it('adds exactly one light-DOM element and moves nothing on the page', async () => {
    const before = await page.evaluate(() => ({
      count: document.querySelectorAll('*').length,
      big: JSON.stringify(document.getElementById('big')!.getBoundingClientRect()),
    }));
    await setMode(page, 'components');
    await waitFor(() => page.evaluate(() => document.querySelector('layout-cost-overlay') !== null), { what: 'host' });
    const after = await page.evaluate(() => ({
      count: document.querySelectorAll('*').length,
      big: JSON.stringify(document.getElementById('big')!.getBoundingClientRect()),
      last: document.documentElement.lastElementChild?.tagName,
    }));
    expect(after.count).to.equal(before.count + 1);
    expect(after.big).to.equal(before.big);
    expect(after.last).to.equal('LAYOUT-COST-OVERLAY');
  });

  it('draws the legend on first enable; Esc leaves it (and reaches the page); a click on it hides it for good', async () => {
    const legendAt = (img: Image): boolean => near(at(img, 14, 885), TEXT_BG_ON_WHITE, 10);
    await until(page, legendAt, 'legend', 5_000);
    await page.evaluate(() => {
      (window as any).__escSeen = 0;
      document.addEventListener('keydown', (e) => { if (e.key === 'Escape') (window as any).__escSeen++; }, true);
      (window as any).__clicksSeen = 0;
      document.addEventListener('click', () => (window as any).__clicksSeen++, true);
    });
    await page.keyboard.press('Escape');
    expect(await page.evaluate(() => (window as any).__escSeen)).to.equal(1);
    expect(legendAt(await shot(page))).to.equal(true);
    await page.mouse.click(20, 880);
    await until(page, (img) => !legendAt(img), 'legend gone');
    expect(await page.evaluate(() => (window as any).__clicksSeen)).to.equal(0);
    const w = await h.worker();
    expect(await w.evaluate(async () => (await chrome.storage.local.get('legendDismissed')).legendDismissed)).to.equal(true);
  });

  it('Components: a meter at the top-right of each shown subtree, outlined; none under 40 px', async () => {
    await waitFor(async () => (await byName(page, 'Edge40')).drawn, { what: 'meters drawn' });
    const all = await comps(page);
    const get = (n: string): Comp => all.find((c) => c.name === n)!;
    const drawn = all.filter((c) => c.drawn).map((c) => c.name).sort();
    expect(drawn).to.include.members(['App', 'Big', 'Yellow', 'Edge40', 'PanelC', 'Hot', 'Row']);
    expect(drawn).to.not.include('Tiny');
    expect(get('Tiny').bounds).to.deep.include({ width: 30, height: 30 }); // a candidate (bounds read), yet no meter
    const img = await until(page, (i) => all.filter((c) => c.drawn).every((c) => {
      const a = anchorFor(c.bounds!);
      return a !== null && meterAt(i, a.x, a.y);
    }), 'every drawn meter on screen');
    await shot(page, 'overlay-components-100.png');
    expect(blankAt(img, 720 + 30 - 36, 44)).to.equal(true); // Tiny's corner
    expect(meterAt(img, 780 + 40 - 36, 44)).to.equal(true); // Edge40: exactly 40 px is enough
    // A crisp 1 px outline on Big's left edge: one device pixel of outline, white on both sides.
    expect(near(at(img, 40, 200), OUTLINE_ON_WHITE)).to.equal(true);
    expect(near(at(img, 39, 200), WHITE, 2) && near(at(img, 41, 200), WHITE, 2)).to.equal(true);
  });

  it('Components: the wrapper chain ProviderA → ShellB → PanelC shares one box and draws one meter', async () => {
    const all = await comps(page);
    const [a, b, c] = ['ProviderA', 'ShellB', 'PanelC'].map((n) => all.find((x) => x.name === n)!);
    expect([a.drawn, b.drawn, c.drawn]).to.deep.equal([false, false, true]);
    expect(a.bounds).to.deep.equal(c.bounds);
    const img = await shot(page);
    expect(meterAt(img, 440 - 36, 404)).to.equal(true);
  });

  it('bars: the element bar is grey up to authored and colored by the inflation ramp', async () => {
    const w = await h.worker();
    await w.evaluate((s) => chrome.storage.local.set({ settings: s }), { ...DEFAULT_SETTINGS, meterStyle: 'bars' });
    const all = await comps(page);
    const cases = ['Big', 'Yellow', 'Row', 'Hot'].map((n) => all.find((c) => c.name === n && c.drawn)!);
    const img = await until(page, (i) => {
      const big = cases[0], s = tailSample(anchorFor(big.bounds!)!.x, anchorFor(big.bounds!)!.y, big.authored, big.rendered);
      return levelOf(at(i, s.tail[0], s.tail[1])) >= 0;
    }, 'bars drawn');
    await shot(page, 'overlay-components-bars-100.png');
    for (const c of cases) {
      const a = anchorFor(c.bounds!)!;
      const ratio = c.rendered / Math.max(c.authored, 1);
      const s = tailSample(a.x, a.y, c.authored, c.rendered);
      if (s.grey) expect(isAuthoredGrey(at(img, s.grey[0], s.grey[1])), `${c.name} grey`).to.equal(true);
      if (ratio > 1.05) expect(levelOf(at(img, s.tail[0], s.tail[1])), `${c.name} ${ratio}×`).to.equal(rampLevel(ratio, DEFAULT_SETTINGS.inflationRamp));
    }
    // Big 60× red, Yellow 5.5× yellow, Row 19× orange: the fixture spans the ramp.
    expect(cases.slice(0, 3).map((c) => rampLevel(c.rendered / c.authored, DEFAULT_SETTINGS.inflationRamp))).to.deep.equal([3, 1, 2]);
  });

  it('bars: the top bar follows the layout-ms ramp of a component doing real layout work', async function () {
    // Up to 7 screenshot watches, each given 40 s on a loaded machine (usually a second or two).
    this.timeout(360_000);
    await page.evaluate(() => (window as any).__hot(true));
    await waitFor(async () => (await byName(page, 'Hot')).layoutMs > 1, { what: 'Hot measured', timeout: 20_000 });
    const a = anchorFor((await byName(page, 'Hot')).bounds!)!;
    // Hot's EMA swings by 2–3× between frames and by far more between runs (1 ms here, 25 ms there), so an EMA
    // read before or after a screenshot is not the value that frame drew. That value is in the same pixels as
    // the color: the top bar is round(28 × ms / 33) px long. Each frame's color is checked against the ramp
    // steps its bar length allows — exactly one wherever a threshold sits on a pixel-rounding edge.
    const bar = (img: Image): { level: number; w: number } | null => {
      const level = levelOf(at(img, a.x + 2, a.y + 3));
      if (level < 0) return null; // under 0.6 ms: no bar
      let w = 1;
      while (w < BODY_WIDTH_PX && levelOf(at(img, a.x + 2 + w, a.y + 3)) === level) w++;
      return { level, w };
    };
    const pxMs = MS_CEILING / BODY_WIDTH_PX;
    const allowed = (w: number, ramp: Ramp): number[] => {
      const from = rampLevel((w - 0.5) * pxMs + 1e-9, ramp), to = w >= BODY_WIDTH_PX ? 3 : rampLevel((w + 0.5) * pxMs - 1e-9, ramp);
      return Array.from({ length: to - from + 1 }, (_, i) => from + i);
    };
    /** A ramp whose thresholds are the rounding edges after bar lengths c0 ≤ c1 ≤ c2 px: a length has one step. */
    const cutRamp = (c: [number, number, number]): Ramp => c.map((k) => (k + 0.5) * pxMs) as unknown as Ramp;
    const show = (r: Ramp): string => `[${r.map((x) => x.toFixed(2)).join(', ')}] ms`;
    const log: string[] = [];
    /** Screenshots until `done` holds for a bar; every bar seen must be colored as `ok` allows (frames still drawn with the previous ramp, too). */
    const watch = async (ok: (b: { level: number; w: number }) => boolean, done: (b: { level: number; w: number }) => boolean, what: string): Promise<void> => {
      let wrong: string | null = null;
      await until(page, (img) => {
        const b = bar(img);
        if (b === null) return false;
        log.push(`${b.w}px:${b.level}`);
        if (!ok(b)) wrong = `a ${b.w} px bar (${((b.w - 0.5) * pxMs).toFixed(2)}–${((b.w + 0.5) * pxMs).toFixed(2)} ms) drawn in level ${b.level}`;
        return wrong !== null || done(b);
      }, what, 40_000).catch((e: Error) => { throw new Error(`${e.message}; bars so far (px:level) ${log.join(' ')}`); });
      if (wrong !== null) throw new Error(`${what}: ${wrong}; bars so far (px:level) ${log.join(' ')}`);
    };

    // The default ramp, on a few frames: each length must have the color the ramp gives it.
    const def = DEFAULT_SETTINGS.msRamp;
    const widths: number[] = [];
    // Full bars (33 ms or more: a loaded machine makes Hot that slow for a while) say nothing of the length: wait for
    // 8 frames of which at least 4 are shorter.
    await watch((b) => allowed(b.w, def).includes(b.level), (b) => {
      widths.push(b.w);
      return widths.length >= 8 && widths.filter((x) => x < BODY_WIDTH_PX).length >= 4;
    }, `bars in the default ramp ${show(def)}`);
    // Then one ramp per step that puts every bar shorter than full in that one step (thresholds on the rounding edges
    // after 0 px or before 28 px): the color must move to each step in turn, whatever Hot costs by then. Ramps cut
    // inside the band of lengths just seen were missed for 40 s when Hot's cost halved between the two phases (CI,
    // 15–27 px bars, then 7–9 px); the default ramp's frames above already check that the length decides the color.
    const top = BODY_WIDTH_PX;
    const cuts: [number, number, number][] = [[top, top, top], [0, top, top], [0, 0, top], [0, 0, 0]];
    // Start two steps from what the default ramp drew, then go round: each step differs from the one before.
    const first = (Math.max(...widths.map((w) => Math.max(...allowed(w, def)))) + 2) % 4;
    const w = await h.worker();
    let prev: Ramp = def;
    try {
      // Three ramps, each a step off the one before: enough to show the colour follows the ramp the settings give and not
      // the one before; every step of four took 8–17 s of the suite's serial lane (rampLevel's steps are unit-tested).
      for (const level of [first, (first + 2) % 4, (first + 3) % 4]) {
        const ramp = cutRamp(cuts[level]);
        const what = `level ${level} in ${show(ramp)}`;
        await w.evaluate((st) => chrome.storage.local.set({ settings: st }), { ...DEFAULT_SETTINGS, meterStyle: 'bars', msRamp: ramp as [number, number, number] });
        // Until a bar only the new ramp explains (the settings reach the page a few frames later)…
        const before = prev;
        await watch((b) => allowed(b.w, ramp).includes(b.level) || allowed(b.w, before).includes(b.level),
          (b) => b.level === level && allowed(b.w, ramp).includes(b.level) && !allowed(b.w, before).includes(b.level), what);
        // …then every later bar follows it alone.
        let more = 0;
        await watch((b) => allowed(b.w, ramp).includes(b.level), () => ++more >= 2, `${what}, after the switch`);
        prev = ramp;
      }
      await shot(page, 'overlay-components-bars-hot-100.png');
    } finally {
      await w.evaluate((st) => chrome.storage.local.set({ settings: st }), { ...DEFAULT_SETTINGS, meterStyle: 'bars' });
    }
  });

  it('sparkline (default): the hot component’s history is drawn in ramp colors', async () => {
    const w = await h.worker();
    await w.evaluate((s) => chrome.storage.local.set({ settings: s }), { ...DEFAULT_SETTINGS });
    const a = anchorFor((await byName(page, 'Hot')).bounds!)!;
    const img = await until(page, (i) => {
      for (let x = a.x + 2; x < a.x + 30; x++) if (levelOf(at(i, x, a.y + 9)) >= 0) return true; // the sparkline's bottom row
      return false;
    }, 'sparkline columns');
    await shot(page, 'overlay-components-hot-100.png');
    const spark = (await byName(page, 'Hot')).sparkline;
    expect(Math.max(...spark)).to.be.greaterThan(0);
    expect(meterAt(img, a.x, a.y)).to.equal(true);
  });

  it('Components and Heatmap: every click reaches the page', async () => {
    await page.evaluate(() => (window as any).__hot(false));
    const clicks = (): Promise<number> => page.evaluate(() => (window as any).__clicks ?? 0);
    const n0 = await clicks();
    await page.click('#clicker');
    await setMode(page, 'heatmap');
    await page.click('#clicker');
    expect(await clicks()).to.equal(n0 + 2);
  });

  it('Heatmap: at most 10 meters, the hot subtree among them, at any depth', async () => {
    await page.evaluate(() => (window as any).__hot(true));
    try {
      await waitFor(async () => (await byName(page, 'Hot')).drawn, { what: 'Hot in the heatmap', timeout: 20_000 });
      const all = await comps(page);
      const drawn = all.filter((c) => c.drawn).map((c) => c.name);
      expect(drawn.length).to.be.at.most(10);
      expect(drawn).to.include.members(['Hot', 'Big', 'PanelC']); // red layout ms; red inflation at depth 1 and 3
      // Only what is visible competes: rows scrolled out of the nested scroller have no box.
      expect(all.filter((c) => c.drawn).every((c) => c.bounds !== null)).to.equal(true);
      const hot = anchorFor(all.find((c) => c.name === 'Hot')!.bounds!)!;
      await until(page, (i) => meterAt(i, hot.x, hot.y), 'Hot meter');
      await shot(page, 'overlay-heatmap-100.png');
    } finally {
      await page.evaluate(() => (window as any).__hot(false));
    }
  });

  it('Heatmap: the <page> bucket gets a labelled meter when layout no component owns is hot', async () => {
    await page.evaluate(() => (window as any).__pageHot(true));
    try {
      const p = pageAnchor({ width: 1280, height: 900, dpr: 1 });
      await until(page, (i) => meterAt(i, p.x, p.y) && near(at(i, p.x - 4, p.y + 7), TEXT_BG_ON_WHITE, 12), '<page> meter and label', 20_000);
      await shot(page, 'overlay-heatmap-page-100.png');
      expect((await comps(page)).filter((c) => c.drawn).length).to.be.at.most(9); // + <page> = 10
    } finally {
      await page.evaluate(() => (window as any).__pageHot(false));
    }
  });

  it('Inspect: draws nothing until hover, then only that component', async () => {
    await page.mouse.move(700, 320); // over nothing but App, before Inspect starts listening
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await setMode(page, 'inspect');
    const img = await until(page, (i) => diffCount(i, baseline) === 0, 'canvas identical to overlay off');
    expect(diffCount(img, baseline)).to.equal(0);
    await page.mouse.move(240, 190);
    const big = anchorFor((await byName(page, 'Big')).bounds!)!;
    const hovered = await until(page, (i) => meterAt(i, big.x, big.y), 'Big on hover');
    await shot(page, 'overlay-inspect-100.png');
    expect(blankAt(hovered, 680 - 36, 44)).to.equal(true); // Yellow: not hovered, not drawn
    expect((await comps(page)).filter((c) => c.drawn).map((c) => c.name)).to.deep.equal(['Big']);
  });

  it('Inspect: click pins without reaching the page, click again unpins, Esc unpins; other clicks pass', async () => {
    const clicks = (): Promise<number> => page.evaluate(() => (window as any).__clicks ?? 0);
    const n0 = await clicks();
    const clicker = await byName(page, 'Clicker');
    await page.mouse.move(580, 230);
    await waitFor(async () => (await byName(page, 'Clicker')).drawn, { what: 'Clicker hovered' });
    await page.mouse.click(580, 230);
    await waitFor(async () => (await lc.state(page)).pinned === clicker.id, { what: 'pinned' });
    const pinned = await until(page, (i) => near(at(i, 480, 230), PIN_RGB, 10), 'pin outline');
    await shot(page, 'overlay-inspect-pinned-100.png');
    expect(meterAt(pinned, 680 - 36, 204)).to.equal(true);
    await page.mouse.click(580, 230);
    await waitFor(async () => (await lc.state(page)).pinned === null, { what: 'unpinned by click' });
    await page.mouse.click(580, 230);
    await waitFor(async () => (await lc.state(page)).pinned === clicker.id, { what: 'pinned again' });
    await page.keyboard.press('Escape');
    await waitFor(async () => (await lc.state(page)).pinned === null, { what: 'unpinned by Esc' });
    expect(await clicks()).to.equal(n0);
    await page.mouse.move(950, 420);
    await page.mouse.click(950, 420); // #plain is not React's: nothing to pin, the page gets it
    expect(await page.evaluate(() => (window as any).__plainClicks)).to.equal(1);
    expect((await lc.state(page)).pinned).to.equal(null);
  });

  it('Ctrl+Shift+L by real key presses cycles Off → Components → Heatmap → Inspect → Off, naming each mode', async () => {
    await setMode(page, 'off');
    const captionAt = (img: Image): boolean => near(at(img, 640, 14), TEXT_BG_ON_WHITE, 12);
    let pressed = 0;
    for (const mode of ['components', 'heatmap', 'inspect', 'off']) {
      // The worker folds presses closer than 150 ms into one (one press, one step): stay outside that window.
      await waitFor(() => Date.now() - pressed > 200, { what: 'the de-duplication window', interval: 20 });
      pressed = Date.now();
      await page.keyboard.down('Control');
      await page.keyboard.down('Shift');
      await page.keyboard.press('KeyL');
      await page.keyboard.up('Shift');
      await page.keyboard.up('Control');
      await waitFor(async () => (await lc.state(page)).mode === mode, { what: `mode ${mode} by key` });
      if (mode !== 'off') await until(page, captionAt, `caption for ${mode}`, 3_000);
    }
    expect(await page.evaluate(() => document.querySelector('layout-cost-overlay'))).to.equal(null);
  });

  it('adds no Layout events of its own while it draws (trace)', async () => {
    const layouts = async (): Promise<number> => {
      await page.tracing.start({ categories: ['devtools.timeline'] });
      await frames(page, 60); // ≥ 1 s at 60 Hz: five idle-ticker flushes or more
      const raw = await page.tracing.stop();
      const trace = JSON.parse(Buffer.from(raw ?? new Uint8Array()).toString('utf8')) as { traceEvents: { name: string }[] };
      return trace.traceEvents.filter((e) => e.name === 'Layout').length;
    };
    const off = await layouts();
    await setMode(page, 'components');
    await until(page, (i) => meterAt(i, 440 - 36, 44), 'meters back');
    const on = await layouts();
    expect(on, `Layout events: ${off} off, ${on} on`).to.be.at.most(off);
  });

  it('follows a nested scroller, and clips what it scrolled out of view', async () => {
    const box = await page.evaluate(() => {
      const r = document.getElementById('scroller')!.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom };
    });
    const rows = (await comps(page)).filter((c) => c.name === 'Row' && c.bounds).sort((a, b) => a.bounds!.y - b.bounds!.y);
    // A row that is still wholly inside the scroller after scrolling by 100 px.
    const row = rows.find((r) => r.bounds!.y - 100 >= box.top && r.bounds!.y + r.bounds!.height - 100 <= box.bottom)!;
    const first = rows[0];
    const y0 = row.bounds!.y;
    await page.evaluate(() => {
      document.getElementById('scroller')!.scrollTop = 100;
    });
    await waitFor(async () => (await comps(page)).find((c) => c.id === row.id)!.bounds?.y === y0 - 100, { what: 'bounds after scroll' });
    // The first row went above the scroller's top edge: clipped away or cut at the edge.
    const clipped = (await comps(page)).find((c) => c.id === first.id)!.bounds;
    expect(clipped === null || clipped.y >= box.top - 0.5).to.equal(true);
    const a = anchorFor({ ...row.bounds!, y: y0 - 100 })!;
    const img = await until(page, (i) => meterAt(i, a.x, a.y), 'meter moved with the row');
    expect(blankAt(img, a.x, a.y + 100)).to.equal(true);
  });

  it('caps what it draws, largest first, and says so in state()', async () => {
    await page.evaluate((n) => (window as any).__many(n), MAX_METERS + 100);
    await waitFor(async () => (await lc.state(page)).capped === true, { what: 'capped', timeout: 20_000 });
    const drawn = (await comps(page)).filter((c) => c.drawn);
    expect(drawn.length).to.be.at.most(MAX_METERS);
    await page.evaluate(() => (window as any).__many(0));
    await waitFor(async () => (await lc.state(page)).capped === false, { what: 'not capped', timeout: 20_000 });
  });

  it('mirrors meters to the top-left corner on a right-to-left page', async () => {
    const big = (await byName(page, 'Big')).bounds!;
    await page.evaluate(() => document.documentElement.setAttribute('dir', 'rtl'));
    try {
      const img = await until(page, (i) => meterAt(i, big.x + 4, big.y + 4), 'meter at the top-left');
      expect(blankAt(img, big.x + big.width - 36, big.y + 4)).to.equal(true);
    } finally {
      await page.evaluate(() => document.documentElement.removeAttribute('dir'));
    }
    await until(page, (i) => meterAt(i, big.x + big.width - 36, big.y + 4), 'back at the top-right');
  });

  it('at 200 %: the backing store doubles, meters stay at their corners, lines stay crisp', async () => {
    await page.setViewport({ width: 1280, height: 900, deviceScaleFactor: 2 });
    const big = anchorFor((await byName(page, 'Big')).bounds!)!;
    const img = await until(page, (i) => i.width === 2560 && meterAt(i, big.x, big.y, 2), 'meters at 2x');
    await shot(page, 'overlay-components-200.png');
    // Big's outline: exactly two device pixels wide, white on both sides.
    expect(near(at(img, 40, 200, 2), OUTLINE_ON_WHITE) && near(at(img, 40.5, 200, 2), OUTLINE_ON_WHITE)).to.equal(true);
    expect(near(at(img, 39.5, 200, 2), WHITE, 2) && near(at(img, 41, 200, 2), WHITE, 2)).to.equal(true);
    for (const mode of ['heatmap', 'inspect']) {
      await setMode(page, mode);
      if (mode === 'inspect') await page.mouse.move(240, 190);
      await frames(page, 10);
      await shot(page, `overlay-${mode}-200.png`);
    }
    await page.setViewport({ width: 1280, height: 900, deviceScaleFactor: 1 });
  });

  it('at browser zoom 200 %: meters are placed in the zoomed viewport', async () => {
    // A zoom leaves the host's size in device px as it was, so its observer is not told; the canvas' CSS size must
    // still halve (canvas-size.ts), else meters are placed for a 1280 px wide viewport in a 640 px one. Puppeteer's
    // screenshots do not show a zoomed tab here: the placement is read from the snapshot.
    const w = await h.worker();
    const zoom = (z: number): Promise<void> => w.evaluate(async (factor) => {
      const [t] = await chrome.tabs.query({ url: '*://*/overlay.html' });
      await chrome.tabs.setZoom(t.id!, factor);
    }, z);
    const rightmost = async (): Promise<number> => Math.max(...(await comps(page)).filter((c) => c.meterAt).map((c) => c.meterAt!.x));
    await setMode(page, 'components');
    const before = await waitFor(async () => {
      const x = await rightmost();
      return x > 640 ? x : null;
    }, { what: 'a meter right of 640 px' });
    await zoom(2);
    try {
      await waitFor(() => page.evaluate(() => devicePixelRatio === 2 && innerWidth === 640), { what: 'zoomed' });
      // Every meter inside the 640 px viewport, the rightmost at its right edge.
      await waitFor(async () => {
        const x = await rightmost();
        return x + 32 <= 640 && x > 640 - 80;
      }, { what: 'meters in the zoomed viewport' });
    } finally {
      await zoom(1);
    }
    await waitFor(() => page.evaluate(() => devicePixelRatio === 1), { what: 'zoom back' });
    await waitFor(async () => (await rightmost()) === before, { what: 'meters back' });
  });
});
