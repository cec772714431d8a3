/**
 * `npm start -- --headless` end to end, and the StressGrid demo's own
 * contract (the page the README screenshot and the benchmarks rely on).
 * Expects dist/ and build/demo/ to be built, as `npm test` does first.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { ROOT } from '../../scripts/chrome';
import { launch, waitFor, type Harness } from './harness';

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[]): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    // `node --import tsx` rather than npx: no npm start-up cost, same loader as `npm start`.
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, env: process.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Width and height from a PNG's IHDR chunk (bytes 16–23). */
function pngSize(file: string): { width: number; height: number } {
  const buf = fs.readFileSync(file);
  expect(buf.subarray(1, 4).toString('ascii')).to.equal('PNG');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

describe('npm start --headless (e2e)', function () {
  this.timeout(120_000);
  let out: string;
  before(() => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'layout-cost-start-test-'));
  });
  after(() => fs.rmSync(out, { recursive: true, force: true }));

  it('writes out/screenshot.png and out/snapshot.json and exits 0', async () => {
    // 12 measured frames, not the 45 a user's run waits for (StressGrid draws 5–10 a second here).
    const r = await run(['scripts/start.ts', '--headless', '--skip-build', `--out=${out}`, '--frames=12']);
    expect(r.code, `stdout:\n${r.stdout}\nstderr:\n${r.stderr}`).to.equal(0);
    expect(pngSize(path.join(out, 'screenshot.png'))).to.deep.equal({ width: 1280, height: 900 });
    const snap = JSON.parse(fs.readFileSync(path.join(out, 'snapshot.json'), 'utf8'));
    expect(snap.frames).to.be.an('object');
    expect(snap.components).to.be.an('array');
    // The run measured the demo: an empty snapshot (start.ts then prints "no components yet") is a failed start.
    expect(r.stdout, 'start.ts gave up waiting for component data').to.not.include('no component data within');
    expect(snap.components.length, `components in snapshot.json; stdout:\n${r.stdout}`).to.be.greaterThan(0);
    expect(snap.frames.count, 'frames measured (start.ts waits for 12 here)').to.be.at.least(12);
    // The demo's components arrive under their own names (the demo sets displayName on a minified build).
    const grid = snap.components.find((c: { name: string }) => c.name === 'StressGrid');
    expect(grid, 'StressGrid in the snapshot').to.exist;
    expect(grid.authored).to.be.at.least(4900);
    // The table printed is this snapshot's.
    const top = /top (\d+) of (\d+) components/.exec(r.stdout);
    expect(top, r.stdout).to.not.equal(null);
    expect(Number(top![2])).to.equal(snap.components.length);
  });
});

describe('StressGrid demo (e2e)', function () {
  this.timeout(90_000);
  let h: Harness;
  let page: Page;

  // One evaluate over querySelectorAll: $$eval would first make 4,900 element handles (seconds).
  const cellTexts = (): Promise<string[]> =>
    page.evaluate(() => Array.from(document.querySelectorAll('.grid .cell'), (c) => c.textContent ?? ''));
  const commits = (): Promise<number> => page.evaluate(() => (window as any).__demo.commits as number);
  async function stepAndCountChanged(): Promise<number> {
    const before = await cellTexts();
    const n = await commits();
    await page.evaluate(() => (window as any).__demo.step());
    await waitFor(async () => (await commits()) > n, { what: 'the grid to commit the step' });
    const after = await cellTexts();
    return after.filter((t, i) => t !== before[i]).length;
  }

  before(async () => {
    h = await launch();
    page = await h.newPage('demo/?paused=1&pct=100');
    await waitFor(() => page.evaluate(() => ((window as any).__demo?.commits ?? 0) >= 1), { what: 'the demo to mount' });
  });
  after(async () => h?.close());

  it('reads ?pct= and ?paused= from the query string', async () => {
    const d = await page.evaluate(() => ({ pct: (window as any).__demo.pct, paused: (window as any).__demo.paused }));
    expect(d).to.deep.equal({ pct: 100, paused: true });
    expect(await page.$eval('.seg.active', (el) => el.textContent)).to.match(/^100\s*%$/);
  });

  it('renders 4,900 cells, the web components and the imperative chart', async () => {
    const dom = await page.evaluate(() => ({
      cells: document.querySelectorAll('.grid .cell').length,
      openCards: [...document.querySelectorAll('stat-card')].map((e) => e.shadowRoot?.querySelectorAll('*').length ?? -1),
      closedGauges: [...document.querySelectorAll('sealed-gauge')].map((e) => e.shadowRoot === null),
      chart: document.querySelector('.chart')?.querySelectorAll('*').length ?? 0,
      listRows: document.querySelectorAll('.static-list > li').length,
    }));
    expect(dom.cells).to.equal(4900);
    expect(dom.openCards).to.deep.equal([11, 11, 11]);
    expect(dom.closedGauges).to.deep.equal([true, true]);
    expect(dom.chart).to.equal(50);
    expect(dom.listRows).to.equal(60);
  });

  it('a 100 % tick changes every cell and a 10 % tick exactly 490 (drawn without replacement)', async () => {
    expect(await stepAndCountChanged()).to.equal(4900);
    await page.evaluate(() => (window as any).__demo.setPct(10));
    expect(await stepAndCountChanged()).to.equal(490);
    expect(await page.evaluate(() => (window as any).__demo.lastMutated)).to.equal(490);
  });

  it('ticks on its own once resumed; the button follows pause()', async () => {
    const n = await commits();
    await page.evaluate(() => (window as any).__demo.resume());
    await waitFor(async () => (await commits()) >= n + 3, { what: 'three ticks after resume' });
    expect(await page.$eval('.run-button', (el) => el.textContent)).to.include('Pause');
    await page.evaluate(() => (window as any).__demo.pause());
    await waitFor(() => page.$eval('.run-button', (el) => el.textContent?.includes('Run')), { what: 'the Run button' });
  });
});
