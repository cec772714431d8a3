/**
 * Containment experiments end to end (docs/DIAGNOSE.md), on a fixture where
 * containment helps (a fixed-size ticker in a 1 500-row table) and one where
 * it changes rendering (a box whose height comes from its content). The
 * experiment's per-frame figures are checked against Chrome's own trace
 * (UpdateLayoutTree + Layout within the experiment's own blocks), and the
 * page must be left exactly as it was.
 */
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { DIST_ALL_SITES, launch, lc, openPanel, waitFor, type Harness } from './harness';
import { enableAndFind, log, offCpuWithin, one, openFixture, snap, styleLayoutWithin, traced, type TraceEvent } from './timing-helpers';

interface Figures { frames: number; styleMs: number; layoutMs: number; forcedMs: number; medianMs: number }
interface Result {
  id: number; name: string; css: string; selector: string; before: Figures; after: Figures; speedup: number | null;
  spread: number; boundary: string | null; boxesCompared: number; boxesChanged: number; pixelsCompared: number; pixelsChanged: number | null;
  verdict: string; reason: string; blocks: { applied: boolean; start: number; end: number; frames: number }[];
}

const total = (f: Figures): number => f.styleMs + f.layoutMs + f.forcedMs;

/** Runs an experiment while the fixture drives `which`; resolves to the result or `{ error }`. */
async function experiment(page: Page, which: string | null, id: number, css: string, frames?: number): Promise<Result & { error?: string }> {
  if (which) await page.evaluate((w) => (window as any).__work.start(w), which);
  try {
    return await page.evaluate((i, c, f) => (window as any).__LAYOUT_COST__.experiment(i, { css: c, frames: f })
      .catch((e: Error) => ({ error: e.message })), id, css, frames);
  } finally {
    await page.evaluate(() => (window as any).__work.stop());
  }
}

/** The page's DOM shape (every element's tag and attribute names, in order) and its own styles. */
function pageShape(page: Page): Promise<string> {
  return page.evaluate(() => {
    const parts: string[] = [];
    for (const el of Array.from(document.querySelectorAll('*'))) {
      if (el.localName === 'layout-cost-overlay') continue;
      // Grow's lines are the page's own doing (1–4 of them, changing each tick).
      if (el.parentElement?.id === 'grow') continue;
      parts.push(`${el.localName}[${Array.from(el.attributes).map((a) => a.name).join(',')}]`);
    }
    const own = (window as any).__ownSheet as CSSStyleSheet;
    const sheets = document.adoptedStyleSheets;
    return `${parts.join(' ')} | adopted ${sheets.length} ${sheets[0] === own} ${Array.from(own.cssRules).map((r) => r.cssText).join(' ')}`
      + ` | scroll ${window.scrollX},${window.scrollY}`;
  });
}

