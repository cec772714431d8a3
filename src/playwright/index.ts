/**
 * `layout-cost/playwright` (issue 47): Layout Cost as a `@playwright/test` fixture.
 *
 *   import { test, expect } from 'layout-cost/playwright';
 *
 *   test('opening the report', async ({ page, layoutCost }) => {
 *     await page.goto('http://localhost:5173/reports');
 *     await layoutCost.attach();                       // overlay on, React found, recording (also done on its own)
 *     await page.click('#open-report');
 *     await layoutCost.expectWithin({ components: { ReportTable: { layoutMs: 12 } } });
 *   });
 *
 * The fixture runs the test's `page` in a Chromium with the extension (a persistent context per worker; Playwright
 * loads extensions only into one), attaches to each document the page loads, records the whole test body, and after
 * it writes the test's report into `layoutCostOutputDir` as a route of a report set (one set per worker:
 * `<dir>/<shard>w<worker>/`), which `layout-cost merge` joins across workers and shards and `layout-cost compare`
 * compares with a base (docs/CI.md, "Playwright").
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { test as base, chromium, type BrowserContext, type Page as PwPage, type TestInfo } from '@playwright/test';
import { findChrome, LINUX_CI_FLAGS } from '../../scripts/chrome';
import { safeDir } from '../cli/config';
import { writeRoute, writeSummary, type Summary, type SummaryRoute } from '../cli/multi';
import * as api from '../cli/page-api';
import { joinSegments } from '../cli/pool';
import { buildReport, type AuditInput, type AuditReport } from '../cli/report';
import { budgetFailures, budgetOf, extensionPath, packageVersion, type BudgetSpec } from '../puppeteer/index';
import type { Snapshot } from '../protocol/snapshot';

export { expect } from '@playwright/test';
export type { AuditReport } from '../cli/report';

export type { BudgetSpec } from '../puppeteer/index';

export interface LayoutCostFixture {
  /**
   * Turns the overlay on in the page's current document, waits for its React components and starts recording. The
   * fixture does it on its own when a document loads; await it after `page.goto` to be sure the recording has begun
   * before the interaction you measure.
   */
  attach(): Promise<void>;
  snapshot(): Promise<Snapshot>;
  /** The report of what was recorded since the test began (or since the page's document loaded), against `budget`. */
  report(budget?: BudgetSpec): Promise<AuditReport>;
  /** `report(budget)`, throwing an Error that lists every budget exceeded. */
  expectWithin(budget: BudgetSpec): Promise<AuditReport>;
}

export interface LayoutCostOptions {
  /** Where the report sets go (default `layout-cost-report`, relative to the working directory). */
  layoutCostOutputDir: string;
  /** A budget every test's whole recording must hold (checked after the test body; a miss fails the test). */
  layoutCostBudget: BudgetSpec | undefined;
}

interface WorkerFixtures {
  /** The browser (default: CHROME_PATH, else a Chromium or Chrome found on the machine). A worker option. */
  layoutCostChrome: string | undefined;
  layoutCostContext: BrowserContext;
}

/** This worker's report set: its routes (a test repeated with --repeat-each is one route with several runs). */
const set = {
  dir: '',
  summary: null as Summary | null,
  routes: new Map<string, { route: SummaryRoute; runs: AuditInput[] }>(),
};

function setFor(info: TestInfo, outDir: string): { dir: string; summary: Summary } {
  const shard = info.config.shard;
  const dir = path.resolve(outDir, `${shard ? `s${shard.current}of${shard.total}-` : ''}w${info.workerIndex}`);
  if (set.summary === null || set.dir !== dir) {
    set.dir = dir;
    set.routes.clear();
    set.summary = {
      kind: 'layout-cost-summary', version: 1, tool: { name: 'layout-cost', version: packageVersion() }, date: new Date().toISOString(),
      runs: 1, shard: shard ? `${shard.current}/${shard.total}` : null, routes: [],
    };
  }
  return { dir, summary: set.summary };
}

/** One test's recording, in segments (each `report` closes one): what the route's run is made of. */
class Session implements LayoutCostFixture {
  private attaching: Promise<void> | null = null;
  private segments: AuditInput[] = [];
  private started = Date.now();
  private recording = false;

  constructor(private readonly page: PwPage) {}

  /**
   * A new document: whatever the old one recorded is gone with it, and its segments too (its ids name other
   * components than the new document's): the test's report is its last document's.
   */
  loaded(): void {
    this.recording = false;
    this.segments = [];
    this.attaching = this.start();
    // Not awaited here: an error shows when the test awaits attach() or a report.
    this.attaching.catch(() => undefined);
  }

  private async start(): Promise<void> {
    await api.enable(this.page, 'components');
    await api.waitForComponents(this.page, 15_000);
    await api.startRecording(this.page);
    this.started = Date.now();
    this.recording = true;
  }

  attach(): Promise<void> {
    if (this.attaching === null) this.attaching = this.start();
    return this.attaching;
  }

  /** React, Vue or Preact is on the page (so an attach under way will end in a recording). */
  private async frameworkFound(): Promise<boolean> {
    const st = await api.state(this.page).catch(() => null);
    return st !== null && api.frameworkOn(st);
  }

  snapshot(): Promise<Snapshot> {
    return api.snapshot(this.page);
  }

