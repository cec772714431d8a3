/**
 * The floor under an adapter that hears commits from the browser (dom-commits.ts: Vue 3 in every build, Preact in
 * production; issues 63 and 64): what the reads cost that any such adapter must make for each changed cell, measured
 * alone, in this browser, without the extension.
 *
 *   npx tsx bench/record-floor.ts [--cells 4900] [--rounds 15] [--rate preact=14,vue=8]
 *
 * A page builds the StressGrid's shape (cells, each an element holding a text), observes it as dom-commits.ts does
 * (attributes and texts with their values before, node lists: three observers), and then, round after round, writes
 * every cell's class and text as each framework does — Preact: `className`, then the text node's `data`; Vue:
 * `className`, then `textContent` (a new text node) — and takes the records. Timed: one pass over a round's records
 * making the reads that tell, for each cell, which element changed and whether anything did:
 *  - preact: the attribute record's target, name and value before, the element's value now; the text record's target,
 *    its parent (to pair it with its element's attribute), its data and value before; the element's parent (cells
 *    under one parent are split without weighing, causes.ts `alike`);
 *  - vue: the same for the attribute; the node-list record's target and its element count (a text swapped in an
 *    element holding no element: dom-commits.ts `leaves`); the element's parent.
 * Each read is also timed alone, over fresh records. No component look-up, no bookkeeping: what the agent's own
 * `handle` costs beyond these is the adapter's; these are the browser's (bench/own-js.ts `--app` gives the whole).
 *
 * Printed: ns a cell (median over rounds), ms a 100 % commit, and that commit's share of a second at the grid's commit
 * rate (`--rate`, commits a second of each app's grid with the overlay on: bench/own-js.ts `--app … --pct 100`), to
 * set beside the 2 % budget (SPEC §6). A floor, not a budget: not judged.
 */
import os from 'node:os';
import { browserVersion, launchBrowser, numArg, parseArgs, startServer } from './lib/env';
import { f2, median, table } from './lib/stats';

const args = parseArgs();
const CELLS = numArg(args, 'cells', 4900);
const ROUNDS = numArg(args, 'rounds', 15);
const RATE = new Map((args.get('rate') ?? 'preact=14,vue=8').split(',').map((kv) => {
  const [k, v] = kv.split('=');
  return [k, Number(v)] as [string, number];
}));

