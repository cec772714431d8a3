import { expect } from 'chai';
import { moveCursor, pageSize, scrollToReveal, visibleRange } from '../../src/devtools-panel/virtual-window';

describe('panel virtual window', () => {
  it('renders only the rows on screen plus overscan', () => {
    expect(visibleRange(0, 200, 20, 5000, 4)).to.deep.equal({ start: 0, end: 15 });
    expect(visibleRange(2000, 200, 20, 5000, 4)).to.deep.equal({ start: 96, end: 115 });
  });

  it('clamps at the end and handles empty tables', () => {
    expect(visibleRange(99_980, 200, 20, 5000, 4)).to.deep.equal({ start: 4995, end: 5000 });
    expect(visibleRange(0, 200, 20, 0)).to.deep.equal({ start: 0, end: 0 });
    expect(visibleRange(-50, 200, 20, 3, 4)).to.deep.equal({ start: 0, end: 3 });
  });

  it('stays small whatever the table size', () => {
    const r = visibleRange(123_456, 600, 20, 100_000, 4);
    expect(r.end - r.start).to.be.at.most(40);
    expect(r.start).to.be.at.most(Math.floor(123_456 / 20));
    expect(r.end).to.be.at.least(Math.ceil((123_456 + 600) / 20));
  });

  it('scrolls the least needed to reveal a row', () => {
    expect(scrollToReveal(5, 0, 200, 20)).to.equal(0);
    expect(scrollToReveal(20, 0, 200, 20)).to.equal(220);
    expect(scrollToReveal(2, 100, 200, 20)).to.equal(40);
  });

  it('moves the keyboard cursor within bounds', () => {
    expect(moveCursor(-1, 'ArrowDown', 10, 5)).to.equal(0);
    expect(moveCursor(-1, 'ArrowUp', 10, 5)).to.equal(0);
    expect(moveCursor(9, 'ArrowDown', 10, 5)).to.equal(9);
    expect(moveCursor(3, 'PageDown', 10, 5)).to.equal(8);
    expect(moveCursor(3, 'PageUp', 10, 5)).to.equal(0);
    expect(moveCursor(3, 'End', 10, 5)).to.equal(9);
    expect(moveCursor(3, 'Home', 10, 5)).to.equal(0);
    expect(moveCursor(12, 'x', 10, 5)).to.equal(9);
    expect(moveCursor(0, 'ArrowDown', 0, 5)).to.equal(-1);
    expect(pageSize(200, 20)).to.equal(9);
  });
});
