/**
 * `layout-cost/playwright` (issue 47; docs/CI.md, "Playwright"): the @playwright/test fixture, run by Playwright's own
 * runner on the system Chromium, in two shards, whose report sets `layout-cost merge` joins. The specs are
 * tests/fixtures/playwright/layout.spec.mjs, written as a user would: a budget held and one exceeded through
 * `expectWithin` (one page), a page attached on its own when it loads, a short test whose page renders late (its report
 * still written), a page without React (no report, no failure), and
 * `layoutCostBudget` failing a test after its body.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ROOT, findChrome } from '../../scripts/chrome';
import { startServer, type StaticServer } from '../../scripts/server';
import { cli, node, type Ran } from './cli-run';

const CONFIG = path.join(ROOT, 'tests', 'fixtures', 'playwright', 'playwright.config.mjs');

const playwright = (args: string[], env: NodeJS.ProcessEnv): Promise<Ran> =>
  node(path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js'), ['test', '-c', CONFIG, ...args], env);

const json = (f: string): any => JSON.parse(fs.readFileSync(f, 'utf8'));

describe('layout-cost/playwright: the @playwright/test fixture (e2e)', function () {
  this.timeout(240_000);
  let server: StaticServer;
  let tmp: string;
  before(async () => {
    server = await startServer();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-pw-'));
  });
  after(async () => {
    await server?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('two shards of a Playwright run: budgets held and exceeded, a test failed by layoutCostBudget, the report sets merged', async () => {
    const env = { LC_ORIGIN: server.origin, CHROME_PATH: findChrome() as string };
    // One shard after the other, as two CI jobs would (two browsers at once on two cores measure each other).
    const runs: Ran[] = [];
    for (const shard of ['1/2', '2/2']) {
      const out = path.join(tmp, `shard-${shard[0]}`);
      runs.push(await playwright(['--shard', shard], { ...env, LC_OUT: out }));
    }
    runs.forEach((r, i) => expect(r.code, `shard ${i + 1}: ${r.stdout}\n${r.stderr}`).to.equal(0));
    // Each shard's worker wrote its own report set (s<shard>of2-w<worker>), one route per test it ran.
    const sets = [1, 2].flatMap((k) => {
      const dir = path.join(tmp, `shard-${k}`, 'layout-cost');
      return fs.readdirSync(dir).map((d) => path.join(dir, d));
    });
    // (A worker that failed a test is replaced by a new one, whose index is new: a shard may hold two sets.)
    const tags = sets.map((d) => path.basename(d));
    for (const t of tags) expect(t).to.match(/^s[12]of2-w\d+$/);
    for (const k of [1, 2]) expect(tags.some((t) => t.startsWith(`s${k}of2-`)), `shard ${k}'s set`).to.equal(true);
    const merged = await cli(['merge', ...sets, '--out', path.join(tmp, 'merged')]);
    expect(merged.code, merged.stderr).to.equal(0);
    const summary = json(path.join(tmp, 'merged', 'summary.json'));
    const names = summary.routes.map((r: any) => r.name).sort();
    expect(names).to.deep.equal([
      'a budget for every test (layoutCostBudget) › fails after its body when Heavy is over',
      'attached on its own when the document loads',
      'Heavy within a generous budget, over a tight one: expectWithin names it',
      'a short test on a page whose app renders late still gets its report',
    ].sort());
    // The spec on a page without React: it passed (the exit status above), and wrote nothing.
    // The whole test as one run of its route: frames recorded, Heavy's own figure for compare.
    const generous = summary.routes.find((r: any) => r.name.startsWith('Heavy within a generous budget'));
    const report = json(path.join(tmp, 'merged', generous.dir, 'report.json'));
    expect(report.frames).to.be.at.least(15);
    expect(report.runs).to.have.length(1);
    expect(report.runs[0].own.Heavy).to.be.greaterThan(0.1);
    const auto = summary.routes.find((r: any) => r.name === 'attached on its own when the document loads');
    expect(json(path.join(tmp, 'merged', auto.dir, 'report.json')).page.components).to.be.greaterThan(3);
    // Its body over before React rendered (2.5 s after load): the fixture's end waited for the attach, and the report
    // holds the app (it waited a second and wrote nothing before).
    const late = summary.routes.find((r: any) => r.name.startsWith('a short test on a page whose app renders late'));
    expect(json(path.join(tmp, 'merged', late.dir, 'report.json')).page.components).to.be.greaterThan(3);
    // layoutCostBudget: the run's verdict is a failure, and Playwright failed the test (expected: test.fail()) naming Heavy.
    const over = summary.routes.find((r: any) => r.name.startsWith('a budget for every test'));
    expect(over.verdict).to.equal('fail');
    const results = [1, 2].map((k) => json(path.join(tmp, `shard-${k}`, 'results.json')));
    const specs = results.flatMap((r) => r.suites.flatMap(function all(s: any): any[] { return [...(s.specs ?? []), ...(s.suites ?? []).flatMap(all)]; }));
    const failed = specs.find((s: any) => s.title === 'fails after its body when Heavy is over');
    const result = failed.tests[0].results[0];
    expect(result.status).to.equal('failed');
    expect(result.errors.map((e: any) => e.message).join('\n')).to.match(/Layout Cost: 1 budget exceeded:\s+Heavy: /);
  });
});
