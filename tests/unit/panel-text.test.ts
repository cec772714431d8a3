import { expect } from 'chai';
import {
  capStack, capText, formatCount, formatMs, formatRatio, hasBidiControls, shownInflation, MAX_STACK_LINES,
  MAX_TEXT_CHARS, neutralize,
} from '../../src/devtools-panel/text';

describe('panel text safety', () => {
  it('leaves ordinary names alone', () => {
    expect(capText('UserCard')).to.equal('UserCard');
    expect(capText('<script>alert(1)</script>')).to.equal('<script>alert(1)</script>');
  });

  it('caps a 100 000-character name to MAX_TEXT_CHARS with an ellipsis', () => {
    const s = capText('A'.repeat(100_000));
    expect(s.length).to.equal(MAX_TEXT_CHARS);
    expect(s.endsWith('…')).to.equal(true);
  });

  it('never splits a surrogate pair when capping', () => {
    const s = capText('x' + '😀'.repeat(300), 10);
    expect(s.length).to.be.at.most(10);
    const body = s.slice(0, -1);
    expect(/[\uD800-\uDBFF]$/.test(body)).to.equal(false);
  });

  it('removes bidi overrides and isolates, and replaces other controls', () => {
    const hostile = 'Safe\u202Egnp.exe\u2066x\u2069\u200F';
    expect(hasBidiControls(hostile)).to.equal(true);
    const out = capText(hostile);
    expect(hasBidiControls(out)).to.equal(false);
    expect(out).to.equal('Safegnp.exex');
    expect(neutralize('a\u0000b\u2028c')).to.equal('a\uFFFDb\uFFFDc');
  });

  it('caps after removing controls, so the cap holds for a string of controls and text', () => {
    const s = capText('\u202E'.repeat(1000) + 'B'.repeat(1000));
    expect(s.length).to.equal(MAX_TEXT_CHARS);
    expect(hasBidiControls(s)).to.equal(false);
  });

  it('returns empty text for non-strings', () => {
    expect(capText(undefined)).to.equal('');
    expect(capText({ toString: () => 'x' })).to.equal('');
  });

  it('caps stacks in lines and line length', () => {
    const stack = Array.from({ length: 100 }, (_, i) => `at f${i} (${'u'.repeat(500)})`).join('\n');
    const lines = capStack(stack).split('\n');
    expect(lines.length).to.equal(MAX_STACK_LINES + 1);
    expect(lines.every((l) => l.length <= 200)).to.equal(true);
    expect(lines[lines.length - 1]).to.match(/more lines/);
  });

  it('formats numbers for cells', () => {
    expect(formatMs(0)).to.equal('0');
    expect(formatMs(1.234)).to.equal('1.23');
    expect(formatMs(12.34)).to.equal('12.3');
    expect(formatMs(0.001)).to.equal('<0.01');
    expect(formatCount(12345)).to.equal('12\u2009345');
    expect(shownInflation({ rendered: 10, authored: 0 })).to.equal(10);
    expect(shownInflation({ rendered: 0, authored: 0 })).to.equal(null);
    // Portaled-in elements are nobody's inflation: all of them, and nothing authored, is no DOM of its own.
    expect(shownInflation({ rendered: 77, authored: 0, portaledIn: 77 })).to.equal(null);
    expect(shownInflation({ rendered: 78, authored: 1, portaledIn: 77 })).to.equal(1);
    expect(formatRatio(shownInflation({ rendered: 30, authored: 4 }))).to.equal('7.5×');
    expect(formatRatio(null)).to.equal('–');
  });
});
