/**
 * Heap snapshots from the benches' side: the self sizes of every object in the page's isolate (both worlds: the
 * page's and the content script's), summed by kind, and the difference between two such sums.
 */
import type { CDPSession, Page } from 'puppeteer-core';
import { launchBrowser, prepareBuild, sleep, startServer, waitFor, type BenchBrowser } from './env';

export interface Kind {
  count: number;
  bytes: number;
}

/** Self sizes after two full collections, summed by kind (`type:name`; strings and numbers by type only). */
export async function heapByKind(cdp: CDPSession): Promise<Map<string, Kind>> {
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const chunks: string[] = [];
  const onChunk = (e: { chunk: string }): void => {
    chunks.push(e.chunk);
  };
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  try {
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  } finally {
    cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  }
  const s = JSON.parse(chunks.join('')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } }; nodes: number[]; strings: string[];
  };
  const fields = s.snapshot.meta.node_fields;
  const types = s.snapshot.meta.node_types[0];
  const stride = fields.length;
  const iType = fields.indexOf('type');
  const iName = fields.indexOf('name');
  const iSize = fields.indexOf('self_size');
  const out = new Map<string, Kind>();
  for (let i = 0; i < s.nodes.length; i += stride) {
    const type = types[s.nodes[i + iType]];
    // Strings by type alone (their names are their text); closures' scopes without the snapshot's object ids.
    const name = type.includes('string') || type === 'number' ? '' : String(s.strings[s.nodes[i + iName]]).replace(/ @\d+/g, '').slice(0, 60);
    const key = name ? `${type}:${name}` : type;
    const k = out.get(key) ?? { count: 0, bytes: 0 };
    k.count++;
    k.bytes += s.nodes[i + iSize];
    out.set(key, k);
  }
  return out;
}

/** `after − before`, kind by kind. */
export function kindDiff(before: Map<string, Kind>, after: Map<string, Kind>): Map<string, Kind> {
  const diff = new Map<string, Kind>();
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(key) ?? { count: 0, bytes: 0 };
    const z = after.get(key) ?? { count: 0, bytes: 0 };
    diff.set(key, { count: z.count - a.count, bytes: z.bytes - a.bytes });
  }
  return diff;
}

export function totalBytes(kinds: Map<string, Kind>): number {
  let n = 0;
  for (const k of kinds.values()) n += k.bytes;
  return n;
}

/** A fresh page of tests/fixtures/soak.html with `rows` components of `per` elements, once it is mounted and quiet. */
export async function openSoak(b: BenchBrowser, origin: string, rows: number, per: number): Promise<Page> {
  const page = await b.newPage();
  await page.goto(`${origin}/soak.html?rows=${rows}&per=${per}`, { waitUntil: 'load', timeout: 120_000 });
  await waitFor(() => page.evaluate('(window).__fixtureReady === true'), 'the fixture', 120_000);
  await sleep(rows > 10_000 ? 1000 : 500);
  return page;
}

/** `measure` at two page sizes, each in a fresh page of one browser with the extension (the build the args ask for). */
export async function atTwoSizes<T>(args: Map<string, string>, small: number, large: number,
  measure: (b: BenchBrowser, origin: string, rows: number) => Promise<T>): Promise<[T, T]> {
  const dist = prepareBuild(args);
  const server = await startServer();
  const b = await launchBrowser({ dist });
  try {
    return [await measure(b, server.origin, small), await measure(b, server.origin, large)];
  } finally {
    await b.close();
    await server.close();
  }
}
