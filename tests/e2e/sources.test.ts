/**
 * Real names and source locations (issue 15), in a real browser: one app built three ways from the same source
 * (tests/fixtures/src/sources.tsx). Unminified, its names are the truth; minified with a source map, at least 95 %
 * of its component types get those names back and their true file and line (the line each is defined on in the
 * source); minified without a map, the names stay as they are, the page says it looks minified, and no map was
 * found. No page code runs during the lookup: the components count their calls, and the page's own replacement of
 * Function.prototype.toString counts its calls.
 */
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { launch, lc, openPanel, waitFor, type Harness } from './harness';
import { definitionLine, placedInOwnSpan, spanOf } from './sources-truth';

/** The tabs DevTools' own UI shows as selected (its panels and the Sources editor's open file), through shadow roots. */
const SELECTED_TABS = `(() => {
  const out = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.getAttribute('role') === 'tab' && el.getAttribute('aria-selected') === 'true') out.push((el.textContent || '').trim());
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  return out;
})()`;

interface Comp { id: number; name: string; minifiedName?: string; source: { file: string; line: number; column: number } | null }

async function settled(page: Page): Promise<Comp[]> {
  await lc.enable(page);
  // Every type looked up: a source (or a final "not found") for each, nothing pending.
  return waitFor(async () => {
    const st = await page.evaluate(() => (window as any).__LAYOUT_COST__.state());
    const snap = (await lc.snapshot(page)) as any;
    const comps = snap.components as Comp[];
    return comps.length >= 24 && comps.every((c) => c.source !== null) && st.agent ? comps : null;
  }, { timeout: 60_000, what: 'every component located' });
}

