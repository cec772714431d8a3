/**
 * CI at scale (issue 47): the config's routes and shards, the runs pooled, and compare's statistics and verdicts.
 */
import { expect } from 'chai';
import { ConfigError, mergeBudgets, parseConfig, parseShard, safeDir, shardRoutes } from '../../src/cli/config';
import { compareExit, compareHtml, compareJunit, compareSets, summaryMarkdown, type SideRoute } from '../../src/cli/compare';
import { bootstrapRatio, holm, normalQuantile, ratioInterval, seededRandom, studentCdf, studentQuantile, type RunSample } from '../../src/cli/stats';

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

  it('normal quantiles match the tables', () => {
    const table: [number, number][] = [[0.5, 0], [0.8, 0.841621], [0.975, 1.959964], [0.995, 2.575829], [0.999375, 3.227218], [1e-6, -4.753424]];
    for (const [p, z] of table) expect(normalQuantile(p), `z(${p})`).to.be.closeTo(z, 1e-5);
  });

  it('Holm: step-down levels, stopping at the first that fails', () => {
    const r = holm([0.04, 0.001, 0.03, 0.012], 0.05);
    // Sorted: 0.001 (0.05/4 = 0.0125: rejected), 0.012 (0.05/3: rejected), 0.03 (0.025: not), then 0.04 held to 0.025.
    expect(r.map((x) => x.rejected)).to.deep.equal([false, true, false, true]);
    expect(r[1].level).to.be.closeTo(0.0125, 1e-12);
    expect(r[3].level).to.be.closeTo(0.05 / 3, 1e-12);
    expect(r[2].level).to.be.closeTo(0.025, 1e-12);
    expect(r[0].level).to.be.closeTo(0.025, 1e-12);
  });
});

/**
 * Synthetic runs (issue 65): a run's level is lognormal about the component's (spread `between`), its frames lognormal
 * about the run's (spread `within`); its figure is the p95 of its frames, as report.ts takes it.
 */
function syntheticRuns(rng: () => number, ms: number, runs: number, frames: number, between: number, within: number): RunSample[] {
  const gauss = (): number => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  return Array.from({ length: runs }, () => {
    const level = Math.log(ms) + between * gauss();
    const values = Array.from({ length: frames }, () => Math.exp(level + within * gauss())).sort((a, b) => a - b);
    return { figure: values[Math.ceil(0.95 * frames) - 1], frames, values };
  });
}

