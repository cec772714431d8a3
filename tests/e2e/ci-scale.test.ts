/**
 * CI at scale (issues 47 and 65; docs/CI.md, "Every route"), through the real CLI: a config of two routes audited
 * three times each in two shards, merged, then compared with a head where the timing fixture's Heavy lays out three
 * times the cells (`?cells=2100`): compare flags Heavy (1.5× at least, significant), and nothing on the route it does
 * not render on; a second base flags nothing; a merge of two different audits of one route is refused; a route that
 * cannot load makes the audit an error. The false-positive rate and the power beside a CPU hog are bench/ci-compare.ts's.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ROOT } from '../../scripts/chrome';
import { startServer, type StaticServer } from '../../scripts/server';
import { cli } from './cli-run';

const STEPS = path.join(ROOT, 'tests', 'fixtures', 'audit', 'steps-short.mjs');

const json = (f: string): any => JSON.parse(fs.readFileSync(f, 'utf8'));

describe('CI at scale: routes, runs, shards, merge, compare (e2e)', function () {
  this.timeout(420_000);
  let server: StaticServer;
  let tmp: string;
  const url = (p: string): string => `${server.origin}/${p}`;
  const config = (name: string, cells: number | null): string => {
    const f = path.join(tmp, `${name}.json`);
    fs.writeFileSync(f, JSON.stringify({
      budget: { components: { Heavy: { layoutMs: 1000 } }, page: { domElements: false } },
      routes: [
        { name: 'heavy', url: url(`timing-load-r19.html${cells ? `?cells=${cells}` : ''}`), steps: STEPS },
        { name: 'basic page', url: url('basic-r19.html'), seconds: 0.3 },
      ],
    }));
    return f;
  };

  before(async () => {
    server = await startServer();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-scale-'));
  });
  after(async () => {
    await server?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('two shards merged, three runs a side, against a head where Heavy lays out 3× the cells: Heavy slower on its route, nothing else; base against a second base: nothing', async () => {
    const base = config('base', null);
    const out = (d: string): string => path.join(tmp, d);
    // Base in two shards (as two CI jobs would), head in one; one after another (three browsers at once on two cores
    // measure the machine, not the page). Right after base-1, its A/A twin (a second base of the heavy route, checked
    // below): two audits minutes apart read the machine's drift (in a quiet clean-clone run, second bases audited after
    // head all read slower than base-1, Heavy ×1.8–2.5, as the parallel lane's load rose).
    const s1 = await cli(['audit', '--config', base, '--runs', '3', '--shard', '1/2', '--out', out('base-1')]);
    const twin = await cli(['audit', '--config', base, '--runs', '3', '--shard', '1/2', '--out', out('cmp-aa-set')]);
    expect(twin.code, twin.stderr).to.equal(0);
    const s2 = await cli(['audit', '--config', base, '--runs', '3', '--shard', '2/2', '--out', out('base-2')]);
    const head = await cli(['audit', '--config', config('head', 2100), '--runs', '3', '--out', out('head')]);
    for (const r of [s1, s2, head]) expect(r.code, r.stderr).to.equal(0);
    expect(json(out('base-1/summary.json')).routes.map((r: any) => r.name)).to.deep.equal(['heavy']);
    expect(json(out('base-2/summary.json')).routes.map((r: any) => [r.name, r.dir])).to.deep.equal([['basic page', 'basic_page']]);
    // A route's report pools its runs; each run's figures are in runs[].
    const heavy = json(out('base-1/heavy/report.json'));
    expect(heavy.runs).to.have.length(3);
    expect(heavy.frames).to.equal(heavy.runs.reduce((t: number, r: any) => t + r.frames, 0));
    for (const r of heavy.runs) {
      expect(r.own.Heavy, 'Heavy\'s own ms in each run').to.be.greaterThan(0.1);
      // The frames compare's bootstrap resamples: the run's figure is their p95 (nearest rank, the other frames zeros).
      const v: number[] = r.ownFrames.Heavy;
      expect(v.length).to.be.within(1, r.frames);
      const rank = Math.ceil(0.95 * r.frames), zeros = r.frames - v.length;
      expect(r.own.Heavy, 'p95 of its frames').to.be.closeTo(rank <= zeros ? 0 : v[rank - zeros - 1], 0.002);
    }
    expect(heavy.types.find((t: any) => t.name === 'Heavy').instances, 'instances of one run, not three').to.equal(1);

    const merged = await cli(['merge', out('base-1'), out('base-2'), '--out', out('base')]);
    expect(merged.code, merged.stderr).to.equal(0);
    const m = json(out('base/summary.json'));
    expect(m.routes.map((r: any) => r.name)).to.deep.equal(['heavy', 'basic page']);
    for (const d of ['heavy', 'basic_page']) expect(fs.existsSync(out(`base/${d}/report.json`)), d).to.equal(true);

    // Compares base with head; on a miss (Heavy not 1.5× slower, or Light a tenth of Heavy), audits the heavy route once more on each
    // side and compares again, and the second measurement is held to everything: beside the hog, in the parallel lane,
    // one base run's p95 read 328 ms for 700 cells (100 in the other) and the head's 148–178 for 4 200 — the machine,
    // not the page. A compare that is wrong misses twice.
    const heavyRowOf = (c: any): any => c.regressions.find((r: any) => r.route === 'heavy' && r.component === 'Heavy');
    const lightRowOf = (c: any): any => c.regressions.find((r: any) => r.route === 'heavy' && r.component === 'Light');
    const lightShare = (c: any): number => (lightRowOf(c)?.head ?? 0) / (heavyRowOf(c)?.head || 1);
    const missed = (c: any): boolean => !(heavyRowOf(c)?.ratio >= 1.5) || heavyRowOf(c)?.significant !== true || lightShare(c) >= 0.1;
    const runsOf = (d: string): unknown => json(out(`${d}/heavy/report.json`)).runs.map((r: any) => ({ frames: r.frames, own: r.own }));
    const compare = async (b: string, h: string, to: string): Promise<{ code: number | null; c: any }> => {
      const r = await cli(['compare', out(b), out(h), '--out', out(to)]);
      const c = json(out(`${to}/compare.json`));
      console.log(`      [scale] ${c.comparisons} comparisons; ${c.regressions.map((x: any) => `${x.route}:${x.component} ${x.base} → ${x.head} ms (×${x.ratio}, ${x.low}–${x.high}${x.significant ? ', significant' : ''})`).join('; ')}`);
      // The exit code follows the verdict (1: a significant regression).
      expect(r.code, r.stdout + r.stderr).to.equal(c.regressions.some((x: any) => x.significant) ? 1 : 0);
      return { code: r.code, c };
    };
    let sides = { base: 'base', head: 'head', cmp: 'cmp' };
    let { c } = await compare('base', 'head', 'cmp');
    // Twice more at most: beside a CPU hog in the parallel lane one base run of three read Heavy's p95 at 119 ms against
    // 17 and 12 for the others (the machine starving the browser for a whole run), and an interval over three runs
    // holds such a run as noise. A verdict that is wrong misses three times.
    for (const n of ['b', 'c']) {
      if (!missed(c)) break;
      console.log(`      [scale] a miss; once more. ${JSON.stringify({ base: runsOf(sides.base), head: runsOf(sides.head) })}`);
      const again = [
        await cli(['audit', '--config', base, '--runs', '3', '--shard', '1/2', '--out', out(`base-1${n}`)]),
        await cli(['merge', out(`base-1${n}`), out('base-2'), '--out', out(`base-${n}`)]),
        await cli(['audit', '--config', config(`head-${n}`, 2100), '--runs', '3', '--out', out(`head-${n}`)]),
      ];
      for (const r of again) expect(r.code, r.stderr).to.equal(0);
      sides = { base: `base-${n}`, head: `head-${n}`, cmp: `cmp-${n}` };
      ({ c } = await compare(sides.base, sides.head, sides.cmp));
    }
    const heavyRow = heavyRowOf(c);
    // (On a miss, what each side measured: compare's lists and every run's own figures.)
    expect(heavyRow, `Heavy slower: ${JSON.stringify({ improvements: c.improvements, added: c.added, removed: c.removed,
      base: runsOf(sides.base), head: runsOf(sides.head) }).slice(0, 3000)}`).to.not.equal(undefined);
    // Three times the cells, three runs a side: slower by 1.5× at least, and flagged (issue 65: a 3× regression is
    // caught with three runs; bench/ci-compare.ts flags 21 of 21 beside a hog, and here the parallel lane's two other
    // browsers run beside it too, hence up to three measurements). On each run's p95, before the median frame, three
    // in a row missed once beside a hog (one run of three read Heavy's p95 at 130 ms against 20 and 22: a starved run);
    // Welch's t with Bonferroni on those p95s, the verdict before it, flagged a 3× component on one route of three.
    expect(heavyRow.ratio, `Heavy slower: ${JSON.stringify(heavyRow)}`).to.be.at.least(1.5);
    expect(heavyRow.significant, `Heavy flagged: ${JSON.stringify(heavyRow)}`).to.equal(true);
    // Compared on each run's median frame (issue 65: a run's p95 is one of its worst frames): the runs kept their frames.
    expect(c.statistic).to.equal('median');
    expect(heavyRow.low).to.be.a('number');
    // Nothing on the route Heavy does not render on.
    expect(c.regressions.filter((r: any) => r.route !== 'heavy' && r.significant)).to.deep.equal([]);
    // Nor, much, on its sibling Light, whose one-line text costs the trace under 1 % of Heavy's layout: its own p95 read
    // 12–45 ms beside Heavy's 80 while the first frames of each short run (seven of eleven at 4 200 cells) were split
    // alike before the probes landed; the frame that first needs a place measures it now (0.6–2 ms on head). Held as a
    // share of Heavy's on the same side, not as Light's own ratio: Light's p95 over 24 frames is its noisiest first
    // probe, and a CI machine running three files at once read it 6.6× base (a fraction of a ms, twice).
    const light = lightRowOf(c);
    if (light) expect(lightShare(c), `Light's own figure over Heavy's on head (${light.head} / ${heavyRow.head} ms; ×${light.ratio} over base)`).to.be.below(0.1);
    const md = fs.readFileSync(out(`${sides.cmp}/summary.md`), 'utf8');
    expect(md).to.match(/^## Layout Cost: /);
    expect(md).to.match(/\| (🔴|⚪) \| Heavy \| heavy \|/);
    expect(md).to.match(/Smallest change these runs could detect \(80 % power\): heavy \d+\.\d\d×/);
    for (const f of ['junit.xml', 'report.html']) expect(fs.statSync(out(`${sides.cmp}/${f}`)).size, f).to.be.greaterThan(200);

    // A/A: the heavy route audited again, as a second base would be (its twin, audited right after base-1): nothing
    // significant either way. On a miss, twice more at most, each time with both sides audited afresh one after the
    // other. A wrong verdict misses three times.
    const audit = async (to: string): Promise<void> => {
      const r = await cli(['audit', '--config', base, '--runs', '3', '--shard', '1/2', '--out', out(to)]);
      expect(r.code, r.stderr).to.equal(0);
    };
    const aa = async (to: string, first: string): Promise<any> => {
      const cr = await cli(['compare', out(first), out(`${to}-set`), '--out', out(to)]);
      const c2 = json(out(`${to}/compare.json`));
      console.log(`      [scale] A/A: ${c2.comparisons} comparisons; ${[...c2.regressions, ...c2.improvements].map((x: any) => `${x.component} ×${x.ratio} (${x.low}–${x.high}${x.significant ? ', significant' : ''})`).join('; ') || 'within the threshold'}`);
      expect(cr.code, cr.stdout).to.equal(c2.regressions.some((x: any) => x.significant) ? 1 : 0);
      return c2;
    };
    const flaggedAny = (c2: any): boolean => [...c2.regressions, ...c2.improvements].some((x: any) => x.significant);
    let aaC = await aa('cmp-aa', 'base-1');
    for (const n of ['2', '3']) {
      if (!flaggedAny(aaC)) break;
      await audit(`aa-base${n}`);
      await audit(`cmp-aa${n}-set`);
      aaC = await aa(`cmp-aa${n}`, `aa-base${n}`);
    }
    expect([...aaC.regressions, ...aaC.improvements].filter((x: any) => x.significant), 'base against a second base').to.deep.equal([]);
    const same = await cli(['compare', out('base'), out('base'), '--out', out('cmp-same')]);
    expect(same.code, same.stdout).to.equal(0);
    expect(json(out('cmp-same/compare.json')).regressions).to.deep.equal([]);

    // The same route audited two ways (base's heavy and head's) is not one report set.
    const clash = await cli(['merge', out('base-1'), out('head'), '--out', out('clash')]);
    expect(clash.code).to.equal(2);
    expect(clash.stderr).to.match(/route "heavy" was audited two different ways/);
  });

  it('--config with --calibrate: one calibration pass after a route\'s runs, every run scaled by it, in report.json and report.html', async () => {
    const f = path.join(tmp, 'calibrated.json');
    fs.writeFileSync(f, JSON.stringify({
      budget: { page: { domElements: false } }, // the table is 1 500 rows: Lighthouse's DOM size would fail
      routes: [{ name: 'table box', url: url('attribution-r19.html?s=table-box'), steps: path.join(ROOT, 'tests', 'fixtures', 'audit', 'steps-actors.mjs') }],
    }));
    const r = await cli(['audit', '--config', f, '--runs', '2', '--calibrate', '--out', path.join(tmp, 'calibrated')]);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/pass table box: \d+ frames over 2 runs\n {2}calibrated: \d+ of \d+ batches replayed/);
    const report = json(path.join(tmp, 'calibrated', 'table_box', 'report.json'));
    expect(report.runs).to.have.length(2);
    const calib = report.calibration as { measured: number; broken: string | null; types: { name: string; layoutShare: number; layoutFactor: number | null }[] };
    expect(calib, 'the pass reached the route\'s report').to.be.an('object');
    expect(calib.broken).to.equal(null);
    expect(calib.measured).to.be.at.least(20);
    // The table's relayout is the bigger cost by far (bench/attribution.ts, the table-box scenario: ≈ 80 %): the pass
    // says so whatever the overlay's split was, and the cell's figures were scaled by its factor.
    const cell = calib.types.find((t) => t.name === 'TableCell');
    expect(cell, 'TableCell in the pass').to.not.equal(undefined);
    expect(cell!.layoutShare).to.be.greaterThan(0.5);
    expect(cell!.layoutFactor).to.be.a('number');
    expect(fs.readFileSync(path.join(tmp, 'calibrated', 'table_box', 'report.html'), 'utf8')).to.include('<h2>Calibrated</h2>');
    expect(json(path.join(tmp, 'calibrated', 'summary.json')).routes.map((x: any) => [x.name, x.verdict])).to.deep.equal([['table box', 'pass']]);
  });

  it('a route that cannot be audited makes the run an error (exit 2), and compare on it too', async () => {
    const f = path.join(tmp, 'broken.json');
    fs.writeFileSync(f, JSON.stringify({ routes: [{ name: 'gone', url: url('missing.html') }, { name: 'basic', url: url('basic-r19.html'), seconds: 0.3 }] }));
    // Two browsers at once (--workers 2): the summary keeps the config's order whichever finishes first.
    const r = await cli(['audit', '--config', f, '--workers', '2', '--out', path.join(tmp, 'broken')]);
    expect(r.code, r.stderr).to.equal(2);
    const s = json(path.join(tmp, 'broken', 'summary.json'));
    expect(s.routes.map((x: any) => [x.name, x.verdict])).to.deep.equal([['gone', 'error'], ['basic', 'pass']]);
    expect(s.routes[0].error).to.match(/answered HTTP 404/);
    const cmp = await cli(['compare', path.join(tmp, 'broken'), path.join(tmp, 'broken'), '--out', path.join(tmp, 'broken-cmp')]);
    expect(cmp.code).to.equal(2);
    // Usage errors, each one line.
    const usage: [string[], RegExp][] = [
      [['audit', '--config', f, '--runs', '0'], /--runs must be a whole number/],
      [['audit', '--config', f, '--shard', '3/2'], /--shard must be I\/N/],
      [['audit', '--config', f, '--workers', '0'], /--workers must be a whole number/],
      [['audit', url('basic-r19.html'), '--runs', '2'], /--runs, --shard and --workers go with --config/],
      [['audit', '--config', path.join(tmp, 'nope.json')], /--config: cannot read/],
      [['compare', path.join(tmp, 'broken')], /compare needs BASE_DIR and HEAD_DIR/],
      [['compare', tmp, tmp, '--threshold', '1'], /--threshold must be a ratio above 1/],
      [['merge', path.join(tmp, 'nothing-here')], /holds no report set/],
    ];
    // At once: each is a process that fails before any browser starts.
    const ran = await Promise.all(usage.map(([args]) => cli(args)));
    usage.forEach(([args, re], k) => {
      expect(ran[k].code, args.join(' ')).to.equal(2);
      expect(ran[k].stderr, args.join(' ')).to.match(re);
    });
  });
});
