/**
 * The Vue 3 fixture app (tests/fixtures/vue/, issue 63: index.html, and library.html with Element Plus's data table)
 * built as a Vite project builds it: `vite build` with
 * @vitejs/plugin-vue, minified, with source maps, into build/vue/ (the e2e test serves it; its dev server it starts
 * itself, from the same sources). Made once and kept while a stamp of the lockfile, the app and this script holds.
 *
 *   npx tsx scripts/build-vue.ts [--force]
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './chrome';
import { contentStamp, filesUnder } from './stamp';

export const VUE_APP_DIR = path.join(ROOT, 'tests', 'fixtures', 'vue');
export const VUE_OUT_DIR = path.join(ROOT, 'build', 'vue');
const STAMP = path.join(VUE_OUT_DIR, 'STAMP');

function stamp(): string {
  const grid = [path.join(ROOT, 'demo', 'src', 'grid-data.ts'), path.join(ROOT, 'demo', 'demo.css')];
  return contentStamp([path.join(ROOT, 'scripts', 'build-vue.ts'), ...grid, ...filesUnder(VUE_APP_DIR)]);
}

/** The Vite config both the build and the e2e test's dev server use. */
export async function vueConfig(): Promise<Record<string, unknown>> {
  const vue = (await import('@vitejs/plugin-vue')).default;
  return {
    root: VUE_APP_DIR, base: './', logLevel: 'warn', configFile: false, plugins: [vue()],
    // Three pages: the app (index.html), the component library's (library.html: Element Plus), and StressGrid in Vue
    // (stress.html: the benches' Vue grid).
    build: { rollupOptions: { input: Object.fromEntries(['index', 'library', 'stress'].map((p) => [p, path.join(VUE_APP_DIR, `${p}.html`)])) } },
  };
}

export async function buildVue(force = false): Promise<void> {
  const want = stamp();
  if (!force && fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8') === want && fs.existsSync(path.join(VUE_OUT_DIR, 'index.html'))) {
    console.log('vue app: current (build/vue/STAMP)');
    return;
  }
  const t0 = Date.now();
  const { build } = await import('vite');
  // Vite's build sets NODE_ENV=production for the whole process (see build-bundlers.ts).
  const env = process.env.NODE_ENV;
  try {
    const config = await vueConfig();
    await build({ ...config, build: { ...(config.build as object), outDir: VUE_OUT_DIR, emptyOutDir: true, sourcemap: true } });
  } finally {
    if (env === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = env;
  }
  // Vue's own global build (runtime compiler included), for pages that load it with a plain <script> (mixed.html).
  fs.copyFileSync(path.join(ROOT, 'node_modules', 'vue', 'dist', 'vue.global.prod.js'), path.join(VUE_OUT_DIR, 'vue.global.prod.js'));
  fs.writeFileSync(STAMP, want);
  console.log(`vue app: built in ${((Date.now() - t0) / 1000).toFixed(1)} s → build/vue/`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  buildVue(process.argv.includes('--force')).catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
