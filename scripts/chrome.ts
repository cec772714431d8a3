/**
 * Finding a Chrome or Chromium: CHROME_PATH first, then the project's own
 * download (.browsers/, see ensure-browser.ts), then the usual install
 * locations on Linux, macOS and Windows.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BROWSER_CACHE = path.join(ROOT, '.browsers');

const CANDIDATES: Record<string, string[]> = {
  linux: ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable',
    '/snap/bin/chromium', '/opt/google/chrome/chrome'],
  darwin: ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
    '/Applications/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing'],
  win32: [
    path.join(process.env.PROGRAMFILES ?? 'C:\\Program Files', 'Google\\Chrome\\Application\\chrome.exe'),
    path.join(process.env['PROGRAMFILES(X86)'] ?? 'C:\\Program Files (x86)', 'Google\\Chrome\\Application\\chrome.exe'),
    path.join(process.env.LOCALAPPDATA ?? '', 'Google\\Chrome\\Application\\chrome.exe'),
  ],
};

function downloaded(): string | null {
  const file = path.join(BROWSER_CACHE, 'executable-path.txt');
  try {
    const p = fs.readFileSync(file, 'utf8').trim();
    return p && fs.existsSync(p) ? p : null;
  } catch {
    return null;
  }
}

function onPath(): string | null {
  if (process.platform === 'win32') return null;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable']) {
    try {
      const p = execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
      if (p) return p;
    } catch {
      // not on PATH: try the next name
    }
  }
  return null;
}

/** The browser to use, or null when none is found. */
export function findChrome(): string | null {
  const env = process.env.CHROME_PATH;
  if (env) return fs.existsSync(env) ? env : null;
  const dl = downloaded();
  if (dl) return dl;
  for (const p of CANDIDATES[process.platform] ?? []) if (p && fs.existsSync(p)) return p;
  return onPath();
}

const FIREFOX_CANDIDATES: Record<string, string[]> = {
  linux: ['/usr/bin/firefox-esr', '/usr/bin/firefox', '/snap/bin/firefox', '/usr/lib/firefox/firefox'],
  darwin: ['/Applications/Firefox.app/Contents/MacOS/firefox', '/Applications/Firefox Developer Edition.app/Contents/MacOS/firefox'],
  win32: [
    path.join(process.env.PROGRAMFILES ?? 'C:\\Program Files', 'Mozilla Firefox\\firefox.exe'),
    path.join(process.env['PROGRAMFILES(X86)'] ?? 'C:\\Program Files (x86)', 'Mozilla Firefox\\firefox.exe'),
  ],
};

/** A Firefox (128 or newer runs the extension, docs/FIREFOX.md): FIREFOX_PATH first, then the usual places. */
export function findFirefox(): string | null {
  const env = process.env.FIREFOX_PATH;
  if (env) return fs.existsSync(env) ? env : null;
  for (const p of FIREFOX_CANDIDATES[process.platform] ?? []) if (p && fs.existsSync(p)) return p;
  return null;
}

/**
 * Flags that keep Chromium quiet on a closed network (TESTING.md), and idle once started: Chromium 156 preloads its
 * omnibox popups as WebUI pages in a renderer of their own, which a headless browser never shows — about 3 s of CPU
 * at each launch on these two cores (1.6 s in that renderer), two thirds of what a launch costs (docs/PERFORMANCE.md,
 * "The test suite"). Puppeteer merges this list with its own `--disable-features`; a browser that has no such feature
 * ignores the name.
 */
export const QUIET_FLAGS = [
  '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-quic', '--disable-dev-shm-usage', '--no-default-browser-check',
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup',
];
/** Needed when running as root or in containers; harmless otherwise on Linux. */
export const LINUX_CI_FLAGS = process.platform === 'linux' ? ['--no-sandbox', '--disable-gpu'] : [];