describe('containment experiments (e2e)', function () {
  this.timeout(240_000);
  let h: Harness;
  let page: Page;
  let ticker: number;
  let grow: number;
  before(async () => {
    h = await launch();
    page = await openFixture(h, 'experiment-r19.html');
    await enableAndFind(page, 'Ticker');
    const s = await snap(page);
    ticker = one(s, 'Ticker').id;
    grow = one(s, 'Grow').id;
    // Warm up: JIT and the table's first layouts.
    await page.evaluate(() => (window as any).__work.start('ticker'));
    await new Promise((r) => setTimeout(r, 1500));
    await page.evaluate(() => (window as any).__work.stop());
  });
  after(async () => h?.close());

  it('contain: layout on the ticker is faster, by what Chrome\'s trace measures over the same blocks', async () => {
    await page.evaluate(() => window.scrollTo(0, 12));
    const shape = await pageShape(page);
    let r: (Result & { error?: string }) | null = null;
    let ref: { perf: number } | null = null;
    const events: TraceEvent[] = await traced(page, async () => {
      ref = await page.evaluate(() => ({ perf: performance.mark('lc-exp-ref').startTime }));
      r = await experiment(page, 'ticker', ticker, 'contain: layout');
    });
    const res = r as unknown as Result & { error?: string };
    expect(res.error, res.error).to.equal(undefined);
    // performance.now() → trace µs, through the mark.
    const mark = events.find((e) => e.name === 'lc-exp-ref' && e.cat.includes('user_timing'));
    expect(mark, 'the reference mark in the trace').to.not.equal(undefined);
    const toTrace = (ms: number): number => mark!.ts + (ms - (ref as unknown as { perf: number }).perf) * 1000;
    const truth = { before: 0, after: 0 };
    const offCpu = { before: 0, after: 0 };
    for (const b of res.blocks) {
      const w = { pid: mark!.pid, tid: mark!.tid, from: toTrace(b.start), to: toTrace(b.end) };
      const t = styleLayoutWithin(events, w);
      truth[b.applied ? 'after' : 'before'] += t.styleMs + t.layoutMs;
      offCpu[b.applied ? 'after' : 'before'] += offCpuWithin(events, w);
    }
    const traceBefore = truth.before / res.before.frames, traceAfter = truth.after / res.after.frames;
    const offBefore = offCpu.before / res.before.frames, offAfter = offCpu.after / res.after.frames;
    log(`experiment ${res.css} on ${res.name}: ours ${total(res.before).toFixed(2)} → ${total(res.after).toFixed(2)} ms/frame`
      + ` (${res.before.frames} + ${res.after.frames} frames, ×${res.speedup?.toFixed(1)}), trace ${traceBefore.toFixed(2)} →`
      + ` ${traceAfter.toFixed(2)}; ${res.verdict}: ${res.reason}; selector ${res.selector}; pixels ${res.pixelsChanged} of`
      + ` ${res.pixelsCompared} changed; main thread off the CPU in its tasks ${offBefore.toFixed(2)} / ${offAfter.toFixed(2)} ms a frame`);
    expect(res.name).to.equal('Ticker');
    expect(res.verdict).to.equal('faster');
    expect(res.boxesChanged).to.equal(0);
    // From the page's own script: no screenshots (only the panel's experiments compare pixels), and it says so.
    expect(res.pixelsChanged).to.equal(null);
    expect(res.reason).to.include('pixels not compared: they are compared for experiments started in the DevTools panel only');
    expect(res.selector).to.equal('#ticker');
    expect(res.before.frames).to.be.at.least(25);
    expect(res.after.frames).to.be.at.least(25);
    // Our figure times the whole flushing call, at the page's 0.1 ms clock; the trace's Layout event leaves out Blink's
    // post-layout steps (≈ 0.1 ms a frame here): 0.1–0.15 ms apart on a quiet machine. Beside a CPU hog the OS
    // deschedules the renderer, and a preemption between our two reads but outside the trace's events lands in ours
    // only (0.55 and 1.10 ms a frame seen): each side is allowed, on top, the time the trace shows the main thread off
    // the CPU inside its tasks in that side's blocks (docs/DIAGNOSE.md). So each side is held to 10 % plus 0.5 ms a
    // frame plus that above the trace, and to 10 % plus 0.5 ms below it (a preemption never makes ours smaller); a
    // block given to the wrong side would move its side's mean by several ms.
    expect(total(res.before) - traceBefore).to.be.below(0.1 * traceBefore + 0.5 + offBefore);
    expect(traceBefore - total(res.before)).to.be.below(0.1 * traceBefore + 0.5);
    // The after side is small (≈ 0.4 ms a frame): within 10 % or 0.5 ms, plus its time off the CPU above the trace.
    expect(total(res.after) - traceAfter).to.be.below(Math.max(0.1 * traceAfter, 0.5) + offAfter);
    expect(traceAfter - total(res.after)).to.be.below(Math.max(0.1 * traceAfter, 0.5));
    expect(traceBefore / traceAfter, 'the trace confirms the speedup').to.be.greaterThan(3);
    expect(res.speedup!).to.be.greaterThan(3);
    // The page is as it was: no attribute, the page's own adopted sheet alone and unchanged, the scroll position.
    expect(await pageShape(page)).to.equal(shape);
  });

  it('contain: size on a box whose height comes from its content changes rendering, and is never called faster', async () => {
    // At the top: scrolled down, Grow's own height changes would move the scroll position (scroll anchoring).
    await page.evaluate(() => window.scrollTo(0, 0));
    const shape = await pageShape(page);
    const r = await experiment(page, 'grow', grow, 'contain: size');
    log(`experiment ${r.css} on ${r.name}: ${r.verdict} (${r.boxesChanged} of ${r.boxesCompared} boxes): ${r.reason}`);
    expect(r.error, r.error).to.equal(undefined);
    expect(r.verdict).to.equal('changes-rendering');
    expect(r.boxesChanged).to.be.at.least(1);
    expect(await pageShape(page)).to.equal(shape);
  });

  it('what dirtied the pinned component: kind, element and source, per frame as the page itself counts them', async () => {
    // The page's own count of DOM changes under an element, per tick (an observer of its own: the truth from outside).
    const watchFrom = (sel: string) => page.evaluate((s) => {
      const w = window as any;
      w.__changes = 0;
      w.__ticks0 = w.__work.ticks;
      w.__truth?.disconnect();
      w.__truth = new MutationObserver((rs) => { w.__changes += rs.filter((r) => r.attributeName !== 'data-layout-cost-experiment').length; });
      w.__truth.observe(document.querySelector(s)!, { subtree: true, attributes: true, characterData: true, childList: true });
    }, sel);
    const truthPerTick = () => page.evaluate(() => {
      const w = window as any;
      return w.__changes / Math.max(1, w.__work.ticks - w.__ticks0);
    });
    const dirtied = async (id: number) => (await snap(page)).components.find((c) => c.id === id)!.dirtiedBy;
    const imperative = one(await snap(page), 'Imperative').id;

    await lc.pin(page, ticker);
    await watchFrom('#ticker');
    await page.evaluate(() => (window as any).__work.start('ticker'));
    const fromReact = await waitFor(async () => {
      const d = await dirtied(ticker);
      return d.length > 0 && d[0].perFrame > 0.8 ? d : null;
    }, { timeout: 30_000, what: 'the ticker\'s changes' });
    await page.evaluate(() => (window as any).__work.stop());
    const truthTicker = await truthPerTick();
    log(`dirtied Ticker: ${JSON.stringify(fromReact)}; the page counted ${truthTicker.toFixed(2)} changes per tick`);
    expect(fromReact[0]).to.include({ kind: 'text', source: 'react', on: 'span' });
    expect(fromReact[0].perFrame).to.be.closeTo(truthTicker, 0.25 * truthTicker);

    await lc.pin(page, imperative);
    await watchFrom('#imperative');
    await page.evaluate(() => (window as any).__work.start('imperative'));
    const fromOther = await waitFor(async () => {
      const d = await dirtied(imperative);
      return d.length >= 2 && d.every((x) => x.perFrame > 0.8) ? d : null;
    }, { timeout: 30_000, what: 'Imperative\'s changes' });
    await page.evaluate(() => (window as any).__work.stop());
    const truthImp = await truthPerTick();
    log(`dirtied Imperative: ${JSON.stringify(fromOther)}; the page counted ${truthImp.toFixed(2)} changes per tick`);
    const attr = fromOther.find((x) => x.kind === 'attribute');
    const text = fromOther.find((x) => x.kind === 'text');
    expect(attr).to.include({ name: 'data-n', on: 'div', source: 'other' });
    expect(text).to.include({ on: 'b', source: 'other' });
    expect(attr!.perFrame + text!.perFrame).to.be.closeTo(truthImp, 0.25 * truthImp);
    // Only the pinned component is tracked: the ticker's list is gone.
    expect(await dirtied(ticker)).to.deep.equal([]);
    await lc.pin(page, null);
    await page.evaluate(() => (window as any).__truth.disconnect());
  });

  it('an idle page gives no verdict but inconclusive; nothing runs unless asked', async () => {
    // Watch every attribute change for a while with the overlay on and the ticker running: none of ours.
    await page.evaluate(() => {
      const w = window as any;
      w.__expAttrs = 0;
      w.__expObserver = new MutationObserver((rs) => {
        for (const r of rs) if (r.attributeName === 'data-layout-cost-experiment') w.__expAttrs++;
      });
      w.__expObserver.observe(document, { attributes: true, subtree: true });
      w.__work.start('ticker');
    });
    const f0 = (await snap(page)).frames.count;
    await waitFor(async () => (await snap(page)).frames.count >= f0 + 60, { timeout: 60_000, what: '60 frames' });
    await page.evaluate(() => (window as any).__work.stop());
    expect(await page.evaluate(() => (window as any).__expAttrs)).to.equal(0);
    const r = await experiment(page, null, ticker, 'contain: layout', 20);
    const seen = await page.evaluate(() => {
      (window as any).__expObserver.disconnect();
      return (window as any).__expAttrs as number;
    });
    log(`idle: ${r.verdict}: ${r.reason}; attribute changes seen ${seen}`);
    expect(r.verdict).to.equal('inconclusive');
    // Asked once: set on the one top host, then removed (the test can fail: the observer really sees ours).
    expect(seen).to.equal(2);
  });

  it('refuses what it must not run: CSS that could escape its rule, an unknown component, the overlay off', async () => {
    const escape = await experiment(page, null, ticker, 'color: red } body { display: none');
    expect(escape.error).to.match(/not a valid experiment/);
    const atRule = await experiment(page, null, ticker, '@import url(x)');
    expect(atRule.error).to.match(/not a valid experiment/);
    const unknown = await experiment(page, null, 999_999, 'contain: layout');
    expect(unknown.error).to.match(/not mounted/);
    await lc.disable(page);
    await waitFor(async () => (await lc.state(page)).mode === 'off', { what: 'off' });
    const off = await experiment(page, null, ticker, 'contain: layout');
    expect(off.error).to.match(/overlay is off/);
  });
});

