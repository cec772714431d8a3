/**
 * What each kilobyte of the MAIN-world boot script costs at load, whether or
 * not it runs (issue 10, target 1: ≤ 1 ms per page load).
 *
 *   npx tsx bench/boot-bytes.ts [--loads 12] [--base <dist of another build>] [--doc] [--no-build]
 *
 * V8 compiles a script's top level when it loads it and pre-parses every
 * function in it, called or not; extension content scripts get no code cache.
 * So the boot's bytes cost something on every page load even where none of
 * them runs. Five extensions, each in a browser of its own, declared as ours
 * (a MAIN and an isolated document_start script in every frame; the isolated
 * one is one line), on the same interleaved loads of plain.html; for each, the
 * MAIN script's evaluation (thread time, Chrome's trace) and the `v8.compile`
 * inside it:
 *   one line                  the floor;
 *   inject.js, never called   this build's inject.js as the body of a function
 *                             nothing calls: its bytes, pre-parsed, and no run;
 *   inject.js twice, never called
 *   agent.js, never called    the on-enable agent the same way (≈ 7 × the
 *                             bytes): how the cost scales;
 *   inject.js                 this build's, run as at load (its channel
 *                             listener waits for an offer that never comes);
 *   inject.js of --base       with --base, that build's the same way: a
 *                             change of the boot against the build before,
 *                             on the same interleaved loads.
 * Each variant ends with the one line, checked after each load: a script that
 * did not parse or run to its end fails the run.
 * "ms per KB" divides the evaluation above the floor by the script's size.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commandLine, describeBuild, launchBrowser, machineNote, numArg, parseArgs, prepareBuild, startServer, type BenchBrowser } from './lib/env';
import { ourCost, scratchExtension, tracedLoad, type TraceEvent } from './lib/extension-cost';
import { f3, mdTable, median, pairedByRound, table } from './lib/stats';
import { today, writeSection } from './lib/doc';

const args = parseArgs();
const LOADS = numArg(args, 'loads', 12);
const ONE_LINE = 'globalThis.__bootBytes = 1;\n';

interface Run {
  label: string;
  bytes: number;
  b: BenchBrowser;
  dir: string;
  evaluate: number[];
  compile: number[];
  /** The round of each sample, for pairing two runs' loads of one round. */
  rounds: number[];
}

/** The `v8.compile` events nested in the MAIN script's evaluation, thread ms. */
function compileMs(events: readonly TraceEvent[], url: string): number {
  const outer = events.find((e) => e.ph === 'X' && e.name === 'EvaluateScript' && e.args?.data?.url === url);
  if (!outer) return NaN;
  const end = outer.ts + (outer.dur ?? 0);
  return events.filter((e) => e.ph === 'X' && e.name === 'v8.compile' && e.pid === outer.pid && e.tid === outer.tid
    && e.ts >= outer.ts && e.ts <= end).reduce((sum, e) => sum + (e.tdur ?? e.dur ?? 0) / 1000, 0);
}

