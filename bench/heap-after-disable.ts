/**
 * What the page's heap keeps after the overlay is turned off (issue 45, item 4): a page of `--rows` components
 * (tests/fixtures/soak.html, one element each by default) measured never enabled, then enabled until every
 * component is tracked, then disabled; the heap after two full collections, both worlds (the page's and the
 * content script's). The difference is what our turning it on left behind: the agent's code and its empty tables
 * stay (a second enable is instant), nothing may grow with the page. Printed by kind of heap object, largest first.
 *
 *   npx tsx bench/heap-after-disable.ts [--rows 50000] [--per 1] [--top 12] [--no-build]
 *
 * Fails (exit 1) when what stays is over `--budget` bytes per component (default 8) — a fixed cost does not.
 */
import { commandLine, enableOverlay, launchBrowser, lc, machineNote, numArg, parseArgs, prepareBuild, sleep, startServer, waitFor } from './lib/env';
import { heapByKind, kindDiff, totalBytes } from './lib/heap';
import { table } from './lib/stats';

const args = parseArgs();
const ROWS = numArg(args, 'rows', 50_000);
const PER = numArg(args, 'per', 1);
const TOP = numArg(args, 'top', 12);
const BUDGET = numArg(args, 'budget', 8);

async function main(): Promise<void> {
  const dist = prepareBuild(args);
  const server = await startServer();
  const b = await launchBrowser({ dist });
  try {
    const page = await b.newPage();
    await page.goto(`${server.origin}/soak.html?rows=${ROWS}&per=${PER}`, { waitUntil: 'load', timeout: 120_000 });
    await waitFor(() => page.evaluate('(window).__fixtureReady === true'), 'the fixture', 120_000);
    await sleep(1000);
    const cdp = await page.createCDPSession();
    const never = await heapByKind(cdp);
    await enableOverlay(page, ROWS);
    await sleep(1500);
    const on = await heapByKind(cdp);
    await lc.disable(page);
    await waitFor(async () => (await lc.state(page)).enabled === false, 'off');
    await sleep(1500);
    const off = await heapByKind(cdp);
    await cdp.detach();
    const kept = kindDiff(never, off);
    const rows = [...kept.entries()].sort((x, y) => Math.abs(y[1].bytes) - Math.abs(x[1].bytes)).slice(0, TOP);
    console.log(`\nHeap after disable − never enabled, by kind (soak.html, ${ROWS} rows × ${PER} elements)`);
    console.log(table(['kept B', 'objects', 'kind'], rows.map(([k, v]) => [String(v.bytes), String(v.count), k])));
    const onBytes = totalBytes(kindDiff(never, on));
    const keptBytes = totalBytes(kept);
    const per = keptBytes / ROWS;
    console.log(`\non: +${(onBytes / 1e6).toFixed(2)} MB; after disable: +${(keptBytes / 1e6).toFixed(2)} MB ` +
      `(${per.toFixed(1)} B per component; budget ${BUDGET})`);
    console.log(`${commandLine('bench/heap-after-disable.ts')}, ${machineNote()}`);
    process.exitCode = per <= BUDGET ? 0 : 1;
  } finally {
    await b.close();
    await server.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
