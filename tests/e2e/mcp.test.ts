/**
 * `layout-cost mcp` (issue 66; docs/AGENTS.md), driven by the MCP SDK's own client over stdio, as a coding agent's
 * host would: the tools listed with their schemas; `measure` on the timing fixture ranks Heavy (the component whose
 * own layout costs most) first with finite figures and a source line, reporting progress; `diagnose` tries the
 * containment candidates on the experiment fixture's ticker; each bad input is a result with `isError` and one line,
 * and the next call works; the browser the server started is gone once the client closes.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ROOT } from '../../scripts/chrome';
import { startServer, type StaticServer } from '../../scripts/server';
import { BIN } from './cli-run';
import { measuredAgain } from './harness';

const STEPS_SHORT = path.join(ROOT, 'tests', 'fixtures', 'audit', 'steps-short.mjs');
const STEPS_TICKER = path.join(ROOT, 'tests', 'fixtures', 'mcp', 'steps-ticker.mjs');
const STEPS_FOREVER = path.join(ROOT, 'tests', 'fixtures', 'mcp', 'steps-forever.mjs');

interface Result { content: { type: string; text: string }[]; structuredContent?: any; isError?: boolean }

/** The processes whose parent is `pid` (Linux: /proc). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      // "pid (comm) state ppid …": comm may hold spaces and parentheses.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(d));
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
};

describe('layout-cost mcp, for coding agents (e2e)', function () {
  this.timeout(240_000);
  let server: StaticServer;
  let client: Client;
  let transport: StdioClientTransport;
  let stderr = '';
  const url = (p: string): string => `${server.origin}/${p}`;
  const call = async (name: string, args: Record<string, unknown>, onprogress?: (p: { progress: number; message?: string }) => void): Promise<Result> =>
    (await client.callTool({ name, arguments: args }, undefined, { onprogress, timeout: 200_000 })) as Result;

  before(async () => {
    server = await startServer();
    // A page without React is told in 2 s, not 15; a call that does not settle gives up after 30 s, not 180 (diagnose's
    // five experiments take 7 s on a quiet machine, past twice that beside two CPU hogs).
    transport = new StdioClientTransport({
      command: process.execPath, args: [BIN, 'mcp', '--wait-react', '2'], stderr: 'pipe',
      env: { ...process.env as Record<string, string>, LAYOUT_COST_MCP_TIMEOUT: '30' },
    });
    transport.stderr?.on('data', (d) => { stderr += String(d); });
    client = new Client({ name: 'layout-cost-e2e', version: '1.0.0' });
    await client.connect(transport);
  });
  after(async () => {
    await client?.close().catch(() => undefined);
    await server?.close();
  });

  it('lists measure, diagnose and compare, each with input and output schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).to.deep.equal(['compare', 'diagnose', 'measure']);
    const measure = tools.find((t) => t.name === 'measure')!;
    expect(measure.inputSchema.required).to.deep.equal(['url']);
    expect(Object.keys(measure.inputSchema.properties ?? {})).to.include.members(['url', 'seconds', 'steps']);
    expect(Object.keys(measure.outputSchema?.properties ?? {})).to.include.members(['components', 'forcedReflows', 'interactions', 'shifts', 'page']);
    for (const t of tools) expect(t.outputSchema, t.name).to.be.an('object');
  });

  it('measure: the component whose own layout costs most first, with finite figures, a source line and progress', async () => {
    const progress: string[] = [];
    const measure = (): Promise<Result> => call('measure', { url: url('timing-load-r19.html'), steps: STEPS_SHORT }, (p) => progress.push(p.message ?? ''));
    // Beside a CPU hog Light's own p95 read 83 ms against Heavy's 61 once: a short run's first frames are split alike
    // before the probes land (ci-scale.test.ts says the same of Light). Measured once more on that miss, the second
    // held to everything; a ranking that is wrong misses twice.
    const lightOver = (x: Result): boolean => {
      const cs = (x.structuredContent?.components ?? []) as { name: string; selfLayoutMs: number }[];
      const heavy = cs.find((c) => c.name === 'Heavy'), light = cs.find((c) => c.name === 'Light');
      return heavy !== undefined && light !== undefined && light.selfLayoutMs >= heavy.selfLayoutMs;
    };
    const r = await measuredAgain(measure, (x) => {
      const over = x.isError !== true && lightOver(x);
      if (over) console.log('      [mcp] Light\'s own p95 over Heavy\'s');
      return over;
    }, 1);
    expect(r.isError, r.content[0]?.text).to.not.equal(true);
    const m = r.structuredContent;
    expect(m.frames).to.be.greaterThan(5);
    const [first] = m.components;
    expect(first.name, r.content[0].text).to.equal('Heavy');
    for (const k of ['layoutMs', 'styleMs', 'forcedMs', 'selfLayoutMs', 'selfStyleMs', 'selfForcedMs']) expect(Number.isFinite(first[k]), k).to.equal(true);
    expect(first.selfLayoutMs).to.be.greaterThan(0);
    // Inclusive figures hold its own: layout p95 of itself and its children is no less than its own.
    expect(first.layoutMs + 1e-9).to.be.at.least(first.selfLayoutMs * 0.999);
    expect(first.rendered).to.be.greaterThan(100);
    expect(first.source, 'a source line').to.match(/:\d+$/);
    const light = m.components.find((c: any) => c.name === 'Light');
    expect(light, 'Light listed').to.not.equal(undefined);
    expect(light.selfLayoutMs).to.be.below(first.selfLayoutMs);
    expect(r.content[0].text).to.match(/^\d+ frames measured/);
    expect(r.content[0].text).to.include('1. Heavy');
    expect(progress.length, 'progress notifications').to.be.greaterThan(0);
  });

  it('diagnose: each containment candidate tried on the live page, with its verdict and before/after ms', async () => {
    const r = await call('diagnose', { url: url('experiment-r19.html'), component: 'Ticker', steps: STEPS_TICKER });
    expect(r.isError, r.content[0]?.text).to.not.equal(true);
    const d = r.structuredContent;
    expect(d.component).to.equal('Ticker');
    expect(d.experiments.map((e: any) => e.css)).to.include('contain: layout');
    const layout = d.experiments.find((e: any) => e.css === 'contain: layout');
    expect(layout.verdict, JSON.stringify(layout)).to.be.oneOf(['faster', 'no-gain', 'inconclusive']);
    expect(layout.before.frames + layout.after.frames).to.be.greaterThan(0);
    if (layout.verdict === 'faster') expect(layout.rule).to.include('contain: layout;');
    expect(r.content[0].text).to.match(/experiments on Ticker/);
  });

  it('bad input: each an isError result with one line, and the next call works', async () => {
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
    const closed = (probe.address() as net.AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const notASet = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-mcp-'));
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['measure', { url: `http://127.0.0.1:${closed}/` }, /could not load .*ERR_CONNECTION_REFUSED.* — check that the server is running/],
      ['measure', { url: url('plain.html'), seconds: 0.5 }, /no React, Vue or Preact on .*plain\.html/],
      ['measure', { url: 'ftp://example.com/' }, /ftp: URLs are not supported/],
      ['diagnose', { url: url('experiment-r19.html'), component: 'NoSuchThing' }, /no component named "NoSuchThing" .*Ticker/],
      ['compare', { base: notASet, head: notASet }, /holds no report set .* — pass two folders written by `layout-cost audit --config/],
    ];
    try {
      for (const [name, args, re] of cases) {
        const r = await call(name, args);
        expect(r.isError, `${name} ${JSON.stringify(args)}: ${r.content[0]?.text}`).to.equal(true);
        expect(r.content).to.have.length(1);
        expect(r.content[0].text, name).to.match(re);
        expect(r.content[0].text, 'one line, no stack').to.not.match(/\n/);
      }
    } finally {
      fs.rmSync(notASet, { recursive: true, force: true });
    }
    // Still serving, and measuring.
    // The server waits 2 s for components (--wait-react 2, above): beside a CPU hog the page's first ones came later once.
    // Measured again on that answer, twice at most; a server that stopped serving answers no better.
    const again = await measuredAgain(() => call('measure', { url: url('basic-r19.html'), seconds: 0.5 }),
      (x) => x.isError === true && /no component was measured within/.test(x.content[0]?.text ?? ''));
    expect(again.isError, again.content[0]?.text).to.not.equal(true);
    expect(again.structuredContent.page.components).to.be.greaterThan(0);
    expect(stderr, 'nothing on stderr but progress').to.not.match(/Error:|\n\s+at /);
  });

  it('a page that never settles times out: one line, its browser gone, and the next call starts another', async () => {
    // A server of its own, giving up after 15 s (the main one waits 30 s: diagnose needs its time beside CPU hogs).
    // Not less: the next call starts a browser within the same limit, and on a machine half as fast as this suite's
    // usual, in the parallel lane, that took over 6 s.
    const t = new StdioClientTransport({
      command: process.execPath, args: [BIN, 'mcp', '--wait-react', '2'], stderr: 'pipe',
      env: { ...process.env as Record<string, string>, LAYOUT_COST_MCP_TIMEOUT: '15' },
    });
    let err = '';
    t.stderr?.on('data', (d) => { err += String(d); });
    const c = new Client({ name: 'layout-cost-e2e-timeout', version: '1.0.0' });
    await c.connect(t);
    try {
      const ask = async (name: string, args: Record<string, unknown>): Promise<Result> =>
        (await c.callTool({ name, arguments: args }, undefined, { timeout: 60_000 })) as Result;
      const r = await ask('measure', { url: url('basic-r19.html'), steps: STEPS_FOREVER });
      expect(r.isError).to.equal(true);
      expect(r.content).to.have.length(1);
      expect(r.content[0].text).to.match(/timed out after 15 s/);
      expect(r.content[0].text, 'one line, no stack').to.not.match(/\n/);
      const gone = Date.now() + 10_000;
      while (Date.now() < gone && childrenOf(t.pid!).some(alive)) await new Promise((res) => setTimeout(res, 100));
      expect(childrenOf(t.pid!).filter(alive), 'the browser the timeout closed').to.deep.equal([]);
      // The next call starts a browser again: loading a closed port fails as a page load does, not as a dead browser.
      const probe = net.createServer();
      await new Promise<void>((res) => probe.listen(0, '127.0.0.1', () => res()));
      const closed = (probe.address() as net.AddressInfo).port;
      await new Promise((res) => probe.close(res));
      const next = await ask('measure', { url: `http://127.0.0.1:${closed}/` });
      expect(next.content[0].text).to.match(/could not load .*ERR_CONNECTION_REFUSED/);
      expect(err, 'nothing on stderr but progress').to.not.match(/Error:|\n\s+at /);
    } finally {
      await c.close().catch(() => undefined);
    }
  });

  it('the browser it started is gone once the client closes', async () => {
    const pid = transport.pid;
    expect(pid).to.be.a('number');
    const browsers = childrenOf(pid!);
    expect(browsers.length, 'a browser under the server').to.be.greaterThan(0);
    await client.close();
    const end = Date.now() + 15_000;
    while (Date.now() < end && (alive(pid!) || browsers.some(alive))) await new Promise((r) => setTimeout(r, 100));
    expect(alive(pid!), 'the server exited').to.equal(false);
    expect(browsers.filter(alive), 'its browser processes').to.deep.equal([]);
  });
});