describe('real names and source locations (e2e)', function () {
  this.timeout(180_000);
  let h: Harness;
  before(async () => {
    h = await launch();
  });
  after(async () => h?.close());

  it('minified with a source map: ≥ 95 % of types get the unminified build\'s names and their true file and line', async () => {
    const plain = await h.newPage('sources.html?build=plain');
    await waitFor(() => plain.evaluate(() => (window as any).__fixtureReady === true), { what: 'plain fixture' });
    const truth = await settled(plain);
    // The same tree mounts in the same order in both builds: components correspond by their rank in id order (the ids
    // themselves can start higher on one page, e.g. after the overlay restarted there beside a busy machine).
    const byRank = (cs: Comp[]): Comp[] => [...cs].sort((a, b) => a.id - b.id);
    const truthByRank = byRank(truth).map((c) => c.name);
    const expected = await plain.evaluate(() => (window as any).__typeNames as string[]);
    // Unminified: the real names (QuebecNote is an anonymous arrow in memo: "Anonymous" in every build).
    for (const n of expected.filter((x) => x !== 'QuebecNote')) expect(truthByRank, n).to.include(n);
    expect((await plain.evaluate(() => (window as any).__LAYOUT_COST__.state())).minified).to.equal(false);
    await plain.close();

    const page = await h.newPage('sources.html?build=min');
    await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: 'minified fixture' });
    const calls0 = await page.evaluate(() => (window as any).__calls as number);
    const toString0 = await page.evaluate(() => (window as any).__toStringCalls as number);
    const comps = await settled(page);
    expect(await page.evaluate(() => (window as any).__calls)).to.equal(calls0); // no component was called
    expect(await page.evaluate(() => (window as any).__toStringCalls)).to.equal(toString0); // the page's toString never ran
    // Per type: the component of the same rank in the plain build names it.
    expect(comps.length, 'the same tree in both builds').to.equal(truth.length);
    const types = new Map<string, Comp>();
    byRank(comps).forEach((c, i) => types.set(truthByRank[i] ?? `?${c.id}`, c));
    let named = 0, placed = 0;
    const misses: string[] = [];
    for (const [name, c] of types) {
      if (c.name === name) named++;
      else misses.push(`${name} shown as ${c.name}`);
      const line = definitionLine(name);
      if (c.source?.file === 'tests/fixtures/src/sources.tsx' && line > 0 && c.source.line === line) placed++;
      else misses.push(`${name} at ${c.source?.file}:${c.source?.line} (defined at line ${line})`);
    }
    console.log(`      [sources] ${named}/${types.size} types named, ${placed}/${types.size} placed; ${misses.join('; ') || 'no misses'}`);
    expect(types.size).to.be.at.least(24);
    expect(named / types.size).to.be.at.least(0.95);
    expect(placed / types.size).to.be.at.least(0.95);
    const alpha = comps.find((c) => c.name === 'AlphaPanel') as Comp;
    expect(alpha.minifiedName).to.match(/^[\w$]{1,2}$/);
    expect((await page.evaluate(() => (window as any).__LAYOUT_COST__.state())).minified).to.equal(true);

    // The panel: the table reads "AlphaPanel · sources.tsx:NN", the status says the names came from the maps.
    const { panel, devtools } = await openPanel(h, page);
    try {
      const line = definitionLine('AlphaPanel');
      await waitFor(async () => panel.evaluate((l) => [...document.querySelectorAll('.tr:not([hidden])')].some((r) =>
        r.querySelector('bdi.name')?.textContent === 'AlphaPanel' && r.querySelector('.src')?.textContent === `sources.tsx:${l}`), line),
      { what: 'AlphaPanel · sources.tsx in the table' });
      const notices = await panel.$$eval('.notice', (n) => n.map((x) => x.textContent ?? ''));
      expect(notices.some((t) => /component types named from the page's source maps/.test(t)), notices.join(' | ')).to.equal(true);
      if (process.env.LC_SCREENSHOT) await devtools.screenshot({ path: process.env.LC_SCREENSHOT });
    } finally {
      await devtools.close();
    }
  });

  it('development code the page evals (in no script): React\'s debug information finds it, and the label opens it in Sources', async () => {
    // React 18: the JSX transform's __source on each element; React 19: the script each element's creation stack names
    // (the eval'd code's sourceURL, fetched as a Vite module's is), which holds the function's text: placed by it.
    for (const build of ['eval18', 'eval19']) {
      const page = await h.newPage(`sources.html?build=${build}`);
      await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: `${build} fixture` });
      const calls0 = await page.evaluate(() => (window as any).__calls as number);
      const toString0 = await page.evaluate(() => (window as any).__toStringCalls as number);
      const names = await page.evaluate(() => (window as any).__typeNames as string[]);
      const comps = await settled(page);
      expect(await page.evaluate(() => (window as any).__calls), build).to.equal(calls0);
      expect(await page.evaluate(() => (window as any).__toStringCalls), build).to.equal(toString0);
      // Development names are real: each type by its name (the one anonymous memo is QuebecNote).
      const types = new Map<string, Comp>();
      for (const c of comps) types.set(c.name === 'Anonymous' ? 'QuebecNote' : c.name, c);
      let placed = 0;
      const misses: string[] = [];
      for (const name of names) {
        const c = types.get(name);
        const [from, to] = spanOf(name, names);
        // The line of the first element it creates: within its own definition, not its parent's.
        if (placedInOwnSpan(name, c?.source, names)) placed++;
        else misses.push(`${name} at ${c?.source?.file}:${c?.source?.line} (defined on lines ${from}–${to - 1})`);
      }
      console.log(`      [sources ${build}] ${placed}/${names.length} placed; ${misses.join('; ') || 'no misses'}`);
      expect(placed / names.length, misses.join('; ')).to.be.at.least(0.95);
      if (build === 'eval18') {
        await page.close();
        continue;
      }
      // The panel: the label says where it came from, and a click opens the original file in DevTools' Sources.
      const { panel, devtools } = await openPanel(h, page);
      try {
        const line = types.get('AlphaPanel')?.source?.line;
        await waitFor(async () => panel.evaluate((l) => [...document.querySelectorAll('.tr:not([hidden])')].some((r) =>
          r.querySelector('bdi.name')?.textContent === 'AlphaPanel' && r.querySelector('.src')?.textContent === `sources.tsx:${l}`), line),
        { what: 'AlphaPanel · sources.tsx in the table' });
        const title = await panel.evaluate(() => {
          const row = [...document.querySelectorAll('.tr:not([hidden])')].find((r) => r.querySelector('bdi.name')?.textContent === 'AlphaPanel');
          const src = row?.querySelector('.src') as HTMLElement;
          src.click();
          return src.title;
        });
        // React 19's creation stack names the eval'd code's sourceURL: fetched, it holds the function's text, which
        // places the type at its definition through the code's inline map (not by React's debug information).
        expect(title).to.match(/^Open .*sources\.tsx:\d+/);
        expect(title).to.not.match(/React's debug information/);
        const tabs = await waitFor(async () => {
          const t = (await devtools.evaluate(SELECTED_TABS)) as string[];
          return t.includes('Sources') && t.includes('sources.tsx') ? t : null;
        }, { timeout: 20_000, what: 'DevTools\' Sources panel showing sources.tsx' }).catch(async (e: Error) => {
          const seen = [await devtools.evaluate(SELECTED_TABS), await panel.$$eval('.notice', (n) => n.map((x) => x.textContent))];
          throw new Error(`${e.message}; tabs and notices: ${JSON.stringify(seen)}`);
        });
        expect(tabs).to.include('sources.tsx');
      } finally {
        await devtools.close();
        await page.close();
      }
    }
  });

  it('minified without a map: names stay as they are, and the panel says no map was found', async () => {
    const page = await h.newPage('sources.html?build=nomap');
    await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: 'fixture' });
    const toString0 = await page.evaluate(() => (window as any).__toStringCalls as number);
    const comps = await settled(page);
    expect(comps.every((c) => c.minifiedName === undefined)).to.equal(true);
    expect(comps.every((c) => c.source?.file === 'build/fixtures/sources-r19-nomap.js')).to.equal(true);
    const short = comps.filter((c) => /^[\w$]{1,2}$/.test(c.name)).length;
    expect(short).to.be.at.least(20);
    expect((await page.evaluate(() => (window as any).__LAYOUT_COST__.state())).minified).to.equal(true);
    expect(await page.evaluate(() => (window as any).__toStringCalls)).to.equal(toString0);
    const { panel, devtools } = await openPanel(h, page);
    try {
      await waitFor(async () => (await panel.$$eval('.notice', (n) => n.map((x) => x.textContent ?? '')))
        .some((t) => /no source map was found/.test(t)), { what: 'the no-map notice' });
    } finally {
      await devtools.close();
    }
  });
});
