/**
 * Vue 3 (issue 63): the fixture app of tests/fixtures/vue/ as `vite build` makes it (build/vue/, scripts/build-vue.ts)
 * and as Vite's dev server serves it, with hot updates. Components and counts against an independent walk of Vue's own
 * tree (vue-truth.ts), through a `<Teleport>`, a `<KeepAlive>`, `<Suspense>` and a `<Transition>`; unmounts; the
 * costly component first; a re-render that changes nothing no cause; a hot update leaving no stale copy.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { ROOT } from '../../scripts/chrome';
import { vueConfig, VUE_APP_DIR } from '../../scripts/build-vue';
import { auditHeavyOverBudget } from './cli-run';
import { launch, lc, waitFor, type Harness } from './harness';
import { groundTruth } from './fiber-truth';
import { comps, expectVueMatches, type Comp } from './tree-match';
import { afterTheSeam } from './seam-features';
import { vueTruth } from './vue-truth';

const vue = (page: Page, js: string): Promise<unknown> => page.evaluate(`(async () => { const s = window.__vue; ${js} })()`);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

describe('Vue 3 (e2e)', function () {
  this.timeout(120_000);
  let h: Harness;

  before(async () => {
    h = await launch();
  });
  after(async () => h?.close());

  describe('a production build (vite build)', () => {
    let page: Page;
    before(async () => {
      page = await h.newPage('build/vue/index.html');
      await waitFor(() => page.evaluate(() => document.querySelector('.later') !== null), { what: 'the app, its async part resolved' });
    });
    after(async () => page?.close());

    it('is found before the overlay is on; every component and count equals Vue\'s own tree, through Teleport, KeepAlive, Suspense', async () => {
      const before = await lc.state(page) as { vue: { found: boolean; apps: number }; react: { renderers: number } };
      expect(before.vue).to.deep.equal({ found: true, apps: 0 });
      expect(before.react.renderers).to.equal(0);
      await lc.enable(page);
      const truth = await expectVueMatches(page, 'the snapshot to equal Vue\'s tree');
      expect(truth.length).to.be.greaterThan(600);
      expect((await lc.state(page) as { vue: { apps: number } }).vue.apps).to.equal(1);
      // A dialog through <Teleport> into <body>, the other <KeepAlive> tab, more rows: mounted as they come.
      await vue(page, 's.dialog = true; s.tab = "b"; s.rows = 6;');
      await expectVueMatches(page, 'dialog, tab B and six rows');
      // Names: `__name` where `<script setup>` gave one; a template-only SFC (TabB, DialogBody) by its file, once the
      // production build's source maps place its render function. New rows take their type's name on the next types
      // pass (until then, their minified one): waited for too.
      await waitFor(async () => {
        const ns = (await comps(page)).map((c) => c.name);
        return ['Dialog', 'TabB', 'DialogBody', 'KeepAlive', 'Later'].every((n) => ns.includes(n))
          && ns.filter((n) => n === 'Row').length === 6;
      }, { what: 'every component by name, six rows named Row', timeout: 20_000 });
      // The dialog's meter goes where its DOM landed: the teleported box, not the app's.
      const dialog = await waitFor(async () => (await comps(page)).find((c) => c.name === 'Dialog' && c.bounds !== null), { what: 'Dialog\'s bounds' });
      const modal = await page.evaluate(() => {
        const r = document.querySelector('body > .modal')!.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height };
      });
      expect(dialog.bounds!.x).to.be.closeTo(modal.x, 1);
      expect(dialog.bounds!.y).to.be.closeTo(modal.y, 1);
      // Unmounts: the dialog closed, tab A back (tab B kept alive: not mounted DOM), fewer rows.
      await vue(page, 's.dialog = false; s.tab = "a"; s.rows = 2; s.note = false;');
      await expectVueMatches(page, 'dialog closed, tab A, two rows');
      const after = (await comps(page)).map((c) => c.name);
      expect(after).to.not.include('Dialog');
      expect(after).to.not.include('TabB');
      expect(after.filter((n) => n === 'Row')).to.have.length(2);
    });

    it('the costly component ranks first; a re-render that changes nothing is no cause', async () => {
      await vue(page, 'await s.run(40, { heavy: true, ticker: true, wasted: true });');
      const got = await waitFor(async () => {
        const cs = await comps(page);
        const by = (n: string): Comp | undefined => cs.find((c) => c.name === n);
        return by('Heavy') !== undefined && by('Heavy')!.layoutMs > 0 && by('Ticker')!.layoutMs > 0 ? cs : null;
      }, { what: 'Heavy and Ticker measured' });
      const by = (n: string): Comp => got.find((c) => c.name === n) as Comp;
      const heavy = by('Heavy');
      console.log(`      [vue] layout ms: Heavy ${heavy.layoutMs.toFixed(3)}, Ticker ${by('Ticker').layoutMs.toFixed(3)}, Wasted ${by('Wasted').layoutMs.toFixed(3)}`);
      // Among the app's components other than its root (whose figure includes Heavy's), Heavy costs the most.
      const app = got.find((c) => c.parentId === null) as Comp;
      for (const c of got) if (c.id !== app.id && c.id !== heavy.id) expect(heavy.layoutMs, c.name).to.be.greaterThan(c.layoutMs);
      // Wasted re-rendered 40 times with the same DOM: Vue wrote nothing, so nothing of the frames is its.
      expect(by('Wasted').layoutMs).to.equal(0);
      expect((await lc.snapshot(page) as { frames: { count: number } }).frames.count).to.be.at.least(20);
    });

    it('an element whose text Vue swaps, given an element by other code, counts it, and loses it at Vue\'s next swap', async () => {
      // Ticks first: the ticker's <p> is then an element known to hold no element child (dom-commits.ts `leaves`),
      // whose later swaps are read without their node lists.
      await vue(page, 'await s.run(4, { ticker: true });');
      await expectVueMatches(page, 'the ticker after four swaps');
      await page.evaluate(() => { document.querySelector('p.ticker')!.appendChild(document.createElement('b')); });
      await expectVueMatches(page, 'a <b> added to the ticker by page code');
      // Vue's next swap (`textContent =`) takes the <b> away with the text: a structure change, not a text swap.
      await vue(page, 'await s.run(2, { ticker: true });');
      expect(await page.evaluate(() => document.querySelector('p.ticker > b'))).to.equal(null);
      await expectVueMatches(page, 'the ticker swapped again, its <b> gone');
    });

    it('after the seam: forced reflows, an interaction and shifts named, a recording, an experiment, the overlay and the panel', async () => {
      await afterTheSeam(h, page, 'Vue', 'window.__vue.tick++');
    });
  });

  it('a component library\'s data table (Element Plus): counts equal Vue\'s tree, its internals the library\'s, nothing drawn over its menu', async () => {
    const page = await h.newPage('build/vue/library.html');
    try {
      await waitFor(() => page.evaluate(() => document.querySelectorAll('.el-table__row').length >= 10), { what: 'the table\'s rows' });
      await lc.enable(page);
      await expectVueMatches(page, 'the library page');
      // Placed by the production build's source maps: Element Plus's components are the library's, Vue's the
      // framework's; meters only for the app's own (a library's cost stays in OrdersTable's figures).
      const placed = await waitFor(async () => {
        const cs = await comps(page);
        return cs.filter((c) => c.kind === 'library').length > 100 ? cs : null;
      }, { what: 'Element Plus\'s components placed', timeout: 20_000 });
      expect(placed.filter((c) => c.kind === 'own').map((c) => c.name).sort()).to.deep.equal(['LibraryApp', 'OrdersTable']);
      expect(placed.find((c) => c.name === 'ElTable')?.kind).to.equal('library');
      await waitFor(async () => (await comps(page)).some((c) => c.name === 'OrdersTable' && c.meterAt !== null), { what: 'OrdersTable\'s meter' });
      expect((await comps(page)).filter((c) => c.meterAt !== null && c.kind !== 'own').map((c) => c.name)).to.deep.equal([]);
      // The select's menu, teleported to <body>, opens over the corner where OrdersTable's meter was: none is drawn
      // there while it is open.
      await page.click('.status-select');
      const menu = await waitFor(() => page.evaluate(() => {
        const m = document.querySelector('.el-select-dropdown');
        const r = m?.getBoundingClientRect();
        return r && r.height > 20 ? { x: r.x, y: r.y, width: r.width, height: r.height } : null;
      }), { what: 'the open menu' });
      const over = (m: { x: number; y: number }): boolean => m.x < menu.x + menu.width && m.x + 32 > menu.x && m.y < menu.y + menu.height && m.y + 14 > menu.y;
      await waitFor(async () => {
        const drawn = (await comps(page)).filter((c) => c.meterAt !== null && c.layer === 0);
        return drawn.length > 0 && drawn.every((c) => !over(c.meterAt!));
      }, { what: 'no meter of the page under the menu' });
    } finally {
      await page.close();
    }
  });

  it('React and Vue on one page: each measured by its own adapter, every component of both once', async () => {
    const page = await h.newPage('mixed.html');
    try {
      await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true && document.querySelector('.vue-item') !== null), { what: 'both roots' });
      const st = await lc.state(page) as { react: { renderers: number }; vue: { found: boolean } };
      expect(st.react.renderers).to.equal(1);
      expect(st.vue.found).to.equal(true);
      await lc.enable(page);
      const lineOf = (t: { depth: number; key: string | null; authored: number; rendered: number }): string =>
        `depth=${t.depth} key=${t.key ?? ''} authored=${t.authored} rendered=${t.rendered}`;
      const both = async (): Promise<[string, string]> => {
        const react = await page.evaluate(groundTruth, ['root']);
        const vueTree = await page.evaluate(vueTruth);
        const ours = (await comps(page)).map(lineOf).sort().join('\n');
        return [ours, [...react, ...vueTree].map(lineOf).sort().join('\n')];
      };
      let last: [string, string] = ['', ''];
      const agree = async (what: string): Promise<void> => {
        try {
          await waitFor(async () => {
            last = await both();
            return last[1].length > 0 && last[0] === last[1];
          }, { what });
        } catch (e) {
          expect(last[0], what).to.equal(last[1]);
          throw e;
        }
      };
      await agree('both trees in the snapshot');
      await page.evaluate(() => { (window as any).__vueState.items = 6; });
      await agree('Vue\'s list grown, React\'s unchanged');
      const names = (await comps(page)).map((c) => c.name);
      expect(names.filter((n) => n === 'VueItem')).to.have.length(6);
      expect((await lc.state(page) as { vue: { apps: number } }).vue.apps).to.equal(1);
    } finally {
      await page.close();
    }
  });

  it('layout-cost audit on the production build: Heavy over its budget fails, named, the rest within', async () => {
    await auditHeavyOverBudget(h.url('build/vue/index.html'), 'window.__vue.run(30, { heavy: true, ticker: true })');
  });

  it('Vite\'s dev server: a template edit re-renders in place, a script edit remounts; no stale copy, no reload', async () => {
    fs.mkdirSync(path.join(ROOT, 'out'), { recursive: true });
    const dir = fs.mkdtempSync(path.join(ROOT, 'out', 'vue-dev-'));
    fs.cpSync(VUE_APP_DIR, dir, { recursive: true });
    const { createServer } = await import('vite');
    const port = await freePort();
    const server = await createServer({
      ...(await vueConfig()), root: dir, logLevel: 'silent', cacheDir: path.join(dir, '.vite'),
      server: { host: '127.0.0.1', port, strictPort: true, hmr: { host: '127.0.0.1' } },
      // Prebundled at start: a dependency found on first load would make Vite reload the page.
      optimizeDeps: { include: ['vue'] },
    });
    await server.listen();
    const page = await h.newPage();
    try {
      await page.goto(`http://127.0.0.1:${port}/`, { waitUntil: 'load' });
      await waitFor(() => page.evaluate(() => document.querySelector('.later') !== null), { what: 'the dev app', timeout: 60_000 });
      await page.evaluate(() => {
        (window as any).__notReloaded = true;
      });
      await lc.enable(page);
      await expectVueMatches(page, 'the dev app');
      // Development names template-only SFCs by their file (no `name`, no `__name`).
      const names = (await comps(page)).map((c) => c.name);
      expect(names).to.include('TabA');
      expect(names).to.include('Cell');
      const ticker = (await comps(page)).find((c) => c.name === 'Ticker') as Comp;
      // A template edit: Vue re-renders the same instance with the new render function.
      const tickerFile = path.join(dir, 'src', 'Ticker.vue');
      fs.writeFileSync(tickerFile, fs.readFileSync(tickerFile, 'utf8').replace('ticker: {{', 'tick: {{'));
      await waitFor(() => page.evaluate(() => document.querySelector('.ticker')?.textContent?.startsWith('tick:') === true), { what: 'the template edit', timeout: 30_000 });
      await expectVueMatches(page, 'after the template edit');
      const tickers = (await comps(page)).filter((c) => c.name === 'Ticker');
      expect(tickers.map((c) => c.id), 'the same Ticker, re-rendered').to.deep.equal([ticker.id]);
      // A script edit: Vue remounts the component's instances; the old ones go.
      const rowFile = path.join(dir, 'src', 'Row.vue');
      const rowIds = (await comps(page)).filter((c) => c.name === 'Row').map((c) => c.id);
      fs.writeFileSync(rowFile, fs.readFileSync(rowFile, 'utf8').replace('defineProps<{ i: number }>();', 'const props = defineProps<{ i: number }>();\nvoid props;'));
      await waitFor(async () => {
        const rows = (await comps(page)).filter((c) => c.name === 'Row');
        return rows.length === rowIds.length && rows.every((r) => !rowIds.includes(r.id));
      }, { what: 'the rows remounted, the old ones gone', timeout: 30_000 });
      await expectVueMatches(page, 'after the script edit');
      expect(await page.evaluate(() => (window as any).__notReloaded), 'hot updates, no reload').to.equal(true);
    } finally {
      await page.close();
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
