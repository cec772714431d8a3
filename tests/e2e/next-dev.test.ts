/**
 * Next.js 16 (issue 44), `next dev` (Turbopack) with Fast Refresh edits made on disk (a label, a definition moved two
 * lines down, a hook added): after each the counts equal React's fibers, no component is listed twice, the source line
 * follows the file (a hot update keeps its chunk's URL: the worker reads it again, docs/SOURCES.md), the state is kept
 * where React keeps it, and the page never reloads; then again with React DevTools' real backend installed first (the
 * remount edit, and its backend still fed). The app: tests/e2e/next-app.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { clicksAndEdits, freePort, lineOf, placement, type Comp } from './app-truth';
import { lc, waitFor } from './harness';
import { appMatches, next, nextApp } from './next-app';
import { ROOT } from '../../scripts/chrome';

describe('Next.js 16: next dev with Fast Refresh (e2e)', function () {
  this.timeout(240_000);
  const app = nextApp();

  let server: ReturnType<typeof next> | null = null;
  let port = 0;
  before(async () => {
    port = await freePort();
    server = next(app.dir(), ['dev', '-p', String(port), '-H', '127.0.0.1'], /Ready in/);
    await server.done;
  });
  // Stopped before the app's folder goes (nextApp's after hook).
  app.serve(() => server?.proc ?? null);

  for (const rdt of [false, true]) {
    it(`next dev (Turbopack), edits on disk${rdt ? ', React DevTools\' backend present' : ''}: counts equal the fibers, no duplicate, lines follow, state kept, no reload`, async () => {
      const counterFile = path.join(app.dir(), 'src', 'widgets', 'Counter.tsx');
      const original = fs.readFileSync(counterFile, 'utf8');
      const page = await app.h().newPage();
      try {
        // Next's dev overlay makes closed shadow roots too (we count inside them: attachShadow is tapped): the fiber walk
        // is told where they are, as the fixtures tell it theirs.
        await page.evaluateOnNewDocument(() => {
          const closed = new Map<Element, ShadowRoot>();
          (window as any).__closedRoots = closed;
          const attach = Element.prototype.attachShadow;
          Element.prototype.attachShadow = function (this: Element, init: ShadowRootInit): ShadowRoot {
            const root = attach.call(this, init);
            if (init.mode === 'closed') closed.set(this, root);
            return root;
          };
        });
        // React DevTools' real backend (react-devtools-core), installed before anything of the page's (and before ours).
        if (rdt) await page.evaluateOnNewDocument(fs.readFileSync(path.join(ROOT, 'build', 'fixtures', 'rdt.js'), 'utf8'));
        // The first request compiles the page (tens of seconds on a loaded machine).
        await page.goto(`http://127.0.0.1:${port}/`, { waitUntil: 'load', timeout: 120_000 });
        await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: 'the Next app', timeout: 60_000 });
        await page.evaluate(() => {
          (window as any).__notReloaded = true;
        });
        await lc.enable(page);
        const counterAt = (line: number, what: string): Promise<Comp> => waitFor(async () => {
          const cs = ((await lc.snapshot(page)) as { components: Comp[] }).components.filter((c) => c.name === 'Counter');
          return cs.length === 1 && cs[0].source?.file.endsWith('src/widgets/Counter.tsx') && cs[0].source.line === line ? cs[0] : null;
        }, { timeout: 30_000, what });
        await counterAt(lineOf(counterFile, 'Counter'), 'Counter placed at its definition');
        if (!rdt) {
          // Next's own components (its router, its dev overlay) are never the app's (the page, app/page.tsx, is). Judged
          // once every type is located: a kind comes from its source, and beside a CPU hog the dev overlay's were still
          // on their way when Counter's had come.
          const comps = await waitFor(async () => {
            const cs = ((await lc.snapshot(page)) as { components: Comp[] }).components;
            return cs.every((c) => c.source !== null) ? cs : null;
          }, { timeout: 60_000, what: 'every type located' });
          const { misses } = placement(comps, true, ['Page']);
          expect(misses.filter((m) => m.startsWith('unexpected')), 'Next\'s components taken for the app\'s').to.deep.equal([]);
        }
        await appMatches(page);
        // The moved definition's line follows too: before the worker read the chunk again, it did not. With React
        // DevTools' backend, only the edit it could upset (the remount), as in the Vite test.
        await clicksAndEdits(page, counterFile, counterAt, { rdt, timeout: 60_000, matches: () => appMatches(page), label: 'next' });
      } finally {
        await page.close();
        // The next page starts from the app as it was.
        fs.writeFileSync(counterFile, original);
      }
    });
  }
});
