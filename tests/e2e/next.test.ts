/**
 * Next.js 16 (issue 44): the bundler matrix's app (tests/fixtures/bundlers/src) as an app-router page
 * (tests/fixtures/next), copied into out/ and run the two ways a Next developer runs it. `next build && next start`
 * with `productionBrowserSourceMaps`: every type named and placed inside its definition through Turbopack's maps, the
 * app's own, and Next's components never taken for the app's. `next dev` (Turbopack) with Fast Refresh edits made on
 * disk (a label, a definition moved two lines down, a hook added): after each the counts equal React's fibers, no
 * component is listed twice, the source line follows the file (a hot update keeps its chunk's URL: the worker reads
 * it again, docs/SOURCES.md), the state is kept where React keeps it, and the page never reloads.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { APP_DIR } from '../../scripts/build-bundlers';
import { ROOT } from '../../scripts/chrome';
import { counterEdits, freePort, lineOf, located, placement, TYPES, type Comp } from './app-truth';
import { launch, lc, waitFor, type Harness } from './harness';
import { groundTruth } from './fiber-truth';
import { ours } from './truth-match';

const NEXT = path.join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next');

/** `next <args>` in `dir`, its output kept (for a failure's message); resolves when `ready` matches it. */
function next(dir: string, args: string[], ready: RegExp | null): { proc: ChildProcess; done: Promise<string> } {
  const proc = spawn(process.execPath, [NEXT, ...args], {
    cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: undefined },
  });
  let out = '';
  const done = new Promise<string>((resolve, reject) => {
    const seen = (d: Buffer): void => {
      out += String(d);
      if (ready !== null && ready.test(out)) resolve(out);
    };
    proc.stdout!.on('data', seen);
    proc.stderr!.on('data', seen);
    proc.on('exit', (code) => (code === 0 && ready === null ? resolve(out) : reject(new Error(`next ${args[0]} exited ${code}:\n${out.slice(-2000)}`))));
  });
  return { proc, done };
}

function stop(p: ChildProcess | null): void {
  if (p?.pid === undefined || p.exitCode !== null) return;
  try {
    process.kill(-p.pid, 'SIGTERM');
  } catch {
    // Gone already.
  }
}

/**
 * Counts against React's fibers, as multisets, for the components from the app's depth down (App, its subtree, and
 * Next's components as deep): by depth, since a production build's function names are minified in the walk. Not
 * yet for Next's components above: the outermost hold one element more than the walk finds, under `next dev` and
 * `next start` alike (docs/REACT-ADAPTER.md, "Not done"); a hoistable counted twice, which made it four, is fixed.
 */
async function appMatches(page: Page): Promise<void> {
  const line = (t: { depth: number; authored: number; rendered: number; portaledIn: number }): string => `${t.depth} ${t.authored} ${t.rendered} ${t.portaledIn}`;
  let last = ['', ''];
  await waitFor(async () => {
    const got = await ours(page);
    const app = got.find((c) => c.name === 'App');
    if (app === undefined) return false;
    const from = (ts: { depth: number; authored: number; rendered: number; portaledIn: number }[]): string =>
      ts.filter((t) => t.depth >= app.depth).map(line).sort().join('\n');
    last = [from(got), from(await page.evaluate(groundTruth, ['#all']))];
    return last[1] !== '' && last[0] === last[1];
  }, { timeout: 8000, what: 'the counts from the app down to match the fiber walk' }).catch(() => expect(last[0]).to.equal(last[1]));
}

describe('Next.js 16: next build && next start, and next dev with Fast Refresh (e2e)', function () {
  this.timeout(240_000);
  let h: Harness;
  let dir: string;
  before(async () => {
    // A copy inside the repository (Turbopack compiles nothing outside the workspace root, the lockfile's folder):
    // the Next app, and the bundler matrix's sources beside it as src/.
    fs.mkdirSync(path.join(ROOT, 'out'), { recursive: true });
    dir = fs.mkdtempSync(path.join(ROOT, 'out', 'next-'));
    fs.cpSync(path.join(ROOT, 'tests', 'fixtures', 'next'), dir, { recursive: true });
    fs.cpSync(path.join(APP_DIR, 'src'), path.join(dir, 'src'), { recursive: true });
    fs.rmSync(path.join(dir, 'src', 'main.tsx'));
    h = await launch();
  });
  after(async () => {
    await h?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('next build && next start (productionBrowserSourceMaps): every type named, placed inside its definition, the app\'s own', async () => {
    await next(dir, ['build'], null).done;
    const port = await freePort();
    const server = next(dir, ['start', '-p', String(port), '-H', '127.0.0.1'], /Ready in|started server|Local:/);
    const page = await h.newPage();
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

  it('next dev (Turbopack), edits on disk: counts equal the fibers, no duplicate, lines follow, state kept, no reload', async () => {
    const counterFile = path.join(dir, 'src', 'widgets', 'Counter.tsx');
    const port = await freePort();
    const server = next(dir, ['dev', '-p', String(port), '-H', '127.0.0.1'], /Ready in/);
    const page = await h.newPage();
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
      await server.done;
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
      // Next's own components (its router, its dev overlay) are never the app's (the page, app/page.tsx, is).
      const { misses } = placement(((await lc.snapshot(page)) as { components: Comp[] }).components, true, ['Page']);
      expect(misses.filter((m) => m.startsWith('unexpected')), 'Next\'s components taken for the app\'s').to.deep.equal([]);
      await appMatches(page);
      for (let i = 0; i < 2; i++) await page.click('#count');
      await waitFor(() => page.$eval('#count', (e) => e.textContent === 'Clicked 2 times'), { what: 'two clicks' });
      const edit = async (fn: (text: string) => string, what: string, shown: string): Promise<void> => {
        fs.writeFileSync(counterFile, fn(fs.readFileSync(counterFile, 'utf8')));
        await waitFor(() => page.$eval('#count', (e, t) => e.textContent === t, shown), { timeout: 60_000, what });
        expect(await page.evaluate(() => (window as any).__notReloaded === true), `no reload after ${what}`).to.equal(true);
        await appMatches(page);
      };
      // The moved definition's line follows too: before the worker read the chunk again, it did not.
      await counterEdits(counterFile, edit, counterAt);
    } finally {
      await page.close();
      stop(server.proc);
    }
  });
});
