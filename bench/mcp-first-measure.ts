/**
 * An agent's first `measure` on the demo (issue 66: under 30 s on these machines): spawns `layout-cost mcp` as a
 * client would, connects with the MCP SDK's client, calls measure on `npm start`'s page, prints the seconds from the
 * spawn to the answer and the answer's text. With a component name, then diagnose on it.
 *
 *   npx tsx bench/mcp-first-measure.ts [page, default demo/?pct=10] [component to diagnose]
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startServer } from '../scripts/server';
import { BIN } from '../tests/e2e/cli-run';

type Text = { content: { text: string }[] };
const server = await startServer();
const page = process.argv[2] ?? 'demo/?pct=10';
const t0 = Date.now();
const client = new Client({ name: 'layout-cost-bench', version: '1' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], stderr: 'inherit' }));
try {
  const r = await client.callTool({ name: 'measure', arguments: { url: `${server.origin}/${page}` } }, undefined, { timeout: 120_000 }) as Text;
  console.log(`measure answered ${((Date.now() - t0) / 1000).toFixed(1)} s after the spawn (target: under 30 s)\n${r.content[0].text}`);
  if (process.argv[3]) {
    const d = await client.callTool({ name: 'diagnose', arguments: { url: `${server.origin}/${page}`, component: process.argv[3] } }, undefined, { timeout: 300_000 }) as Text;
    console.log(d.content[0].text);
  }
} finally {
  await client.close();
  await server.close();
}
