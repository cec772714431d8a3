/**
 * `layout-cost mcp`'s pure half (issue 66, src/cli/mcp-results.ts): the results hold their declared output schemas;
 * `measure` ranks by a component's own cost, sums its instances' own ms per frame before the p95, groups forced reflows
 * by component and stack; errors are one line; `diagnose` offers the rule of the fastest declaration that kept the
 * rendering; `compare` passes regressions and summary through.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { z } from 'zod';
import {
  compareOutput, compareResult, diagnoseOutput, diagnoseResult, failed, measureOutput, measureResult, type Tried,
} from '../../src/cli/mcp-results';
import { buildReport } from '../../src/cli/report';
import { defaultBudget } from '../../src/cli/budget';
import { loadSteps } from '../../src/cli/run';
import type { Comparison } from '../../src/cli/compare';
import type { ExperimentResult } from '../../src/protocol/experiment';
import type { Recording } from '../../src/protocol/recording';
import type { Snapshot, SnapshotComponent } from '../../src/protocol/snapshot';

/** Frames of [id, self layout ms] (inclusive: the same), with a forced reflow in App's frames when asked. */
function rec(frames: [number, number][][], stacks: Recording['frames'][number]['stacks'] = []): Recording {
  return {
    kind: 'layout-cost-recording', version: 1, url: 'http://x/', startedAt: 0, stoppedAt: 1, timeOrigin: 0, droppedFrames: 0,
    limits: { maxRows: 100, maxFrameComponents: 100 }, dirtied: null, interactions: [], shifts: [], components: {},
    frames: frames.map((cs, i) => ({
      frame: i + 1, time: i * 16, styleMs: 0, layoutMs: cs.reduce((t, [, ms]) => t + ms, 0), forcedMs: 0, componentsLeftOut: 0,
      mounts: [], unmounts: [], commits: [], stacks: i === 0 ? stacks : [],
      components: cs.map(([id, ms]) => ({ id, selfStyleMs: 0, selfLayoutMs: ms, selfForcedMs: 0, styleMs: 0, layoutMs: ms, forcedMs: 0, forcedCount: 0 })),
    })),
  };
}

const component = (id: number, name: string, parentId: number | null, source: SnapshotComponent['source'] = null): SnapshotComponent => ({
  id, name, parentId, depth: parentId === null ? 0 : 1, key: null, bounds: null, authored: 2, rendered: 5, portaledIn: 0, styleMs: 0,
  layoutMs: 0, forcedMs: 0, lastFrameMs: 0, commits: 0, sparkline: [], drawn: true, layer: 0, meterAt: null, dirtiedBy: [], source, kind: 'own',
});

const snap = (components: SnapshotComponent[]): Snapshot => ({
  time: 0, frames: { count: 0, styleMsTotal: 0, layoutMsTotal: 0, forcedMsTotal: 0 }, droppedEvents: 0, page: { styleMs: 0, layoutMs: 0, forcedMs: 0 },
  occluders: [], components, self: null, interactions: [], inp: null, shifts: [], cls: null,
} as unknown as Snapshot);

