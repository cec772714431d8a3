/**
 * Source maps the way real bundlers write them (issue 44): one small app (tests/fixtures/bundlers/) built by Vite,
 * webpack 5 in three source-map modes and esbuild (scripts/build-bundlers.ts). In each build, every component type of
 * the app gets its real name and a file:line inside its own definition in the app's source, and is the app's own
 * (`kind: 'own'`). The truth is the source files themselves.
 *
 * Then the same app under Vite's dev server (started here on a free port, on a copy of the app, stopped after), with
 * Fast Refresh edits made on disk: a label change, a definition moved down, a hook added (a remount). After each,
 * the counts equal React's fibers (an independent walk), no component is listed twice, the source line follows the
 * file, state survives where React Refresh keeps it, and the page never reloads.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { APP_DIR, BUNDLERS } from '../../scripts/build-bundlers';
import { ROOT } from '../../scripts/chrome';
import { clicksAndEdits, freePort, lineOf, located, placement, TYPES, type Comp } from './app-truth';
import { launch, lc, waitFor, type Harness } from './harness';
import { expectMatches } from './truth-match';

describe('the bundler matrix: names and file:line from each bundler\'s source maps (e2e)', function () {
  this.timeout(180_000);
  let h: Harness;
  before(async () => {
    // `npm run build:fixtures` built them; made here only when they are not current (scripts/build-bundlers.ts), in a
    // process of its own: bundlers set process-wide state (Vite's build sets NODE_ENV=production).
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(ROOT, 'scripts', 'build-bundlers.ts')],
      { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    h = await launch();
  });
  after(async () => h?.close());

  for (const bundler of BUNDLERS) {
    it(`${bundler}: every type named, placed inside its definition, and the app's own`, async () => {
      const page = await h.newPage(`build/bundlers/${bundler}/index.html`);
      try {
        await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: `${bundler} app` });
        const comps = await located(page);
        const { seen, misses, placed } = placement(comps);
        console.log(`      [bundlers] ${bundler}: ${placed}`);
        expect([...seen].sort(), 'every type of the app').to.deep.equal(Object.keys(TYPES).sort());
        expect(misses, misses.join('; ')).to.deep.equal([]);
        // Judged on the app's own code: minified in the production builds (names given back by the maps), not in
        // webpack's development ones.
        expect((await lc.state(page)).minified, 'minified').to.equal(!bundler.startsWith('webpack-eval'));
      } finally {
        await page.close();
      }
    });
  }

  for (const rdt of [false, true]) {
    it(`Vite dev server, edits on disk${rdt ? ', React DevTools\' backend present' : ''}: counts equal the fibers, no duplicate, lines follow, state kept, no reload`, async () => {
      // A copy inside the repository, so that its imports resolve to the repository's node_modules.
      fs.mkdirSync(path.join(ROOT, 'out'), { recursive: true });
      const dir = fs.mkdtempSync(path.join(ROOT, 'out', 'vite-dev-'));
      fs.cpSync(APP_DIR, dir, { recursive: true });
      const counterFile = path.join(dir, 'src', 'widgets', 'Counter.tsx');
      const { createServer } = await import('vite');
      const react = (await import('@vitejs/plugin-react')).default;
      const port = await freePort();
      const server = await createServer({
        root: dir, configFile: false, logLevel: 'silent', plugins: [react()], cacheDir: path.join(dir, '.vite'),
        server: { host: '127.0.0.1', port, strictPort: true, hmr: { host: '127.0.0.1' } },
        // Prebundled at start: a dependency found on first load would make Vite reload the page.
        optimizeDeps: { include: ['react', 'react-dom/client', 'react/jsx-dev-runtime'] },
      });
      await server.listen();
      const page = await h.newPage();
      try {
        // React DevTools' real backend (react-devtools-core), installed before anything of the page's (and before ours).
        if (rdt) await page.evaluateOnNewDocument(fs.readFileSync(path.join(ROOT, 'build', 'fixtures', 'rdt.js'), 'utf8'));
        await page.goto(`http://127.0.0.1:${port}/`, { waitUntil: 'load' });
        await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: 'the Vite app', timeout: 60_000 });
        await page.evaluate(() => {
          (window as any).__notReloaded = true;
        });
        await lc.enable(page);
        const counter = async (): Promise<Comp[]> => ((await lc.snapshot(page)) as { components: Comp[] }).components.filter((c) => c.name === 'Counter');
        const counterAt = (line: number, what: string): Promise<Comp> => waitFor(async () => {
          const cs = await counter();
          return cs.length === 1 && cs[0].source?.file.endsWith('src/widgets/Counter.tsx') && cs[0].source.line === line ? cs[0] : null;
        }, { timeout: 30_000, what });
        await counterAt(lineOf(counterFile, 'Counter'), 'Counter placed at its definition');
        await expectMatches(page);
        // A hot update remounts or re-renders: compared as a multiset (a remounted component has a later id). With React
        // DevTools' backend, only the edit it could upset (the remount); the suite's time is short.
        await clicksAndEdits(page, counterFile, counterAt, {
          rdt, timeout: 30_000, matches: () => expectMatches(page, ['root'], { ordered: false }), label: 'bundlers',
        });
      } finally {
        await page.close();
        await server.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
