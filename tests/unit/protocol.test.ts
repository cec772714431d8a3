import { expect } from 'chai';
import { envelope, MAX_COPIED_RECORDS, nextMode, parseMessage, PROTOCOL_VERSION, RECORD_STRIDE, settingsValidator, Source, INVALID } from '../../src/protocol';
import { DEFAULT_SETTINGS } from '../../src/overlay/settings';

describe('protocol', () => {
  it('cycles Off → Components → Heatmap → Inspect → Off', () => {
    expect(['off', 'components', 'heatmap', 'inspect'].map((m) => nextMode(m as never)))
      .to.deep.equal(['components', 'heatmap', 'inspect', 'off']);
  });

  it('round-trips a valid message', () => {
    const m = parseMessage(envelope(Source.Content, 'setMode', { mode: 'heatmap' }), Source.Content);
    expect(m).to.deep.equal({ source: Source.Content, v: PROTOCOL_VERSION, type: 'setMode', payload: { mode: 'heatmap' } });
  });

  it('drops wrong source, wrong version, unknown type and bad payloads', () => {
    const ok = envelope(Source.Panel, 'pin', { id: 3, frameId: 0 });
    expect(parseMessage(ok, Source.Panel)).to.not.equal(null);
    expect(parseMessage(ok, Source.Content)).to.equal(null);
    expect(parseMessage({ ...ok, v: 2 }, Source.Panel)).to.equal(null);
    expect(parseMessage({ ...ok, type: 'nope' }, Source.Panel)).to.equal(null);
    expect(parseMessage({ ...ok, type: 'toString' }, Source.Panel)).to.equal(null);
    expect(parseMessage({ ...ok, payload: { id: -1, frameId: 0 } }, Source.Panel)).to.equal(null);
    expect(parseMessage({ ...ok, payload: { id: '3', frameId: 0 } }, Source.Panel)).to.equal(null);
    expect(parseMessage({ ...ok, payload: { id: null, frameId: 0 } }, Source.Panel)).to.not.equal(null);
    expect(parseMessage(null, Source.Panel)).to.equal(null);
    expect(parseMessage('x', Source.Panel)).to.equal(null);
  });

  it('never throws on hostile objects', () => {
    const hostile = new Proxy({}, { get() { throw new Error('boom'); }, ownKeys() { throw new Error('boom'); } });
    expect(parseMessage(hostile, Source.Page)).to.equal(null);
    const getter = { source: Source.Page, v: 1, type: 'status', get payload() { throw new Error('x'); } };
    expect(parseMessage(getter, Source.Page)).to.equal(null);
  });

  it('checks record batches against their buffer size', () => {
    const buffer = new ArrayBuffer(2 * RECORD_STRIDE * 8);
    const good = envelope(Source.Page, 'records', { buffer, count: 2, strings: ['a'], stringBase: 0, dropped: 0, keys: [], seq: 1, selfMs: 0 });
    expect(parseMessage(good, Source.Page)).to.not.equal(null);
    const lying = envelope(Source.Page, 'records', { buffer, count: 3, strings: [], stringBase: 0, dropped: 0, keys: [], seq: 2, selfMs: 0 });
    expect(parseMessage(lying, Source.Page)).to.equal(null);
    const longName = envelope(Source.Page, 'records', { buffer, count: 1, strings: ['x'.repeat(10_000)], stringBase: 0, dropped: 0, keys: [], seq: 1, selfMs: 0 });
    expect(parseMessage(longName, Source.Page)).to.equal(null);
    const notBuffer = envelope(Source.Page, 'records', { buffer: 'x', count: 0, strings: [], stringBase: 0, dropped: 0, keys: [], seq: 1, selfMs: 0 });
    expect(parseMessage(notBuffer, Source.Page)).to.equal(null);
  });

  it('takes a small batch as a plain array of numbers, checked like a buffer', () => {
    const batch = (buffer: unknown, count: number) =>
      parseMessage(envelope(Source.Page, 'records', { buffer, count, strings: [], stringBase: 0, dropped: 0, keys: [], seq: 1, selfMs: 0 }), Source.Page);
    const two = new Array(2 * RECORD_STRIDE).fill(0);
    expect(batch(two, 2)).to.not.equal(null);
    expect(batch(two, 3)).to.equal(null);
    expect(batch([...two.slice(1), 'x'], 1)).to.equal(null);
    expect(batch([...two.slice(1), { valueOf: () => 1 }], 1)).to.equal(null);
    expect(batch(new Array((MAX_COPIED_RECORDS + 1) * RECORD_STRIDE).fill(0), 1)).to.equal(null);
  });

  it('validates settings, including ramp order', () => {
    expect(settingsValidator({ ...DEFAULT_SETTINGS })).to.not.equal(INVALID);
    expect(settingsValidator({ ...DEFAULT_SETTINGS, msRamp: [8, 2, 16] })).to.equal(INVALID);
    expect(settingsValidator({ ...DEFAULT_SETTINGS, meterStyle: 'pie' })).to.equal(INVALID);
    // Stored before flashShifts existed: off, its default.
    const { flashShifts: _, ...older } = DEFAULT_SETTINGS;
    expect(settingsValidator({ ...older, showLibraries: true })).to.deep.include({ flashShifts: false, showLibraries: true });
    expect(settingsValidator({ ...DEFAULT_SETTINGS, flashShifts: 'yes' })).to.equal(INVALID);
  });

  it('takes strip bars with or without their time (others left out), and a shift outline of at most ten moved', () => {
    const table = (strip: unknown[]) => envelope(Source.Background, 'table', {
      frameId: 0, frames: 1, rows: [], page: { styleMs: 0, layoutMs: 0, forcedMs: 0 }, pinned: null, strip, seq: 1, whole: true, removed: [], values: [],
    });
    const parsed = (strip: unknown[]) => (parseMessage(table(strip), Source.Background)?.payload as { strip: unknown[] } | undefined)?.strip;
    expect(parsed([[3, 0.5, 1, 0, 1234.5], [4, 0.5, 1, 0]])).to.deep.equal([[3, 0.5, 1, 0, 1234.5], [4, 0.5, 1, 0]]);
    // A bar of the wrong length is left out (the rest of the update stands).
    expect(parsed([[3, 0.5, 1, 0, 1, 2], [3, 0.5, 1], [5, 0, 0, 0, 9]])).to.deep.equal([[5, 0, 0, 0, 9]]);
    const outline = (moved: number[]) => parseMessage(envelope(Source.Panel, 'outline', { cause: 4, moved, frameId: 0 }), Source.Panel);
    expect(outline([1, 2])).to.not.equal(null);
    expect(outline(Array.from({ length: 11 }, (_, i) => i))).to.equal(null);
  });
});
