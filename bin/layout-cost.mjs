#!/usr/bin/env node
// `layout-cost audit <url>`: the CLI is TypeScript (src/cli/), bundled to lib/cli.mjs by `npm run build`.
import { existsSync } from 'node:fs';

const cli = new URL('../lib/cli.mjs', import.meta.url);
if (!existsSync(cli)) {
  console.error('layout-cost: the CLI is not built yet: run npm run build');
  process.exit(2);
}
await import(cli.href);