/** Runs in the page: plain JavaScript, so that no helper of the bundler's is needed there. */
const PAGE = String.raw`
window.__floor = (style, cells, rounds) => {
  const root = document.createElement('div');
  root.style.cssText = 'display:grid;grid-template-columns:repeat(70,14px);font:9px monospace';
  document.body.textContent = '';
  document.body.appendChild(root);
  const els = [];
  for (let i = 0; i < cells; i++) {
    const c = document.createElement('div');
    c.className = 'c0';
    c.appendChild(document.createTextNode(String(i % 100)));
    root.appendChild(c);
    els.push(c);
  }
  const attrO = new MutationObserver(() => {}), textO = new MutationObserver(() => {}), treeO = new MutationObserver(() => {});
  attrO.observe(root, { attributes: true, subtree: true, attributeOldValue: true });
  textO.observe(root, { characterData: true, subtree: true, characterDataOldValue: true });
  treeO.observe(root, { childList: true, subtree: true });
  let n = 0;
  const write = () => {
    n++;
    for (let i = 0; i < cells; i++) {
      const c = els[i];
      c.className = 'c' + ((n + i) % 7);
      const v = String((n * 31 + i) % 1000);
      if (style === 'preact') c.firstChild.data = v;
      else c.textContent = v;
    }
    return [attrO.takeRecords(), textO.takeRecords(), treeO.takeRecords()];
  };
  let sink = 0;
  const floor = (a, d, t) => {
    const t0 = performance.now();
    for (let i = 0; i < a.length; i++) {
      const r = a[i];
      const el = r.target;
      const name = r.attributeName;
      if (el.getAttribute(name) !== r.oldValue) sink++;
      if (el.parentElement === root) sink++;
      if (style === 'preact') {
        const x = d[i];
        const tn = x.target;
        if (tn.parentNode === el && tn.data !== x.oldValue) sink++;
      } else {
        const x = t[i];
        if (x.target === el && el.childElementCount === 0) sink++;
      }
    }
    return performance.now() - t0;
  };
  const reads = {
    'attribute target': (a) => { for (const r of a) if (r.target === root) sink++; },
    'attribute name': (a) => { for (const r of a) if (r.attributeName === 'x') sink++; },
    'attribute value before': (a) => { for (const r of a) if (r.oldValue === 'x') sink++; },
    'getAttribute (value now)': (a) => { for (let i = 0; i < a.length; i++) if (els[i].getAttribute('class') === 'x') sink++; },
    'element parentElement': (a) => { for (let i = 0; i < a.length; i++) if (els[i].parentElement === null) sink++; },
  };
  if (style === 'preact') {
    reads['text target'] = (a, d) => { for (const r of d) if (r.target === root) sink++; };
    reads['text parentNode'] = (a, d) => { for (let i = 0; i < d.length; i++) if (els[i].firstChild.parentNode === root) sink++; };
    reads['text data'] = (a, d) => { for (let i = 0; i < d.length; i++) if (els[i].firstChild.data === 'x') sink++; };
    reads['text value before'] = (a, d) => { for (const r of d) if (r.oldValue === 'x') sink++; };
  } else {
    reads['node-list target'] = (a, d, t) => { for (const r of t) if (r.target === root) sink++; };
    reads['childElementCount'] = (a) => { for (let i = 0; i < a.length; i++) if (els[i].childElementCount === 1) sink++; };
  }
  for (let w = 0; w < 3; w++) { const [a, d, t] = write(); floor(a, d, t); }
  const out = { records: 0, floor: [], reads: {} };
  for (let r = 0; r < rounds; r++) {
    const [a, d, t] = write();
    out.records = a.length + d.length + t.length;
    out.floor.push(floor(a, d, t) * 1e6 / cells);
    for (const [k, f] of Object.entries(reads)) {
      const [a2, d2, t2] = write();
      const t0 = performance.now();
      f(a2, d2, t2);
      (out.reads[k] ??= []).push((performance.now() - t0) * 1e6 / cells);
    }
  }
  window.__sink = sink;
  attrO.disconnect(); textO.disconnect(); treeO.disconnect();
  return out;
};`;

interface Out {
  records: number;
  floor: number[];
  reads: Record<string, number[]>;
}

async function main(): Promise<void> {
  // Cross-origin isolated (`?coi=1`, scripts/server.ts): 5 µs timers, where 100 µs ticks are 20 ns a cell.
  const server = await startServer();
  const b = await launchBrowser();
  try {
    const page = await b.newPage();
    // Any file of the server's will do as an inert document: the script replaces its body.
    await page.goto(`${server.origin}/demo/demo.css?coi=1`);
    if (!(await page.evaluate(() => crossOriginIsolated))) throw new Error('the page is not cross-origin isolated: 100 µs timers');
    await page.addScriptTag({ content: PAGE });
    const rows: string[][] = [];
    const reads: string[][] = [];
    for (const style of ['preact', 'vue']) {
      const o = await page.evaluate((s, c, r) => (window as any).__floor(s, c, r), style, CELLS, ROUNDS) as Out;
      const ns = median(o.floor);
      const perCommit = (ns * CELLS) / 1e6;
      const rate = RATE.get(style) ?? NaN;
      rows.push([style, String(o.records / CELLS), f2(ns), f2(perCommit), String(rate), `${f2((perCommit * rate) / 10)} %`]);
      for (const [k, xs] of Object.entries(o.reads)) reads.push([style, k, f2(median(xs))]);
    }
    console.log(`Reads a record-reading adapter must make, ${CELLS} cells all changed, median of ${ROUNDS} rounds`);
    const cpus = os.cpus();
    console.log(`${cpus.length} shared cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), load ${os.loadavg()[0].toFixed(1)}; ${await browserVersion(b)}\n`);
    console.log(table(['writes like', 'records a cell', 'floor ns a cell', 'ms a 100 % commit', 'commits/s (--rate)', 'share of a second'], rows));
    console.log('\nEach read alone, ns a cell (fresh records each)');
    console.log(table(['writes like', 'read', 'ns a cell'], reads));
  } finally {
    await b.close();
    await server.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
