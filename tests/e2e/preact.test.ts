/**
 * Preact (issue 64): the fixture app of tests/fixtures/preact/ as `vite build` makes it on Preact 10 (build/preact/)
 * and Preact 11 (build/preact11/, scripts/build-preact.ts), preact/compat running a React library, and Vite's dev
 * server with Prefresh's hot updates. Components and counts against an independent walk of Preact's own vnode tree
 * (preact-truth.ts), through a portal (compat's on 10, core's on 11); unmounts; the costly component first; a
 * re-render that changes nothing no cause; a hot update leaving no stale copy; Preact's DevTools beside it.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { ROOT } from '../../scripts/chrome';
import { preactConfig, PREACT_APP_DIR } from '../../scripts/build-preact';
import { launch, lc, waitFor, type Harness } from './harness';
import { auditHeavyOverBudget } from './cli-run';
import { preactTruth } from './preact-truth';
import { afterTheSeam } from './seam-features';
import { comps, expectTreeMatches, type Comp } from './tree-match';

const preact = (page: Page, js: string): Promise<unknown> => page.evaluate(`(async () => { const s = window.__preact; ${js} })()`);
const matches = (page: Page, what: string): Promise<unknown[]> => expectTreeMatches(page, preactTruth, what);
const APP = ['App', 'Ticker', 'Wasted', 'Heavy', 'Cell', 'Row', 'Pair'];

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Waits until every name in `names` is among the components (production: once the source maps have placed them). */
async function named(page: Page, names: string[]): Promise<string[]> {
  return waitFor(async () => {
    const ns = (await comps(page)).map((c) => c.name);
    return names.every((n) => ns.includes(n)) ? ns : null;
  }, { what: `${names.join(', ')} by name`, timeout: 20_000 });
}

