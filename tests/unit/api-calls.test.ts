/**
 * The content script reads the API's arguments as the page gave them (src/content/agent/api-calls.ts): the boot
 * forwards them unchecked.
 */
import { expect } from 'chai';
import { enableMode, experimentArgs, pinId, recordingRows } from '../../src/content/agent/api-calls';
import { DEFAULT_EXPERIMENT_FRAMES } from '../../src/protocol/experiment-request';

describe('API arguments, read by the content script', () => {
  it('enables the mode asked, or components for off, unknown or missing', () => {
    expect(enableMode('heatmap')).to.equal('heatmap');
    expect(enableMode('inspect')).to.equal('inspect');
    for (const m of ['off', 'evil', undefined, null, 3, { toString: () => 'heatmap' }]) expect(enableMode(m)).to.equal('components');
  });

  it('pins a whole id ≥ 0 and clears the pin for anything else', () => {
    expect(pinId(0)).to.equal(0);
    expect(pinId(12)).to.equal(12);
    for (const v of [-1, 1.5, NaN, '3', null, undefined]) expect(pinId(v)).to.equal(null);
  });

  it('makes an experiment request with -1 for an id that is not a number and the default frames', () => {
    expect(experimentArgs(4, { css: 'contain: strict', frames: 30 })).to.deep.equal({ id: 4, css: 'contain: strict', frames: 30 });
    expect(experimentArgs('4', null)).to.deep.equal({ id: -1, css: undefined, frames: DEFAULT_EXPERIMENT_FRAMES });
  });

  it('caps a recording at the rows asked within [10, max], else at max', () => {
    expect(recordingRows({ maxRows: 50 }, 1000)).to.equal(50);
    for (const o of [{ maxRows: 9 }, { maxRows: 1001 }, { maxRows: 20.5 }, null, 'x', {}]) expect(recordingRows(o, 1000)).to.equal(1000);
  });
});
