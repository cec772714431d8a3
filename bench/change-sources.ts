/**
 * Where "what changed in the DOM" comes from, and what each way costs per changed element (issue 61, direction 1):
 *
 *  - **props**: the adapter compares each re-rendered host's props with the previous ones (react/props.ts
 *    `diffProps`, the code the agent runs, bundled here with esbuild) — timed on React 19's own props pairs, read
 *    from the demo's fibers after a 100 % StressGrid tick (4 900 cells: a text and often a class each).
 *  - **observer**: a MutationObserver on the document (attributes, text, children, subtree) takes React's writes as
 *    the browser records them (`takeRecords()` in the commit hook). Two costs, both timed on the same 4 900 cells
 *    written the way React writes them (a text node's value, the class): the page's own writes are slower while the
 *    observer is there (each write queues a record: paid inside the page's code), and taking the records and reading
 *    each one's target (the least any use of them does) is ours.
 *
 *   npx tsx bench/change-sources.ts [--rounds 8] [--doc] [--no-build]
 *
 * Both in one Chromium, interleaved, timed with the page's 5 µs clock (cross-origin isolated). Prints ns per changed
 * element for each; no budget (a measurement that chose a design: docs/TIMING.md, "What changed, from where").
 */
import { build } from 'esbuild';
import { commandLine, launchBrowser, machineNote, numArg, parseArgs, prepareBuild, ROOT, startServer, waitFor } from './lib/env';
import { f2, mdTable, median, spread, table } from './lib/stats';
import { today, writeSection } from './lib/doc';

const args = parseArgs();
const ROUNDS = numArg(args, 'rounds', 8);
const WARMUP = 2;

/** The agent's diffProps as a global function, with a sink that answers like the page's style sheets would. */
async function diffPropsSource(): Promise<string> {
  const out = await build({
    stdin: {
      contents: `import { diffProps } from './src/inject/agent/react/props';
        const sink = { attributeKind: () => 3, styleKind: () => 3 };
        // One pass over [element, props, previous props] triples: ns a pair (the loop is the bench's, compiled here).
        globalThis.__diffAll = (hosts) => {
          let acc = 0;
          const t0 = performance.now();
          for (let i = 0; i < hosts.length; i++) acc += diffProps(sink, hosts[i][0], hosts[i][1], hosts[i][2]);
          const ns = ((performance.now() - t0) / hosts.length) * 1e6;
          return acc < 0 ? -1 : ns;
        };`,
      resolveDir: ROOT, loader: 'ts',
    },
    bundle: true, write: false, format: 'iife', target: 'es2022', minify: true,
  });
  return out.outputFiles[0].text;
}

interface Round {
  props: number;
  writesBare: number;
  writesObserved: number;
  take: number;
  pairs: number;
  records: number;
}

