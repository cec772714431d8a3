/**
 * `npm run test:e2e`: the end-to-end suite in two lanes (docs/ARCHITECTURE.md, "The test suite").
 *
 *   npm run test:e2e                         every file: the parallel lane, then the serial lane
 *   npm run test:e2e -- tests/e2e/panel.test.ts [more files]   just those files, one after another
 *   E2E_JOBS=1 npm run test:e2e              the parallel lane one file at a time too
 *   E2E_LANE=serial npm run test:e2e         the serial lane alone (E2E_LANE=parallel: the other one)
 *
 * Most e2e files spend their time waiting (a page to load, the panel to open, a frame to come): three of them run at
 * once, each in its own mocha worker with its own browser, user-data dir and server. Files whose assertions hold a
 * timing against Chrome's trace or count frames per second run after them, one at a time (the serial lane: SERIAL,
 * SERIAL_JOBS; with more than one, ALONE's still run alone).
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT } from './chrome';

/**
 * Files that time the browser's work or count frames: never beside the parallel lane. (always-on and scale hold ratios
 * and counts, and a 2 s bound on a freeze that reads 165 ms: they run in the parallel lane since 2026-11-27.) One at a
 * time (SERIAL_JOBS): two at a time were tried on 2026-11-29 (docs/PERFORMANCE.md), and beside a CPU hog the timing
 * file's style + layout read 46 % over the trace's once, its loaded bound 20 %.
 */
export const SERIAL = ['timing.test.ts', 'experiment.test.ts', 'timing-raf.test.ts', 'overlay.test.ts', 'attribution.test.ts'];
/**
 * Serial files that run with nothing beside them, after the others, one at a time: attribution's shares are held
 * against each component's cost measured alone at another moment, and a sibling browser's bursts made those moments
 * differ (its table-box split missed by 16 points once beside two hogs and a second file, passing on its measurement
 * again); the overlay's ramp test takes a band of bar lengths from a few frames and waits for later frames in it,
 * which a sibling's bursts kept away for 52 s (2026-11-29, a clean clone beside nothing else).
 */
export const ALONE = ['overlay.test.ts', 'attribution.test.ts'];

/**
 * The parallel lane's longest files (seconds alone on a quiet machine, 2026-11-28: 26 25 21 16 13 13 13 11 11 10 10),
 * started first: the workers take files in the order given, and a long file started last leaves the others idle at
 * the end (longest first balances them).
 */
export const LONGEST_FIRST = [
  'real-apps.test.ts', 'audit-cli.test.ts', 'firefox.test.ts', 'bundlers.test.ts', 'ci-scale.test.ts', 'mcp.test.ts', 'always-on.test.ts', 'sources.test.ts', 'playwright-fixture.test.ts',
  'vitals.test.ts', 'panel-recovery.test.ts', 'panel-theme.test.ts', 'panel-safety.test.ts', 'react-adapter.test.ts',
];

/**
 * Started last: Next.js's builds and its dev server's first compile keep both cores busy for a while, and beside a CPU
 * hog that starved the files running with them (a 2.5 s recovery bound read 2.65 s, and a descheduled rAF phase passed
 * for foreign work): at the end of the lane they run beside the short files.
 */
export const LAST = ['next-build.test.ts', 'next-dev.test.ts'];

/**
 * Workers in the parallel lane. Three, not two, on a machine of two cores: most of a file's time is spent waiting
 * (a page to load, a frame, a panel), and beside a CPU hog three workers get more of the machine than two do
 * (2026-11-28, the lane beside `yes`: 151 s with three, 166 s with two).
 */
const JOBS = 3;
/**
 * Workers in the serial lane (E2E_SERIAL_JOBS to try others). Two would use the core one leaves idle (the lane beside
 * one CPU hog 86–88 s against 108–115, quiet 75 s against 91), but a timing file beside a second browser and a hog
 * read its frames' style + layout 46 % over the trace's (2026-11-29): one at a time.
 */
const SERIAL_JOBS = 1;

const MOCHA = path.join(ROOT, 'node_modules', '.bin', 'mocha');
const TIMEOUT = ['--timeout', '120000'];
/** Each file's wall time, written by the root hook plugin (tests/e2e/file-times.ts); the slowest are printed at the end. */
const TIMES = path.join(ROOT, 'out', 'e2e-times.jsonl');
/** Each failed test (tests/e2e/file-times.ts), printed again after everything else. */
const FAILURES = path.join(ROOT, 'out', 'e2e-failures.jsonl');
const HOOKS = ['--require', path.join('tests', 'e2e', 'file-times.ts')];
/** Files named in the summary. */
const SLOWEST = 10;