describe('containment experiments in the panel (e2e)', function () {
  this.timeout(480_000);
  let h: Harness;
  after(async () => h?.close());

  it('Try on the pinned component measures on the live page and offers the rule to copy', async () => {
    // The automation build: the pixel comparison's screenshots need <all_urls> (or an activeTab grant from a press of
    // the toolbar button, which nothing over CDP can make), which the store build holds only with "On all sites".
    h = await launch({ extension: DIST_ALL_SITES });
    const page = await openFixture(h, 'experiment-r19.html');
    await enableAndFind(page, 'Ticker');
    const ticker = one(await snap(page), 'Ticker').id;
    const { panel, devtools } = await openPanel(h, page);
    try {
      await lc.pin(page, ticker);
      await waitFor(() => panel.$('#pinned .experiment[data-css="contain: layout"] button.try'), { timeout: 20_000, what: 'the Try button' });
      await page.evaluate(() => (window as any).__work.start('ticker'));
      // How far it spreads: the ticker is one <span>; several ms of layout per frame when only it changed is the table.
      const spread = await waitFor(() => panel.evaluate(() => {
        const t = document.querySelector('#pinned .spread')?.textContent ?? '';
        return /frames in which only it changed/.test(t) ? t : null;
      }), { timeout: 30_000, what: 'the spread line' });
      log(`panel: ${spread}`);
      expect(spread).to.match(/^Not a layout boundary/);
      expect(Number(/laid out ([\d.]+) ms per frame/.exec(spread!)?.[1])).to.be.greaterThan(2);
      // A DOM click (puppeteer's mouse lands off target in the DevTools-hosted frame here).
      await panel.evaluate(() => (document.querySelector('#pinned .experiment[data-css="contain: layout"] button.try') as HTMLButtonElement).click());
      const status = await waitFor(() => panel.evaluate(() => {
        const row = document.querySelector('#pinned .experiment[data-css="contain: layout"]');
        return row && row.classList.contains('v-faster') ? row.querySelector('.exp-status')?.textContent ?? null : null;
      }), { timeout: 60_000, what: 'the experiment\'s result in the panel' });
      const rule = await panel.evaluate(() => document.querySelector('#pinned .experiment.v-faster .css-rule')?.textContent ?? '');
      log(`panel: ${status}; rule:\n${rule}`);
      expect(status).to.match(/^Faster ×\d/);
      expect(rule).to.match(/#ticker \{\n {2}contain: layout;\n\}/);
      // Measured ones rank first: the faster row is the list's first.
      expect(await panel.evaluate(() => document.querySelector('#pinned .experiment')?.getAttribute('data-css'))).to.equal('contain: layout');
      if (process.env.LC_SCREENSHOT) await devtools.screenshot({ path: process.env.LC_SCREENSHOT });

      // Pixels (the panel's experiments only): contain: layout paint clips Clip's overflowing label, which moves no
      // box; the screenshots show it. The page stays busy elsewhere (the ticker), so there are frames to measure.
      await page.evaluate(() => window.scrollTo(0, 0));
      const clip = one(await snap(page), 'Clip').id;
      await lc.pin(page, clip);
      // The pinned view must show Clip before its Try buttons are Clip's (until then they are the ticker's).
      await waitFor(async () => (await panel.$eval('#pinned-name', (e) => e.textContent)) === 'Clip', { timeout: 30_000, what: 'Clip pinned' });
      const result = async (css: string): Promise<any> => {
        await waitFor(() => panel.$(`#pinned .experiment[data-css="${css}"] button.try:not([disabled])`), { timeout: 30_000, what: `Try ${css}` });
        await panel.evaluate((c) => (document.querySelector(`#pinned .experiment[data-css="${c}"] button.try`) as HTMLButtonElement).click(), css);
        return waitFor(() => panel.evaluate((id, c) => {
          const st = (globalThis as any).__panelExperiments.state(id, c);
          return st.kind === 'done' ? st.result : st.kind === 'failed' ? { error: st.error } : null;
        }, clip, css), { timeout: 150_000, what: `the result of ${css} on Clip` });
      };
      const paint = await result('contain: layout paint');
      log(`panel experiment ${paint.css} on Clip: ${paint.verdict}; boxes ${paint.boxesChanged} of ${paint.boxesCompared}, pixels`
        + ` ${paint.pixelsChanged} of ${paint.pixelsCompared}: ${paint.reason}`);
      expect(paint.boxesChanged).to.equal(0);
      expect(paint.pixelsChanged).to.be.greaterThan(50);
      expect(paint.verdict).to.equal('changes-rendering');
      const layout = await result('contain: layout');
      log(`panel experiment ${layout.css} on Clip: ${layout.verdict}; pixels ${layout.pixelsChanged} of ${layout.pixelsCompared}`);
      expect(layout.pixelsCompared).to.be.greaterThan(100);
      expect(layout.pixelsChanged).to.equal(0);
      expect(layout.verdict).to.not.equal('changes-rendering');
    } finally {
      await page.evaluate(() => (window as any).__work.stop());
      await devtools.close();
    }
  });
});
