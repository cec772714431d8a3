/**
 * Runs every benchmark once, in one go, and rewrites their sections of
 * docs/PERFORMANCE.md (`npm run bench`). The extension is built once
 * (out/bench/dist, see lib/env.ts); each benchmark then runs with
 * `--no-build --doc`, one after the other (never in parallel: they measure
 * the same two cores).
 *
 *   npx tsx bench/run-all.ts [--only overhead,memory] [--no-build]
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs, prepareBuild, ROOT } from './lib/env';

/** Cheapest first. canvas-flush.ts is the overlay engineer's (its own section); skipped when absent. */
const BENCHES = ['inject-size', 'always-on', 'channel-floor', 'boot-bytes', 'canvas-flush', 'accuracy', 'attribution', 'containment', 'sources', 'firefox-timing', 'commit-hook', 'commit-proportional', 'memory', 'heap-breakdown', 'overhead', 'own-js', 'idle', 'panel-open'];

const args = parseArgs();
const only = args.get('only')?.split(',');
prepareBuild(args);
const failed: string[] = [];
for (const name of BENCHES) {
  if (only && !only.includes(name)) continue;
  const file = path.join(ROOT, 'bench', `${name}.ts`);
  if (!fs.existsSync(file)) continue;
  const extra = ['--no-build', '--doc'];
  console.log(`\n=== bench/${name}.ts ${extra.join(' ')}`);
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  const r = spawnSync(npx, ['tsx', file, ...extra], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, LAYOUT_COST_BENCH_ALL: '1' } });
  if (r.status !== 0) failed.push(name);
}
if (failed.length > 0) {
  console.error(`\nfailed to run: ${failed.join(', ')}`);
  process.exit(1);
}
