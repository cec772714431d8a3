import { expect } from 'chai';
import { spans, TRACK_COMPONENTS } from '../../src/inject/agent/timing/perf-track';

const name = (id: number): string => `C${id}`;

describe('the Performance panel track', () => {
  it('lays a phase\'s shares out consecutively, costliest first, inside the phase\'s own window', () => {
    const s = spans([{ id: 1, styleMs: 0, layoutMs: 1 }, { id: 2, styleMs: 0, layoutMs: 3 }, { id: 3, styleMs: 0, layoutMs: 0 }],
      (x) => x.layoutMs, 100, 104, name);
    expect(s).to.deep.equal([['C2', 100, 103], ['C1', 103, 104]]);
  });

  it('folds what is past the first few, or too short to see, into one "other components" span; never past the window', () => {
    const shares = Array.from({ length: TRACK_COMPONENTS + 5 }, (_, i) => ({ id: i + 1, styleMs: 1, layoutMs: 0 }));
    const s = spans(shares, (x) => x.styleMs, 0, 12, name);
    expect(s).to.have.length(TRACK_COMPONENTS + 1);
    expect(s[s.length - 1]).to.deep.equal(['other components', 10, 12]);
    expect(Math.max(...s.map((x) => x[2]))).to.equal(12);
  });
});
