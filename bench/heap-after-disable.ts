/**
 * What the page's heap keeps after the overlay is turned off (issue 45, item 4). tests/fixtures/soak.html at two
 * sizes (one element per component by default), each in a fresh page: the heap never enabled, then enabled until
 * every component is tracked, then disabled; after two full collections, both worlds (the page's and the content
 * script's). What stays falls in two parts: a fixed part (the agent's and the content script's code and their empty
 * tables, kept so that a second enable is instant) and what grows with the page, the slope between the two sizes,
 * which must be nothing. Printed by kind of heap object, largest first, for the large page.
 *
 *   npx tsx bench/heap-after-disable.ts [--small 10000] [--large 50000] [--per 1] [--top 10] [--doc] [--no-build]
 *
 * Fails (exit 1) when what stays grows by more than `--budget` bytes per component (default 2) or the fixed part is
 * over `--fixed` MB (default 3).
 */
import { commandLine, enableOverlay, lc, machineNote, numArg, parseArgs, sleep, waitFor, type BenchBrowser } from './lib/env';
import { atTwoSizes, heapByKind, kindDiff, openSoak, totalBytes, type Kind } from './lib/heap';
import { table } from './lib/stats';
import { recordStatus } from './lib/status';

const args = parseArgs();
const SMALL = numArg(args, 'small', 10_000);
const LARGE = numArg(args, 'large', 50_000);
const PER = numArg(args, 'per', 1);
const TOP = numArg(args, 'top', 10);
const BUDGET = numArg(args, 'budget', 2);
const FIXED_MB = numArg(args, 'fixed', 3);

interface Kept {
  on: number;
  kept: number;
  kinds: Map<string, Kind>;
}

async function keptAfterDisable(b: BenchBrowser, origin: string, rows: number): Promise<Kept> {
  const page = await openSoak(b, origin, rows, PER);
  try {
    const cdp = await page.createCDPSession();
    const never = await heapByKind(cdp);
    await enableOverlay(page, rows);
    await sleep(1500);
    const on = await heapByKind(cdp);
    await lc.disable(page);
    await waitFor(async () => (await lc.state(page)).enabled === false, 'off');
    await waitFor(async () => (await lc.internals(page)).running === 0, 'the agent stopped');
    await sleep(1500);
    const off = await heapByKind(cdp);
    await cdp.detach();
    const kinds = kindDiff(never, off);
    return { on: totalBytes(kindDiff(never, on)), kept: totalBytes(kinds), kinds };
  } finally {
    await page.close().catch(() => undefined);
  }
}

async function main(): Promise<void> {
  const [small, large] = await atTwoSizes(args, SMALL, LARGE, keptAfterDisable);
  const rows = [...large.kinds.entries()].sort((x, y) => Math.abs(y[1].bytes) - Math.abs(x[1].bytes)).slice(0, TOP);
  console.log(`\nHeap after disable − never enabled, by kind (soak.html, ${LARGE} rows × ${PER} elements)`);
  console.log(table(['kept B', 'objects', 'kind'], rows.map(([k, v]) => [String(v.bytes), String(v.count), k])));
  const slope = (large.kept - small.kept) / (LARGE - SMALL);
  const fixed = large.kept - slope * LARGE;
  const mb = (n: number): string => (n / 1e6).toFixed(2);
  console.log(`\n${SMALL} components: on +${mb(small.on)} MB, after disable +${mb(small.kept)} MB`);
  console.log(`${LARGE} components: on +${mb(large.on)} MB, after disable +${mb(large.kept)} MB`);
  console.log(`kept after disable: ${slope.toFixed(1)} B per component (budget ${BUDGET}), fixed ${mb(fixed)} MB (budget ${FIXED_MB})`);
  console.log(`${commandLine('bench/heap-after-disable.ts')}, ${machineNote()}`);
  const ok = slope <= BUDGET && fixed <= FIXED_MB * 1e6;
  if (args.has('doc')) {
    recordStatus('heap-after-disable', commandLine('bench/heap-after-disable.ts'), [
      {
        budget: 'heap kept after disable, per component', target: `≤ ${BUDGET} B`, figure: `${slope.toFixed(1)} B`,
        verdict: slope <= BUDGET ? 'pass' : 'FAIL', paths: ['src/inject/agent', 'src/content/agent', 'src/overlay'],
      },
      {
        budget: 'heap kept after disable, fixed (code, empty tables)', target: `≤ ${FIXED_MB} MB`, figure: `${mb(fixed)} MB`,
        verdict: fixed <= FIXED_MB * 1e6 ? 'pass' : 'FAIL', paths: ['src/inject/agent', 'src/content/agent', 'src/overlay'],
      },
    ]);
  }
  process.exitCode = ok ? 0 : 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(2); // an error of the bench itself (run-all.ts): not a budget's failure
});
