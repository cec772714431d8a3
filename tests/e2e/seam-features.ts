/**
 * What lies after the adapter seam, on a Vue or a Preact page (issues 63 and 64): a forced reflow named by the
 * component whose element was read, an interaction's target and the component that made its layout, a layout shift's
 * moved components and its cause in the framework's words, a recording and its trace export, and a containment
 * experiment that leaves the page as it was; the overlay's meters where the snapshot puts them, and the panel's rows
 * named and counted as the snapshot. The page: the fixture app's production build (a Ticker line above Heavy's grid
 * of 600 Cells), the overlay on, its components named.
 */
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { lc, openPanel, waitFor, type Harness } from './harness';
import { meterAt, until } from './overlay-pixels';
import { num, waitForRows } from './panel-helpers';
import { comps } from './tree-match';

interface Ref { id: number; name: string }
interface Shift { value: number; time: number; shifted: Ref[]; cause: (Ref & { reason: string }) | null }
interface Interaction {
  id: number; type: string; target: Ref | null; forcedMs: number; layoutMs: number;
  components: (Ref & { forcedMs: number; layoutMs: number; styleMs: number })[];
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** `framework`: as the reasons name it ('Vue', 'Preact'); `tick`: a statement that moves Heavy's cells once. */
export async function afterTheSeam(h: Harness, page: Page, framework: string, tick: string): Promise<void> {
  const byName = async (): Promise<Map<string, number>> => new Map((await comps(page)).map((c) => [c.name, c.id]));
  const ids = await byName();
  const heavy = ids.get('Heavy')!, ticker = ids.get('Ticker')!;
  expect(heavy, 'Heavy').to.be.a('number');
  expect(ticker, 'Ticker').to.be.a('number');
  const snap = (): Promise<{ interactions: Interaction[]; shifts: Shift[] }> =>
    lc.snapshot(page) as Promise<{ interactions: Interaction[]; shifts: Shift[] }>;
  await page.evaluate(() => (window as any).__LAYOUT_COST__.startRecording());

  // A click on Ticker's line whose handler (page code, as a measuring library's) writes Heavy's grid width and reads
  // its height, six times, then works for 30 ms: an interaction whose target is Ticker's and whose reflows are Heavy's.
  await page.evaluate(() => {
    const grid = document.querySelector('section.grid') as HTMLElement;
    document.querySelector('p.ticker')!.addEventListener('click', () => {
      for (let i = 0; i < 6; i++) {
        grid.style.width = i % 2 === 0 ? '92%' : '88%';
        void grid.offsetHeight;
      }
      for (const t = performance.now(); performance.now() - t < 30;);
    });
  });
  await page.click('p.ticker');
  const click = await waitFor(async () => (await snap()).interactions.find((x) => x.type === 'pointer'), { what: 'the click as an interaction' });
  console.log(`      [${framework}] click on ${click.target?.name}: forced ${click.forcedMs.toFixed(2)} ms, layout ${click.layoutMs.toFixed(2)} ms; `
    + `first ${click.components.map((c) => `${c.name} ${(c.forcedMs + c.layoutMs + c.styleMs).toFixed(2)}`).slice(0, 3).join(', ')}`);
  expect(click.target?.name).to.equal('Ticker');
  if (click.forcedMs === 0) {
    // What the frames around it held (the recording started above), to tell a frame not logged from one not matched.
    const c = click as Interaction & { start: number; duration: number };
    const rec = await page.evaluate(() => (window as any).__LAYOUT_COST__.stopRecording()) as { frames: { time: number; forcedMs: number; layoutMs: number }[] };
    const near = rec.frames.filter((f) => f.time > c.start - 200 && f.time < c.start + c.duration + 500);
    console.log(`      [${framework}] no forced ms: input at ${c.start.toFixed(1)}, paint ${(c.start + c.duration).toFixed(1)}; frames near: `
      + (near.map((f) => `${f.time.toFixed(1)} forced ${f.forcedMs.toFixed(2)} layout ${f.layoutMs.toFixed(2)}`).join(' | ') || 'none'));
  }
  expect(click.forcedMs).to.be.greaterThan(0);
  expect(click.components[0].name).to.equal('Heavy');
  expect(click.components[0].forcedMs).to.be.greaterThan(0.5 * click.forcedMs);
  // The forced reflows, named: Heavy's figure, not Ticker's.
  const forced = await waitFor(async () => {
    const cs = await comps(page);
    const h = cs.find((c) => c.id === heavy);
    return h !== undefined && (h as { forcedMs?: number }).forcedMs! > 0 ? cs : null;
  }, { what: 'Heavy\'s forced reflows in the snapshot' });
  const tickerForced = (forced.find((c) => c.id === ticker) as { forcedMs?: number } | undefined)?.forcedMs ?? 0;
  expect(tickerForced).to.be.below((forced.find((c) => c.id === heavy) as { forcedMs?: number }).forcedMs!);

  // Page code sets a style of Ticker's line; the shift that follows, as the snapshot has it (logged).
  const shiftAfter = async (prop: 'marginBottom' | 'paddingTop', value: string): Promise<Shift> => {
    const at = await page.evaluate((p, v) => {
      (document.querySelector('p.ticker') as HTMLElement).style[p] = v;
      return performance.now();
    }, prop, value);
    const x = await waitFor(async () => (await snap()).shifts.find((y) => y.time >= at), { what: `the shift after ${prop} ${value}` });
    console.log(`      [${framework}] shift ${x.value.toFixed(4)}: ${x.shifted.map((c) => c.name).join(', ')} moved; `
      + `${x.cause ? `${x.cause.name}, ${x.cause.reason}` : 'no cause'}`);
    return x;
  };
  // A shift, away from any input (shifts within 500 ms of one are left out): a margin below Ticker's line, and
  // everything below it moves down. Its cause is Ticker, in words that do not claim Vue (or Preact) wrote it.
  await sleep(700);
  const shift = await shiftAfter('marginBottom', '60px');
  expect(shift.shifted.length).to.be.at.least(1);
  for (const c of shift.shifted) expect(ids.has(c.name) || c.name === 'Cell', `moved: ${c.name}`).to.equal(true);
  expect(shift.cause?.name).to.equal('Ticker');
  expect(shift.cause?.reason).to.match(new RegExp(`^its DOM changed \\(by ${framework} or by page code\\) and changed size above `));

  // Then a padding above Ticker's own text: Ticker moved too, and is the cause of its own move and of what follows.
  const own = await shiftAfter('paddingTop', '30px');
  expect(own.shifted.map((c) => c.name)).to.include('Ticker');
  expect(own.cause?.name).to.equal('Ticker');
  expect(own.cause?.reason).to.equal(`its DOM changed (by ${framework} or by page code) and changed size, moving its own content and what follows it`);

  // The recording holds both, and its trace export an instant for the shift.
  const rec = await page.evaluate(() => (window as any).__LAYOUT_COST__.stopRecording()) as {
    interactions: Interaction[]; shifts: Shift[]; frames: { components: { id: number }[] }[];
  };
  expect(rec.interactions.map((x) => x.id)).to.include(click.id);
  expect(rec.shifts.map((x) => x.value)).to.include.members([shift.value, own.value]);
  expect(rec.frames.some((f) => f.components.some((c) => c.id === heavy)), 'a recorded frame with Heavy in it').to.equal(true);
  const trace = await page.evaluate(() => (window as any).__LAYOUT_COST__.exportTrace()) as { traceEvents: { cat: string; args: { cause?: Ref } }[] };
  expect(trace.traceEvents.filter((e) => e.cat === 'layout-cost,shift').map((e) => e.args.cause?.name)).to.include('Ticker');
  await page.evaluate(() => {
    (document.querySelector('p.ticker') as HTMLElement).style.marginBottom = '';
    (document.querySelector('p.ticker') as HTMLElement).style.paddingTop = '';
    (document.querySelector('section.grid') as HTMLElement).style.width = '';
  });

  // A containment experiment on Heavy while its cells tick: measured, and the page's DOM as it was after.
  const shape = (): Promise<string> => page.evaluate(() => [...document.querySelectorAll('*')]
    .filter((el) => el.localName !== 'layout-cost-overlay')
    .map((el) => `${el.localName}[${[...el.attributes].map((a) => `${a.name}${a.name === 'style' ? '' : `=${a.value}`}`).join(',')}]`).join(' '));
  const before = await shape();
  await page.evaluate(`(() => {
    const w = window;
    w.__seamTicks = true;
    const step = () => { if (!w.__seamTicks) return; ${tick}; requestAnimationFrame(step); };
    requestAnimationFrame(step);
  })()`);
  const r = await page.evaluate((h) => (window as any).__LAYOUT_COST__.experiment(h, { css: 'contain: layout', frames: 12 })
    .catch((e: Error) => ({ error: e.message })), heavy)
    .finally(() => page.evaluate(() => { (window as any).__seamTicks = false; })) as {
    error?: string; name: string; verdict: string; before: { frames: number }; after: { frames: number };
  };
  expect(r.error, r.error).to.equal(undefined);
  console.log(`      [${framework}] experiment contain: layout on ${r.name}: ${r.verdict}; ${r.before.frames} + ${r.after.frames} frames`);
  expect(r.name).to.equal('Heavy');
  // Twelve frames asked for: six blocks in ABBA order, each side at least half of them.
  expect(r.before.frames).to.be.at.least(6);
  expect(r.after.frames).to.be.at.least(6);
  expect(['faster', 'slower', 'no-gain', 'inconclusive']).to.include(r.verdict);
  // The same elements and attributes as before (styles aside: the cells' widths moved).
  expect(await shape()).to.equal(before);

  // The overlay: a meter where the snapshot says each of the app's drawn components has one (Heavy's among them).
  const drawn = await waitFor(async () => {
    const c = (await comps(page)).filter((x) => ['App', 'Ticker', 'Wasted', 'Heavy'].includes(x.name) && x.meterAt !== null);
    return c.some((x) => x.name === 'Heavy') ? c : null;
  }, { what: 'Heavy\'s meter in the snapshot' });
  console.log(`      [${framework}] meters: ${drawn.map((c) => `${c.name} at ${c.meterAt!.x},${c.meterAt!.y}`).join('; ')}`);
  await until(page, (img) => drawn.every((c) => meterAt(img, Math.round(c.meterAt!.x), Math.round(c.meterAt!.y))), 'a meter at each drawn component\'s place');

  // The panel: the app's rows by their names, with their source files, counted as the snapshot counts them.
  const { panel, devtools } = await openPanel(h, page);
  try {
    const want = await comps(page);
    // Each by the filter (the table lists 600 Cells too, and draws only the rows in view).
    for (const n of ['Ticker', 'Wasted', 'Heavy']) {
      await panel.$eval('#filter', (i, v) => { (i as HTMLInputElement).value = v; i.dispatchEvent(new Event('input')); }, n);
      const rows = await waitForRows(panel, (rs) => rs.some((r) => r.cells.name === n && r.source !== ''), `${n} in the panel with its source`);
      const row = rows.find((r) => r.cells.name === n)!;
      const c = want.find((x) => x.id === row.id)!;
      expect(c.name, `row ${row.id}`).to.equal(n);
      expect(num(row.cells.rendered), `${n}'s rendered`).to.equal(c.rendered);
      console.log(`      [${framework}] panel row ${n} ${row.source}: rendered ${row.cells.rendered}, authored ${row.cells.authored}`);
    }
  } finally {
    await devtools.close();
  }
}
