/**
 * `npm start`: builds the extension and the demo, serves the demo on
 * 127.0.0.1 and opens Chrome/Chromium with dist/ installed and the overlay on.
 *
 *   npm start                 a normal browser window when there is a display;
 *                             runs until the window is closed
 *   npm start -- --headless   (also the default without a display) runs a few
 *                             seconds, writes out/screenshot.png and
 *                             out/snapshot.json, prints the top components, exits 0
 *   --browser firefox         Firefox (FIREFOX_PATH, else the usual places) with
 *                             dist-firefox/ installed as a temporary add-on
 *   --skip-build              reuse dist/ and build/demo/ as they are
 *   --pct=10|20|50|100        the demo's mutation share (default 10)
 *   --out=DIR                 where the headless run writes its files (default out/)
 *   --frames=N                the headless run waits for N measured frames (default 45)
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { buildAll } from './build-fixtures';
import { findChrome, findFirefox, LINUX_CI_FLAGS, QUIET_FLAGS, ROOT } from './chrome';
import { startServer, type StaticServer } from './server';

const PREFERRED_PORT = 5173;
const DIST = path.join(ROOT, 'dist');
const DIST_FIREFOX = path.join(ROOT, 'dist-firefox');
const VIEWPORT = { width: 1280, height: 900 };
/** Enough frames for the sparklines to show a few buckets of history in the screenshot. */
const MIN_FRAMES = 45;
/** StressGrid draws ≈ 5–10 frames a second on 2 shared cores; a loaded machine (CI beside other jobs) needs longer. Returns as soon as ready. */
const OVERLAY_TIMEOUT_MS = 40_000;
const TOP_N = 15;
const SNAPSHOT_TIMEOUT_MS = 3_000;

interface SnapshotComponent {
  id: number;
  name: string;
  authored: number;
  rendered: number;
  styleMs: number;
  layoutMs: number;
}
interface Snapshot {
  frames: { count: number };
  components: SnapshotComponent[];
}

const log = (msg: string): void => console.log(`[layout-cost] ${msg}`);

function argValue(name: string): string | undefined {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
  if (hit) return hit.slice(name.length + 3);
  // `--name value` too.
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && at + 1 < process.argv.length && !process.argv[at + 1].startsWith('--') ? process.argv[at + 1] : undefined;
}

function hasDisplay(): boolean {
  if (process.platform !== 'linux') return true;
  return Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}

function runBuilds(): Promise<void> {
  log('building the extension (npm run build)…');
  // npm is npm.cmd on Windows, which Node only runs through a shell.
  const r = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) throw new Error(`npm run build failed (exit ${r.status ?? r.signal})`);
  log('building the demo…');
  return buildAll('demo');
}

