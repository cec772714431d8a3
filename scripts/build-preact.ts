/**
 * The Preact fixture app (tests/fixtures/preact/, issue 64: index.html, compat.html with preact/compat running a
 * React library, and stress.html, the StressGrid of bench/overhead.ts --app preact) built as a Vite project builds
 * it: `vite build` with @preact/preset-vite, minified, with source maps — on Preact 10 into build/preact/, and on
 * Preact 11 (npm alias `preact11`) into build/preact11/. The e2e test starts the dev server itself, from the same
 * sources. Made once and kept while a stamp of the lockfile, the app and this script holds.
 *
 *   npx tsx scripts/build-preact.ts [--force]
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './chrome';
import { contentStamp, filesUnder } from './stamp';

export const PREACT_APP_DIR = path.join(ROOT, 'tests', 'fixtures', 'preact');
const OUT = { 10: path.join(ROOT, 'build', 'preact'), 11: path.join(ROOT, 'build', 'preact11') };
const STAMP = path.join(ROOT, 'build', 'preact', 'STAMP');

function stamp(): string {
  return contentStamp([path.join(ROOT, 'scripts', 'build-preact.ts'), ...filesUnder(PREACT_APP_DIR)]);
}

/** The Vite config of both builds and of the e2e test's dev server: Preact 10, or 11 through the npm alias. */
export async function preactConfig(major: 10 | 11 = 10): Promise<Record<string, unknown>> {
  const preact = (await import('@preact/preset-vite')).default;
  const p11 = path.join(ROOT, 'node_modules', 'preact11');
  return {
    root: PREACT_APP_DIR, base: './', logLevel: 'warn', configFile: false, plugins: [preact()],
    resolve: major === 11 ? { alias: [{ find: /^preact(\/.*)?$/, replacement: `${p11}$1` }] } : undefined,
    build: { rollupOptions: { input: {
      index: path.join(PREACT_APP_DIR, 'index.html'), compat: path.join(PREACT_APP_DIR, 'compat.html'),
      // bench/overhead.ts --app preact (Preact 10's).
      stress: path.join(PREACT_APP_DIR, 'stress.html'),
    } } },
  };
}

export async function buildPreact(force = false): Promise<void> {
  const want = stamp();
  if (!force && fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8') === want && fs.existsSync(path.join(OUT[11], 'index.html'))) {
    console.log('preact app: current (build/preact/STAMP)');
    return;
  }
  const t0 = Date.now();
  const { build } = await import('vite');
  // Vite's build sets NODE_ENV=production for the whole process (see build-bundlers.ts).
  const env = process.env.NODE_ENV;
  try {
    for (const major of [10, 11] as const) {
      const config = await preactConfig(major);
      await build({ ...config, build: { ...(config.build as object), outDir: OUT[major], emptyOutDir: true, sourcemap: true } });
    }
  } finally {
    if (env === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = env;
  }
  fs.writeFileSync(STAMP, want);
  console.log(`preact app: built on Preact 10 and 11 in ${((Date.now() - t0) / 1000).toFixed(1)} s → build/preact/, build/preact11/`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  buildPreact(process.argv.includes('--force')).catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
