/**
 * `tsx scripts/parallel.ts a b c`: runs `npm run a`, `npm run b` and `npm run c` at once and prints each one's output
 * whole, in the order given, as it finishes; exits non-zero when any of them failed. `npm test` runs what needs
 * neither of the others this way, in two groups: the builds (extension, fixtures) and tsc; then web-ext lint (the
 * Firefox build) and the unit tests (some read the built fixtures) beside the end-to-end suite. They overlap instead of
 * queuing.
 *
 * `--stream-last`: the last one named writes to this terminal as it runs (the e2e suite's minutes of progress), and is
 * reported after the others.
 */
import { spawn } from 'node:child_process';
import { ROOT } from './chrome';

interface Done {
  name: string;
  code: number;
  out: string;
  ms: number;
}

function run(name: string, stream: boolean): Promise<Done> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const p = spawn('npm', ['run', '--silent', name], {
      cwd: ROOT, shell: process.platform === 'win32', env: process.env, stdio: stream ? ['ignore', 'inherit', 'inherit'] : 'pipe',
    });
    let out = '';
    p.stdout?.on('data', (d) => { out += String(d); });
    p.stderr?.on('data', (d) => { out += String(d); });
    p.on('error', (e) => resolve({ name, code: 1, out: `${out}\n${e.message}`, ms: Date.now() - t0 }));
    p.on('close', (code) => resolve({ name, code: code ?? 1, out, ms: Date.now() - t0 }));
  });
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const streamLast = args.includes('--stream-last');
  const names = args.filter((a) => a !== '--stream-last');
  const runs = names.map((n, i) => run(n, streamLast && i === names.length - 1));
  let failed = 0;
  for (const r of runs) {
    const d = await r;
    process.stdout.write(`\n> npm run ${d.name} (${(d.ms / 1000).toFixed(1)} s, ${d.code === 0 ? 'passed' : `FAILED, exit ${d.code}`})\n${d.out}\n`);
    if (d.code !== 0) failed++;
  }
  process.exitCode = failed > 0 ? 1 : 0;
}

void main();