describe('layout-cost mcp: results', () => {
  // App (1) holds Wide (2) and two Cells (3, 4). Wide lays out 6 ms in 19 of 20 frames; each Cell 4 ms in every frame:
  // one Cell is cheaper than Wide, both together (8 ms a frame) cost more. App's inclusive figure is the largest.
  const frames: [number, number][][] = Array.from({ length: 20 }, (_, i) => [[1, (i === 5 ? 0 : 6) + 8], [2, i === 5 ? 0 : 6], [3, 4], [4, 4]]);
  const stacks = [{ id: 3, ms: 1.5, stack: 'at measure (app.js:10:5)', after: ['Wide'] }, { id: 3, ms: 0.5, stack: 'at measure (app.js:10:5)' }];
  const recording = rec(frames, stacks);
  const snapshot = snap([component(1, 'App', null), component(2, 'Wide', 1, { file: 'src/Wide.tsx', line: 12, column: 3 }), component(3, 'Cell', 1), component(4, 'Cell', 1)]);
  // App's own figure is what its children leave: 0 here (its recorded self is its inclusive, which rec() sets alike).
  recording.frames.forEach((f) => { f.components[0].selfLayoutMs = 0; });
  const report = buildReport({ url: 'http://x/', browser: 'Chromium', toolVersion: '0', seconds: 1, recording, snapshot, domElements: 12 }, defaultBudget());

  it('measure: its output schema holds; ranked by own cost (instances summed before the p95), inclusive beside', () => {
    const r = measureResult(report, recording, snapshot, { component: 'Cell', items: [{ kind: 'text', name: '#text', on: 'div', source: 'react', perFrame: 2, last: 2 }] });
    expect(r.isError).to.equal(undefined);
    const m = z.object(measureOutput).parse(r.structuredContent);
    expect(m.components.map((c) => c.name)).to.deep.equal(['Cell', 'Wide', 'App']);
    const [cell, wide, app] = m.components;
    expect(cell.selfLayoutMs, 'two Cells, 4 ms each, every frame').to.equal(8);
    expect(cell.instances).to.equal(2);
    expect(cell.layoutMs, 'its worst instance, inclusive').to.equal(4);
    expect(wide.selfLayoutMs).to.equal(6);
    expect(wide.source).to.equal('src/Wide.tsx:12');
    expect(app.layoutMs).to.equal(14);
    expect(app.selfLayoutMs).to.equal(0);
    expect(m.forcedReflows).to.deep.equal([{ component: 'Cell', count: 2, ms: 2, stack: 'at measure (app.js:10:5)', after: ['Wide'] }]);
    const text = r.content[0].text;
    expect(text).to.match(/^20 frames measured/);
    expect(text).to.include('1. Cell ×2: own layout 8, style 0 (with its children: layout 4, style 0, its costliest instance); 5 elements for 2 authored');
    expect(text).to.include('What dirtied Cell: 2.0 text changes on DIV per frame from the framework');
    expect(text).to.include('diagnose { url, component: "Cell" }');
  });

  it('measure on a page that changed nothing says what to do', () => {
    const still = rec([]);
    const r = measureResult(buildReport({ url: 'http://x/', browser: 'C', toolVersion: '0', seconds: 1, recording: still, snapshot, domElements: 3 }, defaultBudget()), still, snapshot, null);
    expect(z.object(measureOutput).parse(r.structuredContent).components.every((c) => c.selfLayoutMs === 0)).to.equal(true);
    expect(r.content[0].text).to.include('Nothing changed on the page while it was measured');
  });

  it('errors: one line with what to do, never a stack', () => {
    const e = new Error('could not load http://x/: net::ERR_CONNECTION_REFUSED\n    at Frame.goto (frame.js:1:1)');
    const r = failed(e, 'check that the server is running');
    expect(r).to.deep.equal({ isError: true, content: [{ type: 'text', text: 'could not load http://x/: net::ERR_CONNECTION_REFUSED — check that the server is running' }] });
    expect(failed('plain').content[0].text).to.equal('plain');
  });

  it('diagnose: each declaration, the fastest that kept the rendering offered as a rule; a failed one says why', () => {
    const cond = (ms: number): ExperimentResult['before'] => ({ frames: 30, styleMs: 0, layoutMs: ms, forcedMs: 0, medianMs: ms });
    const result = (css: string, verdict: ExperimentResult['verdict'], after: number): ExperimentResult => ({
      id: 2, name: 'Wide', css, selector: '#wide', before: cond(6), after: cond(after), speedup: 6 / after, spread: 6 - after, boundary: null,
      boxesCompared: 1, boxesChanged: verdict === 'changes-rendering' ? 1 : 0, pixelsCompared: 0, pixelsChanged: null, verdict, reason: 'because', blocks: [],
    });
    const tried: Tried[] = [
      { css: 'contain: layout', result: result('contain: layout', 'faster', 1), error: null },
      { css: 'contain: strict', result: result('contain: strict', 'changes-rendering', 0.5), error: null },
      { css: 'content-visibility: auto', result: null, error: 'another experiment is running' },
    ];
    const r = diagnoseResult('Wide', 2, tried);
    const d = z.object(diagnoseOutput).parse(r.structuredContent);
    expect(d.experiments.map((e) => e.verdict)).to.deep.equal(['faster', 'changes-rendering', 'failed']);
    expect(d.experiments[0].rule).to.match(/#wide \{\n {2}contain: layout;\n\}/);
    expect(d.experiments[1].rule).to.equal(null);
    expect(d.experiments[2].reason).to.equal('another experiment is running');
    expect(r.content[0].text).to.include('Best: contain: layout');
  });

  it('compare: regressions and improvements as compare.json has them, summary.md as the text\'s tail', () => {
    const change = { route: 'home', component: 'Wide', base: 2, head: 6, ratio: 3, low: 2.1, high: 4.2, significant: true, p: 0.001 };
    const c = { regressions: [change], improvements: [], added: [], removed: [], comparisons: 4 } as unknown as Comparison;
    const r = compareResult(c, '## Layout Cost: 1 regression\n');
    const out = z.object(compareOutput).parse(r.structuredContent);
    expect(out.regressions).to.deep.equal([{ route: 'home', component: 'Wide', base: 2, head: 6, ratio: 3, low: 2.1, high: 4.2, significant: true }]);
    expect(r.content[0].text).to.match(/^1 significant regression: Wide on home ×3; 0 significant improvements\.\n\n## Layout Cost/);
  });

  it('a steps file edited while the server runs is loaded again, not the copy imported first', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-steps-'));
    try {
      const f = path.join(dir, 'steps.mjs');
      fs.writeFileSync(f, 'export default () => 1;\n');
      expect(await (await loadSteps(f))(null as never)).to.equal(1);
      fs.writeFileSync(f, 'export default () => 2;\n');
      fs.utimesSync(f, new Date(), new Date(Date.now() + 5000));
      expect(await (await loadSteps(f))(null as never)).to.equal(2);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
