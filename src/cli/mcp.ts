/**
 * `layout-cost mcp` (issue 66; docs/AGENTS.md): a Model Context Protocol server over stdio, for coding agents. Three
 * tools — `measure` (an audit run of a URL: components by layout cost, with source lines and what dirtied the costliest),
 * `diagnose` (the panel's containment experiments on one component, A/B on the live page) and `compare` (two report
 * sets, as `layout-cost compare`). It drives the browser as `layout-cost audit` does (run.ts): one browser with the
 * extension, started at the first call that needs it and kept for the next, one measurement at a time (two at once
 * would measure each other), closed when the client goes away. Bad input is a result with `isError` and one line;
 * the server keeps serving. Nothing is written to stdout but the protocol.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { CANDIDATES, DEFAULT_EXPERIMENT_FRAMES, experimentResult, type ExperimentResult } from '../protocol/experiment';
import { INVALID } from '../protocol/validate';
import type { Snapshot } from '../protocol/snapshot';
import { defaultBudget } from './budget';
import { compareSets, summaryMarkdown } from './compare';
import { ConfigError } from './config';
import {
  compareInput, compareOutput, compareResult, diagnoseInput, diagnoseOutput, diagnoseResult, failed, measureInput, measureOutput,
  measureResult, type ToolResult, type Tried,
} from './mcp-results';
import { sideOf } from './multi';
import { RunError, snapshot } from './page-api';
import { buildReport } from './report';
import { act, auditPage, launchAuditBrowser, loadSteps, openMeasured, targetUrl, type RunOptions } from './run';

export interface McpOptions {
  chrome: string;
  extension: string;
  headful: boolean;
  version: string;
  waitReactMs: number;
}

/**
 * Past this, a tool call gives up (its page closed with the browser, which the next call starts again): 180 s, or
 * LAYOUT_COST_MCP_TIMEOUT seconds.
 */
const CALL_TIMEOUT_MS = (Number(process.env.LAYOUT_COST_MCP_TIMEOUT) > 0 ? Number(process.env.LAYOUT_COST_MCP_TIMEOUT) : 180) * 1000;
/** After a measure, how long the costliest component is watched pinned for what dirtied it. */
const DIRTIED_WATCH_MS = 1500;

type Extra = { _meta?: { progressToken?: string | number }; sendNotification: (n: { method: 'notifications/progress'; params: Record<string, unknown> }) => Promise<void> };