describe('compare\'s bootstrap (issue 65)', () => {
  it('A/A: within the threshold at 5 % over 20 components (2 000 draws: the least p is under 0.05 / 20); 3× slower: flagged, where Welch with Bonferroni was not', function () {
    // Five million draws: 2.5 s alone, past 20 s beside the e2e lanes and a CPU hog.
    this.timeout(120_000);
    const rng = seededRandom(7);
    let falseRounds = 0, flagged = 0, welchFlagged = 0;
    const rounds = 20;
    for (let round = 0; round < rounds; round++) {
      const comps = Array.from({ length: 20 }, (_, i) => 0.5 + i * 0.4);
      const base = comps.map((ms) => syntheticRuns(rng, ms, 3, 60, 0.15, 0.3));
      const same = comps.map((ms) => syntheticRuns(rng, ms, 3, 60, 0.15, 0.3));
      const ps = base.map((b, i) => bootstrapRatio(b, same[i], { floor: 0.1, threshold: 1.2, draws: 2000, seed: round * 100 + i }).p);
      if (holm(ps, 0.05).some((x) => x.rejected)) falseRounds++;
      // One of the twenty made 3× slower.
      const slow = syntheticRuns(rng, comps[10] * 3, 3, 60, 0.15, 0.3);
      const ps3 = ps.slice();
      const t = bootstrapRatio(base[10], slow, { floor: 0.1, threshold: 1.2, draws: 2000, seed: round });
      ps3[10] = t.p;
      if (holm(ps3, 0.05)[10].rejected) flagged++;
      const w = ratioInterval(base[10].map((r) => r.figure), slow.map((r) => r.figure), 1 - 0.05 / 20);
      if (w.low !== null && w.low > 1.2) welchFlagged++;
    }
    console.log(`      [bootstrap] A/A rounds with a false positive ${falseRounds}/${rounds}; 3× flagged ${flagged}/${rounds}, by Welch–Bonferroni ${welchFlagged}/${rounds}`);
    expect(falseRounds / rounds, 'rounds with any false positive').to.be.at.most(0.05);
    expect(flagged / rounds, '3× flagged').to.be.at.least(0.95);
    expect(welchFlagged / rounds, 'the method before it, on the same runs').to.be.below(0.5);
  });

  it('one-sided, a family each: 1.5× at five runs flagged more often than by one two-sided family; A/A still within 5 %', function () {
    this.timeout(120_000);
    const rng = seededRandom(29);
    const rounds = 40, comps = 6;
    let one = 0, two = 0, aaOne = 0;
    for (let round = 0; round < rounds; round++) {
      const levels = Array.from({ length: comps }, (_, i) => 1 + i * 0.7);
      const base = levels.map((ms) => syntheticRuns(rng, ms, 5, 24, 0.12, 0.3));
      const head = levels.map((ms, i) => syntheticRuns(rng, i === 0 ? ms * 1.5 : ms, 5, 24, 0.12, 0.3));
      const aa = levels.map((ms) => syntheticRuns(rng, ms, 5, 24, 0.12, 0.3));
      const opts = (i: number) => ({ floor: 0.1, threshold: 1.2, draws: 1000, seed: round * 100 + i });
      const t = base.map((b, i) => bootstrapRatio(b, head[i], opts(i)));
      // Two-sided p is twice the smaller one-sided p: the same draws.
      for (const x of t) expect(x.p).to.be.closeTo(Math.min(1, 2 * Math.min(x.pSlower, x.pFaster)), 1e-12);
      if (holm(t.map((x) => x.pSlower), 0.05)[0].rejected) one++;
      if (holm(t.map((x) => x.p), 0.05)[0].rejected) two++;
      const a = base.map((b, i) => bootstrapRatio(b, aa[i], opts(i)));
      if (holm(a.map((x) => x.pSlower), 0.05).some((x) => x.rejected)) aaOne++;
    }
    console.log(`      [bootstrap] 1.5× at 5 runs flagged one-sided ${one}/${rounds}, two-sided ${two}/${rounds}; A/A rounds with a regression called ${aaOne}/${rounds}`);
    expect(one, 'one-sided flags more').to.be.above(two);
    expect(aaOne / rounds, 'rounds with a regression called on noise').to.be.at.most(0.05);
  });

  it('frames within runs: the same runs read with their frames are no less sure; a run alone gives nothing', () => {
    const rng = seededRandom(11);
    const base = syntheticRuns(rng, 2, 3, 200, 0.1, 0.3);
    const head = syntheticRuns(rng, 4, 3, 200, 0.1, 0.3);
    const opts = { floor: 0.1, threshold: 1.2, draws: 4000, seed: 3 };
    const withFrames = bootstrapRatio(base, head, opts);
    expect(withFrames.ratio).to.be.within(1.5, 2.7);
    expect(withFrames.p).to.be.below(0.01);
    const bare = bootstrapRatio(base.map((r) => ({ figure: r.figure })), head.map((r) => ({ figure: r.figure })), opts);
    expect(bare.ratio).to.equal(withFrames.ratio);
    expect(bootstrapRatio(base.slice(0, 1), head, opts)).to.include({ draws: null, p: 1 });
    // Deterministic: the same seed, the same draws.
    expect(bootstrapRatio(base, head, opts).p).to.equal(withFrames.p);
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

  it('compares each run\'s median frame: a run whose worst frames the machine doubled does not hide a 2× slower component', () => {
    // 24 frames a run, Heavy's own ms; one base run had two frames preempted (9 ms), which is its p95.
    const frames = (level: number, spikes = 0): number[] => Array.from({ length: 24 }, (_, i) => (i >= 24 - spikes ? 9 : level * (0.9 + (i / 23) * 0.2)));
    const run = (values: number[]): { own: Record<string, number>; frames: number; ownFrames: Record<string, number[]> } => ({
      own: { Heavy: values.slice().sort((a, b) => a - b)[Math.ceil(0.95 * values.length) - 1] }, frames: values.length,
      // As a report keeps them: the non-zero values, ascending.
      ownFrames: { Heavy: values.filter((x) => x > 0).sort((a, b) => a - b) },
    });
    const set = (runs: number[][]): SideRoute[] => [{ name: 'heavy', verdict: 'pass', report: { runs: runs.map(run) } as never }];
    const base = set([frames(2), frames(2), frames(2, 2)]), head = set([frames(4), frames(4), frames(4)]);
    const c = compareSets(base, head, 1.2);
    expect(c.statistic).to.equal('median');
    const heavy = c.regressions.find((r) => r.component === 'Heavy')!;
    expect(heavy.ratio).to.be.closeTo(2, 0.05);
    expect(heavy.base).to.be.closeTo(2, 0.05);
    expect(heavy.significant, JSON.stringify(heavy)).to.equal(true);
    expect(summaryMarkdown(c)).to.include('(median over the frames it did work in, one figure per run)');
    // The same runs on the p95 each run states: the preempted run hides it.
    const p95 = compareSets(base, head, 1.2, { quantile: 0.95 });
    expect(p95.regressions.find((r) => r.component === 'Heavy')?.significant ?? false).to.equal(false);
    // A type that works in a third of the frames, three times slower each time it does: its median over all frames is 0
    // on both sides; over the frames it worked in, 3×.
    const sparse = (level: number): number[] => Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? level * (0.9 + (i / 29) * 0.2) : 0));
    const s3 = compareSets(set([sparse(1), sparse(1), sparse(1)]), set([sparse(3), sparse(3), sparse(3)]), 1.2);
    const tip = s3.regressions.find((r) => r.component === 'Heavy')!;
    expect(tip.ratio).to.be.closeTo(3, 0.1);
    expect(tip.significant).to.equal(true);
    // A run that kept its frames but had none with this type's work: zeros, still the median.
    const idle = set([frames(2), frames(2), frames(2)]);
    (idle[0].report!.runs[2] as { ownFrames: Record<string, number[]> }).ownFrames = {};
    expect(compareSets(idle, head, 1.2).statistic).to.equal('median');
    // Reports without their frames: the p95 they state, said so.
    const bare = compareSets(side({ heavy: { Heavy: [2, 2, 2.1] } }), side({ heavy: { Heavy: [4, 4, 4.1] } }), 1.2);
    expect(bare.statistic).to.equal('p95');
    expect(summaryMarkdown(bare)).to.include('(p95 over frames, one figure per run)');
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
    // Each regression's p is one-sided (of "no slower than the threshold"): half the two-sided one of the same draws.
    expect(c.method).to.include('one-sided');
    const one = c.regressions.find((r) => r.route === 'home' && r.component === 'SlowList')!;
    const two = compareSets(base, head, 1.2, { twoSided: true }).regressions.find((r) => r.route === 'home' && r.component === 'SlowList')!;
    expect(two.p! / one.p!).to.be.closeTo(2, 0.01);
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

describe('compare says what its runs could see (issue 65)', () => {
  const route = (name: string, comps: Record<string, number[]>): SideRoute => ({
    name, verdict: 'pass', report: { runs: [0, 1, 2].map((k) => ({ own: Object.fromEntries(Object.entries(comps).map(([c, v]) => [c, v[k]])) })) },
  });

  it('a large ratio within the noise is listed with the runs that would settle it; each route its smallest detectable change', () => {
    const base = [route('home', { Wild: [1, 4, 0.5], Calm: [2, 2.05, 1.95] })];
    const head = [route('home', { Wild: [6, 1.2, 5], Calm: [2.02, 2, 1.98] })];
    const c = compareSets(base, head, 1.2);
    const wild = c.regressions.find((r) => r.component === 'Wild')!;
    expect(wild.ratio).to.be.above(2);
    expect(wild.significant).to.equal(false);
    expect(wild.runsToSettle).to.be.a('number').and.to.be.above(3);
    expect(c.routes).to.have.length(1);
    expect(c.routes![0].detectable).to.be.above(1.2);
    const md = summaryMarkdown(c);
    expect(md).to.include('### Large but not significant');
    expect(md).to.match(new RegExp(`- Wild \\(home\\): ${wild.ratio.toFixed(2)}×, --runs ${wild.runsToSettle}`));
    expect(md).to.match(/Smallest change these runs could detect \(80 % power\): home \d+\.\d\d×/);
    // A clear one is not listed there.
    const clear = compareSets(base, [route('home', { Wild: [1, 4, 0.5], Calm: [6.1, 6, 5.9] })], 1.2);
    expect(clear.regressions.find((r) => r.component === 'Calm')?.significant).to.equal(true);
    expect(summaryMarkdown(clear)).to.not.include('Large but not significant');
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