describe('Preact (e2e)', function () {
  this.timeout(120_000);
  let h: Harness;

  before(async () => {
    h = await launch();
  });
  after(async () => h?.close());

  for (const major of [10, 11] as const) {
    describe(`a production build on Preact ${major} (vite build)`, () => {
      let page: Page;
      before(async () => {
        page = await h.newPage(`build/${major === 10 ? 'preact' : 'preact11'}/index.html`);
        await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: 'the app' });
      });
      after(async () => page?.close());

      it('is found before the overlay is on; every component and count equals Preact\'s tree, through a portal', async () => {
        const before = await lc.state(page) as { preact: { found: boolean; apps: number }; react: { renderers: number }; vue: { found: boolean } };
        expect(before.preact).to.deep.equal({ found: true, apps: 0 });
        expect(before.react.renderers).to.equal(0);
        expect(before.vue.found).to.equal(false);
        await lc.enable(page);
        const truth = await matches(page, 'the snapshot to equal Preact\'s tree');
        expect(truth.length).to.be.greaterThan(600);
        expect((await lc.state(page) as { preact: { apps: number } }).preact.apps).to.equal(1);
        // Names from the production build's source maps (its own are minified).
        await named(page, APP);
        // A dialog through a portal into <body>, alone: its component renders nothing where it stands (compat's portal
        // on Preact 10), so no record of the root names it; elements added outside every root walk the roots again.
        // Then more rows: mounted as they come.
        // (Preact renders later than the set: each step waits for the page to show it before comparing the trees.)
        await preact(page, 's.set({ dialog: true });');
        await waitFor(() => page.evaluate(() => document.querySelector('body > .modal') !== null), { what: 'the dialog in the page' });
        await matches(page, 'the dialog alone');
        await preact(page, 's.set({ dialog: true, rows: 6 });');
        await waitFor(() => page.evaluate(() => document.querySelectorAll('li.row').length === 6), { what: 'six rows in the page' });
        await matches(page, 'dialog and six rows');
        // The three new rows take their type's name on the next types pass (until then, their minified one).
        const names = await waitFor(async () => {
          const ns = await named(page, ['Dialog', 'DialogBody']);
          return ns.filter((n) => n === 'Row').length === 6 ? ns : null;
        }, { what: 'six rows named Row', timeout: 20_000 });
        // No component of Preact's own: its Fragment, its portal, compat's context provider are not the app's.
        expect(names.filter((n) => !APP.includes(n) && n !== 'Dialog' && n !== 'DialogBody')).to.deep.equal([]);
        // The dialog's meter goes where its DOM landed, and its body sits under it.
        const dialog = await waitFor(async () => (await comps(page)).find((c) => c.name === 'Dialog' && c.bounds !== null), { what: 'Dialog\'s bounds' });
        const modal = await page.evaluate(() => {
          const r = document.querySelector('body > .modal')!.getBoundingClientRect();
          return { x: r.x, y: r.y, width: r.width, height: r.height };
        });
        expect(dialog.bounds!.x).to.be.closeTo(modal.x, 1);
        expect(dialog.bounds!.y).to.be.closeTo(modal.y, 1);
        const body = (await comps(page)).find((c) => c.name === 'DialogBody') as Comp;
        expect(body.parentId).to.equal(dialog.id);
        // Unmounts: the dialog closed, fewer rows.
        await preact(page, 's.set({ dialog: false, rows: 2 });');
        await waitFor(() => page.evaluate(() => document.querySelectorAll('li.row').length === 2 && document.querySelector('body > .modal') === null),
          { what: 'the dialog gone and two rows in the page' });
        await matches(page, 'dialog closed, two rows');
        const after = (await comps(page)).map((c) => c.name);
        expect(after).to.not.include('Dialog');
        expect(after).to.not.include('DialogBody');
        expect(after.filter((n) => n === 'Row')).to.have.length(2);
      });

      it('the costly component ranks first; a re-render that changes nothing is no cause', async () => {
        await preact(page, 'await s.run(40, { heavy: true, ticker: true, wasted: true });');
        const got = await waitFor(async () => {
          const cs = await comps(page);
          const by = (n: string): Comp | undefined => cs.find((c) => c.name === n);
          return by('Heavy') !== undefined && by('Heavy')!.layoutMs > 0 && by('Ticker')!.layoutMs > 0 ? cs : null;
        }, { what: 'Heavy and Ticker measured' });
        const by = (n: string): Comp => got.find((c) => c.name === n) as Comp;
        const heavy = by('Heavy');
        console.log(`      [preact ${major}] layout ms: Heavy ${heavy.layoutMs.toFixed(3)}, Ticker ${by('Ticker').layoutMs.toFixed(3)}, `
          + `Wasted ${by('Wasted').layoutMs.toFixed(3)}`);
        // Among the app's components other than its root (whose figure includes Heavy's), Heavy costs the most.
        const app = got.find((c) => c.parentId === null) as Comp;
        for (const c of got) if (c.id !== app.id && c.id !== heavy.id) expect(heavy.layoutMs, c.name).to.be.greaterThan(c.layoutMs);
        // Wasted re-rendered 40 times with the same DOM: Preact wrote nothing, so nothing of the frames is its.
        expect(by('Wasted').layoutMs).to.equal(0);
        expect((await lc.snapshot(page) as { frames: { count: number } }).frames.count).to.be.at.least(20);
      });

      if (major === 10) {
        it('after the seam: forced reflows, an interaction and shifts named, a recording, an experiment, the overlay and the panel', async () => {
          await afterTheSeam(h, page, 'Preact', 'window.__preact.set({ tick: window.__preact.state.tick + 1 })');
        });
      }
    });
  }

  it('layout-cost audit on the production build: Heavy over its budget fails, named, the rest within', async () => {
    await auditHeavyOverBudget(h.url('build/preact/index.html'), 'window.__preact.run(30, { heavy: true, ticker: true })');
  });

  it('preact/compat running a React library (a virtual list): measured as Preact, rows come and go as it scrolls', async () => {
    const page = await h.newPage('build/preact/compat.html');
    try {
      await waitFor(() => page.evaluate(() => document.querySelectorAll('.vrow').length > 10), { what: 'the rows' });
      const st = await lc.state(page) as { react: { renderers: number }; preact: { found: boolean } };
      expect(st.react.renderers, 'compat registers no React renderer').to.equal(0);
      expect(st.preact.found).to.equal(true);
      await lc.enable(page);
      await matches(page, 'the list');
      const first = await named(page, ['VirtualRows', 'VirtualRow']);
      const shown = await page.evaluate(() => document.querySelectorAll('.vrow').length);
      expect(first.filter((n) => n === 'VirtualRow')).to.have.length(shown);
      const before = (await comps(page)).filter((c) => c.name === 'VirtualRow').map((c) => c.id);
      await page.evaluate(() => {
        document.querySelector('.list')!.scrollTop = 24 * 5000;
      });
      await waitFor(() => page.evaluate(() => Array.from(document.querySelectorAll('.vrow')).some((r) => r.textContent === 'row 5000')), { what: 'row 5000' });
      await matches(page, 'scrolled to row 5000');
      const now = (await comps(page)).filter((c) => c.name === 'VirtualRow').map((c) => c.id);
      expect(now.filter((id) => before.includes(id)), 'the rows scrolled away unmounted').to.deep.equal([]);
    } finally {
      await page.close();
    }
  });

  it('Vite\'s dev server with Prefresh: an edit updates the components in place; no stale copy, no reload', async () => {
    fs.mkdirSync(path.join(ROOT, 'out'), { recursive: true });
    const dir = fs.mkdtempSync(path.join(ROOT, 'out', 'preact-dev-'));
    fs.cpSync(PREACT_APP_DIR, dir, { recursive: true });
    const { createServer } = await import('vite');
    const port = await freePort();
    const server = await createServer({
      ...(await preactConfig()), root: dir, logLevel: 'silent', cacheDir: path.join(dir, '.vite'),
      server: { host: '127.0.0.1', port, strictPort: true, hmr: { host: '127.0.0.1' } },
      // Prebundled at start: a dependency found on first load would make Vite reload the page.
      optimizeDeps: { include: ['preact', 'preact/hooks', 'preact/compat', 'preact/jsx-dev-runtime', '@prefresh/core', '@tanstack/react-virtual'] },
    });
    await server.listen();
    const page = await h.newPage();
    try {
      // What Preact's DevTools extension does at document_start: define the global preact/debug attaches to, and
      // hook the `options` it is handed. It must go on hearing every diff with the overlay on.
      await page.evaluateOnNewDocument(() => {
        const tool = { version: '', diffed: 0, attachPreact(version: string, options: { diffed?: (v: unknown) => void }) {
          tool.version = version;
          const prev = options.diffed;
          options.diffed = (v) => {
            tool.diffed++;
            prev?.(v);
          };
        } };
        (window as any).__PREACT_DEVTOOLS__ = tool;
      });
      await page.goto(`http://127.0.0.1:${port}/`, { waitUntil: 'load' });
      await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: 'the dev app', timeout: 60_000 });
      await page.evaluate(() => {
        (window as any).__notReloaded = true;
      });
      await lc.enable(page);
      await matches(page, 'the dev app');
      // Development keeps the names.
      await named(page, APP);
      const ticker = (await comps(page)).find((c) => c.name === 'Ticker') as Comp;
      const cells = (await comps(page)).filter((c) => c.name === 'Cell').length;
      // An edit of the components' file: Prefresh swaps the functions and re-renders the same instances.
      const file = path.join(dir, 'src', 'app.tsx');
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('ticker: {', 'tick: {'));
      await waitFor(() => page.evaluate(() => document.querySelector('.ticker')?.textContent?.startsWith('tick:') === true), { what: 'the edit', timeout: 30_000 });
      await matches(page, 'after the edit');
      const after = await comps(page);
      expect(after.filter((c) => c.name === 'Ticker').map((c) => c.id), 'the same Ticker, updated in place').to.deep.equal([ticker.id]);
      expect(after.filter((c) => c.name === 'Cell')).to.have.length(cells);
      expect(await page.evaluate(() => (window as any).__notReloaded), 'a hot update, no reload').to.equal(true);
      // Preact's DevTools (its stand-in) attached and still hears Preact's diffs.
      const heard = await page.evaluate(() => (window as any).__PREACT_DEVTOOLS__.diffed as number);
      await preact(page, 'await s.run(3, { ticker: true });');
      const tool = await page.evaluate(() => ({ ...(window as any).__PREACT_DEVTOOLS__ }));
      expect(tool.version).to.match(/^10\./);
      expect(tool.diffed).to.be.greaterThan(heard);
    } finally {
      await page.close();
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
