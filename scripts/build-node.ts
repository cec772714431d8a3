/**
 * The Node side of the package (issue 14): the CLI (`layout-cost audit`), the
 * puppeteer helper (`layout-cost/puppeteer`) and the @playwright/test fixture
 * (`layout-cost/playwright`), bundled with esbuild into
 * lib/ (puppeteer-core stays a dependency, not bundled), and the helper's
 * type declarations. Part of `npm run build`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
import { ROOT } from './chrome';

const LIB = path.join(ROOT, 'lib');

export async function buildNode(): Promise<void> {
  fs.rmSync(LIB, { recursive: true, force: true });
  await build({
    entryPoints: {
      cli: path.join(ROOT, 'src/cli/index.ts'), puppeteer: path.join(ROOT, 'src/puppeteer/index.ts'),
      playwright: path.join(ROOT, 'src/playwright/index.ts'),
    },
    outdir: LIB, outExtension: { '.js': '.mjs' }, bundle: true, platform: 'node', format: 'esm', target: 'node20',
    // No code splitting: scripts/chrome.ts finds the package root from its own file (import.meta.url), so it must sit
    // in lib/, not in lib/chunks/.
    // @playwright/test is the user's (a peer): the fixture extends their copy's `test`.
    // The MCP SDK and zod are dependencies, loaded from node_modules (the SDK only by `layout-cost mcp`).
    external: ['puppeteer-core', '@playwright/test', '@modelcontextprotocol/sdk', 'zod'], sourcemap: true, logLevel: 'warning',
  });
  // The helper's types, from its source (tsconfig.lib.json → lib/types/).
  const tsc = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(ROOT, 'tsconfig.lib.json')], {
    stdio: 'inherit',
  });
  if (tsc.status !== 0) throw new Error('tsc could not emit lib/types');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  buildNode().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
