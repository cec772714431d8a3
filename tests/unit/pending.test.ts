import { expect } from 'chai';
import { Pending } from '../../src/protocol/pending';

describe('Pending (requests waiting for their answers by number)', () => {
  it('numbers each request, settles it once with its own answer, and ignores answers nobody waits for', async () => {
    const p = new Pending<string>();
    const sent: number[] = [];
    const a = p.ask((n) => sent.push(n), 1000, () => 'late');
    const b = p.ask((n) => sent.push(n), 1000, () => 'late');
    expect(sent).to.deep.equal([1, 2]);
    expect(p.settle(2, 'two')).to.equal(true);
    expect(p.settle(2, 'again')).to.equal(false);
    expect(p.settle(7, 'forged')).to.equal(false);
    expect(p.settle(1, 'one')).to.equal(true);
    expect(await Promise.all([a, b])).to.deep.equal(['one', 'two']);
    expect(p.size).to.equal(0);
  });

  it('an unanswered request settles with the fallback, and its late answer does nothing', async () => {
    const p = new Pending<number | null>();
    let n = 0;
    const r = p.ask((k) => { n = k; }, 5, () => null);
    expect(await r).to.equal(null);
    expect(p.settle(n, 3)).to.equal(false);
    expect(p.size).to.equal(0);
  });
});