export async function serveMcp(o: McpOptions): Promise<void> {
  // Loaded here, not with the CLI: 160 ms that every `audit` would pay.
  const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const server = new McpServer({ name: 'layout-cost', version: o.version }, {
    instructions: 'Layout Cost measures which React, Vue or Preact component makes the browser\'s style and layout slow. '
      + 'measure a URL; diagnose the costliest component (containment tried on the live page); edit; measure again; '
      + 'compare two report sets written by `layout-cost audit --config`.',
  });
  let browser: { browser: Browser; close(): Promise<void> } | null = null;
  const browserFor = async (): Promise<Browser> => {
    if (browser !== null && !browser.browser.connected) {
      await browser.close();
      browser = null;
    }
    browser ??= await launchAuditBrowser(o);
    return browser.browser;
  };
  // One call at a time: a second measurement beside the first would measure it.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = (fn: () => Promise<ToolResult>): Promise<ToolResult> => {
    const run = queue.then(() => withTimeout(fn(), async () => {
      // A page that never settles: the browser goes, with it (the next call starts another).
      await browser?.close();
      browser = null;
    }));
    queue = run.catch(() => undefined);
    return run;
  };

  server.registerTool('measure', {
    title: 'Measure a page\'s components',
    description: 'Loads the URL in headless Chromium with Layout Cost, watches it (or runs the steps), and returns the '
      + 'components, costliest own layout + style + forced ms per frame first (p95; inclusive figures beside), each with '
      + 'its DOM elements and source line; what dirtied the costliest one; forced reflows with their stacks; interactions '
      + 'and shifts.',
    inputSchema: measureInput, outputSchema: measureOutput, annotations: { readOnlyHint: true, openWorldHint: true },
  }, async (args, extra) => serial(() => measure(args, extra as unknown as Extra)));

  server.registerTool('diagnose', {
    title: 'Try containment on a component',
    description: 'Loads the URL, finds the component by name, and tries each containment declaration the DevTools panel '
      + 'offers on it, measured A/B on the live page with the proof that rendering did not change; returns each one\'s '
      + 'before/after ms and verdict, and the rule to copy for one that was faster.',
    inputSchema: diagnoseInput, outputSchema: diagnoseOutput, annotations: { readOnlyHint: true, openWorldHint: true },
  }, async (args, extra) => serial(() => diagnose(args, extra as unknown as Extra)));

  server.registerTool('compare', {
    title: 'Compare two report sets',
    description: 'Compares two report sets written by `layout-cost audit --config … --out DIR` (base and head): per route '
      + 'and component, own style + layout ms per frame, with the noise of the runs; returns the regressions, the '
      + 'improvements and summary.md.',
    inputSchema: compareInput, outputSchema: compareOutput, annotations: { readOnlyHint: true },
  }, async (args) => compare(args));

  async function measure(a: { url: string; seconds?: number; steps?: string }, extra: Extra): Promise<ToolResult> {
    const progress = progressOf(extra);
    try {
      const url = urlOf(a.url);
      const steps = stepsOf(a.steps);
      const b = await browserFor();
      let dirtied: { component: string; items: Snapshot['components'][number]['dirtiedBy'] } | null = null;
      const opts: RunOptions = {
        url, chrome: o.chrome, extension: o.extension, seconds: a.seconds ?? 5, waitReactMs: o.waitReactMs, steps, headful: o.headful,
        screenshot: false, log: (line) => progress(line),
        after: async (page, rec, snap) => {
          dirtied = await watchDirtied(page, rec, snap);
        },
      };
      const run = await auditPage(b, opts);
      const report = buildReport({ url, browser: run.browser, toolVersion: o.version, seconds: run.seconds, recording: run.recording,
        snapshot: run.snapshot, domElements: run.domElements }, defaultBudget());
      return measureResult(report, run.recording, run.snapshot, dirtied);
    } catch (e) {
      return failed(e, hintOf(e));
    }
  }

  async function diagnose(a: { url: string; component: string; steps?: string }, extra: Extra): Promise<ToolResult> {
    const progress = progressOf(extra);
    let page: Page | null = null;
    try {
      const url = urlOf(a.url);
      const steps = stepsOf(a.steps);
      const b = await browserFor();
      page = await b.newPage();
      const opts: RunOptions = { url, chrome: o.chrome, extension: o.extension, seconds: 0, waitReactMs: o.waitReactMs, steps, headful: o.headful, log: progress };
      await openMeasured(page, opts, 'loading');
      if (steps) await act(page, await loadSteps(steps), opts, 'the steps failed');
      // A second of figures, to choose the costliest instance of the name.
      await new Promise((r) => setTimeout(r, 1000));
      const snap = await snapshot(page);
      const named = snap.components.filter((c) => c.name === a.component);
      if (named.length === 0) {
        const names = [...new Set(snap.components.map((c) => c.name))].slice(0, 12).join(', ');
        throw new RunError(`no component named ${JSON.stringify(a.component.slice(0, 100))} on ${url} (on it: ${names || 'none'})`);
      }
      const target = named.sort((x, y) => (y.layoutMs + y.styleMs + y.forcedMs) - (x.layoutMs + x.styleMs + x.forcedMs))[0];
      const tried: Tried[] = [];
      for (const [i, c] of CANDIDATES.entries()) {
        progress(`trying ${c.css} on ${target.name}`, i, CANDIDATES.length);
        tried.push(await experiment(page, target.id, c.css));
      }
      return diagnoseResult(target.name, target.id, tried);
    } catch (e) {
      return failed(e, hintOf(e));
    } finally {
      await page?.close().catch(() => undefined);
    }
  }

  async function compare(a: { base: string; head: string; threshold?: number }): Promise<ToolResult> {
    try {
      const c = compareSets(sideOf(path.resolve(a.base)), sideOf(path.resolve(a.head)), a.threshold ?? 1.2);
      return compareResult(c, summaryMarkdown(c));
    } catch (e) {
      return failed(e, e instanceof ConfigError ? 'pass two folders written by `layout-cost audit --config … --out DIR`' : '');
    }
  }

  const transport = new StdioServerTransport();
  let closing = false;
  const shutdown = async (): Promise<void> => {
    if (closing) return;
    closing = true;
    await browser?.close();
    browser = null;
    process.exit(0);
  };
  // The client went away: its end of stdin closes (or it signals).
  process.stdin.on('end', () => void shutdown());
  process.stdin.on('close', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  transport.onclose = () => void shutdown();
  await server.connect(transport);
}

