import { expect } from 'chai';
import { ModeSync, OWN_SWITCH_MS } from '../../src/content/agent/mode-sync';

describe('ModeSync: the worker\'s word on the mode after a frame\'s own switch', () => {
  it('takes every mode the worker says while the frame switched nothing itself', () => {
    const s = new ModeSync();
    expect(s.take('off', 0)).to.equal(true);
    expect(s.take('components', 1)).to.equal(true);
    expect(s.take('off', 2)).to.equal(true);
  });

  it('leaves a stale mode alone until the worker says the frame\'s own back, then takes what follows', () => {
    const s = new ModeSync();
    s.switched('components', 100);
    // The hello's answer, computed before the switch reached the worker.
    expect(s.take('off', 150)).to.equal(false);
    expect(s.take('components', 160)).to.equal(true);
    // Heard back: the worker's later word (the toolbar's toggle) is taken.
    expect(s.take('off', 170)).to.equal(true);
  });

  it('stops waiting after OWN_SWITCH_MS: a switch the worker never heard of does not deafen the frame', () => {
    const s = new ModeSync();
    s.switched('heatmap', 0);
    expect(s.take('off', OWN_SWITCH_MS)).to.equal(false);
    expect(s.take('off', OWN_SWITCH_MS + 1)).to.equal(true);
    expect(s.take('components', OWN_SWITCH_MS + 2)).to.equal(true);
  });

  it('waits for the latest of two switches of its own', () => {
    const s = new ModeSync();
    s.switched('components', 0);
    s.switched('off', 10);
    expect(s.take('components', 20)).to.equal(false);
    expect(s.take('off', 30)).to.equal(true);
  });
});
