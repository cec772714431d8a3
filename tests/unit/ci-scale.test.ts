/**
 * CI at scale (issue 47): the config's routes and shards, the runs pooled, and compare's statistics and verdicts.
 */
import { expect } from 'chai';
import { ConfigError, mergeBudgets, parseConfig, parseShard, safeDir, shardRoutes } from '../../src/cli/config';
import { compareExit, compareHtml, compareJunit, compareSets, summaryMarkdown, type SideRoute } from '../../src/cli/compare';
import { ratioInterval, studentCdf, studentQuantile } from '../../src/cli/stats';

describe('compare\'s statistics', () => {
  it('Student\'s t quantiles match the tables', () => {
    // Two-sided 95 % and 99 % critical values.
    const table: [number, number, number][] = [[1, 0.975, 12.706], [2, 0.975, 4.303], [5, 0.975, 2.571], [10, 0.975, 2.228],
      [30, 0.975, 2.042], [5, 0.995, 4.032], [3, 0.9975, 7.453], [1000, 0.975, 1.962]];
    for (const [df, p, t] of table) expect(studentQuantile(p, df), `t(${p}, ${df})`).to.be.closeTo(t, 0.002);
    expect(studentCdf(0, 7)).to.be.closeTo(0.5, 1e-12);
    expect(studentCdf(-2.228, 10)).to.be.closeTo(0.025, 1e-4);
    expect(studentQuantile(0.975, 4.5)).to.be.within(2.571, 2.776); // fractional df (Welch) lies between its neighbours
  });

  it('an interval on the ratio of geometric means, from Welch on the logs', () => {
    const same = ratioInterval([1, 1.1, 0.9], [1, 1.1, 0.9], 0.95);
    expect(same.ratio).to.be.closeTo(1, 1e-12);
    expect(same.low!).to.be.below(1);
    expect(same.high!).to.be.above(1);
    const slower = ratioInterval([1, 1.05, 0.95, 1.02], [3, 3.1, 2.9, 3.05], 0.95);
    expect(slower.ratio).to.be.closeTo(3, 0.1);
    expect(slower.low!).to.be.above(2.5);
    expect(ratioInterval([1], [3, 3], 0.95).low).to.equal(null); // one run: no interval
    expect(ratioInterval([2, 2], [4, 4], 0.95)).to.deep.equal({ ratio: 2, low: 2, high: 2 });
  });
});

describe('audit --config', () => {
  const budgets: Record<string, unknown> = { '/ci/budget.json': { defaults: { layoutMs: 8 }, components: { Heavy: { layoutMs: 4 }, Row: { rendered: 10 } } } };
  const read = (f: string): unknown => {
    if (!(f in budgets)) throw new Error('ENOENT');
    return budgets[f];
  };
  const parse = (v: unknown) => parseConfig(JSON.stringify(v), '/ci/layout-cost.json', read, 5);

  it('reads routes, resolves paths beside the config, merges budgets key by key', () => {
    const { routes } = parse({
      budget: 'budget.json',
      routes: [
        { name: 'home', url: 'http://localhost:3000/' },
        { name: 'reports / monthly', url: 'http://localhost:3000/reports', steps: 'steps/reports.mjs', seconds: 2,
          budget: { components: { Heavy: { layoutMs: 12 } }, page: { domElements: false } } },
      ],
    });
    expect(routes.map((r) => [r.name, r.dir, r.seconds, r.steps])).to.deep.equal([
      ['home', 'home', 5, null], ['reports / monthly', 'reports_monthly', 2, '/ci/steps/reports.mjs']]);
    expect(routes[0].budget).to.deep.equal(budgets['/ci/budget.json']);
    expect(routes[1].budget).to.deep.equal({ defaults: { layoutMs: 8 }, components: { Heavy: { layoutMs: 12 }, Row: { rendered: 10 } }, page: { domElements: false } });
    expect(routes[0].hash).to.not.equal(routes[1].hash);
    expect(mergeBudgets(null, { a: 1 })).to.deep.equal({ a: 1 });
  });

  it('refuses what it cannot use, naming the field', () => {
    const bad: [unknown, RegExp][] = [
      [{ routes: [] }, /routes must be a non-empty array/],
      [{ routes: [{ name: 'a', url: 'http://x/' }, { name: 'a', url: 'http://y/' }] }, /"a" is used twice/],
      [{ routes: [{ name: 'a/b', url: 'http://x/' }, { name: 'a b', url: 'http://y/' }] }, /make the same folder name "a_b"/],
      [{ routes: [{ name: 'a', url: 'nope' }] }, /routes\[0\]\.url: "nope" is not a URL/],
      [{ routes: [{ name: 'a', url: 'ftp://x/' }] }, /ftp: URLs are not supported/],
      [{ routes: [{ name: 'a', url: 'http://x/', seconds: 0 }] }, /seconds must be a number of seconds/],
      [{ routes: [{ name: 'a', url: 'http://x/', wait: 1 }] }, /routes\[0\]\.wait is not a route field/],
      [{ routes: [{ name: 'a', url: 'http://x/' }], budget: 'missing.json' }, /budget: cannot read \/ci\/missing\.json/],
      [{ routes: [{ name: '', url: 'http://x/' }] }, /name must be a non-empty string/],
      [{ route: [] }, /"route" is not a config field/],
    ];
    for (const [v, re] of bad) expect(() => parse(v), JSON.stringify(v)).to.throw(ConfigError, re);
    expect(() => parseConfig('{', '/ci/c.json', read, 5)).to.throw(ConfigError, /not JSON/);
  });

  it('folder names are safe; shards take k mod N = I − 1', () => {
    expect(safeDir('../../etc')).to.equal('etc');
    expect(safeDir('..')).to.equal('route');
    expect(safeDir('Checkout — step 2')).to.equal('Checkout_step_2');
    expect(parseShard('2/3')).to.deep.equal({ index: 1, count: 3 });
    for (const s of ['0/3', '4/3', '1/0', 'x', '1/2/3']) expect(() => parseShard(s), s).to.throw(ConfigError, /--shard/);
    const routes = ['a', 'b', 'c', 'd', 'e'];
    expect(shardRoutes(routes, { index: 0, count: 2 })).to.deep.equal(['a', 'c', 'e']);
    expect(shardRoutes(routes, { index: 1, count: 2 })).to.deep.equal(['b', 'd']);
    // Every route in exactly one shard.
    for (const n of [1, 2, 3, 7]) {
      const all = Array.from({ length: n }, (_, i) => shardRoutes(routes, { index: i, count: n })).flat().sort();
      expect(all).to.deep.equal(routes);
    }
  });
});