async function main(): Promise<void> {
  const dist = prepareBuild(args);
  const inject = fs.readFileSync(path.join(dist, 'inject.js'), 'utf8');
  const agent = fs.readFileSync(path.join(dist, 'agent.js'), 'utf8');
  // Each ends with the one line, which marks that the script ran to its end (a wrapper that does not parse would be
  // measured as a SyntaxError's cost); the files end with a sourceMappingURL comment, hence the line breaks.
  const never = (name: string, text: string): string => `function ${name}(){\n${text}\n}\n`;
  const variants: { label: string; main: string }[] = [
    { label: 'one line', main: ONE_LINE },
    { label: 'inject.js, never called', main: `${never('__bootBytesA', inject)}${ONE_LINE}` },
    { label: 'inject.js twice, never called', main: `${never('__bootBytesA', inject)}${never('__bootBytesB', inject)}${ONE_LINE}` },
    { label: 'agent.js, never called', main: `${never('__bootBytesA', agent)}${ONE_LINE}` },
    { label: 'inject.js', main: `${inject}\n${ONE_LINE}` },
  ];
  const base = args.get('base');
  if (base) {
    const baseInject = fs.readFileSync(path.join(path.resolve(base), 'inject.js'), 'utf8');
    variants.push({ label: 'inject.js of --base', main: `${baseInject}\n${ONE_LINE}` });
  }
  const server = await startServer();
  const runs: Run[] = [];
  const failures: string[] = [];
  try {
    for (const v of variants) {
      const dir = scratchExtension('boot bytes', v.main, ONE_LINE);
      runs.push({ label: v.label, bytes: Buffer.byteLength(v.main), b: await launchBrowser({ dist: dir }), dir, evaluate: [], compile: [], rounds: [] });
    }
    for (let round = 0; round < LOADS + 1; round++) {
      for (const run of round % 2 === 0 ? runs : [...runs].reverse()) {
        const { events, checked: ran } = await tracedLoad(run.b, `${server.origin}/plain.html?r=${round}`, {
          categories: ['devtools.timeline', 'disabled-by-default-v8.compile'], settleMs: 200,
          beforeClose: (page) => page.evaluate(() => (globalThis as unknown as { __bootBytes?: number }).__bootBytes === 1),
        });
        if (!ran) {
          failures.push(`${run.label} round ${round}: its MAIN script did not run to its end`);
          continue;
        }
        const prefix = `chrome-extension://${run.b.extensionId}/`;
        const evaluate = ourCost(events, prefix, '').byFile.get('inject.js');
        const compile = compileMs(events, `${prefix}inject.js`);
        if (evaluate === undefined || !Number.isFinite(compile)) {
          failures.push(`${run.label} round ${round}: its MAIN script left no evaluation in the trace`);
          continue;
        }
        // The first round warms the HTTP cache.
        if (round === 0) continue;
        run.evaluate.push(evaluate);
        run.compile.push(compile);
        run.rounds.push(round);
      }
    }
  } finally {
    for (const run of runs) {
      await run.b.close();
      fs.rmSync(run.dir, { recursive: true, force: true });
    }
    await server.close();
  }
  if (failures.length > 0) {
    console.error(`missing measurements (a failure, not a zero):\n  ${failures.join('\n  ')}`);
    process.exitCode = 1;
  }
  const floor = median(runs[0].evaluate);
  const header = ['MAIN script', 'bytes', 'loads', 'evaluate, thread ms (median)', 'of which v8.compile', 'above one line', 'ms per KB above one line'];
  const rows = runs.map((r) => {
    const ev = median(r.evaluate);
    const above = ev - floor;
    return [r.label, `${r.bytes}`, `${r.evaluate.length}`, f3(ev), f3(median(r.compile)), f3(above),
      r === runs[0] ? '—' : f3(above / (r.bytes / 1024))];
  });
  console.log(`\nplain.html, ${LOADS} interleaved loads per extension`);
  console.log(table(header, rows));
  // With --base: this build's boot against that one, the two loads of each round differenced (the same moment of the
  // machine), with the sign test's 95 % interval.
  let versus = '';
  if (base) {
    const ours = runs.find((r) => r.label === 'inject.js')!;
    const theirs = runs.find((r) => r.label === 'inject.js of --base')!;
    const say = (what: string, pick: (r: Run) => number[]): string => {
      const pair = pairedByRound({ rounds: ours.rounds, values: pick(ours) }, { rounds: theirs.rounds, values: pick(theirs) });
      return `${what} ${f3(pair.median)} ms [${f3(pair.ci[0])}, ${f3(pair.ci[1])}] over ${pair.diffs.length} pairs: ${pair.verdict}`;
    };
    versus = `this build's inject.js against --base's, per round: ${say('evaluate', (r) => r.evaluate)}; `
      + `${say('v8.compile', (r) => r.compile)} (median [95 % interval])`;
    console.log(versus);
  }
  if (args.has('doc')) {
    writeSection('boot-bytes', `## What the boot's bytes cost at load

${today()}, \`${commandLine('bench/boot-bytes.ts')}\`, ${machineNote()}.

V8 pre-parses every function of a script it loads, called or not, and extension content scripts get no code cache:
each kilobyte of the MAIN-world boot costs something on every page load even where none of it runs. Five extensions
declared as ours (the isolated script one line in each), each in a browser of its own, on the same interleaved loads
of plain.html; the MAIN script's evaluation from Chrome's trace (thread time) and the \`v8.compile\` inside it. "never
called": the build's file as the body of a function nothing calls (its bytes and no run); "inject.js" this build's
boot as at load (its channel listener waits for an offer that never comes: no content side).${base ? ` "inject.js of
--base": the same, the file of ${describeBuild(base)}.` : ''}

${mdTable(header, rows)}${versus ? `

The two boots, the loads of each round differenced: ${versus.replace(/^this build's inject.js against --base's, per round: /, '')}.` : ''}`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(2); // an error of the bench itself (run-all.ts): not a budget's failure
});
