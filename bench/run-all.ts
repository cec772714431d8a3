/**
 * Runs every benchmark once, in one go, and rewrites their sections of
 * docs/PERFORMANCE.md and the status table generated from their rows in
 * bench/status/ (`npm run bench`, or `npm run bench -- --doc`: the same). The extension is built once
 * (out/bench/dist, see lib/env.ts); each benchmark then runs with
 * `--no-build --doc`, one after the other (never in parallel: they measure
 * the same two cores).
 *
 *   npx tsx bench/run-all.ts [--only overhead,memory] [--no-build] [--base <dist of another build>]
 *
 * `--base` goes to the benches that judge this build against another (overhead.ts and own-js.ts: issue 61's cost of
 * truth against b7bf2fc's build).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { EXIT_SKIPPED, parseArgs, prepareBuild, ROOT } from './lib/env';
import { writeStatusTable } from './lib/status';

/** Cheapest first. canvas-flush.ts is the overlay engineer's (its own section); skipped when absent. */
const BENCHES = ['inject-size', 'always-on', 'channel-floor', 'boot-bytes', 'canvas-flush', 'accuracy', 'attribution', 'containment', 'sources', 'firefox-timing', 'commit-hook', 'commit-proportional', 'change-sources', 'memory', 'heap-breakdown', 'heap-after-disable', 'vitals-cost', 'overhead', 'own-js', 'idle', 'panel-open', 'ci-compare'];

/** The benches that take `--base`. */
const BASED = ['overhead', 'own-js'];

const args = parseArgs();
const only = args.get('only')?.split(',');
prepareBuild(args);
// Each bench's exit status: 0 every budget it judges passed (or was accepted at a measured floor), 1 one failed,
// EXIT_SKIPPED it could not measure here; anything else is an error of the bench itself.
const failed: string[] = [];
const skipped: string[] = [];
const broken: string[] = [];
for (const name of BENCHES) {
  if (only && !only.includes(name)) continue;
  const file = path.join(ROOT, 'bench', `${name}.ts`);
  if (!fs.existsSync(file)) continue;
  const extra = ['--no-build', '--doc'];
  const base = args.get('base');
  if (base && BASED.includes(name)) extra.push('--base', path.resolve(base));
  console.log(`\n=== bench/${name}.ts ${extra.join(' ')}`);
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  const r = spawnSync(npx, ['tsx', file, ...extra], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, LAYOUT_COST_BENCH_ALL: '1' } });
  if (r.status === 1) failed.push(name);
  else if (r.status === EXIT_SKIPPED) skipped.push(name);
  else if (r.status !== 0) broken.push(`${name} (exit ${r.status ?? r.signal})`);
}
writeStatusTable();
console.log('\n=== summary (docs/PERFORMANCE.md: the sections run and the status table)');
if (failed.length > 0) console.log(`budgets failed: ${failed.join(', ')}`);
if (skipped.length > 0) console.log(`skipped, not a pass: ${skipped.join(', ')} (could not measure on this machine)`);
if (broken.length > 0) console.log(`errors: ${broken.join(', ')}`);
if (failed.length + skipped.length + broken.length === 0) console.log('every budget passed (or was accepted at a measured floor)');
process.exit(failed.length + skipped.length + broken.length > 0 ? 1 : 0);
