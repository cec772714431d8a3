import { expect } from 'chai';
import { RECORD_STRIDE, RecordKind, toLines } from '../../src/protocol';
import { RingBuffer } from '../../src/inject/agent/ring-buffer';

describe('RingBuffer', () => {
  it('rejects capacities that are not powers of two', () => {
    expect(() => new RingBuffer(3)).to.throw(RangeError);
    expect(() => new RingBuffer(0)).to.throw(RangeError);
    expect(() => new RingBuffer(4)).to.not.throw();
  });

  it('drains records oldest first with the documented stride', () => {
    const ring = new RingBuffer(8);
    ring.write(RecordKind.Mount, 1, -1, 0, 0, -1);
    ring.write(RecordKind.Stats, 1, 2, 3, 4);
    const data = ring.drain();
    expect(data.length).to.equal(2 * RECORD_STRIDE);
    expect(toLines(data, ['App'])).to.deep.equal(['Mount 1 parent=-1 depth=0 name="App"', 'Stats 1 commits=2 authored=3 rendered=4']);
    expect(ring.length).to.equal(0);
    expect(ring.drain().length).to.equal(0);
  });

  it('wraps around and keeps order across the seam', () => {
    const ring = new RingBuffer(4);
    for (let i = 1; i <= 3; i++) ring.write(RecordKind.Unmount, i);
    ring.drain();
    for (let i = 4; i <= 7; i++) ring.write(RecordKind.Unmount, i);
    expect(toLines(ring.drain())).to.deep.equal(['Unmount 4', 'Unmount 5', 'Unmount 6', 'Unmount 7']);
    expect(ring.dropped).to.equal(0);
  });

  it('drops the oldest when full and counts every drop', () => {
    const ring = new RingBuffer(4);
    for (let i = 1; i <= 10; i++) ring.write(RecordKind.Unmount, i);
    expect(ring.length).to.equal(4);
    expect(ring.dropped).to.equal(6);
    expect(toLines(ring.drain())).to.deep.equal(['Unmount 7', 'Unmount 8', 'Unmount 9', 'Unmount 10']);
    ring.write(RecordKind.Unmount, 11);
    expect(ring.dropped).to.equal(6);
  });

  it('drain returns a buffer that can be transferred without touching the ring', () => {
    const ring = new RingBuffer(4);
    ring.write(RecordKind.Frame, 1, 0.5, 1.5, 0);
    const data = ring.drain();
    structuredClone(data.buffer, { transfer: [data.buffer] });
    ring.write(RecordKind.Frame, 2, 0.5, 1.5, 0);
    expect(toLines(ring.drain())).to.deep.equal(['Frame 2 style=0.50 layout=1.50 forced=0.00']);
  });
});

describe('RingBuffer.drainToArray', () => {
  it('gives the same slots as drain, oldest first across the wrap, and empties the ring', () => {
    const fill = (ring: RingBuffer) => {
      for (let i = 1; i <= 6; i++) ring.write(RecordKind.Frame, i, i / 2, i, 0);
    };
    const a = new RingBuffer(4), b = new RingBuffer(4);
    fill(a);
    fill(b);
    expect(a.drainToArray()).to.deep.equal(Array.from(b.drain()));
    expect(a.length).to.equal(0);
    expect(a.drainToArray()).to.deep.equal([]);
    a.write(RecordKind.Frame, 7, 0.5, 1.5, 0);
    expect(toLines(Float64Array.from(a.drainToArray()))).to.deep.equal(['Frame 7 style=0.50 layout=1.50 forced=0.00']);
  });
});

describe('toLines', () => {
  it('decodes every kind', () => {
    const d = new Float64Array([
      RecordKind.Mount, 2, 1, 1, 0, 1,
      RecordKind.Bounds, 2, 10, 20, 30, 40,
      RecordKind.Bounds, 3, 0, 0, -1, -1,
      RecordKind.Cost, 0, 1, 2, 3, 0,
      RecordKind.Reset, 0, 0, 0, 0, 0,
      99, 0, 0, 0, 0, 0,
    ]);
    expect(toLines(d, ['Cell'], ['k0', 'k1'])).to.deep.equal([
      'Mount 2 parent=1 depth=1 name="Cell" key="k1"', 'Bounds 2 10,20 30x40', 'Bounds 3 none',
      'Cost 0 style=1.00 layout=2.00 forced=3.00', 'Reset', 'Unknown(99)',
    ]);
  });
});

describe('RingBuffer memory', () => {
  it('holds no buffer until written, gives it back on clear(), and works again after', () => {
    const ring = new RingBuffer(8);
    expect(ring.bytes).to.equal(0);
    expect(ring.drain().length).to.equal(0);
    ring.write(RecordKind.Unmount, 1);
    expect(ring.bytes).to.equal(8 * RECORD_STRIDE * 8);
    ring.clear();
    expect(ring.bytes).to.equal(0);
    expect(ring.length).to.equal(0);
    ring.write(RecordKind.Unmount, 2);
    expect(toLines(ring.drain())).to.deep.equal(['Unmount 2']);
  });
});
