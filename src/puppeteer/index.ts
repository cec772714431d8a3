/**
 * `layout-cost/puppeteer` (issue 14): Layout Cost in your own puppeteer e2e
 * suite. Install the extension into the browser, attach to a page, and check
 * what an interaction cost against budgets:
 *
 *   import puppeteer from 'puppeteer';
 *   import { attach, extensionPath } from 'layout-cost/puppeteer';
 *   const browser = await puppeteer.launch({ pipe: true, enableExtensions: [extensionPath] });
 *   const page = await browser.newPage();
 *   await page.goto('http://localhost:5173');
 *   const lc = await attach(page);                  // overlay on, React found, recording
 *   await page.click('#open-report');
 *   await lc.expectWithin({ components: { ReportTable: { layoutMs: 8 } } });
 *
 * `attach` takes a puppeteer Page or a Playwright Page (it only evaluates
 * expressions in it). docs/CI.md has the whole API and the Playwright recipe.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../scripts/chrome';
import type { Browser } from 'puppeteer-core';
import type { Page } from '../cli/page-api';
import { BudgetError, parseBudget, type Budget } from '../cli/budget';
import * as api from '../cli/page-api';
import { buildReport, type AuditReport } from '../cli/report';
import type { Mode } from '../protocol/constants';
import type { Recording } from '../protocol/recording';
import type { LayoutCostState, Snapshot } from '../protocol/snapshot';

export type { AuditReport, Check, Dist, InstanceReport, TypeReport } from '../cli/report';
export type { Recording } from '../protocol/recording';
export type { Page } from '../cli/page-api';
export type { LayoutCostState, Snapshot } from '../protocol/snapshot';
export { RunError } from '../cli/page-api';
export { BudgetError } from '../cli/budget';

/** This package's version (reports name the tool that made them). */
export function packageVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** A budget spec as a budget (none: no checks); a malformed one throws a BudgetError saying so. */
export function budgetOf(spec: BudgetSpec | undefined): Budget {
  if (spec === undefined) return { defaults: {}, components: [], page: { domElements: null } };
  try {
    return parseBudget(spec);
  } catch (e) {
    if (e instanceof BudgetError) throw new BudgetError(`budget: ${e.message}`);
    throw e;
  }
}

/** What `expectWithin` throws when a report fails its budget (every check exceeded, a line each); null when it holds. */
export function budgetFailures(r: AuditReport): string | null {
  if (r.passed) return null;
  const lines = r.checks.filter((c) => !c.pass).map((c) => `  ${c.message}`);
  return `Layout Cost: ${r.failures} budget${r.failures === 1 ? '' : 's'} exceeded:\n${lines.join('\n')}`;
}

/**
 * The extension for automation (the package's dist-all-sites/): pass it to puppeteer (`enableExtensions:
 * [extensionPath]`). The store build runs on development sites only until the user allows another (a permission
 * prompt no CDP client can accept); this copy's manifest grants every site, so a test browser works on your staging
 * host as on localhost (issue 48, docs/SITES.md).
 */
export const extensionPath = path.join(ROOT, 'dist-all-sites');

/** Installs the extension into a running browser (puppeteer ≥ 23, launched with `pipe: true, enableExtensions: true`). */
export async function install(browser: Browser): Promise<string> {
  return browser.installExtension(extensionPath);
}

/** A budget as in a budget file (docs/CI.md): `{ defaults, components, page }`. */
export type BudgetSpec = Record<string, unknown>;

export interface LayoutCost {
  readonly page: Page;
  enable(mode?: Exclude<Mode, 'off'>): Promise<void>;
  disable(): Promise<void>;
  state(): Promise<LayoutCostState>;
  snapshot(): Promise<Snapshot>;
  startRecording(opts?: { maxRows?: number }): Promise<void>;
  stopRecording(): Promise<Recording>;
  /**
   * Stops the recording running since `attach` (or the last `report`/`expectWithin`), builds the same report as
   * `layout-cost audit` against `budget` (none: no checks), and starts a new recording for the next interaction.
   */
  report(budget?: BudgetSpec): Promise<AuditReport>;
  /** `report(budget)`, throwing an Error that lists every budget exceeded; resolves to the report when all hold. */
  expectWithin(budget: BudgetSpec): Promise<AuditReport>;
}

export interface AttachOptions {
  mode?: Exclude<Mode, 'off'>;
  /** Start recording at once (default true). */
  record?: boolean;
  /** How long to wait for React components (default 15 s). */
  timeoutMs?: number;
}

/** Turns the overlay on in `page`, waits for its React components, and starts recording. */
export async function attach(page: Page, opts: AttachOptions = {}): Promise<LayoutCost> {
  await api.enable(page, opts.mode ?? 'components');
  await api.waitForComponents(page, opts.timeoutMs ?? 15_000);
  let recordingSince = opts.record === false ? null : Date.now();
  if (recordingSince !== null) await api.startRecording(page);
  const version = packageVersion();
  const lc: LayoutCost = {
    page,
    enable: (mode) => api.enable(page, mode),
    disable: () => api.disable(page),
    state: () => api.state(page),
    snapshot: () => api.snapshot(page),
    async startRecording(o) {
      await api.startRecording(page, o);
      recordingSince = Date.now();
    },
    async stopRecording() {
      recordingSince = null;
      return api.stopRecording(page);
    },
    async report(spec) {
      const budget = budgetOf(spec);
      const since = recordingSince ?? Date.now();
      const recording = await api.stopRecording(page);
      const [snapshot, dom] = [await api.snapshot(page), await api.domElements(page)];
      await api.startRecording(page);
      recordingSince = Date.now();
      return buildReport({
        url: page.url(), browser: String(await page.evaluate('navigator.userAgent')).slice(0, 300), toolVersion: version, seconds: (Date.now() - since) / 1000,
        recording, snapshot, domElements: dom,
      }, budget);
    },
    async expectWithin(spec) {
      const r = await lc.report(spec);
      const f = budgetFailures(r);
      if (f !== null) throw new Error(f);
      return r;
    },
  };
  return lc;
}
