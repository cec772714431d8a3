import { expect } from 'chai';
import { judge, figures, type FrameSample } from '../../src/inject/agent/experiment/verdict';
import { experimentOutcome, experimentRequest, safeDeclarations } from '../../src/protocol/experiment';
import { INVALID } from '../../src/protocol/validate';

/** `n` frames of `ms` layout each, with a deterministic ± `jitter` wobble. */
function frames(n: number, ms: number, jitter = 0): FrameSample[] {
  return Array.from({ length: n }, (_, i) => ({ styleMs: 0, layoutMs: ms + (i % 2 === 0 ? jitter : -jitter), forcedMs: 0 }));
}

describe('containment experiments: the verdict', () => {
  it('a clear drop is faster, with the speedup of the means', () => {
    const j = judge(frames(30, 10, 1), frames(30, 0.5, 0.1), 15, 0, null);
    expect(j.verdict).to.equal('faster');
    expect(j.speedup).to.be.closeTo(20, 0.01);
  });

  it('a declaration that moves a box or a pixel changes rendering, however fast it is', () => {
    expect(judge(frames(30, 10), frames(30, 0.5), 15, 1, null).verdict).to.equal('changes-rendering');
    const p = judge(frames(30, 10), frames(30, 0.5), 15, 0, 12);
    expect(p.verdict).to.equal('changes-rendering');
    expect(p.reason).to.include('12 pixels');
  });

  it('too few frames on either side is inconclusive (an idle page), never a verdict from nothing', () => {
    const j = judge(frames(4, 10), frames(30, 0.5), 15, 0, null);
    expect(j.verdict).to.equal('inconclusive');
    expect(j.speedup).to.equal(null);
    expect(judge([], [], 5, 0, null).verdict).to.equal('inconclusive');
  });

  it('the same cost with a tight margin is no gain; with a wide one it is inconclusive', () => {
    expect(judge(frames(30, 5, 0.05), frames(30, 5, 0.05), 15, 0, null).verdict).to.equal('no-gain');
    expect(judge(frames(30, 5, 4), frames(30, 4.5, 4), 15, 0, null).verdict).to.equal('inconclusive');
  });

  it('a real but small drop (below 1.1×) is no gain; a slower result too', () => {
    expect(judge(frames(30, 5, 0.01), frames(30, 4.8, 0.01), 15, 0, null).verdict).to.equal('no-gain');
    expect(judge(frames(30, 5, 0.01), frames(30, 6, 0.01), 15, 0, null).verdict).to.equal('no-gain');
  });

  it('figures are per-frame means of each part and the median of their sum', () => {
    const f = figures([{ styleMs: 1, layoutMs: 2, forcedMs: 0 }, { styleMs: 3, layoutMs: 2, forcedMs: 1 }, { styleMs: 2, layoutMs: 2, forcedMs: 2 }]);
    expect(f).to.deep.equal({ frames: 3, styleMs: 2, layoutMs: 2, forcedMs: 1, medianMs: 6 });
  });
});

describe('containment experiments: what crosses the boundaries', () => {
  it('only plain declarations may be applied: nothing that could close the generated rule', () => {
    expect(safeDeclarations(' contain: layout ')).to.equal('contain: layout');
    expect(safeDeclarations('content-visibility: auto; contain-intrinsic-size: auto 90px 18px;')).to.not.equal(null);
    for (const bad of ['color: red } body { display: none', '@import url(x)', 'color: red /* x */', 'contain', '', 'a: b; <script>',
      'x: url(\\7d)', 'a'.repeat(301), 42, null]) {
      expect(safeDeclarations(bad), String(bad)).to.equal(null);
    }
  });

  it('a request is checked whole; a result from the page is data, checked and capped', () => {
    expect(experimentRequest({ id: 3, css: 'contain: layout', frames: 60 })).to.deep.equal({ id: 3, css: 'contain: layout', frames: 60 });
    expect(experimentRequest({ id: 3, css: 'contain: layout', frames: 5 })).to.equal(INVALID);
    expect(experimentRequest({ id: -1, css: 'contain: layout', frames: 60 })).to.equal(INVALID);
    expect(experimentOutcome({ ok: false, error: 'x'.repeat(1000) })).to.deep.equal({ ok: false, error: 'x'.repeat(300) });
    expect(experimentOutcome({ ok: true, result: { id: 1 } })).to.equal(INVALID);
    expect(experimentOutcome({ ok: 'yes' })).to.equal(INVALID);
  });
});

import { CANDIDATES, cssRule, describe as describeResult, ExperimentBook, ranked, type CandidateState } from '../../src/devtools-panel/experiment-model';
import type { ExperimentResult } from '../../src/protocol/experiment';

