/**
 * The CI audit's pure parts (issue 14): budget files checked field by field,
 * the report's percentiles and checks from a recording and a snapshot, and
 * the JUnit and HTML writers escaping the page's names.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ROOT } from '../../scripts/chrome';
import { BudgetError, budgetFor, defaultBudget, METRICS, parseBudget, parseBudgetText } from '../../src/cli/budget';
import { reportHtml } from '../../src/cli/html';
import { junitXml } from '../../src/cli/junit';
import { buildReport, percentile, type AuditInput } from '../../src/cli/report';
import type { Recording, RecordedComponent } from '../../src/protocol/recording';
import type { Snapshot, SnapshotComponent } from '../../src/protocol/snapshot';

const comp = (id: number, layoutMs: number, forcedCount = 0): RecordedComponent => ({
  id, selfStyleMs: 0, selfLayoutMs: layoutMs, selfForcedMs: 0, styleMs: 0.1, layoutMs, forcedMs: forcedCount ? 0.5 : 0, forcedCount,
});

function recording(frames: RecordedComponent[][]): Recording {
  return {
    kind: 'layout-cost-recording', version: 1, url: 'http://x/', startedAt: 0, stoppedAt: 1, timeOrigin: 0,
    frames: frames.map((components, i) => ({
      frame: i + 1, time: i * 16, styleMs: 0.1, layoutMs: Math.max(0, ...components.map((c) => c.layoutMs)), forcedMs: 0,
      components, componentsLeftOut: 0, mounts: [], unmounts: [], commits: [], stacks: [],
    })),
    components: {}, droppedFrames: 0, limits: { maxRows: 1000, maxFrameComponents: 200 }, dirtied: null,
  };
}

const snapComp = (id: number, name: string, parentId: number | null, rendered: number, authored: number, key: string | null = null): SnapshotComponent => ({
  id, name, parentId, depth: parentId === null ? 0 : 1, key, bounds: null, authored, rendered, portaledIn: 0, styleMs: 0, layoutMs: 0,
  forcedMs: 0, lastFrameMs: 0, commits: 0, sparkline: [], drawn: true, layer: 0, meterAt: null, dirtiedBy: [], source: null, kind: 'own',
});

function snapshot(components: SnapshotComponent[]): Snapshot {
  return {
    time: 0, frames: { count: 0, styleMsTotal: 0, layoutMsTotal: 0, forcedMsTotal: 0 }, droppedEvents: 0,
    page: { styleMs: 0, layoutMs: 0, forcedMs: 0 }, components, occluders: [], self: { msPerFrame: 0.4, mainThreadShare: 0.02 },
  } as unknown as Snapshot;
}

// App (1) › Heavy (2) and three Cells (3, 4, 5); Heavy lays out 10 ms in 3 frames of 20, Cell 4 does one forced reflow a frame.
function input(): AuditInput {
  const frames: RecordedComponent[][] = [];
  for (let i = 0; i < 20; i++) {
    const f = [comp(4, 0.2, 1), comp(1, i % 7 === 0 ? 10.2 : 0.2)];
    if (i % 7 === 0) f.push(comp(2, 10));
    frames.push(f);
  }
  return {
    url: 'http://x/', browser: 'Chromium/140', toolVersion: '0.1.0', seconds: 3, recording: recording(frames), domElements: 900,
    snapshot: snapshot([snapComp(1, 'App', null, 900, 880), snapComp(2, 'Heavy', 1, 700, 10), snapComp(3, 'Cell', 1, 2, 1, 'a'),
      snapComp(4, 'Cell', 1, 40, 1, 'b'), snapComp(5, 'Cell', 1, 2, 1, 'c')]),
    date: new Date(0),
  };
}

describe('audit: budgets', () => {
  it('reads defaults, exact and /regex/ entries, and page limits; the exact name wins over a regex', () => {
    const b = parseBudget({
      $schema: './budget.schema.json', defaults: { layoutMs: 4 }, components: { '/^C/': { rendered: 10, stat: 'max' }, Cell: { inflation: 2 } },
      page: { layoutMsPerFrame: 16, domElements: { warn: 1000 } },
    });
    expect(budgetFor(b, 'Cell')).to.deep.equal({ budget: { layoutMs: 4, inflation: 2 }, entry: 'Cell' });
    expect(budgetFor(b, 'Card')).to.deep.equal({ budget: { layoutMs: 4, rendered: 10, stat: 'max' }, entry: '/^C/' });
    expect(budgetFor(b, 'App')).to.deep.equal({ budget: { layoutMs: 4 }, entry: null });
    expect(b.page).to.deep.equal({ layoutMsPerFrame: 16, domElements: { warn: 1000, error: 1400 } });
    expect(defaultBudget().page.domElements).to.deep.equal({ warn: 818, error: 1400 });
    expect(parseBudget({ page: { domElements: false } }).page.domElements).to.equal(null);
  });

  it('the JSON schema editors complete from knows the same fields; the docs\' example reads', () => {
    const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'budget.schema.json'), 'utf8'));
    expect(Object.keys(schema.definitions.component.properties).sort()).to.deep.equal([...METRICS, 'stat'].sort());
    expect(Object.keys(schema.properties.page.properties).sort()).to.deep.equal(['cls', 'domElements', 'inp', 'layoutMsPerFrame', 'stat']);
    expect(schema.definitions.stat.enum).to.deep.equal(['p95', 'max']);
    const example = parseBudgetText(fs.readFileSync(path.join(ROOT, 'docs', 'examples', 'budget.json'), 'utf8'));
    expect(budgetFor(example, 'Cell').budget).to.deep.equal({ layoutMs: 1, forcedCount: 0, rendered: 40, inflation: 3 });
  });

  it('refuses a malformed budget naming the field and the value', () => {
    const bad: [unknown, RegExp][] = [
      [{ defaults: { layoutMs: '4' } }, /defaults\.layoutMs must be a number ≥ 0, not "4"/],
      [{ components: { Heavy: { layoutMS: 4 } } }, /components\["Heavy"\]\.layoutMS is not a budget field/],
      [{ components: { '/[/': { layoutMs: 1 } } }, /"\/\[\/" is not a valid regular expression/],
      [{ components: { Heavy: { stat: 'p99' } } }, /components\["Heavy"\]\.stat must be "p95" or "max", not "p99"/],
      [{ page: { domElements: -1 } }, /page\.domElements must be a number ≥ 0, not -1/],
      [{ pages: {} }, /"pages" is not a budget section/],
      [[], /the budget must be an object/],
    ];
    for (const [v, re] of bad) expect(() => parseBudget(v)).to.throw(BudgetError, re);
    expect(() => parseBudgetText('{ "defaults": ')).to.throw(BudgetError, /not JSON/);
  });
});

describe('audit: the report', () => {
  it('nearest-rank percentiles count the frames a component carried nothing in as 0', () => {
    expect(percentile([10, 10, 10], 20, 95)).to.equal(10);
    expect(percentile([10, 10, 10], 20, 50)).to.equal(0);
    expect(percentile([10], 100, 95)).to.equal(0);
    expect(percentile([10], 100, 100)).to.equal(10);
    expect(percentile([1, 2, 3, 4], 4, 50)).to.equal(2);
    expect(percentile([], 0, 95)).to.equal(0);
  });

  it('per instance and per type: p50/p95/max, forced reflows, counts and inflation; the worst instance decides a check', () => {
    const r = buildReport(input(), parseBudget({
      components: { Heavy: { layoutMs: 5, stat: 'max' }, Cell: { forcedCount: 5, inflation: 10 } }, page: { layoutMsPerFrame: 8 },
    }));
    expect(r.frames).to.equal(20);
    const heavy = r.instances.find((i) => i.name === 'Heavy')!;
    expect(heavy.layoutMs).to.deep.equal({ p50: 0, p95: 10, max: 10 });
    expect(heavy.path).to.equal('App › Heavy');
    expect(heavy.inflation).to.equal(70);
    const cell = r.types.find((t) => t.name === 'Cell')!;
    expect(cell.instances).to.equal(3);
    expect(cell.forcedCount).to.equal(20);
    expect(cell.inflation).to.equal(40);
    expect(r.types[0].name).to.equal('App'); // the costliest first
    const byId = Object.fromEntries(r.checks.map((c) => [c.id, c]));
    expect(byId['Heavy: layoutMs max']).to.include({ value: 10, limit: 5, pass: false, entry: 'Heavy' });
    expect(byId['Heavy: layoutMs max'].message).to.equal('Heavy: 10 ms of layout per frame at max is over its budget of 5 (components["Heavy"])');
    expect(byId['Cell: forcedCount']).to.include({ value: 20, pass: false });
    expect(byId['Cell: forcedCount'].instance).to.deep.equal({ id: 4, key: 'b', path: 'App › Cell' });
    expect(byId['Cell: forcedCount'].message).to.match(/worst of 3 instances: key "b"/);
    expect(byId['Cell: inflation']).to.include({ value: 40, pass: false });
    // p95 of the page's layout: 3 of 20 frames at 10.2 ms.
    expect(byId['page: layoutMsPerFrame p95']).to.include({ value: 10.2, pass: false });
    expect(byId['page: domElements']).to.include({ value: 900, limit: 818, level: 'warn', pass: true });
    expect(r.failures).to.equal(4);
    expect(r.warnings).to.equal(1);
    expect(r.passed).to.equal(false);
    expect(r.self).to.deep.equal({ msPerFrame: 0.4, mainThreadShare: 0.02 });
  });

  it('a generous budget passes; the DOM error threshold fails', () => {
    const ok = buildReport(input(), parseBudget({ defaults: { layoutMs: 50, forcedCount: 100 } }));
    expect(ok.passed).to.equal(true);
    expect(ok.checks.filter((c) => c.metric === 'layoutMs')).to.have.length(3); // App, Heavy, Cell
    const big = buildReport({ ...input(), domElements: 1401 }, defaultBudget());
    expect(big.checks).to.have.length(1);
    expect(big.checks[0]).to.include({ pass: false, level: 'error', limit: 1400 });
  });
});

describe('audit: JUnit and HTML', () => {
  it('one test case per check, failures named; page text escaped in both', () => {
    const i = input();
    i.snapshot.components[1].name = 'He<a>vy "&" \u0001';
    const r = buildReport(i, parseBudget({ defaults: { layoutMs: 5, stat: 'max' } }));
    const xml = junitXml(r, 4.2);
    expect(xml.match(/<testcase /g)).to.have.length(r.checks.length);
    expect(xml).to.include(`failures="${r.failures}"`);
    expect(xml).to.include('<failure message="He&lt;a&gt;vy &quot;&amp;&quot; : 10 ms of layout per frame at max is over its budget of 5');
    expect(xml).not.to.include('\u0001');
    expect(xml).not.to.include('<a>');
    const html = reportHtml(r, Buffer.from([1, 2, 3]));
    expect(html).to.include('He&lt;a&gt;vy &quot;&amp;&quot;');
    expect(html).not.to.include('<a>');
    expect(html).to.include('src="data:image/png;base64,AQID"');
    expect(html).to.match(/Content-Security-Policy" content="default-src 'none'/);
    expect(html).not.to.match(/<script|https?:\/\/(?!x\/)/);
    expect(html).not.to.include('Calibrated');
    // --calibrate: the shares and factors, the page's names escaped.
    const cal = reportHtml({ ...r, calibration: {
      batches: 4, measured: 3, skipped: { '<b>media</b>': 1 }, lostWindows: 0, broken: null, unexplainedMs: 0, passMs: 0.18, passRounds: 16,
      types: [{ name: '<i>Cell</i>', layoutShare: 0.75, styleShare: 0, overlayLayoutShare: 0.5, overlayStyleShare: 0, layoutFactor: 1.5, styleFactor: null }],
    } }, null);
    expect(cal).to.include('<h2>Calibrated</h2>');
    expect(cal).to.include('3 of 4 batches replayed, skipped: 1 (&lt;b&gt;media&lt;/b&gt;)');
    expect(cal).to.include('weighs 0.18 ms (measured on the page, 16 rounds) more');
    expect(cal).to.include('&lt;i&gt;Cell&lt;/i&gt;</td><td class="n">50.0 %</td><td class="n">75.0 %</td><td class="n">×1.50</td>');
    expect(cal).not.to.match(/<i>|<b>/);
  });

  it('interactions and shifts (issue 46): INP and CLS for the page, each component\'s p95 ms in interactions and the shift it caused', () => {
    const inp = input();
    const part = (id: number, name: string, layoutMs: number, forcedMs: number) => ({ id, name, styleMs: 0, layoutMs, forcedMs, renders: 1 });
    const interaction = (id: number, duration: number, components: ReturnType<typeof part>[]) => ({
      id, type: 'pointer', target: null, start: id * 1000, duration, inputDelay: 1, processing: duration - 2, presentationDelay: 1,
      styleMs: 0, layoutMs: 0, forcedMs: 0, components,
    });
    Object.assign(inp.snapshot, {
      // Heavy: 40 ms (10 of layout, 30 forced) in 2 of 20 interactions: p95, the 19th of 20, is 40; Cell: 1 ms in one → 0.
      interactions: Array.from({ length: 20 }, (_, k) => interaction(k + 1, 40, k < 2 ? [part(2, 'Heavy', 10, 30)] : k === 2 ? [part(3, 'Cell', 1, 0)] : [])),
      inp: { value: 320, interactionId: 1 },
      shifts: [
        { value: 0.05, time: 1, shifted: [{ id: 3, name: 'Cell' }], cause: { id: 2, name: 'Heavy', reason: 'mounted above Cell' } },
        { value: 0.04, time: 2, shifted: [{ id: 3, name: 'Cell' }], cause: { id: 2, name: 'Heavy', reason: 'mounted above Cell' } },
        { value: 0.2, time: 3, shifted: [{ id: 3, name: 'Cell' }], cause: null },
      ],
      cls: 0.29,
    });
    const b = parseBudget({ page: { inp: 200, cls: 0.1 }, components: { Heavy: { interactionLayoutMs: 16, cls: 0.05 }, Cell: { interactionLayoutMs: 16 } } });
    const r = buildReport(inp, b);
    expect(r.page).to.include({ inp: 320, cls: 0.29, interactions: 20, shifts: 3 });
    const check = (id: string) => r.checks.find((c) => c.id === id)!;
    expect(check('page: inp')).to.include({ value: 320, limit: 200, pass: false });
    expect(check('page: inp').message).to.equal('The page: INP 320 is over its budget of 200 (page.inp)');
    expect(check('page: cls')).to.include({ value: 0.29, pass: false });
    expect(check('Heavy: interactionLayoutMs')).to.include({ value: 40, pass: false });
    expect(check('Heavy: cls')).to.include({ value: 0.09, pass: false });
    expect(check('Cell: interactionLayoutMs')).to.include({ value: 0, pass: true });
    // No interaction at all: the INP budget holds, and says why.
    const quiet = input();
    Object.assign(quiet.snapshot, { interactions: [], inp: null, shifts: [], cls: null });
    const q = buildReport(quiet, parseBudget({ page: { inp: 200 } })).checks.find((c) => c.id === 'page: inp')!;
    expect(q.pass).to.equal(true);
    expect(q.message).to.match(/no interaction of 16 ms or more/);
    expect(() => parseBudget({ page: { inp: '200' } })).to.throw(/page\.inp must be a number/);
  });
});