async function main(): Promise<void> {
  prepareBuild(args);
  const src = await diffPropsSource();
  const server = await startServer();
  const b = await launchBrowser();
  const version = await b.browser.version();
  const rounds: Round[] = [];
  try {
    const page = await b.newPage();
    await page.goto(`${server.origin}/demo/?pct=100&seed=1&paused=1&coi=1`, { waitUntil: 'load' });
    await waitFor(() => page.evaluate(() => !!(window as any).__demo), 'the demo');
    await page.evaluate(src);
    for (let r = 0; r < ROUNDS + WARMUP; r++) {
      const one = await page.evaluate(async () => {
        const w = window as any;
        // React 19's own fibers: the host elements whose props a tick replaced, with the props before and after.
        const rootEl = document.getElementById('root') as Element;
        const key = Object.keys(rootEl).find((k) => k.startsWith('__reactContainer$')) as string;
        w.__demo.step();
        await new Promise((res) => setTimeout(res, 50));
        const hosts: [Element, unknown, unknown][] = [];
        const walk = (f: any): void => {
          for (let c = f.child; c; c = c.sibling) {
            if (c.tag === 5 && c.alternate && c.memoizedProps !== c.alternate.memoizedProps && typeof c.memoizedProps.children !== 'object') {
              hosts.push([c.stateNode, c.memoizedProps, c.alternate.memoizedProps]);
            }
            walk(c);
          }
        };
        walk((rootEl as any)[key].stateNode.current);
        let acc = 0;
        const med = (xs: number[]): number => xs.sort((x, y) => x - y)[xs.length >> 1];
        // Five passes over the same pairs (the first ones warm the code and the data): the median.
        const passes: number[] = [];
        for (let k = 0; k < 5; k++) passes.push(w.__diffAll(hosts));
        const props = med(passes);
        // The same cells written as React writes them: the text node's value, and the class of every other one.
        const cells = Array.from(document.querySelectorAll('.grid > .cell')) as HTMLElement[];
        const values = cells.map((c) => c.firstChild?.nodeValue ?? '');
        const classes = cells.map((c) => c.className);
        let v = 0;
        const write = (): number => {
          v++;
          const t = performance.now();
          for (let i = 0; i < cells.length; i++) {
            const c = cells[i];
            if (c.firstChild) c.firstChild.nodeValue = String((i + v) % 100);
            if (((i + v) & 1) === 0) c.className = `${classes[i]} x${v & 3}`;
          }
          return performance.now() - t;
        };
        const restore = (): void => {
          for (let i = 0; i < cells.length; i++) {
            if (cells[i].firstChild) cells[i].firstChild!.nodeValue = values[i];
            cells[i].className = classes[i];
          }
        };
        // Bare and observed writes alternate, five of each (the page's style work differs from one to the next): medians.
        const bare: number[] = [], observed: number[] = [], taken: number[] = [];
        let records = 0;
        for (let k = 0; k < 5; k++) {
          bare.push(write());
          restore();
          const mo = new MutationObserver(() => undefined);
          mo.observe(document, { attributes: true, characterData: true, childList: true, subtree: true, attributeOldValue: true, characterDataOldValue: true });
          observed.push(write());
          const t1 = performance.now();
          const recs = mo.takeRecords();
          for (let i = 0; i < recs.length; i++) {
            const t = recs[i].target;
            // What any use of a record does first: its element (a text record's is the text node's parent).
            const el = t.nodeType === 3 ? t.parentNode : t;
            if (el === null) acc++;
          }
          taken.push(performance.now() - t1);
          records = recs.length;
          mo.disconnect();
          restore();
        }
        const writesBare = med(bare), writesObserved = med(observed), take = med(taken);
        if (acc < 0) throw new Error('unreachable');
        return { props, writesBare, writesObserved, take, pairs: hosts.length, records, cells: cells.length };
      });
      if (r < WARMUP) continue;
      rounds.push({
        props: one.props, writesBare: (one.writesBare / one.cells) * 1e6, writesObserved: (one.writesObserved / one.cells) * 1e6,
        take: (one.take / one.cells) * 1e6, pairs: one.pairs, records: one.records,
      });
    }
  } finally {
    await b.close();
    await server.close();
  }
  const col = (f: (r: Round) => number, d = 0): string => spread(rounds.map(f), d);
  const rows = [
    ['props: diffProps per re-rendered host', col((r) => r.props), '—', col((r) => r.props)],
    ['observer: the page\'s writes, per cell (bare → observed)', `${col((r) => r.writesBare)} → ${col((r) => r.writesObserved)}`,
      col((r) => r.writesObserved - r.writesBare), '—'],
    ['observer: takeRecords + each record\'s element, per cell', '—', '—', col((r) => r.take)],
  ];
  const header = ['per changed element, ns (median [min–max])', 'measured', 'added to the page\'s own code', 'ours'];
  const obsTotal = median(rounds.map((r) => r.writesObserved - r.writesBare + r.take));
  const propsMed = median(rounds.map((r) => r.props));
  console.log(`\n${rounds[0].pairs} host pairs, ${rounds[0].records} records for ${rounds[0].pairs} cells; ${ROUNDS} rounds`);
  console.log(table(header, rows));
  console.log(`observer in all: ${obsTotal.toFixed(0)} ns a changed cell, props diff ${propsMed.toFixed(0)} ns: ${f2(obsTotal / propsMed)}×`);
  if (args.get('doc') === 'true') {
    writeSection('change-sources', `## What changed in the DOM: props diff against a MutationObserver (issue 61)

Command: \`${commandLine('bench/change-sources.ts')}\` — run ${today()}, ${version}, ${machineNote()}.

One page (the demo, cross-origin isolated: 5 µs clock), ${ROUNDS} rounds after ${WARMUP} warm-up. **props**: the agent's own
\`diffProps\` (bundled from src/) over React 19's props pairs for the ${rounds[0].pairs} host elements a 100 % tick re-rendered,
read from the fibers. **observer**: the same ${rounds[0].pairs} cells written as React writes them (each text node's value, every
other cell's class: ${rounds[0].records} records), without and with a MutationObserver on the document (attributes, text,
children, subtree, old values); then \`takeRecords()\` and each record's element. Per changed element:

${mdTable(header, rows)}

The observer costs ${obsTotal.toFixed(0)} ns a changed cell in all (${f2(obsTotal / propsMed)}× the props diff): a record is queued inside
each of the page's writes, and every record becomes an object when taken — before any look-up of its component. So
"what changed" stays the props diff for React (docs/TIMING.md, "What changed, from where"); the observer stays for what
no framework commit reports (nodes added or removed always, attributes and text by discovery).
`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
