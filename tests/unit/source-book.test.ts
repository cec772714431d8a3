/** The content script's book of component types (src/content/agent/sources.ts): its own small type numbers. */
import { expect } from 'chai';
import { SourceBook } from '../../src/content/agent/sources';
import type { LocatedType } from '../../src/protocol';

const located = (typeId: number, name: string): LocatedType => ({
  typeId, url: 'https://app.test/main.js', line: 1, column: 0, state: 'mapped', file: 'src/row.tsx',
  fileUrl: 'https://app.test/src/row.tsx', fileLine: 3, fileColumn: 0, originalName: name, why: null,
});

describe('SourceBook', () => {
  it('numbers the agent\'s types 1, 2, … on first sight, looks them up by those numbers, and starts over on reset', () => {
    const book = new SourceBook();
    // The agent's ids only grow across overlay toggles (types.ts): these are from a late generation.
    expect(book.localType(40_007)).to.equal(1); // a member seen before its type's text
    expect(book.onTypes([{ typeId: 40_007, text: 'function a(){}', length: 14, hint: null },
      { typeId: 40_009, text: 'function b(){}', length: 14, hint: null }])).to.equal(true);
    expect(book.localType(40_009)).to.equal(2);
    expect(book.localType(40_007)).to.equal(1);
    const batch = book.nextBatch(() => [])!;
    expect(batch.types.map((t) => t.typeId)).to.deep.equal([1, 2]);
    book.onLocated([located(2, 'Row')]);
    expect(book.nameOf(2, 'b')).to.deep.equal({ name: 'Row', minifiedName: 'b' });
    expect(book.rowSource(2)).to.include({ file: 'src/row.tsx', line: 3 });
    expect(book.rowSource(1)).to.equal(null);
    book.reset();
    expect(book.rowSource(2)).to.equal(null);
    expect(book.localType(50_001)).to.equal(1);
    // A fraction or NaN from a hostile page gets no number.
    expect(book.localType(0.5)).to.equal(0);
  });

  it('gives at most 20 000 numbers (0 after), so a number always fits beside a depth in the store', () => {
    const book = new SourceBook();
    for (let i = 1; i <= 20_000; i++) expect(book.localType(i * 3)).to.equal(i);
    expect(book.localType(1)).to.equal(0);
    expect(book.localType(3)).to.equal(1);
  });
});
