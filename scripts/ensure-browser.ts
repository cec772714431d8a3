/**
 * Runs after `npm install`: makes sure a Chrome or Chromium is available for
 * `npm start` and `npm test`. In order: an existing browser (CHROME_PATH or
 * the usual locations), Chrome for Testing through @puppeteer/browsers where
 * that download is reachable, Debian's `chromium` package via apt when
 * running as root on Debian/Ubuntu. Otherwise a clear message; never fails
 * the install.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execSync } from 'node:child_process';
import { BROWSER_CACHE, findChrome } from './chrome';

const SKIP = process.env.LAYOUT_COST_SKIP_BROWSER === '1';

async function tryChromeForTesting(): Promise<string | null> {
  try {
    const { install, Browser, detectBrowserPlatform, resolveBuildId, computeExecutablePath } = await import('@puppeteer/browsers');
    const platform = detectBrowserPlatform();
    if (!platform) return null;
    const buildId = await Promise.race([
      resolveBuildId(Browser.CHROME, platform, 'stable'),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), 15_000)),
    ]);
    await install({ browser: Browser.CHROME, buildId, cacheDir: BROWSER_CACHE });
    const exe = computeExecutablePath({ browser: Browser.CHROME, buildId, cacheDir: BROWSER_CACHE });
    fs.mkdirSync(BROWSER_CACHE, { recursive: true });
    fs.writeFileSync(path.join(BROWSER_CACHE, 'executable-path.txt'), exe);
    return exe;
  } catch (e) {
    console.log(`[layout-cost] Chrome for Testing download not reachable (${(e as Error).message}).`);
    return null;
  }
}

function tryApt(): string | null {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (process.platform !== 'linux' || !isRoot || !fs.existsSync('/usr/bin/apt-get')) return null;
  try {
    console.log('[layout-cost] installing Debian\'s chromium with apt-get (running as root)…');
    execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', { stdio: 'inherit' });
    return findChrome();
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  if (SKIP) return;
  const found = findChrome();
  if (found) {
    console.log(`[layout-cost] using browser ${found}`);
    return;
  }
  const exe = (await tryChromeForTesting()) ?? tryApt();
  if (exe) {
    console.log(`[layout-cost] using browser ${exe}`);
    return;
  }
  console.log('[layout-cost] No Chrome or Chromium found. Install one, or set CHROME_PATH to its executable.');
}

main().catch((e) => console.log(`[layout-cost] browser setup skipped: ${(e as Error).message}`));
