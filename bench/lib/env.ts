/**
 * What every benchmark needs: flags, a private production build of the
 * extension, browsers with and without it, the static server, and small page
 * helpers. Benchmarks measure a private copy (out/bench/dist) built from the
 * current src/ with `webpack --mode production --devtool source-map`: the
 * shipped minified code plus external source maps, so profiles can name the
 * original functions, and so another engineer rebuilding dist/ (possibly in
 * development mode) mid-run cannot change what is being measured.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { findChrome, LINUX_CI_FLAGS, QUIET_FLAGS, ROOT } from '../../scripts/chrome';
import { startServer, type StaticServer } from '../../scripts/server';

export { ROOT };
export const OUT_DIR = path.join(ROOT, 'out', 'bench');
/**
 * A bench's exit status when it could not measure what it judges on this machine (no Firefox): said in run-all.ts's
 * summary, and no pass.
 */
export const EXIT_SKIPPED = 3;
export const BENCH_DIST = path.join(OUT_DIR, 'dist');
export const VIEWPORT = { width: 1280, height: 900 };

/** `--name value`, `--name=value` and bare `--flag` (→ 'true'). */
export function parseArgs(argv = process.argv.slice(2)): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) continue;
    const eq = a.indexOf('=');
    if (eq > 0) out.set(a.slice(2, eq), a.slice(eq + 1));
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) out.set(a.slice(2), argv[++i]);
    else out.set(a.slice(2), 'true');
  }
  return out;
}

export function numArg(args: Map<string, string>, name: string, dflt: number): number {
  const v = args.get(name);
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`--${name}: not a number: ${v}`);
  return n;
}