describe('layout-cost compare', () => {
  const side = (routes: Record<string, Record<string, number[]>>): SideRoute[] => Object.entries(routes).map(([name, comps]) => {
    const runs = Math.max(...Object.values(comps).map((v) => v.length));
    return {
      name, verdict: 'pass' as const,
      report: { runs: Array.from({ length: runs }, (_, k) => ({ own: Object.fromEntries(Object.entries(comps).map(([c, v]) => [c, v[k]])) })) },
    };
  });

  it('flags the component made 3× slower, on every route it renders on, and nothing else', () => {
    const base = side({
      home: { SlowList: [2, 2.1, 1.9], Header: [0.5, 0.55, 0.45], Tiny: [0.01, 0.02, 0.0] },
      list: { SlowList: [4, 4.2, 3.9], Footer: [1, 1.1, 0.9] },
    });
    const head = side({
      home: { SlowList: [6, 6.3, 5.8], Header: [0.52, 0.5, 0.47], Tiny: [0.03, 0.01, 0.02] },
      list: { SlowList: [12.5, 11.8, 12.1], Footer: [1.02, 0.95, 1.05], NewThing: [1, 1, 1] },
    });
    const c = compareSets(base, head, 1.2);
    expect(c.regressions.filter((r) => r.significant).map((r) => `${r.route}:${r.component}`).sort()).to.deep.equal(['home:SlowList', 'list:SlowList']);
    // Tiny is under the floor on both sides: not a comparison at all.
    expect(c.comparisons).to.equal(4);
    expect(c.added).to.deep.equal([{ route: 'list', component: 'NewThing' }]);
    expect(compareExit(c)).to.equal(1);
    const md = summaryMarkdown(c);
    expect(md).to.match(/^## Layout Cost: 2 components significantly slower/);
    expect(md).to.match(/\| 🔴 \| SlowList \| list \| 4\.03 → 12\.13 \| 3\.01× \|/);
  });

  it('calls noise noise, needs runs on both sides, and makes a failed route an error (2 wins)', () => {
    const base = side({ home: { A: [1, 1.3, 0.8], B: [2, 2.1, 1.9] } });
    const noisy = side({ home: { A: [1.4, 0.9, 1.5], B: [1.9, 2.2, 2.0] } });
    const c = compareSets(base, noisy, 1.2);
    expect(c.regressions.every((r) => !r.significant)).to.equal(true);
    expect(compareExit(c)).to.equal(0);
    const once = compareSets(side({ home: { A: [1] } }), side({ home: { A: [5] } }), 1.2);
    expect(once.regressions).to.have.length(1);
    expect(once.regressions[0].significant, 'one run a side: no interval').to.equal(false);
    expect(summaryMarkdown(once)).to.include('needs 2+ runs a side');
    const failed: SideRoute[] = [{ name: 'home', verdict: 'error', error: 'could not load http://x/', report: null }];
    const e = compareSets(base, failed, 1.2);
    expect(e.errors).to.deep.equal([{ route: 'home', side: 'head', error: 'could not load http://x/' }]);
    const worse = compareSets(side({ home: { A: [1, 1, 1.01], B: [1, 1, 1] } }), [...side({ home: { A: [5, 5, 5.1] } }), ...failed.map((f) => ({ ...f, name: 'other' }))], 1.2);
    expect(worse.regressions.some((r) => r.significant)).to.equal(true);
    expect(compareExit(worse), 'an error wins over a regression').to.equal(2);
    // JUnit: the significant regression a failed test case, a route not audited an error.
    const junit = compareJunit(worse);
    expect(junit).to.match(/<testcase classname="layout-cost\.compare\.home" name="A" time="0">\s*<failure message="A on home: 1\.00 → 5\.03 ms/);
    expect(junit).to.include('<error message="could not load http://x/" type="not-audited"/>');
    expect(junit).to.include('failures="1" errors="1"');
    // Names are data: no Markdown or HTML from them.
    const odd = compareSets(side({ 'r|1': { 'A|<b>': [1, 1.01, 0.99] } }), side({ 'r|1': { 'A|<b>': [9, 9.1, 8.9] } }), 1.2);
    expect(summaryMarkdown(odd)).to.include('A\\| b ');
    const page = compareHtml(odd);
    expect(page).to.include('A|&lt;b&gt;');
    expect(page).to.not.include('<b>');
    expect(page).to.not.match(/<script/i);
    expect(page).to.include("default-src 'none'");
  });
});

describe('runs and segments as one report input', () => {
  const frame = (n: number, ids: number[]): any => ({
    frame: n, time: n * 16, styleMs: 1, layoutMs: 2, forcedMs: 0, componentsLeftOut: 0, mounts: [], unmounts: [], commits: [], stacks: [],
    components: ids.map((id) => ({ id, selfStyleMs: 0.5, selfLayoutMs: 1, selfForcedMs: 0, styleMs: 0.5, layoutMs: 1, forcedMs: 0, forcedCount: 0 })),
  });
  const input = (frames: any[], ids: number[], seconds: number): any => ({
    url: 'http://x/', browser: 'b', toolVersion: 't', seconds, domElements: 10,
    recording: {
      kind: 'layout-cost-recording', version: 1, url: 'http://x/', startedAt: 1, stoppedAt: 2, timeOrigin: 0, droppedFrames: 1, frames,
      components: Object.fromEntries(ids.map((id) => [String(id), { name: `C${id}`, parentId: id === 1 ? null : 1, depth: 0, key: null }])),
    },
    snapshot: { components: ids.map((id) => ({ id, parentId: id === 1 ? null : 1, name: `C${id}` })), interactions: [], shifts: [] },
  });

  it('runs: each run\'s ids moved apart (the same number is another component in the next run); seconds summed', async () => {
    const { poolRuns } = await import('../../src/cli/pool');
    const a = input([frame(1, [1, 2])], [1, 2], 1);
    const b = input([frame(1, [1, 2]), frame(2, [2])], [1, 2], 2);
    const p = poolRuns([a, b]);
    expect(p.recording.frames).to.have.length(3);
    const ids = p.recording.frames.flatMap((f) => f.components.map((c) => c.id));
    expect(new Set(ids).size).to.equal(4);
    expect(Object.keys(p.recording.components)).to.have.length(4);
    expect(p.snapshot.components).to.have.length(4);
    expect(p.seconds).to.equal(3);
    expect(p.recording.droppedFrames).to.equal(2);
  });

  it('segments of one run: the same page, so the same ids; frames in order', async () => {
    const { joinSegments } = await import('../../src/cli/pool');
    const a = input([frame(1, [1, 2])], [1, 2], 1);
    const b = input([frame(2, [2]), frame(3, [1])], [1, 2, 3], 2);
    const j = joinSegments([a, b]);
    expect(j.recording.frames.map((f) => f.frame)).to.deep.equal([1, 2, 3]);
    expect(new Set(j.recording.frames.flatMap((f) => f.components.map((c) => c.id)))).to.deep.equal(new Set([1, 2]));
    expect(Object.keys(j.recording.components).sort()).to.deep.equal(['1', '2', '3']);
    expect(j.snapshot.components).to.have.length(3);
    expect(j.seconds).to.equal(3);
    expect(joinSegments([a])).to.equal(a);
    expect(() => joinSegments([])).to.throw(/no segments/);
  });
});
