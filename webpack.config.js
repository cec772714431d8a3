// One entry per room. The MAIN-world scripts (inject, agent) and the content
// script are single self-contained files: no chunk splitting, no runtime.
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import CopyPlugin from 'copy-webpack-plugin';
import webpack from 'webpack';
import { EsbuildPlugin } from 'esbuild-loader';
import { eagerEdits } from './scripts/eager-boot.mjs';

const root = path.dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

/** Rooms may import src/protocol and src/overlay, never each other. */
const ROOMS = ['inject', 'content', 'background', 'devtools-panel', 'popup'];
const SHARED = ['protocol', 'overlay'];

class RoomBoundaryPlugin {
  apply(compiler) {
    compiler.hooks.normalModuleFactory.tap('RoomBoundary', (nmf) => {
      nmf.hooks.afterResolve.tap('RoomBoundary', (data) => {
        const issuer = data.contextInfo.issuer;
        const target = data.createData.resource;
        if (!issuer || !target) return;
        const from = roomOf(issuer);
        const to = roomOf(target);
        if (from && to && from !== to && !SHARED.includes(to)) {
          throw new Error(`room boundary: src/${from} may not import src/${to} (${path.relative(root, target)})`);
        }
        if (from && SHARED.includes(from) && to && ROOMS.includes(to)) {
          throw new Error(`room boundary: shared src/${from} may not import room src/${to}`);
        }
        const part = partOf(issuer);
        if (part && part.endsWith('/boot') && partOf(target) !== part && roomOf(target) === from) {
          throw new Error(`boundary: the always-on ${part} may not import ${path.relative(root, target)} (on-enable code)`);
        }
        if ((from === 'inject' || to === 'overlay' && from === 'inject') && /webextension-polyfill/.test(target)) {
          throw new Error('room boundary: the MAIN world never loads webextension-polyfill');
        }
      });
    });
  }
}
/** `inject/boot`, `inject/agent`, `content/boot`, …: the always-on / on-enable part of a room. */
function partOf(file) {
  const rel = path.relative(path.join(root, 'src'), file).split(path.sep);
  return rel[0] && !rel[0].startsWith('..') && rel.length > 2 ? `${rel[0]}/${rel[1]}` : null;
}
function roomOf(file) {
  const rel = path.relative(path.join(root, 'src'), file);
  if (rel.startsWith('..')) return null;
  return rel.split(path.sep)[0];
}

class ManifestPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('Manifest', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'Manifest', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        const manifest = JSON.parse(fs.readFileSync(path.join(root, 'manifest.json'), 'utf8'));
        manifest.version = pkg.version;
        compilation.emitAsset('manifest.json', new webpack.sources.RawSource(JSON.stringify(manifest, null, 2)));
      });
      compilation.fileDependencies.add(path.join(root, 'manifest.json'));
    });
  }
}

/** The document_start scripts: their load-time functions are compiled at once, not parsed twice (scripts/eager-boot.mjs). */
const BOOT_SCRIPTS = ['inject.js', 'content.js'];

class EagerBootPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('EagerBoot', (compilation) => {
      // After minification (OPTIMIZE_SIZE): the rewrite must see the final code, and it keeps the source map's mappings.
      compilation.hooks.processAssets.tap({ name: 'EagerBoot', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_INLINE }, () => {
        for (const file of BOOT_SCRIPTS) {
          const asset = compilation.getAsset(file);
          if (!asset) continue;
          const { edits } = eagerEdits(asset.source.source().toString());
          if (edits.length === 0) continue;
          const out = new webpack.sources.ReplaceSource(asset.source);
          for (const e of edits) out.insert(e.at, e.text);
          compilation.updateAsset(file, out);
        }
      });
    });
  }
}

/**
 * agent.js is two webpack outputs in one script: the entry (src/inject/agent/entry.ts: pristine.ts and `start`) and
 * the agent's modules (`agent-core`, src/inject/agent/index.ts and everything it imports), the second inside a
 * function the entry calls from `start` (after minification, before the source maps are written). So the modules' top-level code runs only when the agent starts, on the
 * browser's own built-ins wherever the page replaced them since load (issue 45), and the modules are scope-hoisted
 * together as usual. (A `require()` in the entry did the first, but webpack 5.112 then wraps every module it reaches
 * in a lazy accessor: each call across modules went through two calls more, 15–25 % of the agent's commit time on
 * StressGrid: docs/PERFORMANCE.md, issue 61.) The script's last statement is `__LAYOUT_COST_OFFER__(start)`: its
 * value is what chrome.scripting.executeScript returns to the worker (src/inject/boot/link.ts). Both parts are
 * minified first; the source maps carry through.
 */
class AgentBundlePlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('AgentBundle', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'AgentBundle', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_DEV_TOOLING - 1 }, () => {
        const entry = compilation.getAsset('agent.js');
        const core = compilation.getAsset('agent-core.js');
        if (!entry || !core) throw new Error('agent bundle: agent.js and agent-core.js are both expected');
        const { ConcatSource } = webpack.sources;
        const out = new ConcatSource(
          `${OFFER_GLOBAL}((()=>{var ${CORE_LOADER}=(()=>{var m=null;return()=>m!==null?m:(m=(()=>{\n`,
          core.source,
          `\n;return ${CORE_GLOBAL}})())})();\n`,
          entry.source,
          `\n;return ${ENTRY_GLOBAL}})());\n`,
        );
        compilation.updateAsset('agent.js', out);
        compilation.deleteAsset('agent-core.js');
      });
    });
  }
}
const OFFER_GLOBAL = '__LAYOUT_COST_OFFER__';
/** Names local to agent.js (inside the function above): the entry's export, the modules' exports and their loader. */
const ENTRY_GLOBAL = '__lcAgentEntry';
const CORE_GLOBAL = '__lcAgentCore';
const CORE_LOADER = '__lcLoadAgentCore';