/** The command line that reproduces this run, for the docs. */
export function commandLine(script: string): string {
  // A build given by path (--base, --dist) is written as what it is, not as this machine's path.
  const argv = process.argv.slice(2).map((a, i, all) =>
    (i > 0 && (all[i - 1] === '--base' || all[i - 1] === '--dist') ? `<${describeBuild(a).replace(/^the /, '')}>` : a));
  const own = ['npx tsx', script, ...argv].join(' ');
  // run-all.ts builds once, then runs each script with --no-build --doc.
  return process.env.LAYOUT_COST_BENCH_ALL ? `npm run bench\` — one build, then \`${own}` : own;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function waitFor<T>(fn: () => Promise<T> | T, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
      last = v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (last: ${String(last)})`);
    await sleep(50);
  }
}

/**
 * Builds the extension into out/bench/dist (production, minified, external
 * source maps) and the fixtures/demo into build/, unless `--no-build`.
 * `--dist DIR` measures another unpacked build instead.
 */
export function prepareBuild(args: Map<string, string>): string {
  const custom = args.get('dist');
  if (custom) return path.resolve(custom);
  if (args.get('no-build') !== 'true') {
    const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
    const opts = { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] as ('ignore' | 'inherit')[] };
    execFileSync(npx, ['webpack', '--mode', 'production', '--devtool', 'source-map', '--output-path', BENCH_DIST], opts);
    execFileSync(npx, ['tsx', 'scripts/build-fixtures.ts'], opts);
    fs.writeFileSync(path.join(BENCH_DIST, 'BUILD.txt'), `${sourceState()}\n`);
  }
  if (!fs.existsSync(path.join(BENCH_DIST, 'manifest.json'))) throw new Error(`${BENCH_DIST} is missing: run without --no-build`);
  return BENCH_DIST;
}

/** This build, and `--base` before it when given: [label, dist] pairs ("base", "this"). */
export function comparedBuilds(args: Map<string, string>, dist: string): [string, string][] {
  const base = args.get('base');
  return base ? [['base', path.resolve(base)], ['this', dist]] : [['this', dist]];
}

/** The builds in a round's order: flipped every round, so that neither always runs first. */
export function roundOrder<T>(builds: readonly T[], round: number): readonly T[] {
  return round % 2 === 0 ? builds : [...builds].reverse();
}

/** What a doc section says of the builds it compared ('' for one build). */
export function comparedNote(builds: readonly [string, string][]): string {
  if (builds.length < 2) return '';
  return 'The two builds ran interleaved in one process (the order flips every round); '
    + `${builds.map(([label, dist]) => `"${label}" is ${describeBuild(dist)}`).join(', ')}.`;
}

/** A build directory by its BUILD.txt (what prepareBuild writes: "main at <commit> …"), else by its path. */
export function describeBuild(dir: string): string {
  const note = path.join(dir, 'BUILD.txt');
  return fs.existsSync(note) ? `the build of ${fs.readFileSync(note, 'utf8').trim()}` : dir;
}

export interface BenchBrowser {
  browser: Browser;
  /** The extension's id, or null for a browser without it. */
  extensionId: string | null;
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Flags for every bench browser from LAYOUT_COST_BENCH_CHROME_ARGS (space-separated). For reading a profile, not for
 * figures: `--js-flags=--no-turbo-inlining` charges each function its own time where TurboFan would fold small callees
 * into their caller's (docs/PERFORMANCE.md, "2026-12-03, second session").
 */
function chromeArgsFromEnv(): string[] {
  const v = process.env.LAYOUT_COST_BENCH_CHROME_ARGS?.trim();
  return v ? v.split(/\s+/) : [];
}

/**
 * A headless Chromium; with `dist` set, the extension is installed (and its
 * service worker awaited). Without it, extensions stay disabled entirely:
 * "no extension" means dist/ is not installed in that browser at all.
 */
export async function launchBrowser(opts: { dist?: string; args?: string[] } = {}): Promise<BenchBrowser> {
  const executablePath = findChrome();
  if (!executablePath) throw new Error('no Chrome/Chromium found: set CHROME_PATH or run npm install');
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'layout-cost-bench-'));
  const browser = await puppeteer.launch({
    executablePath,
    headless: true,
    pipe: true,
    enableExtensions: opts.dist !== undefined,
    userDataDir,
    args: [...QUIET_FLAGS, ...LINUX_CI_FLAGS, `--window-size=${VIEWPORT.width},${VIEWPORT.height}`, ...(opts.args ?? []), ...chromeArgsFromEnv()],
    defaultViewport: VIEWPORT,
    protocolTimeout: 300_000,
  });
  let extensionId: string | null = null;
  if (opts.dist !== undefined) {
    extensionId = await browser.installExtension(opts.dist);
    await browser.waitForTarget(
      (t) => t.type() === 'service_worker' && t.url() === `chrome-extension://${extensionId}/background.js`,
      { timeout: 15_000 },
    );
  }
  return {
    browser, extensionId,
    async newPage() {
      const page = await browser.newPage();
      // tsx compiles with keepNames: functions passed to page.evaluate may call `__name`.
      await page.evaluateOnNewDocument('globalThis.__name = globalThis.__name || ((f) => f);');
      return page;
    },
    async close() {
      await browser.close().catch(() => undefined);
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs `fn` in a browser launched for it alone, closed after. A paired bench measures each run so: one browser kept per
 * build for every round repeats one draw of its launch's spread (docs/PERFORMANCE.md, "Thirty-fourth session").
 */
export async function inFreshBrowser<T>(opts: { dist?: string; args?: string[] }, fn: (b: BenchBrowser) => Promise<T>): Promise<T> {
  const b = await launchBrowser(opts);
  try {
    return await fn(b);
  } finally {
    await b.close();
  }
}

/** Writes the extension's settings (as the panel's Settings do): `chrome.storage.local`, through its service worker. */
export async function setSettings(b: BenchBrowser, settings: object): Promise<void> {
  const t = await b.browser.waitForTarget((x) => x.type() === 'service_worker' && x.url() === `chrome-extension://${b.extensionId}/background.js`);
  const w = await t.worker();
  if (w === null) throw new Error('no service worker to write the settings through');
  await w.evaluate((st) => chrome.storage.local.set({ settings: st }), settings);
}

export { startServer, type StaticServer };

/** `window.__LAYOUT_COST__` from the bench side. */
export const lc = {
  enable: (page: Page, mode = 'components') => page.evaluate((m) => (window as any).__LAYOUT_COST__.enable(m), mode),
  disable: (page: Page) => page.evaluate(() => (window as any).__LAYOUT_COST__.disable()),
  state: (page: Page) => page.evaluate(() => (window as any).__LAYOUT_COST__.state()),
  /** The agent's table sizes and counters (`__LAYOUT_COST__.internals()`). */
  internals: (page: Page) => page.evaluate(() => (window as any).__LAYOUT_COST__.internals() as Record<string, number | boolean>),
  /** Frame totals and component count only: the full snapshot of 4,900 components stays in the page. */
  frames: (page: Page) => page.evaluate(async () => {
    const s = await (window as any).__LAYOUT_COST__.snapshot();
    return { time: s.time as number, frames: s.frames as FrameTotals, components: (s.components as unknown[]).length };
  }),
};

import type { FrameTotals } from '../../src/protocol/snapshot';
export type { FrameTotals };

/** Turns the overlay on and waits until the agent runs and frames arrive with the grid's components. */
export async function enableOverlay(page: Page, minComponents: number, mode = 'components'): Promise<void> {
  await lc.enable(page, mode);
  await waitFor(async () => (await lc.state(page)).agent === true, 'the agent');
  await waitFor(async () => {
    const s = await lc.frames(page);
    return s.frames.count >= 1 && s.components >= minComponents;
  }, 'frames with components');
}

export function ensureOutDir(): string {
  fs.mkdirSync(OUT_DIR, { recursive: true });
  return OUT_DIR;
}

/** `main at <sha>`, plus a note when src/ has uncommitted changes (what a build from the working tree contains). */
function sourceState(): string {
  try {
    const git = (...a: string[]): string => execFileSync('git', a, { cwd: ROOT, encoding: 'utf8' }).trim();
    const sha = git('rev-parse', '--short', 'HEAD');
    const dirty = git('status', '--porcelain', '--', 'src', 'demo', 'tests/fixtures').length > 0;
    return `${git('rev-parse', '--abbrev-ref', 'HEAD')} at ${sha}${dirty ? ' + uncommitted changes' : ''}`;
  } catch {
    return 'unknown source state';
  }
}

/** What the measured build was built from (recorded at build time, so `--no-build` runs report it too). */
export function buildNote(dist = BENCH_DIST): string {
  try {
    return `build of ${fs.readFileSync(path.join(dist, 'BUILD.txt'), 'utf8').trim()}`;
  } catch {
    return 'build of unknown source';
  }
}

export function machineNote(): string {
  const cpus = os.cpus();
  return `${buildNote()}, ${cpus.length} shared cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), load average ${os.loadavg().map((x) => x.toFixed(1)).join(' / ')} at the end of the run, ${os.type()} ${os.release()}, Node ${process.version}`;
}

export async function browserVersion(b: BenchBrowser): Promise<string> {
  return b.browser.version();
}
