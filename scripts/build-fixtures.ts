/**
 * Bundles the demo and the test fixture apps with esbuild. Each fixture is
 * built against a chosen React copy from npm (aliases react16 … react19 in
 * package.json) in production or development mode, so the same source runs
 * on every React version the extension supports.
 *
 *   tests/fixtures/src/<app>.tsx → build/fixtures/<app>-r<major>[-dev].js
 *   demo/src/main.tsx            → build/demo/demo.js
 */
import path from 'node:path';
import { build, type BuildOptions } from 'esbuild';
import { buildBundlers } from './build-bundlers';
import { buildPreact } from './build-preact';
import { buildVue } from './build-vue';
import { ROOT } from './chrome';

export type ReactMajor = 16 | 17 | 18 | 19;
interface FixtureBuild {
  app: string;
  react: ReactMajor;
  dev?: boolean;
  /** A linked source map beside it (issue 44: the map tells the app's own components from its packages'). */
  map?: boolean;
}

/** Every fixture build the e2e tests use. Add a line when you add a fixture app. */
export const FIXTURES: FixtureBuild[] = [
  { app: 'basic', react: 16 },
  { app: 'basic', react: 17 },
  { app: 'basic', react: 18 },
  { app: 'basic', react: 19 },
  { app: 'basic', react: 19, dev: true },
  { app: 'counts', react: 16 },
  { app: 'counts', react: 17 },
  { app: 'counts', react: 18 },
  { app: 'counts', react: 19 },
  { app: 'counts', react: 19, dev: true },
  { app: 'library', react: 19 },
  { app: 'soak', react: 19 },
  { app: 'proportional', react: 19 },
  { app: 'big', react: 19 },
  { app: 'timing-load', react: 19 },
  { app: 'timing-load', react: 17 },
  { app: 'timing-forced', react: 19 },
  { app: 'experiment', react: 19 },
  { app: 'hostile', react: 19, dev: true },
  { app: 'panel-grid', react: 19, dev: true },
  { app: 'overlay', react: 19, dev: true },
  // Real third-party libraries (issue #9): production builds as shipped, plus development builds with readable names.
  { app: 'real-dashboard', react: 19 },
  { app: 'real-dashboard', react: 19, dev: true, map: true },
  { app: 'real-router', react: 19 },
  { app: 'real-router', react: 19, dev: true },
  { app: 'real-virtual', react: 19 },
  { app: 'real-virtual', react: 19, dev: true },
  { app: 'real-editor', react: 19 },
  { app: 'real-editor', react: 19, dev: true },
  { app: 'portal-repro', react: 19 },
  { app: 'portal-repro', react: 18 },
  // Server-rendered markup hydrated, one Suspense boundary later (selective hydration).
  { app: 'hydrate', react: 18 },
  { app: 'hydrate', react: 19 },
  { app: 'hydrate-document', react: 19 },
  // Firefox timing (docs/FIREFOX.md): the same work every frame, which the page can time itself.
  { app: 'self-timed', react: 19 },
  // Attribution (issue 43): components that change together, each checked against its cost alone.
  { app: 'attribution', react: 19 },
  // Interactions and layout shifts (issue 46): each with a known culprit, and web-vitals as the reference.
  { app: 'vitals', react: 19 },
  // Fast Refresh (issue 44): React Refresh's runtime; the hot updates are plain scripts (HOT_UPDATES).
  { app: 'hot', react: 19, dev: true },
];

/** Hot-update scripts for the hot fixture: not minified (their line numbers are the truth), no React of their own. */
export const HOT_UPDATES = ['hot-1', 'hot-2'];

function aliases(major: ReactMajor): Record<string, string> {
  const mount = path.join(ROOT, 'tests', 'fixtures', 'src', major >= 18 ? 'mount-modern.ts' : 'mount-legacy.ts');
  if (major === 19) return { 'fixture-mount': mount };
  return { react: `react${major}`, 'react-dom': `react-dom${major}`, 'fixture-mount': mount };
}

