/**
 * The Next.js app of the e2e tests (issue 44): the bundler matrix's app (tests/fixtures/bundlers/src) as an app-router
 * page (tests/fixtures/next), copied into out/ per test file; `next` run in it; counts against React's fibers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { APP_DIR } from '../../scripts/build-bundlers';
import { ROOT } from '../../scripts/chrome';
import { launch, waitFor, type Harness } from './harness';
import { groundTruth } from './fiber-truth';
import { ours } from './truth-match';

export const NEXT = path.join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next');

/** `next <args>` in `dir`, its output kept (for a failure's message); resolves when `ready` matches it. */
export function next(dir: string, args: string[], ready: RegExp | null): { proc: ChildProcess; done: Promise<string> } {
  const proc = spawn(process.execPath, [NEXT, ...args], {
    cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: undefined },
  });
  let out = '';
  const done = new Promise<string>((resolve, reject) => {
    const seen = (d: Buffer): void => {
      out += String(d);
      if (ready !== null && ready.test(out)) resolve(out);
    };
    proc.stdout!.on('data', seen);
    proc.stderr!.on('data', seen);
    proc.on('exit', (code) => (code === 0 && ready === null ? resolve(out) : reject(new Error(`next ${args[0]} exited ${code}:\n${out.slice(-2000)}`))));
  });
  return { proc, done };
}

/** Stops a Next process group and waits for it to exit (5 s at most: then SIGKILL). */
export async function stop(p: ChildProcess | null): Promise<void> {
  if (p?.pid === undefined || p.exitCode !== null || p.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => p.once('exit', () => resolve()));
  const kill = (signal: NodeJS.Signals): void => {
    try {
      process.kill(-p.pid!, signal);
    } catch {
      // Gone already.
    }
  };
  kill('SIGTERM');
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([exited, new Promise<void>((resolve) => { timer = setTimeout(resolve, 5000); })]);
  clearTimeout(timer);
  if (p.exitCode === null && p.signalCode === null) kill('SIGKILL');
}

/**
 * Counts against React's fibers, as multisets of (depth, authored, rendered, portaledIn): every component of the page,
 * Next's own above the app and beside it too (by depth, since a production build's function names are minified in the
 * walk). Next's outermost ones counted one element more until 2026-11-28 (its metadata <div>, placed in <body>,
 * counted twice: docs/REACT-ADAPTER.md, counts).
 */
export async function appMatches(page: Page): Promise<void> {
  const line = (t: { depth: number; authored: number; rendered: number; portaledIn: number }): string => `${t.depth} ${t.authored} ${t.rendered} ${t.portaledIn}`;
  let last = ['', ''];
  await waitFor(async () => {
    const got = await ours(page);
    if (!got.some((c) => c.name === 'App')) return false;
    const all = (ts: { depth: number; authored: number; rendered: number; portaledIn: number }[]): string => ts.map(line).sort().join('\n');
    last = [all(got), all(await page.evaluate(groundTruth, ['#all']))];
    return last[1] !== '' && last[0] === last[1];
  }, { timeout: 8000, what: 'the counts of every component to match the fiber walk' }).catch(() => expect(last[0]).to.equal(last[1]));
}

/** A copy of the Next app inside the repository, with the bundler matrix's sources beside it as src/, and a browser. */
export function nextApp(): { h: () => Harness; dir: () => string; serve: (p: () => ChildProcess | null) => void } {
  let h: Harness;
  let dir: string;
  let server: () => ChildProcess | null = () => null;
  before(async () => {
    // Inside the repository: Turbopack compiles nothing outside the workspace root (the lockfile's folder).
    fs.mkdirSync(path.join(ROOT, 'out'), { recursive: true });
    dir = fs.mkdtempSync(path.join(ROOT, 'out', 'next-'));
    fs.cpSync(path.join(ROOT, 'tests', 'fixtures', 'next'), dir, { recursive: true });
    fs.cpSync(path.join(APP_DIR, 'src'), path.join(dir, 'src'), { recursive: true });
    fs.rmSync(path.join(dir, 'src', 'main.tsx'));
    h = await launch();
  });
  after(async () => {
    // The server first (a dev server still writing .next/dev made the folder's removal fail: ENOTEMPTY), then the
    // browser, then the folder; a folder left behind under out/ fails no test.
    await stop(server());
    await h?.close();
    if (dir) {
      try {
        fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
      } catch (e) {
        console.log(`      [next] ${dir} left behind: ${String(e).split('\n')[0]}`);
      }
    }
  });
  return { h: () => h, dir: () => dir, serve: (p) => { server = p; } };
}
