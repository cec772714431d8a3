/**
 * The bundler matrix (issue 44): one small app (tests/fixtures/bundlers/) built the ways real projects build it, each
 * with its source maps as that bundler writes them, into build/bundlers/<name>/index.html:
 *
 *   vite                          `vite build` with `build.sourcemap: true` (minified, @vitejs/plugin-react)
 *   webpack-source-map            webpack 5 production, `devtool: 'source-map'` (minified)
 *   webpack-eval-source-map       webpack 5 development, `devtool: 'eval-source-map'` (modules in eval, maps inline)
 *   webpack-eval-cheap-module     webpack 5 development, `devtool: 'eval-cheap-module-source-map'` (lines only)
 *   esbuild                       esbuild, minified, linked map
 *
 * `npm run build:fixtures` makes them (before the e2e lanes), and the e2e test (tests/e2e/bundlers.test.ts, which
 * also starts Vite's dev server) again only when they are not current. They are made once and kept: a stamp of the
 * lockfile, the app's sources and this script says whether they are current, so a second run skips them (a clean
 * clone makes them in about 5 s).
 *
 *   npx tsx scripts/build-bundlers.ts [--force]
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './chrome';
import { contentStamp, filesUnder } from './stamp';

export const APP_DIR = path.join(ROOT, 'tests', 'fixtures', 'bundlers');
export const OUT_DIR = path.join(ROOT, 'build', 'bundlers');
export const BUNDLERS = ['vite', 'webpack-source-map', 'webpack-eval-source-map', 'webpack-eval-cheap-module', 'esbuild'] as const;
export type Bundler = typeof BUNDLERS[number];
const STAMP = path.join(OUT_DIR, 'STAMP');
const SELF = path.join(ROOT, 'scripts', 'build-bundlers.ts');

/** What the builds depend on: the lockfile (bundler and React versions), the app, this script. */
function stamp(): string {
  return contentStamp([SELF, ...filesUnder(APP_DIR)]);
}

/** The page each build is opened at: the bundle as a classic or module script, nothing else. */
function writeHtml(dir: string, script: string, module = false): void {
  fs.writeFileSync(path.join(dir, 'index.html'), `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Bundler matrix: ${path.basename(dir)}</title></head>
<body><div id="root"></div><script ${module ? 'type="module" ' : ''}src="${script}"></script></body></html>
`);
}

async function viteBuild(out: string): Promise<void> {
  const { build } = await import('vite');
  const react = (await import('@vitejs/plugin-react')).default;
  // Vite's build sets NODE_ENV=production for the whole process: a dev server started after it in the same process
  // would serve without Fast Refresh.
  const env = process.env.NODE_ENV;
  try {
    await build({
      root: APP_DIR, base: './', logLevel: 'warn', configFile: false, plugins: [react()],
      build: { outDir: out, emptyOutDir: true, sourcemap: true },
    });
  } finally {
    if (env === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = env;
  }
}

async function webpackBuild(out: string, mode: 'production' | 'development', devtool: string): Promise<void> {
  const webpack = (await import('webpack')).default;
  const compiler = webpack({
    mode, devtool, context: APP_DIR, entry: './src/main.tsx',
    output: { path: out, filename: 'main.js', clean: true },
    resolve: { extensions: ['.tsx', '.ts', '.js'] },
    module: { rules: [{ test: /\.tsx?$/, loader: 'esbuild-loader', options: { loader: 'tsx', target: 'es2020', jsx: 'automatic' } }] },
    infrastructureLogging: { level: 'error' }, stats: 'errors-only',
  });
  await new Promise<void>((resolve, reject) => compiler.run((err, stats) => {
    compiler.close(() => undefined);
    if (err) reject(err);
    else if (stats?.hasErrors()) reject(new Error(stats.toString('errors-only')));
    else resolve();
  }));
  writeHtml(out, './main.js');
}

async function esbuildBuild(out: string): Promise<void> {
  const { build } = await import('esbuild');
  fs.rmSync(out, { recursive: true, force: true });
  await build({
    entryPoints: [path.join(APP_DIR, 'src', 'main.tsx')], bundle: true, minify: true, sourcemap: 'linked', format: 'iife',
    jsx: 'automatic', target: 'es2020', outfile: path.join(out, 'main.js'), define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  writeHtml(out, './main.js');
}

export async function buildBundlers(force = false): Promise<void> {
  const want = stamp();
  if (!force && fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8') === want
    && BUNDLERS.every((b) => fs.existsSync(path.join(OUT_DIR, b, 'index.html')))) {
    console.log('bundler matrix: current (build/bundlers/STAMP)');
    return;
  }
  const t0 = Date.now();
  fs.mkdirSync(OUT_DIR, { recursive: true });
  fs.rmSync(STAMP, { force: true });
  const out = (b: Bundler): string => path.join(OUT_DIR, b);
  await viteBuild(out('vite'));
  await webpackBuild(out('webpack-source-map'), 'production', 'source-map');
  await webpackBuild(out('webpack-eval-source-map'), 'development', 'eval-source-map');
  await webpackBuild(out('webpack-eval-cheap-module'), 'development', 'eval-cheap-module-source-map');
  await esbuildBuild(out('esbuild'));
  fs.writeFileSync(STAMP, want);
  console.log(`bundler matrix: ${BUNDLERS.length} builds in ${((Date.now() - t0) / 1000).toFixed(1)} s → build/bundlers/`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  buildBundlers(process.argv.includes('--force')).catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