/** `notifications/progress` when the client asked for them (a progress token), else nothing. */
function progressOf(extra: Extra): (message: string, progress?: number, total?: number) => void {
  const token = extra._meta?.progressToken;
  let n = 0;
  return (message, progress, total) => {
    if (token === undefined) return;
    const params: Record<string, unknown> = { progressToken: token, progress: progress ?? ++n, message: message.slice(0, 200) };
    if (total !== undefined) params.total = total;
    extra.sendNotification({ method: 'notifications/progress', params }).catch(() => undefined);
  };
}

function urlOf(given: string): string {
  return targetUrl(given, (m) => new RunError(m)).href;
}

function stepsOf(given: string | undefined): string | null {
  if (given === undefined) return null;
  const file = path.resolve(given);
  if (!fs.existsSync(file)) throw new RunError(`steps: no file at ${file}`);
  return file;
}

function hintOf(e: unknown): string {
  const m = String((e as Error)?.message ?? '');
  if (/could not load|ERR_|answered HTTP/.test(m)) return 'check that the server is running and the URL is right';
  if (/no React, Vue or Preact/.test(m)) return 'Layout Cost measures React, Vue and Preact pages';
  if (/no component named/.test(m)) return 'use a name from measure\'s components';
  if (/timed out/.test(m)) return 'the page did not settle; pass steps that end, or fewer seconds';
  return '';
}

/** One experiment through the page's API, its answer checked like any data from the page. */
async function experiment(page: Page, id: number, css: string): Promise<Tried> {
  try {
    const raw = await page.evaluate(`window.__LAYOUT_COST__.experiment(${id}, ${JSON.stringify({ css, frames: DEFAULT_EXPERIMENT_FRAMES })})`);
    const r = experimentResult(raw);
    if (r === INVALID) return { css, result: null, error: 'the page returned no usable result' };
    return { css, result: r as ExperimentResult, error: null };
  } catch (e) {
    return { css, result: null, error: String((e as Error)?.message ?? e).split('\n')[0].replace(/^Error:\s*/, '').slice(0, 300) };
  }
}

/**
 * The costliest component by its own layout, style and forced ms over the recording, pinned for a moment: what
 * dirtied it (tracked for the pinned component only), then unpinned.
 */
async function watchDirtied(page: Page, rec: { frames: { components: { id: number; selfLayoutMs: number; selfStyleMs: number; selfForcedMs: number }[] }[] },
  snap: Snapshot): Promise<{ component: string; items: Snapshot['components'][number]['dirtiedBy'] } | null> {
  const own = new Map<number, number>();
  for (const f of rec.frames) for (const c of f.components) own.set(c.id, (own.get(c.id) ?? 0) + c.selfLayoutMs + c.selfStyleMs + c.selfForcedMs);
  let best = -1, bestMs = 0;
  for (const [id, ms] of own) if (ms > bestMs && snap.components.some((c) => c.id === id)) [best, bestMs] = [id, ms];
  if (best < 0) return null;
  const name = snap.components.find((c) => c.id === best)?.name ?? `#${best}`;
  try {
    await page.evaluate(`window.__LAYOUT_COST__.pin(${best})`);
    const end = Date.now() + DIRTIED_WATCH_MS;
    let items: Snapshot['components'][number]['dirtiedBy'] = [];
    while (Date.now() < end) {
      await new Promise((r) => setTimeout(r, 250));
      items = (await snapshot(page)).components.find((c) => c.id === best)?.dirtiedBy ?? [];
      if (items.length > 0) break;
    }
    await page.evaluate('window.__LAYOUT_COST__.pin(null)');
    return { component: name, items };
  } catch {
    return { component: name, items: [] };
  }
}

async function withTimeout(p: Promise<ToolResult>, onTimeout: () => Promise<void>): Promise<ToolResult> {
  let timer: NodeJS.Timeout | null = null;
  let fired = false;
  const late = new Promise<ToolResult>((resolve) => {
    timer = setTimeout(() => {
      fired = true;
      void onTimeout().catch(() => undefined)
        .then(() => resolve(failed(new Error(`timed out after ${CALL_TIMEOUT_MS / 1000} s`), hintOf(new Error('timed out')))));
    }, CALL_TIMEOUT_MS);
  });
  try {
    const first = await Promise.race([p, late]);
    // Closing the browser at the timeout fails the call still loading the page ("could not load …: Target closed"),
    // before the close is over: the answer is the timeout.
    return fired ? await late : first;
  } finally {
    if (timer !== null) clearTimeout(timer);
  }
}