/** The fixed port keeps the demo URL stable between runs; fall back to any port when it is taken. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

async function until<T>(fn: () => Promise<T>, timeoutMs: number, intervalMs = 200): Promise<T | null> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const v = await fn().catch(() => null);
    if (v) return v;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  return null;
}

async function openDemo(page: Page, server: StaticServer): Promise<void> {
  const pct = argValue('pct') ?? '10';
  const url = `${server.origin}/demo/?pct=${encodeURIComponent(pct)}`;
  log(`opening ${url}`);
  await page.goto(url, { waitUntil: 'load' });
  const hasApi = await until(() => page.evaluate(() => typeof (window as any).__LAYOUT_COST__ === 'object'), 5_000);
  if (!hasApi) throw new Error('window.__LAYOUT_COST__ never appeared: is dist/ a complete build?');
  await until(() => page.evaluate(() => ((window as any).__demo?.commits ?? 0) > 0), 10_000);
  // The request travels page → content script; retry until the content script reports the overlay on.
  const on = await until(async () => {
    await page.evaluate(() => (window as any).__LAYOUT_COST__.enable('components'));
    return page.evaluate(() => (window as any).__LAYOUT_COST__.state().enabled === true);
  }, 5_000, 500);
  if (!on) log('warning: the overlay did not report itself enabled; continuing anyway');
}

function topTable(snap: Snapshot | null): void {
  const list = snap?.components ?? [];
  if (list.length === 0) {
    log('no components yet (the overlay reported none)');
    return;
  }
  const rows = [...list].sort((a, b) => b.layoutMs - a.layoutMs).slice(0, TOP_N).map((c) => ({
    name: c.name,
    'layout ms': Number(c.layoutMs.toFixed(3)),
    'style ms': Number(c.styleMs.toFixed(3)),
    rendered: c.rendered,
    authored: c.authored,
    ratio: c.authored > 0 ? Number((c.rendered / c.authored).toFixed(2)) : '–',
  }));
  log(`top ${rows.length} of ${list.length} components by layout ms:`);
  console.table(rows);
}

async function runHeadless(browser: Browser, server: StaticServer): Promise<void> {
  const outDir = path.resolve(argValue('out') ?? path.join(ROOT, 'out'));
  const page = (await browser.pages())[0] ?? (await browser.newPage());
  await page.setViewport(VIEWPORT);
  await openDemo(page, server);
  const minFrames = Math.max(1, Number(argValue('frames')) || MIN_FRAMES);
  // Bounded per call: the API's own timeout is 10 s, too long to poll with.
  const snapshot = (bound = SNAPSHOT_TIMEOUT_MS): Promise<Snapshot> => page.evaluate((ms) => Promise.race([
    (window as any).__LAYOUT_COST__.snapshot() as Promise<Snapshot>,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no snapshot within ${ms} ms`)), ms)),
  ]), bound);
  const ready = await until(async () => {
    const s = await snapshot();
    return s.components.length > 0 && s.frames.count >= minFrames ? s : null;
  }, OVERLAY_TIMEOUT_MS, 300);
  if (!ready) log(`warning: no component data within ${OVERLAY_TIMEOUT_MS / 1000} s; writing what there is`);
  let snap: Snapshot | null = null;
  let error: string | null = null;
  try {
    // The one written out: the API's own 10 s (a loaded machine took over 3 s for the demo's 4 900 components once).
    snap = await snapshot(10_000);
  } catch (e) {
    error = (e as Error).message;
    // The one the wait ended on, when there is one: a snapshot of the same page a moment earlier.
    if (ready) snap = ready;
    else log(`warning: snapshot() failed: ${error}`);
  }
  const demo = await page.evaluate(() => {
    const d = (window as any).__demo;
    return d ? { commits: d.commits as number, frames: d.frames as number, pct: d.pct as number } : null;
  });
  fs.mkdirSync(outDir, { recursive: true });
  const shot = path.join(outDir, 'screenshot.png');
  const json = path.join(outDir, 'snapshot.json');
  await page.screenshot({ path: shot as `${string}.png` });
  fs.writeFileSync(json, `${JSON.stringify(snap ?? { error }, null, 2)}\n`);
  log(`wrote ${path.relative(process.cwd(), shot)} and ${path.relative(process.cwd(), json)}`);
  if (demo) log(`demo: ${demo.pct} % mutation, ${demo.commits} grid commits, ${demo.frames} frames, overlay frames ${snap?.frames.count ?? 0}`);
  topTable(snap);
}

async function runWindow(browser: Browser, server: StaticServer): Promise<void> {
  const page = (await browser.pages())[0] ?? (await browser.newPage());
  await openDemo(page, server);
  log('overlay on. Ctrl+Shift+L (⌘⇧L) cycles Off → Components → Heatmap → Inspect;');
  log('DevTools (F12) → "Layout Cost" panel shows the numbers. Close the browser window (or Ctrl+C) to quit.');
  await new Promise<void>((resolve) => {
    if (!browser.connected) resolve();
    browser.once('disconnected', () => resolve());
  });
  log('browser closed; bye.');
}

const EXIT_WAIT_MS = 5_000;

/** Closes the browser and waits for its process to exit, so the profile is no longer being written. */
async function closeBrowser(browser: Browser): Promise<void> {
  const proc = browser.process();
  await browser.close().catch(() => undefined);
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, EXIT_WAIT_MS);
    proc.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Chromium's helpers can still be writing the profile for a moment after close(): retry, never fail the run. */
function removeProfile(dir: string): void {
  try {
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  } catch (e) {
    log(`warning: could not remove the temporary profile ${dir}: ${(e as Error).message}`);
  }
}

interface Launch {
  dist: string;
  /** Said when no browser is found (the env variable to set, how to install one). */
  missing: string[];
  executablePath: string | null;
  envName: string;
  launch(executablePath: string, headless: boolean): Promise<Browser>;
  installedNote: string;
  cleanup(): void;
}

