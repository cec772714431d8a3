import { expect } from 'chai';
import { inflationRatio, isStriped, Level, LEVEL_COLORS, LEVEL_RGB, rampColor, rampLevel } from '../../src/overlay/ramps';
import { DEFAULT_SETTINGS } from '../../src/overlay/settings';

const MS = DEFAULT_SETTINGS.msRamp;
const INF = DEFAULT_SETTINGS.inflationRamp;

describe('overlay ramps', () => {
  it('layout ms: green ≤ 2, yellow ≤ 8, orange ≤ 16, red above (thresholds inclusive)', () => {
    const cases: [number, Level][] = [
      [0, Level.Green], [1.99, Level.Green], [2, Level.Green], [2.0001, Level.Yellow],
      [8, Level.Yellow], [8.01, Level.Orange], [16, Level.Orange], [16.01, Level.Red], [1000, Level.Red],
    ];
    for (const [v, want] of cases) expect(rampLevel(v, MS), `${v} ms`).to.equal(want);
  });

  it('inflation: green ≤ 3×, yellow ≤ 8×, orange ≤ 20×, red above', () => {
    const cases: [number, Level][] = [
      [1, Level.Green], [3, Level.Green], [3.01, Level.Yellow], [8, Level.Yellow], [8.5, Level.Orange],
      [20, Level.Orange], [20.1, Level.Red],
    ];
    for (const [v, want] of cases) expect(rampLevel(v, INF), `${v}×`).to.equal(want);
  });

  it('treats NaN and negatives as green, and follows custom ramps', () => {
    expect(rampLevel(Number.NaN, MS)).to.equal(Level.Green);
    expect(rampLevel(-5, MS)).to.equal(Level.Green);
    expect(rampLevel(5, [1, 4, 10])).to.equal(Level.Orange);
  });

  it('maps levels to four distinct colors, and rgb triples that match them', () => {
    expect(new Set(LEVEL_COLORS).size).to.equal(4);
    LEVEL_RGB.forEach((rgb, i) => expect(LEVEL_COLORS[i]).to.equal(`rgb(${rgb.join(',')})`));
    expect(rampColor(17, MS)).to.equal(LEVEL_COLORS[Level.Red]);
  });

  it('inflation ratio is rendered ÷ authored, authored floored at 1', () => {
    expect(inflationRatio(847, 50)).to.be.closeTo(16.94, 0.01);
    expect(inflationRatio(5, 0)).to.equal(5);
    expect(inflationRatio(0, 0)).to.equal(0);
    expect(inflationRatio(-3, 10)).to.equal(0);
  });

  it('stripes orange and red only', () => {
    expect([Level.Green, Level.Yellow, Level.Orange, Level.Red].map(isStriped)).to.deep.equal([false, false, true, true]);
  });
});
