import { expect } from 'chai';
import { Interner, KeyBatch } from '../../src/inject/agent/pipeline/interner';

describe('Interner and KeyBatch', () => {
  it('interns names once and ships only the new ones', () => {
    const i = new Interner();
    expect([i.intern('App'), i.intern('Cell'), i.intern('App'), i.intern(null)]).to.deep.equal([0, 1, 0, -1]);
    expect(i.take()).to.deep.equal({ strings: ['App', 'Cell'], stringBase: 0 });
    expect(i.intern('Cell')).to.equal(1);
    expect(i.intern('Row')).to.equal(2);
    expect(i.take()).to.deep.equal({ strings: ['Row'], stringBase: 2 });
  });

  it('keeps no key after its batch: a feed of fresh keys holds nothing', () => {
    const keys = new KeyBatch();
    const names = new Interner();
    // Plain comparisons in the loop: 100 000 chai assertions took 5 s of the suite beside a CPU hog.
    const wrong: string[] = [];
    for (let cycle = 0; cycle < 100; cycle++) {
      for (let n = 0; n < 1000; n++) {
        names.intern('Row');
        const got = keys.add(`item-${cycle}-${n}`);
        if (got !== n && wrong.length < 5) wrong.push(`cycle ${cycle}: key ${n} got index ${got}`);
      }
      const taken = keys.take().length;
      if (taken !== 1000 && wrong.length < 5) wrong.push(`cycle ${cycle}: took ${taken} keys`);
      names.take();
    }
    expect(wrong).to.deep.equal([]);
    expect(keys.take()).to.deep.equal([]);
    expect(names.take().stringBase).to.equal(1);
  });

  it('caps string length', () => {
    const keys = new KeyBatch();
    keys.add('k'.repeat(10_000));
    expect(keys.take()[0]).to.have.length(512);
  });
});
