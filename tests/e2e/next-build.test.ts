/**
 * Next.js 16 (issue 44), `next build && next start` with `productionBrowserSourceMaps`: the bundler matrix's app as an
 * app-router page (tests/e2e/next-app.ts). Every type named and placed inside its definition through Turbopack's maps,
 * the app's own, Next's components never taken for the app's; counts against React's fibers.
 */
import { expect } from 'chai';
import { freePort, located, placement, TYPES } from './app-truth';
import { lc, waitFor } from './harness';
import { appMatches, next, nextApp, stop } from './next-app';

describe('Next.js 16: next build && next start (e2e)', function () {
  this.timeout(240_000);
  const app = nextApp();

  it('next build && next start (productionBrowserSourceMaps): every type named, placed inside its definition, the app\'s own', async () => {
    await next(app.dir(), ['build'], null).done;
    const port = await freePort();
    const server = next(app.dir(), ['start', '-p', String(port), '-H', '127.0.0.1'], /Ready in|started server|Local:/);
    const page = await app.h().newPage();
    try {
      await server.done;
      await page.goto(`http://127.0.0.1:${port}/`, { waitUntil: 'load' });
      await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: 'the Next app' });
      const comps = await located(page);
      // The app's page (app/page.tsx) is its own too.
      const { seen, misses, placed } = placement(comps, true, ['Page']);
      console.log(`      [next] build: ${placed}; ${comps.filter((c) => !(c.name in TYPES)).length} of Next's own (${[...new Set(comps.filter((c) => !(c.name in TYPES)).map((c) => c.kind))].join(', ')})`);
      expect([...seen].sort(), 'every type of the app').to.deep.equal(Object.keys(TYPES).sort());
      expect(misses, misses.join('; ')).to.deep.equal([]);
      // Judged on the app's own code: minified, its names given back by the maps.
      expect((await lc.state(page)).minified, 'minified').to.equal(true);
      // Every component, Next's outermost too (their top is the <html> the root layout renders; a <div> rendered beside
      // it sits in <body>, and counted twice there was one element over the walk).
      await appMatches(page);
    } finally {
      await page.close();
      await stop(server.proc);
    }
  });
});