function result(over: Partial<ExperimentResult>): ExperimentResult {
  const f = { frames: 30, styleMs: 0, layoutMs: 10, forcedMs: 0, medianMs: 10 };
  return {
    id: 4, name: 'Ticker', css: 'contain: layout', selector: '#ticker', before: f, after: { ...f, layoutMs: 0.5, medianMs: 0.5 },
    speedup: 20, spread: 9.5, boundary: null, boxesCompared: 1, boxesChanged: 0, pixelsCompared: 0, pixelsChanged: null,
    verdict: 'faster', reason: '', blocks: [], ...over,
  };
}

describe('containment experiments: the panel', () => {
  it('suggests in order of safety until something is measured, then ranks by speedup, rendering changes last', () => {
    const idle = CANDIDATES.map((c) => [c, { kind: 'idle' } as CandidateState] as const).map(([c, s]) => [c, s] as [typeof c, CandidateState]);
    expect(ranked(idle).map(([c]) => c.css)).to.deep.equal(CANDIDATES.map((c) => c.css));
    const states: [typeof CANDIDATES[number], CandidateState][] = [
      [CANDIDATES[0], { kind: 'done', result: result({ speedup: 5 }) }],
      [CANDIDATES[1], { kind: 'done', result: result({ speedup: 9 }) }],
      [CANDIDATES[2], { kind: 'idle' }],
      [CANDIDATES[3], { kind: 'done', result: result({ speedup: 30, verdict: 'changes-rendering' }) }],
      [CANDIDATES[4], { kind: 'done', result: result({ speedup: 1, verdict: 'no-gain' }) }],
    ];
    expect(ranked(states).map(([c]) => c.css)).to.deep.equal([
      'contain: layout paint', 'contain: layout', 'content-visibility: auto', 'contain: content', 'contain: strict',
    ]);
  });

  it('a book keeps what was asked and settles only its own answers', () => {
    const b = new ExperimentBook();
    const req = b.begin(4, 'contain: layout');
    expect(b.running).to.equal(true);
    expect(b.state(4, 'contain: layout').kind).to.equal('running');
    expect(b.settle(req + 1, { ok: false, error: 'x' })).to.equal(false);
    expect(b.settle(req, { ok: true, result: result({}) })).to.equal(true);
    expect(b.running).to.equal(false);
    expect(b.state(4, 'contain: layout').kind).to.equal('done');
    b.begin(4, 'contain: strict');
    b.abandon('gone');
    expect(b.state(4, 'contain: strict')).to.deep.equal({ kind: 'failed', error: 'gone' });
  });

  it('"Copy CSS" is a rule with the measurement as a comment; page text cannot break out of either', () => {
    const rule = cssRule(result({ css: 'content-visibility: auto; contain-intrinsic-size: auto 90px 18px' }));
    expect(rule).to.include('#ticker {\n  content-visibility: auto;\n  contain-intrinsic-size: auto 90px 18px;\n}');
    expect(rule).to.include('10.00 → 0.50 ms per frame (×20.0)');
    const hostile = cssRule(result({ name: 'X */ body { display: none } /*', selector: 'div { } body' }));
    expect(hostile).to.not.match(/body \{/);
    // The name cannot end the comment early: its first end is ours, after the whole name.
    const comment = hostile.slice(0, hostile.indexOf('*/') + 2);
    expect(comment).to.include('X * / body  display: none  /*');
    expect(comment).to.match(/: faster\. \*\/$/);
    expect(hostile).to.include('/* the element of <');
    expect(describeResult(result({}))).to.equal('Faster ×20.0: 10.00 → 0.50 ms/frame');
  });
});

describe('containment experiments: trying again', () => {
  it('after an inconclusive result asks for twice the frames, up to the maximum; otherwise the default', () => {
    const b = new ExperimentBook();
    expect(b.framesFor(4, 'contain: layout')).to.equal(60);
    const r1 = b.begin(4, 'contain: layout');
    b.settle(r1, { ok: true, result: result({ verdict: 'inconclusive' }) });
    expect(b.framesFor(4, 'contain: layout')).to.equal(120);
    const r2 = b.begin(4, 'contain: layout');
    const f = { frames: 400, styleMs: 0, layoutMs: 1, forcedMs: 0, medianMs: 1 };
    b.settle(r2, { ok: true, result: result({ verdict: 'inconclusive', before: f, after: f }) });
    expect(b.framesFor(4, 'contain: layout')).to.equal(600);
    const r3 = b.begin(4, 'contain: layout');
    b.settle(r3, { ok: true, result: result({}) });
    expect(b.framesFor(4, 'contain: layout')).to.equal(60);
  });
});
