/**
 * `tsx scripts/parallel.ts a b c`: runs `npm run a`, `npm run b` and `npm run c` at once and prints each one's output
 * whole, in the order given, as it finishes; exits non-zero when any of them failed. `npm test` runs what needs
 * neither of the others this way, in two groups: the builds (extension, fixtures) and tsc; then web-ext lint (the
 * Firefox build) and the unit tests (some read the built fixtures). They overlap instead of queuing.
 */
import { spawn } from 'node:child_process';
import { ROOT } from './chrome';

interface Done {
  name: string;
  code: number;
  out: string;
  ms: number;
}

function run(name: string): Promise<Done> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const p = spawn('npm', ['run', '--silent', name], { cwd: ROOT, shell: process.platform === 'win32', env: process.env });
    let out = '';
    p.stdout.on('data', (d) => { out += String(d); });
    p.stderr.on('data', (d) => { out += String(d); });
    p.on('error', (e) => resolve({ name, code: 1, out: `${out}\n${e.message}`, ms: Date.now() - t0 }));
    p.on('close', (code) => resolve({ name, code: code ?? 1, out, ms: Date.now() - t0 }));
  });
}

async function main(): Promise<void> {
  const names = process.argv.slice(2);
  const runs = names.map(run);
  let failed = 0;
  for (const r of runs) {
    const d = await r;
    process.stdout.write(`\n> npm run ${d.name} (${(d.ms / 1000).toFixed(1)} s, ${d.code === 0 ? 'passed' : `FAILED, exit ${d.code}`})\n${d.out}`);
    if (d.code !== 0) failed++;
  }
  process.exitCode = failed > 0 ? 1 : 0;
}

void main();