function mocha(args: string[]): number {
  const r = spawnSync(MOCHA, [...TIMEOUT, ...HOOKS, ...args], { cwd: ROOT, stdio: 'inherit' });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

function main(): void {
  const given = process.argv.slice(2);
  if (given.length > 0) {
    process.exitCode = mocha(given);
    return;
  }
  fs.rmSync(TIMES, { force: true });
  fs.rmSync(FAILURES, { force: true });
  const dir = path.join(ROOT, 'tests', 'e2e');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.test.ts')).sort();
  const unknown = [...SERIAL, ...LONGEST_FIRST, ...LAST].filter((f) => !files.includes(f));
  if (unknown.length > 0) throw new Error(`scripts/test-e2e.ts lists files that do not exist: ${unknown.join(', ')}`);
  const rank = (f: string): number => (LONGEST_FIRST.includes(f) ? LONGEST_FIRST.indexOf(f)
    : LAST.includes(f) ? LONGEST_FIRST.length + 1 + LAST.indexOf(f) : LONGEST_FIRST.length);
  const parallel = files.filter((f) => !SERIAL.includes(f)).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1))
    .map((f) => path.join('tests', 'e2e', f));
  const serial = SERIAL.map((f) => path.join('tests', 'e2e', f));
  const paired = SERIAL.filter((f) => !ALONE.includes(f)).map((f) => path.join('tests', 'e2e', f));
  const alone = ALONE.map((f) => path.join('tests', 'e2e', f));
  const jobs = Math.max(1, Number(process.env.E2E_JOBS) || JOBS);
  const started = Date.now();
  // E2E_LANE=serial or parallel: that lane alone (to measure it).
  const lane = process.env.E2E_LANE;
  const runParallel = lane !== 'serial', runSerial = lane !== 'parallel';
  console.log(`e2e: parallel lane, ${runParallel ? `${parallel.length} files, ${jobs} at a time` : 'skipped (E2E_LANE=serial)'}`);
  const a = runParallel ? mocha(jobs > 1 ? ['--parallel', '--jobs', String(jobs), ...parallel] : parallel) : 0;
  const mid = Date.now();
  const serialJobs = Math.max(1, Number(process.env.E2E_SERIAL_JOBS) || SERIAL_JOBS);
  console.log(`e2e: serial lane (timing against the trace), ${runSerial
    ? `${serial.length} files, ${serialJobs === 1 ? 'one at a time' : `${serialJobs} at a time, then ${alone.length} one at a time, alone`}`
    : 'skipped (E2E_LANE=parallel)'}`);
  const b1 = runSerial ? mocha(serialJobs > 1 ? ['--parallel', '--jobs', String(serialJobs), ...paired] : paired) : 0;
  const b2 = runSerial ? mocha(alone) : 0;
  const b = b1 !== 0 ? b1 : b2;
  const end = Date.now();
  console.log(`e2e: parallel lane ${((mid - started) / 1000).toFixed(0)} s (${a === 0 ? 'passed' : 'FAILED'}), ` +
    `serial lane ${((end - mid) / 1000).toFixed(0)} s (${b === 0 ? 'passed' : 'FAILED'})`);
  printSlowest(serial);
  printFailures();
  process.exitCode = a !== 0 || b !== 0 ? 1 : 0;
}

/** The slowest files of the run, with their lane (wall time: a parallel file shared the machine with two others). */
function printSlowest(serial: string[]): void {
  let rows: { file: string; ms: number }[] = [];
  try {
    rows = fs.readFileSync(TIMES, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { file: string; ms: number });
  } catch {
    return;
  }
  rows.sort((x, y) => y.ms - x.ms);
  console.log(`e2e: the ${Math.min(SLOWEST, rows.length)} slowest files (wall time; the parallel lane's run three at a time)`);
  for (const r of rows.slice(0, SLOWEST)) {
    console.log(`  ${(r.ms / 1000).toFixed(1).padStart(6)} s  ${r.file}${serial.includes(r.file) ? '  (serial lane)' : ''}`);
  }
}

/** The failed tests again, last: CI shows the tail of the output, and the parallel lane printed them minutes before. */
function printFailures(): void {
  let rows: { file: string; title: string; error: string }[] = [];
  try {
    rows = fs.readFileSync(FAILURES, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as typeof rows[number]);
  } catch {
    return;
  }
  if (rows.length === 0) return;
  console.log(`e2e: ${rows.length} failed (printed again from above)`);
  for (const r of rows) {
    console.log(`  ${r.file}: ${r.title}`);
    for (const line of r.error.split('\n').slice(0, 12)) console.log(`      ${line}`);
  }
}

main();
