/** The `layout-cost` CLI (and other Node scripts) as a child process, for the e2e files that drive them (audit-cli,
 * ci-scale, playwright-fixture). */
import path from 'node:path';
import { spawn } from 'node:child_process';
import { ROOT } from '../../scripts/chrome';

export const BIN = path.join(ROOT, 'bin', 'layout-cost.mjs');

export interface Ran { code: number | null; stdout: string; stderr: string }

/** A Node script as a child process, its output collected. Async (the fixture server lives in the test's process: a
 * blocking spawn would starve it). */
export function node(script: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [script, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    p.stdout.on('data', (d) => { stdout += String(d); });
    p.stderr.on('data', (d) => { stderr += String(d); });
    p.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  return node(BIN, args, env);
}
