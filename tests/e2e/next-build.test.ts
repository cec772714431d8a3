/**
 * Next.js 16 (issue 44), `next build && next start` with `productionBrowserSourceMaps`: the bundler matrix's app as an
 * app-router page (tests/e2e/next-app.ts). Every type named and placed inside its definition through Turbopack's maps,
 * the app's own, Next's components never taken for the app's; counts against React's fibers.
 */
import { expect } from 'chai';
import { groundTruth } from './fiber-truth';
import { freePort, located, placement, TYPES } from './app-truth';
import { lc, waitFor } from './harness';
import { appMatches, next, nextApp, stop } from './next-app';
import { ours } from './truth-match';

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
      await appMatches(page);
      // Next's outermost component (its top host is the <html> the root layout renders): within one element of the walk
      // (the gap above); four over it while React 19's hoisted <meta> and <link> tops were counted inside <html> again.
      const outer = (await ours(page))[0];
      const truth = (await page.evaluate(groundTruth, ['#all'])).find((t) => t.depth === 0)!;
      expect(outer.rendered - truth.rendered, `${outer.rendered} against the walk's ${truth.rendered}`).to.be.within(0, 1);
    } finally {
      await page.close();
      stop(server.proc);
    }
  });
});
