/** The `layout-cost` CLI (and other Node scripts) as a child process, for the e2e files that drive them (audit-cli,
 * ci-scale, playwright-fixture). */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { expect } from 'chai';
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

/**
 * `layout-cost audit` of a framework fixture's production build (vue.test.ts, preact.test.ts): steps that run `js` in
 * the page (its Heavy and Ticker at work), a budget Heavy exceeds and Ticker keeps. Exit 1, Heavy named, Heavy costlier.
 */
export async function auditHeavyOverBudget(url: string, js: string): Promise<void> {
  fs.mkdirSync(path.join(ROOT, 'out'), { recursive: true });
  const tmp = fs.mkdtempSync(path.join(ROOT, 'out', 'audit-'));
  try {
    const steps = path.join(tmp, 'steps.mjs');
    fs.writeFileSync(steps, `export default async (page) => { await page.evaluate(${JSON.stringify(js)}); };\n`);
    const budget = path.join(tmp, 'budget.json');
    fs.writeFileSync(budget, JSON.stringify({ components: { Heavy: { layoutMs: 0.5 }, Ticker: { layoutMs: 100 } }, page: { domElements: false } }));
    const r = await cli(['audit', url, '--steps', steps, '--budget', budget, '--out', path.join(tmp, 'out')]);
    expect(r.code, r.stderr).to.equal(1);
    expect(r.stdout).to.match(/FAIL Heavy: [\d.]+ ms of layout per frame at p95 is over its budget of 0\.5/);
    expect(r.stdout).to.not.match(/FAIL Ticker/);
    const report = JSON.parse(fs.readFileSync(path.join(tmp, 'out', 'report.json'), 'utf8'));
    expect(report.frames).to.be.at.least(20);
    const heavy = report.types.find((t: { name: string }) => t.name === 'Heavy');
    const ticker = report.types.find((t: { name: string }) => t.name === 'Ticker');
    expect(heavy.layoutMs.p95).to.be.greaterThan(ticker.layoutMs.p95);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