/** Chrome/Chromium: a temporary profile, removed at the end. */
function chromeLaunch(): Launch {
  let userDataDir: string | null = null;
  return {
    dist: DIST, executablePath: findChrome(), envName: 'CHROME_PATH', installedNote: '',
    missing: ['No Chrome or Chromium found. Install one, or point CHROME_PATH at its executable,', 'e.g. CHROME_PATH=/usr/bin/chromium npm start'],
    launch: (executablePath, headless) => {
      userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'layout-cost-start-'));
      // A headful window only needs --no-sandbox when Chromium runs as root; elsewhere it would show a warning bar.
      const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
      const args = [...QUIET_FLAGS, ...(headless || isRoot ? LINUX_CI_FLAGS : []), `--window-size=${VIEWPORT.width},${VIEWPORT.height}`];
      return puppeteer.launch({
        executablePath, headless, pipe: true, enableExtensions: true, userDataDir, args,
        defaultViewport: headless ? VIEWPORT : null,
        // Puppeteer's own SIGINT handler kills Chromium and exits 130 before the temp profile is
        // removed; ours closes the browser and lets the cleanup below run.
        handleSIGINT: false,
        handleSIGTERM: false,
        // A window for a person, not a test: no "controlled by automated test software" bar.
        ignoreDefaultArgs: headless ? [] : ['--enable-automation'],
      });
    },
    cleanup: () => {
      if (userDataDir) removeProfile(userDataDir);
    },
  };
}

/** Firefox over WebDriver BiDi, dist-firefox/ installed as a temporary add-on (docs/FIREFOX.md). */
function firefoxLaunch(): Launch {
  return {
    dist: DIST_FIREFOX, executablePath: findFirefox(), envName: 'FIREFOX_PATH', installedNote: ', temporary: gone when Firefox closes',
    missing: ['No Firefox found. Install one (Firefox 142 or newer; on Debian: apt install firefox-esr),',
      'or point FIREFOX_PATH at its executable, e.g. FIREFOX_PATH=/usr/bin/firefox-esr npm start -- --browser firefox'],
    launch: (executablePath, headless) => puppeteer.launch({
      browser: 'firefox', executablePath, headless, defaultViewport: headless ? VIEWPORT : null,
      handleSIGINT: false, handleSIGTERM: false,
      extraPrefsFirefox: { 'app.update.enabled': false, 'datareporting.policy.dataSubmissionEnabled': false },
    }),
    cleanup: () => undefined,
  };
}

async function main(): Promise<number> {
  const headless = process.argv.includes('--headless') || !hasDisplay();
  const which = argValue('browser') ?? 'chrome';
  if (which !== 'chrome' && which !== 'firefox') {
    console.error(`[layout-cost] --browser ${which}: use chrome (the default) or firefox`);
    return 1;
  }
  if (!process.argv.includes('--skip-build')) await runBuilds();
  const how = which === 'firefox' ? firefoxLaunch() : chromeLaunch();
  const dir = path.relative(ROOT, how.dist);
  if (!fs.existsSync(path.join(how.dist, 'manifest.json'))) throw new Error(`${dir}/manifest.json is missing: the build did not produce the extension`);
  if (!how.executablePath) {
    const env = process.env[how.envName];
    if (env) console.error(`[layout-cost] ${how.envName} is set to ${env}, but there is no file there.`);
    for (const line of how.missing) console.error(`[layout-cost] ${line}`);
    return 1;
  }
  const server = await startServer((await portIsFree(PREFERRED_PORT)) ? PREFERRED_PORT : 0);
  log(`${headless ? 'headless' : 'window'}: ${how.executablePath}`);
  const browser = await how.launch(how.executablePath, headless);
  const stop = (): void => void closeBrowser(browser);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const id = await browser.installExtension(how.dist);
    log(`extension installed (${id}${how.installedNote})`);
    await (headless ? runHeadless(browser, server) : runWindow(browser, server));
  } finally {
    await closeBrowser(browser);
    await server.close();
    how.cleanup();
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`[layout-cost] npm start failed: ${(e as Error).stack ?? String(e)}`);
    process.exit(1);
  },
);