  /** Closes the current segment (the recording goes on in a new one). */
  private async cut(restart: boolean): Promise<void> {
    if (this.attaching) await this.attaching;
    if (!this.recording) return;
    const recording = await api.stopRecording(this.page);
    this.recording = false;
    const [snapshot, domElements] = [await api.snapshot(this.page), await api.domElements(this.page)];
    this.segments.push({
      url: this.page.url(), browser: String(await this.page.evaluate('navigator.userAgent')).slice(0, 300), toolVersion: packageVersion(),
      seconds: (Date.now() - this.started) / 1000, recording, snapshot, domElements,
    });
    if (restart) {
      await api.startRecording(this.page);
      this.started = Date.now();
      this.recording = true;
    }
  }

  async report(spec?: BudgetSpec): Promise<AuditReport> {
    const budget = budgetOf(spec);
    await this.cut(true);
    if (this.segments.length === 0) throw new api.RunError('Layout Cost recorded nothing: no React page was loaded in this test');
    return buildReport(joinSegments(this.segments), budget);
  }

  async expectWithin(spec: BudgetSpec): Promise<AuditReport> {
    const r = await this.report(spec);
    const f = budgetFailures(r);
    if (f !== null) throw new Error(f);
    return r;
  }

  /** After the test body: the whole test as one run of its route, written to the worker's report set. */
  async finish(info: TestInfo, outDir: string, spec: BudgetSpec | undefined): Promise<void> {
    if (this.attaching === null) return;
    // Still attaching, or it failed (a page without React, a login page before the app): the body recorded nothing of
    // this document. Waited a second at most when no framework is on the page: a test must not pay the 15 s wait for
    // React at its end. With one there, the attach is only slow (a loaded CI machine): it is waited for, and the test's
    // report written (a short test's report was missing once beside a CPU hog).
    const attached = this.attaching.then(() => true, () => false);
    const live = this.recording
      || await Promise.race([attached, new Promise<boolean>((r) => setTimeout(() => r(false), 1000))])
      || (await this.frameworkFound() && await attached);
    if (live) {
      try {
        await this.cut(false);
      } catch {
        // The page went away (the test closed it, it crashed): the segments so far are the run, if any.
      }
    }
    if (this.segments.length === 0) return;
    const budget = budgetOf(spec);
    const run = joinSegments(this.segments);
    const { dir, summary } = setFor(info, outDir);
    const name = [info.project.name, ...info.titlePath.slice(1)].filter((x) => x !== '').join(' › ').slice(0, 200);
    let entry = set.routes.get(name);
    if (entry === undefined) {
      let folder = safeDir(name);
      for (let k = 2; [...set.routes.values()].some((e) => e.route.dir.toLowerCase() === folder.toLowerCase()); k++) folder = `${safeDir(name).slice(0, 76)}_${k}`;
      const hash = createHash('sha256').update(JSON.stringify([name, info.file, spec ?? null])).digest('hex').slice(0, 16);
      entry = { route: { name, dir: folder, url: run.url, hash, verdict: 'pass', failures: 0, frames: 0 }, runs: [] };
      set.routes.set(name, entry);
    }
    entry.runs.push(run);
    const shot = await this.page.screenshot({ type: 'png' }).catch(() => null);
    const pooled = writeRoute(dir, entry.route, entry.runs, budget, shot, entry.runs.reduce((t, r) => t + r.seconds, 0));
    Object.assign(entry.route, { verdict: pooled.passed ? 'pass' : 'fail', failures: pooled.failures, frames: pooled.frames });
    summary.routes = [...set.routes.values()].map((e) => e.route);
    summary.runs = Math.max(...summary.routes.map((r) => set.routes.get(r.name)!.runs.length));
    writeSummary(dir, summary);
    if (spec !== undefined) {
      const f = budgetFailures(buildReport(run, budget));
      if (f !== null) throw new Error(f);
    }
  }
}

export const test = base.extend<LayoutCostOptions & { layoutCost: LayoutCostFixture }, WorkerFixtures>({
  layoutCostOutputDir: ['layout-cost-report', { option: true }],
  layoutCostBudget: [undefined, { option: true }],
  layoutCostChrome: [undefined, { option: true, scope: 'worker' }],
  layoutCostContext: [async ({ layoutCostChrome }, use) => {
    const chrome = layoutCostChrome ?? findChrome();
    if (!chrome) throw new Error('Layout Cost: no Chrome or Chromium found: install one, or set CHROME_PATH');
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'layout-cost-playwright-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: chrome, headless: true, viewport: { width: 1280, height: 900 },
      args: [`--disable-extensions-except=${extensionPath}`, `--load-extension=${extensionPath}`, ...(process.platform === 'linux' ? LINUX_CI_FLAGS : [])],
    });
    try {
      await use(context);
    } finally {
      await context.close().catch(() => undefined);
      fs.rmSync(profile, { recursive: true, force: true });
    }
  }, { scope: 'worker' }],
  context: async ({ layoutCostContext }, use) => {
    await use(layoutCostContext);
  },
  page: async ({ layoutCostContext }, use) => {
    const page = await layoutCostContext.newPage();
    try {
      await use(page);
    } finally {
      await page.close().catch(() => undefined);
    }
  },
  layoutCost: async ({ page, layoutCostOutputDir, layoutCostBudget }, use, info) => {
    const session = new Session(page);
    const onLoad = (): void => session.loaded();
    page.on('domcontentloaded', onLoad);
    await use(session);
    page.off('domcontentloaded', onLoad);
    await session.finish(info, layoutCostOutputDir, layoutCostBudget);
  },
});
