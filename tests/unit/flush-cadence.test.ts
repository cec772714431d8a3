import { expect } from 'chai';
import { flushWait } from '../../src/inject/agent/pipeline/flush-cadence';
import { RingBuffer } from '../../src/inject/agent/ring-buffer';
import { NUMBERS_INTERVAL_MS, PLACE_INTERVAL_MS, placesMeter, RecordKind, RECORD_KIND_NAMES } from '../../src/protocol';

describe('agent: when records are handed over', () => {
  const ring = (placing: boolean, length = 3, capacity = 1024) => ({ placing, length, capacity });

  it('hands over what places a meter within one flush interval, numbers alone at the numbers rate', () => {
    expect(NUMBERS_INTERVAL_MS).to.be.above(PLACE_INTERVAL_MS);
    expect(flushWait(1010, 1000, ring(true))).to.equal(PLACE_INTERVAL_MS - 10);
    expect(flushWait(1010, 1000, ring(false))).to.equal(NUMBERS_INTERVAL_MS - 10);
    expect(flushWait(1000 + PLACE_INTERVAL_MS, 1000, ring(true))).to.be.at.most(0);
    expect(flushWait(1000 + PLACE_INTERVAL_MS, 1000, ring(false))).to.be.above(0);
    expect(flushWait(1000 + NUMBERS_INTERVAL_MS, 1000, ring(false))).to.be.at.most(0);
  });

  it('hands over a ring half full at once, whatever it holds', () => {
    expect(flushWait(1001, 1000, ring(false, 512, 1024))).to.be.at.most(0);
    expect(flushWait(1001, 1000, ring(false, 511, 1024))).to.be.above(0);
  });

  it('the ring remembers a placing record until it is drained or cleared', () => {
    const r = new RingBuffer(16);
    r.write(RecordKind.Cost, 1, 1, 2, 0);
    r.write(RecordKind.Frame, 1, 1, 2, 0, 0);
    r.write(RecordKind.Stats, 1, 1, 3, 9, 0);
    expect(r.placing).to.equal(false);
    r.write(RecordKind.Bounds, 1, 0, 0, 10, 10);
    r.write(RecordKind.Cost, 1, 1, 2, 0);
    expect(r.placing).to.equal(true);
    r.drain();
    expect(r.placing).to.equal(false);
    r.write(RecordKind.Mount, 2, -1, 0, 0, -1);
    r.clear();
    expect(r.placing).to.equal(false);
  });

  it('every kind is either placing or numbers-only, as the store\'s geometry counter reads them', () => {
    const placing = Object.keys(RECORD_KIND_NAMES).map(Number).filter(placesMeter).map((k) => RECORD_KIND_NAMES[k]).sort();
    expect(placing).to.deep.equal(['Bounds', 'Layer', 'Mount', 'Occluder', 'Reset', 'Surface', 'Unmount']);
    for (const bad of [0, -1, 13, 31, 32, 1.5, NaN]) expect(placesMeter(bad), String(bad)).to.equal(false);
  });
});
