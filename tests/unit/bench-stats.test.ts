/**
 * The benches' paired comparison (bench/lib/stats.ts `medianCI`): the sign test's interval for a median, checked
 * against the binomial tables it comes from.
 */
import { expect } from 'chai';
import { medianCI, pairedByRound } from '../../bench/lib/stats';

describe('bench statistics: the median\'s confidence interval', () => {
  const ints = (n: number): number[] => Array.from({ length: n }, (_, i) => n - i); // n … 1, unsorted on purpose

  it('uses the order statistics of the sign test (n = 6, 10, 16, 40 at 95 %)', () => {
    // P(B ≤ 0) = 1/64 ≤ 0.025 < P(B ≤ 1) = 7/64 for n = 6: k = 1, the whole range.
    expect(medianCI(ints(6))).to.deep.equal([1, 6]);
    // n = 10: P(B ≤ 1) = 11/1024 ≤ 0.025 < P(B ≤ 2) = 56/1024: k = 2.
    expect(medianCI(ints(10))).to.deep.equal([2, 9]);
    // n = 16: P(B ≤ 3) = 0.0106 ≤ 0.025 < P(B ≤ 4) = 0.0384: k = 4.
    expect(medianCI(ints(16))).to.deep.equal([4, 13]);
    // n = 40: P(B ≤ 13) = 0.0192 ≤ 0.025 < P(B ≤ 14) = 0.0403: k = 14.
    expect(medianCI(ints(40))).to.deep.equal([14, 27]);
  });

  it('has no interval for too few values, and ignores missing ones', () => {
    expect(medianCI(ints(5)).every(Number.isNaN)).to.equal(true);
    expect(medianCI([...ints(6), NaN])).to.deep.equal([1, 6]);
  });

  it('narrows as the confidence drops', () => {
    const [lo, hi] = medianCI(ints(40), 0.5);
    expect(lo).to.be.greaterThan(14);
    expect(hi).to.be.lessThan(27);
  });

  it('pairs two builds by round, skipping a round one of them lost, and says which way the interval points', () => {
    const rounds = Array.from({ length: 12 }, (_, i) => i + 1);
    const base = { rounds, values: rounds.map((r) => 10 + (r % 3)) };
    // This build: 1 less in every round but round 4, which it lost.
    const faster = { rounds: rounds.filter((r) => r !== 4), values: rounds.filter((r) => r !== 4).map((r) => 9 + (r % 3)) };
    const p = pairedByRound(faster, base);
    expect(p.diffs).to.have.length(11);
    expect(p.median).to.equal(-1);
    expect(p.verdict).to.equal('faster');
    expect(pairedByRound(base, faster).verdict).to.equal('slower');
    // Differences of both signs around 0: the interval holds 0.
    const mixed = { rounds, values: rounds.map((r) => 10 + (r % 3) + (r % 2 === 0 ? 1 : -1)) };
    expect(pairedByRound(mixed, base).verdict).to.equal('not resolved');
    expect(pairedByRound({ rounds: [1, 2], values: [1, 2] }, base).verdict).to.equal('too few pairs');
  });
});