function options(entry: string, outfile: string, major: ReactMajor, dev: boolean): BuildOptions {
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'iife',
    target: 'es2020',
    minify: !dev,
    sourcemap: false,
    jsx: 'automatic',
    // React 16 has no react/jsx-runtime named exports in every build; the classic transform works everywhere.
    ...(major < 17 ? { jsx: 'transform', jsxFactory: 'React.createElement', jsxFragment: 'React.Fragment' } : {}),
    alias: aliases(major),
    define: { 'process.env.NODE_ENV': JSON.stringify(dev ? 'development' : 'production'), __REACT_MAJOR__: String(major) },
    logLevel: 'warning',
    absWorkingDir: ROOT,
  };
}

/** Plain scripts (no React aliasing): tests/fixtures/src/<name>.ts → build/fixtures/<name>.js. */
export const SCRIPTS = ['rdt'];

export async function buildAll(filter?: string): Promise<void> {
  const jobs: Promise<unknown>[] = [];
  // Plain scripts minified; the hot updates not (their line numbers are the truth of a test).
  for (const [name, minify] of [...SCRIPTS.map((n) => [n, true] as const), ...HOT_UPDATES.map((n) => [n, false] as const)]) {
    if (filter && !name.includes(filter)) continue;
    jobs.push(build({
      entryPoints: [path.join(ROOT, 'tests', 'fixtures', 'src', `${name}.ts`)],
      outfile: path.join(ROOT, 'build', 'fixtures', `${name}.js`),
      bundle: true, format: 'iife', target: 'es2020', minify, logLevel: 'warning', absWorkingDir: ROOT,
      define: { 'process.env.NODE_ENV': '"production"' },
    }));
  }
  for (const f of FIXTURES) {
    if (filter && !f.app.includes(filter)) continue;
    const entry = path.join(ROOT, 'tests', 'fixtures', 'src', `${f.app}.tsx`);
    const out = path.join(ROOT, 'build', 'fixtures', `${f.app}-r${f.react}${f.dev ? '-dev' : ''}.js`);
    jobs.push(build({ ...options(entry, out, f.react, !!f.dev), ...(f.map ? { sourcemap: 'linked' as const } : {}) }));
  }
  // Issue 15: one source built three ways (production React in all): minified with a linked source map, minified
  // without one, and not minified (the names the map must give back).
  if (!filter || 'sources'.includes(filter)) {
    const entry = path.join(ROOT, 'tests', 'fixtures', 'src', 'sources.tsx');
    const variants: [string, Partial<BuildOptions>][] = [
      ['min', { minify: true, sourcemap: 'linked' }], ['nomap', { minify: true, sourcemap: false }], ['plain', { minify: false, sourcemap: false }],
    ];
    for (const [name, o] of variants) {
      jobs.push(build({ ...options(entry, path.join(ROOT, 'build', 'fixtures', `sources-r19-${name}.js`), 19, false), ...o }));
    }
    // Development builds whose code the page evals (webpack's eval source maps): its text is in no script, so React's
    // debug information places the types. React 18: the JSX transform's __source; React 19: each element's stack.
    const evald: [ReactMajor, Partial<BuildOptions>][] = [[18, { jsxDev: true }], [19, { sourcemap: 'inline' }]];
    for (const [major, o] of evald) {
      jobs.push(build({ ...options(entry, path.join(ROOT, 'build', 'fixtures', `sources-r${major}-eval.txt`), major, true), ...o }));
    }
  }
  if (!filter || 'demo'.includes(filter)) {
    jobs.push(build(options(path.join(ROOT, 'demo', 'src', 'main.tsx'), path.join(ROOT, 'build', 'demo', 'demo.js'), 19, false)));
  }
  await Promise.all(jobs);
  // Issue 44: the same small app built by Vite, webpack (three source-map modes) and esbuild, kept while current. Here,
  // before the e2e lanes: built beside the other files of the parallel lane it took 17 s instead of 5 (2026-11-27).
  if (!filter || 'bundlers'.includes(filter)) await buildBundlers();
  // Issue 63: the Vue fixture app, as `vite build` makes it (the e2e test starts its dev server itself).
  if (!filter || 'vue'.includes(filter)) await buildVue();
  // Issue 64: the Preact fixture app on Preact 10 and 11, the same way.
  if (!filter || 'preact'.includes(filter)) await buildPreact();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  buildAll(process.argv[2]).catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
