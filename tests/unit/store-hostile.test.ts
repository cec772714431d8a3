/**
 * Issue 11: every input from the page has a bound on the memory and time it
 * can cost the content script, and a record that passes validation never
 * throws or freezes the panel's table.
 */
import { expect } from 'chai';
import { envelope, parseMessage, RECORD_STRIDE, RecordKind, Source } from '../../src/protocol';
import { MAX_BATCH_WORK, MAX_STRINGS, MAX_STRING_CHARS, RollupStore } from '../../src/content/agent/store';
import { cleanName } from '../../src/overlay/paint-text';

function batch(...rows: number[][]): Float64Array {
  const d = new Float64Array(rows.length * RECORD_STRIDE);
  rows.forEach((r, i) => d.set(r, i * RECORD_STRIDE));
  return d;
}

function recordsMessage(buffer: ArrayBuffer, count: number): unknown {
  return envelope(Source.Page, 'records', { buffer, count, strings: [], stringBase: 0, dropped: 0, keys: [], seq: 1, selfMs: 0 });
}

describe('content store and protocol against a hostile page (issue 11)', () => {
  it('rejects a records buffer that is not a whole number of float64 slots (it threw a RangeError)', () => {
    expect(parseMessage(recordsMessage(new ArrayBuffer(100), 1), Source.Page)).to.equal(null);
    expect(parseMessage(recordsMessage(new ArrayBuffer(96), 2), Source.Page)).to.not.equal(null);
  });

  it('bounds the string table: 20 posts of 65 536 × 512-character names keep at most its caps', () => {
    const s = new RollupStore(() => 0);
    const name = 'x'.repeat(512);
    const names = new Array<string>(65_536).fill(name);
    let base = 0;
    for (let i = 0; i < 20; i++) {
      s.apply(new Float64Array(0), 0, names, base, 0);
      base += names.length;
    }
    const table = (s as unknown as { strings: string[] }).strings;
    expect(table.length).to.be.at.most(MAX_STRINGS);
    expect(table.reduce((n, x) => n + x.length, 0)).to.be.at.most(MAX_STRING_CHARS);
    expect(s.refusedStrings).to.be.greaterThan(0);
  });

  it('rolls up a 10 000-deep chain once per frame, however many of its leaves carried cost', () => {
    const s = new RollupStore(() => 0);
    const mounts: number[][] = [];
    for (let id = 1; id <= 10_000; id++) mounts.push([RecordKind.Mount, id, id === 1 ? -1 : id - 1, id - 1, 0, -1]);
    s.apply(batch(...mounts), mounts.length, ['C'], 0, 0);
    const costs: number[][] = [];
    for (let i = 0; i < 16_384; i++) costs.push([RecordKind.Cost, 10_000, 0, 0.001, 0]);
    costs.push([RecordKind.Frame, 1, 0, 16.384, 0]);
    s.apply(batch(...costs), costs.length, [], 1, 0);
    // Every record applied (16 384 + 9 999 roll-up steps is far under the budget): the root holds them all.
    expect(s.ignoredRecords).to.equal(0);
    expect(s.components.get(1)!.cost!.lastLayoutMs).to.be.closeTo(16.384, 1e-6);
    expect(s.components.get(5_000)!.cost!.lastLayoutMs).to.be.closeTo(16.384, 1e-6);
  });

  it('stops a batch past its work budget, counting what it ignored', () => {
    // The budget a tenth of MAX_BATCH_WORK's (whose worth of roll-ups is about 1 s of work here, 20 s beside two CPU
    // hogs and the e2e lane): the same stop, reached ten times sooner.
    const budget = MAX_BATCH_WORK / 10;
    const s = new RollupStore(() => 0, budget);
    const mounts: number[][] = [];
    for (let id = 1; id <= 10_000; id++) mounts.push([RecordKind.Mount, id, id === 1 ? -1 : id - 1, id - 1, 0, -1]);
    s.apply(batch(...mounts), mounts.length, ['C'], 0, 0);
    // 40 frames, each rolling the leaf's cost up 9 999 ancestors: twice the budget.
    const frames: number[][] = [];
    for (let f = 1; f <= 40; f++) frames.push([RecordKind.Cost, 10_000, 0, 1, 0], [RecordKind.Frame, f, 0, 1, 0]);
    s.apply(batch(...frames), frames.length, [], 1, 0);
    expect(40 * 10_000).to.be.greaterThan(budget);
    expect(s.ignoredRecords).to.be.greaterThan(10);
    expect(s.frames.count).to.equal(40); // the frames themselves still count
  });

  it('a roll-up ends at a parent cycle or a parent that is not shallower', () => {
    const s = new RollupStore(() => 0);
    // 1 ⇄ 2 point at each other; 3's parent claims to be deeper than it.
    s.apply(batch([RecordKind.Mount, 1, 2, 1, 0, -1], [RecordKind.Mount, 2, 1, 2, 0, -1], [RecordKind.Mount, 3, 2, 1, 0, -1]), 3, ['C'], 0, 0);
    s.apply(batch([RecordKind.Cost, 2, 0, 1, 0], [RecordKind.Cost, 3, 0, 2, 0], [RecordKind.Frame, 1, 0, 3, 0]), 3, [], 1, 0);
    expect(s.components.get(1)!.cost!.lastLayoutMs).to.equal(1);
    expect(s.components.get(2)!.cost!.lastLayoutMs).to.equal(1);
    expect(s.components.get(3)!.cost!.lastLayoutMs).to.equal(2);
  });

  it('keeps every value inside the ranges the worker validates, so the table always passes', () => {
    const s = new RollupStore(() => 0);
    s.apply(batch(
      [RecordKind.Mount, 1, -1, 0, 0, 0.5], // a key index of 0.5
      [RecordKind.Stats, 1, 1e15, 1e9, 1e9, 5e9],
      [RecordKind.Cost, 1, 1e300, 1e300, 1e300],
      [RecordKind.Frame, 1, 1e300, 1e300, 1e300],
    ), 4, ['C'], 0, 0, ['k']);
    const row = s.row(s.components.get(1)!);
    expect(row.key).to.equal(null);
    const msg = envelope(Source.Content, 'table', {
      frameId: 1, frames: 1, rows: [row], page: { styleMs: 0, layoutMs: 0, forcedMs: 0 }, pinned: null, seq: 1, whole: true, removed: [], values: [],
    });
    const parsed = parseMessage(msg, Source.Content);
    expect(parsed).to.not.equal(null);
    expect((parsed!.payload as { rows: unknown[] }).rows).to.have.length(1);
  });

  it('a row the validator rejects is left out; the rest of the table arrives', () => {
    const good = { id: 1, name: 'A', parentId: null, depth: 0, key: null, styleMs: 0, layoutMs: 0, forcedMs: 0, lastFrameMs: 0,
      authored: 1, rendered: 1, portaledIn: 0, commits: 0 };
    const bad = { ...good, id: 2, authored: 1e9 };
    const parsed = parseMessage(envelope(Source.Content, 'table', {
      frameId: 1, frames: 1, rows: [good, bad], page: { styleMs: 0, layoutMs: 0, forcedMs: 0 }, pinned: null, seq: 2, whole: false,
      removed: [3], values: [5, 0.5, 1, 0, 1.5, 2, 3, 0, 7, 6, 0, 0, 0, 0, 1e9, 1, 0, 1],
    }), Source.Content);
    expect((parsed!.payload as { rows: { id: number }[] }).rows.map((r) => r.id)).to.deep.equal([1]);
    // Changed values likewise: the group whose count is out of range is left out, the other kept.
    expect((parsed!.payload as { values: number[] }).values).to.deep.equal([5, 0.5, 1, 0, 1.5, 2, 3, 0, 7]);
  });

  it('a table update whose removed ids or sequence are not what they claim is rejected whole', () => {
    const base = { frameId: 1, frames: 1, rows: [], page: { styleMs: 0, layoutMs: 0, forcedMs: 0 }, pinned: null, seq: 2, whole: false, removed: [3], values: [] };
    expect(parseMessage(envelope(Source.Content, 'table', base), Source.Content)).to.not.equal(null);
    for (const bad of [{ removed: ['3'] }, { removed: new Array(100_001).fill(1) }, { removed: undefined }, { seq: -1 }, { whole: 'yes' },
      { values: [1, 2, 3] }, { values: undefined }, { values: 'x' }]) {
      expect(parseMessage(envelope(Source.Content, 'table', { ...base, ...bad }), Source.Content), JSON.stringify(bad).slice(0, 40)).to.equal(null);
    }
  });

  it('canvas captions drop bidi controls as the panel does', () => {
    expect(cleanName('\u202eevil\u202c \u2066Name\u2069\u200f')).to.equal('evil Name');
  });
});
