/**
 * An extension's main-thread cost in one page load, from Chrome's trace
 * (`devtools.timeline`): its EvaluateScript and FunctionCall events, outermost
 * only, thread time. Shared by bench/always-on.ts, bench/channel-floor.ts and bench/boot-bytes.ts.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'puppeteer-core';
import { sleep } from './env';

export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { data?: { url?: string; scriptName?: string } };
}

export interface Load {
  totalMs: number;
  /** The one-line extension's two scripts on the same load. */
  extFloorMs: number;
  /** The page's own first inline script's EvaluateScript (plain.html's one line): this machine's floor. */
  floorMs: number;
  byFile: Map<string, number>;
  /** Frames in which inject.js and content.js were both evaluated. */
  framesSeen: number;
}

function urlOf(e: TraceEvent): string {
  return e.args?.data?.url ?? e.args?.data?.scriptName ?? '';
}

/** Our events, outermost only, per file; thread ms. */
export function ourCost(events: readonly TraceEvent[], prefix: string, pageUrl: string): Load {
  const ours = events.filter((e) => e.ph === 'X' && (e.name === 'EvaluateScript' || e.name === 'FunctionCall') && urlOf(e).startsWith(prefix))
    .sort((a, b) => a.pid - b.pid || a.tid - b.tid || a.ts - b.ts);
  const byFile = new Map<string, number>();
  let total = 0;
  let endOf = -1;
  let thread = '';
  for (const e of ours) {
    const key = `${e.pid}:${e.tid}`;
    if (key === thread && e.ts < endOf) continue;
    thread = key;
    endOf = e.ts + (e.dur ?? 0);
    const ms = (e.tdur ?? e.dur ?? 0) / 1000;
    const file = urlOf(e).slice(prefix.length).split('?')[0];
    byFile.set(file, (byFile.get(file) ?? 0) + ms);
    total += ms;
  }
  // Frames: a (pid, frame) is not in the event; count evaluations of inject.js and content.js instead.
  const evals = (f: string): number => ours.filter((e) => e.name === 'EvaluateScript' && urlOf(e) === prefix + f).length;
  const inline = events.find((e) => e.ph === 'X' && e.name === 'EvaluateScript' && urlOf(e).split('?')[0] === pageUrl);
  return {
    totalMs: total, byFile, extFloorMs: NaN, framesSeen: Math.min(evals('inject.js'), evals('content.js')),
    floorMs: inline ? (inline.tdur ?? inline.dur ?? 0) / 1000 : NaN,
  };
}

/**
 * An extension declared as ours (a MAIN-world and an isolated-world script at document_start in every frame) whose two
 * scripts are the given texts; its directory, for launchBrowser({ dist }). The caller removes it.
 */
export function scratchExtension(name: string, main: string, isolated: string, isolatedFirst = false): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'layout-cost-scratch-extension-'));
  const all = { matches: ['<all_urls>'], run_at: 'document_start', all_frames: true, match_about_blank: true };
  fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({
    manifest_version: 3, name, version: '1.0.0', background: { service_worker: 'background.js' },
    host_permissions: ['<all_urls>'],
    content_scripts: isolatedFirst ? [{ ...all, js: ['content.js'] }, { ...all, js: ['inject.js'], world: 'MAIN' }]
      : [{ ...all, js: ['inject.js'], world: 'MAIN' }, { ...all, js: ['content.js'] }],
  }));
  fs.writeFileSync(path.join(dir, 'background.js'), 'void 0;\n');
  fs.writeFileSync(path.join(dir, 'inject.js'), main);
  fs.writeFileSync(path.join(dir, 'content.js'), isolated);
  return dir;
}

/**
 * One page load in a fresh tab, traced: Chrome's trace events from before the navigation until `settleMs` after the
 * load event. `beforeClose` runs on the page after the trace stops (a check of what the load left).
 */
export async function tracedLoad<T = undefined>(
  b: { newPage(): Promise<Page> }, url: string,
  opts: { categories?: string[]; settleMs?: number; beforeClose?: (page: Page) => Promise<T> } = {},
): Promise<{ events: TraceEvent[]; checked: T | undefined }> {
  const page = await b.newPage();
  try {
    await page.tracing.start({ categories: opts.categories ?? ['devtools.timeline'] });
    await page.goto(url, { waitUntil: 'load' });
    await sleep(opts.settleMs ?? 300);
    const raw = await page.tracing.stop();
    const checked = opts.beforeClose ? await opts.beforeClose(page) : undefined;
    const trace = JSON.parse(Buffer.from(raw ?? new Uint8Array()).toString('utf8')) as { traceEvents: TraceEvent[] };
    return { events: trace.traceEvents, checked };
  } finally {
    await page.close();
  }
}
