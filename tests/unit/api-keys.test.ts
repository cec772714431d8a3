import { expect } from 'chai';
import { fillKeys } from '../../src/inject/agent/api-keys';

describe('API results: keys filled in the page world', () => {
  const keyOf = (id: number): string | null => (id === 7 ? 'seven' : id === 8 ? 'eight' : null);

  it("fills a snapshot's rows that have none, and leaves a key the content script had", () => {
    const snap = { time: 1, components: [{ id: 7, key: null }, { id: 8, key: 'kept' }, { id: 9, key: null }, null, 3] };
    fillKeys(snap, keyOf);
    expect(snap.components).to.deep.equal([{ id: 7, key: 'seven' }, { id: 8, key: 'kept' }, { id: 9, key: null }, null, 3]);
  });

  it("fills a stopped recording's components by id", () => {
    const rec = { components: { 7: { name: 'A', key: null }, 8: { name: 'B', key: null }, 10: { name: 'C', key: null } } };
    fillKeys(rec, keyOf);
    expect(rec.components).to.deep.equal({ 7: { name: 'A', key: 'seven' }, 8: { name: 'B', key: 'eight' }, 10: { name: 'C', key: null } });
  });

  it('leaves anything else alone', () => {
    for (const r of [null, 1, 'x', { ok: false, error: 'not recording' }, { components: 5 }, { result: null }]) {
      const before = JSON.stringify(r);
      fillKeys(r, keyOf);
      expect(JSON.stringify(r)).to.equal(before);
    }
  });
});
