/** The `layout-cost` CLI as a child process, for the e2e files that drive it (audit-cli, ci-scale). */
import path from 'node:path';
import { spawn } from 'node:child_process';
import { ROOT } from '../../scripts/chrome';

export const BIN = path.join(ROOT, 'bin', 'layout-cost.mjs');

export interface Ran { code: number | null; stdout: string; stderr: string }

/** Async (the fixture server lives in the test's process: a blocking spawn would starve it). */
export function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    p.stdout.on('data', (d) => { stdout += String(d); });
    p.stderr.on('data', (d) => { stderr += String(d); });
    p.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
