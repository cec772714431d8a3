/**
 * What the extension's state per component is made of (issue 10, target 3: ≤ 32 B per element): a heap snapshot of
 * the page before and after enabling the overlay, at two sizes of tests/fixtures/soak.html, grouped by kind of heap
 * object (a class or plain object, a string, a table's backing store, compiled code…). The difference between the two
 * sizes, divided by the components between them, is the marginal bytes per component of each kind; what does not grow
 * with the page (code, the ring, the canvas) falls out. The snapshot holds both worlds (the page's isolate: the
 * agent in the MAIN world, the store in the content script's), so a kind is named by the constructor the minifier
 * left (`object:Rr`); bench/memory.ts gives the total this splits.
 *
 *   npx tsx bench/heap-breakdown.ts [--small 1000] [--large 4000] [--per 4] [--top 12] [--doc] [--no-build]
 */
import { commandLine, enableOverlay, machineNote, numArg, parseArgs, sleep, type BenchBrowser } from './lib/env';
import { mdTable, table } from './lib/stats';
import { today, writeSection } from './lib/doc';
import { atTwoSizes, heapByKind, kindDiff, openSoak, type Kind } from './lib/heap';

const args = parseArgs();
const SMALL = numArg(args, 'small', 1000);
const LARGE = numArg(args, 'large', 4000);
const PER = numArg(args, 'per', 4);
const TOP = numArg(args, 'top', 12);

/** On minus off, by kind, in a fresh page of `rows` rows. */
async function onMinusOff(b: BenchBrowser, origin: string, rows: number): Promise<Map<string, Kind>> {
  const page = await openSoak(b, origin, rows, PER);
  try {
    const cdp = await page.createCDPSession();
    const off = await heapByKind(cdp);
    await enableOverlay(page, rows);
    await sleep(1500);
    const on = await heapByKind(cdp);
    await cdp.detach();
    return kindDiff(off, on);
  } finally {
    await page.close().catch(() => undefined);
  }
}

async function main(): Promise<void> {
  const [small, large] = await atTwoSizes(args, SMALL, LARGE, onMinusOff);
  const comps = LARGE - SMALL;
  const rows = [...new Set([...small.keys(), ...large.keys()])].map((key) => {
    const s = small.get(key) ?? { count: 0, bytes: 0 };
    const l = large.get(key) ?? { count: 0, bytes: 0 };
    return { key, perComp: (l.bytes - s.bytes) / comps, objects: (l.count - s.count) / comps };
  });
  const total = rows.reduce((x, r) => x + r.perComp, 0);
  rows.sort((x, y) => Math.abs(y.perComp) - Math.abs(x.perComp));
  const header = ['B per component', 'objects per component', 'kind'];
  const top = rows.slice(0, TOP).map((r) => [r.perComp.toFixed(1), r.objects.toFixed(2), r.key]);
  const sum = `all kinds: ${total.toFixed(1)} B per component, ${(total / PER).toFixed(1)} B per element`;
  console.log(`\nMarginal bytes per component by kind (soak.html, ${SMALL} → ${LARGE} rows × ${PER} elements, overlay on − off)`);
  console.log(table(header, top));
  console.log(sum);
  if (args.has('doc')) {
    writeSection('heap-breakdown', `## State per component, by kind of heap object

${today()}, \`${commandLine('bench/heap-breakdown.ts')}\`, ${machineNote()}.

Heap snapshots of tests/fixtures/soak.html before and after enabling the overlay, at ${SMALL} and ${LARGE} rows of one
component and ${PER} elements each, grouped by kind (a constructor the minifier named, a plain object, a string, a
table's backing store); the difference between the two sizes per component between them, so what does not grow with
the page falls out. Both worlds are in the one snapshot: the two named classes with one per component are the
content store's component (seven fields, the larger) and the agent's entry (five fields; before 2988512 a plain
\`object:Object\` of seven), \`array\` the hash tables' backing stores (the agent's
fiber → entry weak map), \`array:(object elements)\` the id tables' pages of slots (the agent's entries, the store's
components, and the store's counts of components that rendered again once an API call read them — the bench waits on \`snapshot()\`; src/protocol/id-table.ts)
and the overlay's kept list of components, \`JSArrayBufferData\` the overlay's kept tree of the components (where
each one's subtree ends, an Int32Array by position, canvas/index.ts); a \`string\` per component would be keys copied into the content script's world,
which happens only while a DevTools panel or a recording shows them (docs/ARCHITECTURE.md, bulk records). The \`code\`
kinds are the compiler's: which functions were optimised differs between the two sizes, by a few bytes per component
either way from run to run. In ${sum} (bench/memory.ts measures the total from the heap's size).

${mdTable(header, top)}`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(2); // an error of the bench itself (run-all.ts): not a budget's failure
});
