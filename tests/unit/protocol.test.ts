import { expect } from 'chai';
import { envelope, nextMode, parseMessage, PROTOCOL_VERSION, RECORD_STRIDE, settingsValidator, Source, INVALID } from '../../src/protocol';
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
    const notBuffer = envelope(Source.Page, 'records', { buffer: [1, 2], count: 0, strings: [], stringBase: 0, dropped: 0, keys: [], seq: 1, selfMs: 0 });
    expect(parseMessage(notBuffer, Source.Page)).to.equal(null);
  });

  it('validates settings, including ramp order', () => {
    expect(settingsValidator({ ...DEFAULT_SETTINGS })).to.not.equal(INVALID);
    expect(settingsValidator({ ...DEFAULT_SETTINGS, msRamp: [8, 2, 16] })).to.equal(INVALID);
    expect(settingsValidator({ ...DEFAULT_SETTINGS, meterStyle: 'pie' })).to.equal(INVALID);
  });
});
