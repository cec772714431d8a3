import { expect } from 'chai';
import { NUMBERS_RENDER_MS, RENDER_INTERVAL_MS, renderDue, batchDrawsNow, tickDraws } from '../../src/content/agent/canvas/cadence';

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

  it('draws a batch in its own task once the flush interval has passed, numbers alone too; the ticker after a bucket', () => {
    expect(batchDrawsNow(1000, -Infinity)).to.equal(true);
    expect(batchDrawsNow(1000, 1000 - RENDER_INTERVAL_MS)).to.equal(true);
    expect(batchDrawsNow(1000, 1001 - RENDER_INTERVAL_MS)).to.equal(false);
    expect(tickDraws(1000, -Infinity)).to.equal(true);
    expect(tickDraws(1000, 1000 - NUMBERS_RENDER_MS)).to.equal(true);
    expect(tickDraws(1000, 1001 - NUMBERS_RENDER_MS)).to.equal(false);
    // A batch that draws now draws no sooner than one that moved something would by the timer's rate.
    for (const at of [900, 950, 967, 990]) if (batchDrawsNow(1000, at)) expect(at + RENDER_INTERVAL_MS).to.be.at.most(1000);
  });
});
