import { expect } from 'chai';
import { NUMBERS_RENDER_MS, RENDER_INTERVAL_MS, renderDue } from '../../src/content/agent/canvas/cadence';

describe('overlay: when the canvas is redrawn', () => {
  it('redraws what moved within one flush interval, whenever the last redraw was', () => {
    expect(renderDue(1000, 990, false)).to.equal(1000 + RENDER_INTERVAL_MS);
    expect(renderDue(1000, -Infinity, false)).to.equal(1000 + RENDER_INTERVAL_MS);
  });

  it('redraws numbers alone at most once per sparkline bucket', () => {
    expect(NUMBERS_RENDER_MS).to.be.above(RENDER_INTERVAL_MS);
    // Just after a redraw: waits for the bucket.
    expect(renderDue(1010, 1000, true)).to.equal(1000 + NUMBERS_RENDER_MS);
    // Long after one (a quiet page that changes again): as soon as anything else would.
    expect(renderDue(5000, 1000, true)).to.equal(5000 + RENDER_INTERVAL_MS);
    expect(renderDue(1000, -Infinity, true)).to.equal(1000 + RENDER_INTERVAL_MS);
    // Never sooner than what moved would be.
    for (const now of [1000, 1050, 1067, 1099, 1200]) expect(renderDue(now, 1000, true)).to.be.at.least(renderDue(now, 1000, false));
  });
});