/** The gecko id and the oldest Firefox the build claims: MAIN-world content scripts need 128, the data consent key 140 (142 on Android). */
export const GECKO = {
  id: 'layout-cost@layout-cost.dev', strict_min_version: '142.0',
  // Nothing leaves the machine: no data is collected or transmitted.
  data_collection_permissions: { required: ['none'] },
};

/**
 * Firefox's manifest from Chrome's (docs/FIREFOX.md): the background as an event page's `scripts` (Firefox's MV3 has
 * no extension service worker), the gecko id and minimum version, no Chrome-only keys.
 */
export function firefoxManifest(chromeManifest) {
  const m = structuredClone(chromeManifest);
  m.background = { scripts: [m.background.service_worker] };
  delete m.minimum_chrome_version;
  m.browser_specific_settings = { gecko: { ...GECKO } };
  return m;
}

/**
 * The automation build's manifest (issue 48, docs/SITES.md): the same extension on every site from the first page load,
 * as before the default sites. A browser driven over CDP cannot accept a permission prompt, so the CLI audit and the
 * puppeteer/Playwright helpers load this copy (dist-all-sites/) into the throwaway browsers they launch.
 */
export function allSitesManifest(chromeManifest) {
  const m = structuredClone(chromeManifest);
  m.host_permissions = ['<all_urls>'];
  delete m.optional_host_permissions;
  for (const cs of m.content_scripts) cs.matches = ['<all_urls>'];
  m.description = `${m.description} (automation build: runs on every site)`;
  return m;
}

/** After each build, <output>-firefox (dist-firefox/) gets the same files with Firefox's manifest. */
class FirefoxPlugin {
  apply(compiler) {
    compiler.hooks.afterEmit.tap('Firefox', () => {
      const from = compiler.options.output.path;
      const to = `${from}-firefox`;
      fs.rmSync(to, { recursive: true, force: true });
      fs.cpSync(from, to, { recursive: true });
      const manifest = JSON.parse(fs.readFileSync(path.join(from, 'manifest.json'), 'utf8'));
      fs.writeFileSync(path.join(to, 'manifest.json'), JSON.stringify(firefoxManifest(manifest), null, 2));
      const all = `${from}-all-sites`;
      fs.rmSync(all, { recursive: true, force: true });
      fs.cpSync(from, all, { recursive: true });
      fs.writeFileSync(path.join(all, 'manifest.json'), JSON.stringify(allSitesManifest(manifest), null, 2));
    });
  }
}

export default (env, argv) => {
  const dev = argv.mode === 'development';
  return {
    mode: dev ? 'development' : 'production',
    devtool: dev ? 'inline-source-map' : false,
    context: root,
    entry: {
      inject: './src/inject/boot/index.ts',
      // agent.js is these two in one script (AgentBundlePlugin): the entry, and the agent's modules loaded from it.
      agent: { import: './src/inject/agent/entry.ts', library: { type: 'var', name: ENTRY_GLOBAL, export: 'default' } },
      'agent-core': { import: './src/inject/agent/index.ts', library: { type: 'var', name: CORE_GLOBAL } },
      content: './src/content/boot/index.ts',
      'content-hello': './src/content/boot/hello.ts',
      'content-agent': './src/content/agent/index.ts',
      background: './src/background/index.ts',
      devtools: './src/devtools-panel/devtools.ts',
      panel: './src/devtools-panel/index.ts',
      popup: './src/popup/index.ts',
    },
    output: { path: path.join(root, 'dist'), filename: '[name].js', clean: true },
    resolve: { extensions: ['.ts', '.js'] },
    module: {
      rules: [{ test: /\.ts$/, loader: 'esbuild-loader', options: { target: 'es2022' } }],
    },
    optimization: {
      splitChunks: false,
      runtimeChunk: false,
      minimizer: [
        new EsbuildPlugin({ target: 'es2022', legalComments: 'none', exclude: /^agent(-core)?\.js$/ }),
        // No IIFE around agent.js's parts: their top-level `var` is what AgentBundlePlugin reads (it puts them inside a
        // function of its own, so nothing leaks to window).
        new EsbuildPlugin({ target: 'es2022', legalComments: 'none', include: /^agent(-core)?\.js$/, format: undefined }),
      ],
    },
    performance: { hints: false },
    plugins: [
      new webpack.DefinePlugin({ __DEBUG__: JSON.stringify(dev), __VERSION__: JSON.stringify(pkg.version) }),
      new RoomBoundaryPlugin(),
      new ManifestPlugin(),
      new AgentBundlePlugin(),
      ...(dev ? [] : [new EagerBootPlugin()]),
      new FirefoxPlugin(),
      new CopyPlugin({
        patterns: [
          { from: 'icons/*.png' },
          { from: 'src/devtools-panel/*.html', to: '[name][ext]' },
          { from: 'src/devtools-panel/*.css', to: '[name][ext]' },
          { from: 'src/popup/*.html', to: '[name][ext]' },
        ],
      }),
    ],
    stats: 'errors-warnings',
  };
};
