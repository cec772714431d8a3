/**
 * `layout-cost compare`'s noise and power (issue 47; docs/CI.md, docs/PERFORMANCE.md), through the real CLI, beside a
 * CPU hog as CI runners are (one `yes` unless --no-hog):
 *
 *   npx tsx bench/ci-compare.ts [--rounds 3] [--runs 3] [--no-hog] [--doc]
 *
 * Each round audits six report sets of the same two-route config (the timing fixture with `Heavy`, and a plain React
 * page): two of the base, and heads where Heavy lays out 1.5×, 2× and 3× the cells (`?cells=`), then compares base A
 * against base B (every significant regression there is a false positive) and base A against each head (power: was
 * Heavy flagged?). Targets: no false positive in any round; 3× flagged in every round.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../scripts/chrome';
import { startServer } from '../scripts/server';
import { recordStatus } from './lib/status';

const args = process.argv.slice(2);
const opt = (name: string, dflt: number): number => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const ROUNDS = opt('--rounds', 3);
const RUNS = opt('--runs', 3);
const HOG = !args.includes('--no-hog');
const DOC = args.includes('--doc');
const BIN = path.join(ROOT, 'bin', 'layout-cost.mjs');
const STEPS = path.join(ROOT, 'tests', 'fixtures', 'audit', 'steps-short.mjs');
const FACTORS = [1.5, 2, 3];

function cli(a: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [BIN, ...a], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d) => { out += String(d); });
    p.stderr.on('data', (d) => { out += String(d); });
    p.on('close', (code) => resolve({ code, out }));
  });
}

async function main(): Promise<void> {
  const server = await startServer();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-ci-compare-'));
  let hog: ChildProcess | null = null;
  if (HOG) hog = spawn('yes', [], { stdio: ['ignore', 'ignore', 'ignore'] });
  const config = (name: string, cells: number): string => {
    const f = path.join(tmp, `${name}.json`);
    fs.writeFileSync(f, JSON.stringify({
      budget: { page: { domElements: false } },
      routes: [
        { name: 'heavy', url: `${server.origin}/timing-load-r19.html?cells=${cells}`, steps: STEPS },
        { name: 'basic', url: `${server.origin}/basic-r19.html`, seconds: 0.3 },
      ],
    }));
    return f;
  };
  const falsePositives: number[] = [];
  const comparisons: number[] = [];
  const flagged = new Map<number, number>(FACTORS.map((f) => [f, 0]));
  const ratios = new Map<number, number[]>(FACTORS.map((f) => [f, []]));
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const sets: [string, number][] = [['a', 700], ['b', 700], ...FACTORS.map((f) => [`x${f}`, Math.round(700 * f)] as [string, number])];
      // One audit at a time (each is a browser): what a CI job does.
      for (const [name, cells] of sets) {
        const r = await cli(['audit', '--config', config(`${name}-${round}`, cells), '--runs', String(RUNS), '--out', path.join(tmp, `${name}-${round}`)]);
        if (r.code !== 0) throw new Error(`audit ${name} exited ${r.code}: ${r.out.slice(-400)}`);
      }
      const cmp = async (head: string): Promise<any> => {
        const out = path.join(tmp, `cmp-${head}-${round}`);
        await cli(['compare', path.join(tmp, `a-${round}`), path.join(tmp, `${head}-${round}`), '--out', out]);
        return JSON.parse(fs.readFileSync(path.join(out, 'compare.json'), 'utf8'));
      };
      const same = await cmp('b');
      falsePositives.push(same.regressions.filter((r: any) => r.significant).length + same.improvements.filter((r: any) => r.significant).length);
      comparisons.push(same.comparisons);
      const line = [`round ${round + 1}: base/base ${falsePositives[round]} significant of ${same.comparisons}`];
      for (const f of FACTORS) {
        const c = await cmp(`x${f}`);
        const heavy = c.regressions.find((r: any) => r.route === 'heavy' && r.component === 'Heavy');
        if (heavy?.significant) flagged.set(f, flagged.get(f)! + 1);
        ratios.get(f)!.push(heavy?.ratio ?? NaN);
        line.push(`×${f}: Heavy ${heavy ? `×${heavy.ratio} [${heavy.low}–${heavy.high}]${heavy.significant ? ' flagged' : ''}` : 'not slower'}`
          + `; others flagged ${c.regressions.filter((r: any) => r.significant && r.component !== 'Heavy').length}`);
      }
      console.log(line.join('; '));
    }
  } finally {
    hog?.kill();
    await server.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const fp = falsePositives.reduce((t, x) => t + x, 0), comps = comparisons.reduce((t, x) => t + x, 0);
  console.log(`\nfalse positives: ${fp} of ${comps} comparisons in ${ROUNDS} base-against-base rounds (${RUNS} runs a side${HOG ? ', beside a CPU hog' : ''})`);
  for (const f of FACTORS) console.log(`power at ×${f}: flagged in ${flagged.get(f)} of ${ROUNDS} rounds (measured ratios ${ratios.get(f)!.map((x) => x.toFixed(2)).join(', ')})`);
  if (DOC) {
    recordStatus('ci-compare', `npx tsx bench/ci-compare.ts --rounds ${ROUNDS} --runs ${RUNS}${HOG ? '' : ' --no-hog'} --doc`, [
      { budget: 'compare: base against base', target: 'no significant change', figure: `${fp} of ${comps} comparisons`, verdict: fp === 0 ? 'pass' : 'FAIL', paths: ['src/cli/compare.ts', 'src/cli/stats.ts', 'src/cli/report.ts'] },
      { budget: 'compare: a component 3× slower', target: 'flagged every time', figure: `${flagged.get(3)} of ${ROUNDS} rounds`, verdict: flagged.get(3) === ROUNDS ? 'pass' : 'FAIL', paths: ['src/cli/compare.ts', 'src/cli/stats.ts', 'src/cli/report.ts'] },
      { budget: 'compare: 1.5× and 2× slower', target: '—', figure: `${flagged.get(1.5)} and ${flagged.get(2)} of ${ROUNDS} rounds`, verdict: 'info', paths: ['src/cli/compare.ts', 'src/cli/stats.ts'] },
    ]);
  }
  process.exitCode = fp === 0 && flagged.get(3) === ROUNDS ? 0 : 1;
}

void main();
