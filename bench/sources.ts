/**
 * What looking up component sources costs the page (issue 15; docs/SOURCES.md): the agent's typing passes (the only
 * part on the page's main thread; finding and mapping run in the service worker), from enable until every component
 * has a source, on the 50 000-component page, the minified app with a source map, and two real-library apps.
 *
 *   npx tsx bench/sources.ts [--doc] [--no-build]
 */
import { commandLine, enableOverlay, launchBrowser, machineNote, parseArgs, prepareBuild, startServer, waitFor } from './lib/env';
import { today, writeSection } from './lib/doc';
import { mdTable } from './lib/stats';

const args = parseArgs();
const PAGES: [string, string][] = [
  ['big.html', '50 000 components (100 × 500)'],
  ['sources.html?build=min', 'minified app, linked source map (24 types)'],
  ['real-dashboard.html', 'recharts dashboard (production)'],
  ['real-editor.html', 'editor with menus (production)'],
];

interface Internals { typePasses: number; typeMs: number; typeMaxMs: number }

async function main(): Promise<void> {
  const dist = prepareBuild(args);
  const server = await startServer();
  const b = await launchBrowser({ dist });
  const version = await b.browser.version();
  const rows: string[][] = [];
  try {
    for (const [file, what] of PAGES) {
      const page = await b.newPage();
      await page.goto(`${server.origin}/${file}`, { waitUntil: 'load' });
      await new Promise((r) => setTimeout(r, 1500));
      const t0 = Date.now();
      await enableOverlay(page, 1);
      const done = (await waitFor(() => page.evaluate(async () => {
        const lc = (window as any).__LAYOUT_COST__;
        const s = await lc.snapshot();
        const n = s.components.length;
        const located = s.components.filter((c: { source: unknown }) => c.source !== null).length;
        const mapped = s.components.filter((c: { minifiedName?: string }) => c.minifiedName !== undefined).length;
        return n > 0 && located === n ? { n, located, mapped, internals: lc.internals() } : null;
      }), 'every component located', 120_000)) as { n: number; located: number; mapped: number; internals: unknown };
      const sec = (Date.now() - t0) / 1000;
      const i = done.internals as Internals;
      rows.push([what, String(done.n), String(i.typePasses), i.typeMs.toFixed(1), i.typeMaxMs.toFixed(1), sec.toFixed(1),
        String(done.mapped)]);
      console.log(`${file}: ${done.n} components, ${i.typePasses} passes, ${i.typeMs} ms in all, max ${i.typeMaxMs} ms, ${sec.toFixed(1)} s`);
      await page.close();
    }
  } finally {
    await b.close();
    await server.close();
  }
  const table = mdTable(['page', 'components', 'typing passes', 'main-thread ms in all', 'longest pass ms', 's until all located', 'renamed by a map'], rows);
  console.log(table);
  if (args.has('doc')) {
    writeSection('sources', `## Component sources: what the lookup costs the page

${today()}, \`${commandLine('bench/sources.ts')}\`, ${version}, ${machineNote()}.

From enable until every component has a source (docs/SOURCES.md). Only the agent's typing passes run on the page's
main thread (a timer, never the commit path; each pass stops after 6 ms and the next follows 50 ms later); finding
the text in the scripts and mapping it run in the service worker. "s until all located" includes the agent's
injection and the first frames.

${table}`);
  }
}

void main().catch((e) => {
  console.error(e);
  process.exit(2); // an error of the bench itself (run-all.ts): not a budget's failure
});
