/**
 * The boot script's API (src/inject/boot/api.ts) takes the content script's `state` message as it came over the
 * private port: the protocol's validators are not in the boot script (they are the agent's), so `setState` checks the
 * fields it keeps itself. Whatever comes, `state()` answers with the documented shape and types.
 */
import { expect } from 'chai';
import * as fs from 'node:fs';
import { API_KEY, installApi } from '../../src/inject/boot/api';
import { EXPERIMENT_OVERLAY_OFF } from '../../src/protocol/experiment-request';
import type { LayoutCostState, PageStatus } from '../../src/protocol';

function setup() {
  const win = {} as unknown as Window & typeof globalThis;
  const posted: { type: string; payload: { reqId: number; call: string; args: unknown[] } }[] = [];
  const waiters = new Map<number, (result: unknown) => void>();
  const filled: unknown[] = [];
  const status: PageStatus = {
    renderers: 1, roots: 2, agent: false, minified: false, degraded: [], timerResolutionMs: 0.1, url: 'http://x/', outside: undefined,
  };
  const handle = installApi(win, {
    version: 'test', post: (type, payload) => posted.push({ type, payload: payload as never }), status: () => status, nodeOf: () => null,
    fillKeys: (r) => filled.push(r), internals: () => ({}), notes: [],
  }, waiters);
  const api = (win as unknown as Record<string, { state(): LayoutCostState } & Record<string, (...a: unknown[]) => unknown>>)[API_KEY];
  return { handle, api, posted, waiters, filled };
}

describe('boot API: calls forwarded as the page made them', () => {
  it('tells the content script of a call without an answer, its arguments copied, and returns nothing', () => {
    const { api, posted } = setup();
    const opts = { maxRows: 50 };
    expect(api.startRecording(opts)).to.equal(undefined);
    opts.maxRows = 1;
    expect(api.enable('heatmap')).to.equal(undefined);
    expect(posted.map((p) => [p.type, p.payload.call, p.payload.args])).to.deep.equal([
      ['api', 'startRecording', [{ maxRows: 50 }, undefined]], ['api', 'enable', ['heatmap', undefined]],
    ]);
    expect(posted[0].payload.reqId).to.not.equal(posted[1].payload.reqId);
  });

  it('sends an argument that is not plain data (an event handler\'s event, a function) as null', () => {
    const { api, posted } = setup();
    api.enable(() => 1);
    api.pin(7, { node: Symbol('x') });
    expect(posted.map((p) => p.payload.args)).to.deep.equal([[null, undefined], [7, null]]);
  });

  it('resolves an asked call with its answer\'s result, keys filled, and rejects with the answer\'s error', async () => {
    const { api, posted, waiters, filled } = setup();
    const snap = api.snapshot() as Promise<unknown>;
    const exp = api.experiment(3, { css: 'contain: layout' }) as Promise<unknown>;
    expect(posted.map((p) => [p.payload.call, p.payload.args])).to.deep.equal([['snapshot', [undefined, undefined]], ['experiment', [3, { css: 'contain: layout' }]]]);
    waiters.get(posted[0].payload.reqId)!({ ok: true, result: { components: [] } });
    waiters.get(posted[1].payload.reqId)!({ ok: false, error: 'unknown component' });
    expect(await snap).to.deep.equal({ components: [] });
    expect(filled).to.deep.equal([{ components: [] }]);
    let err: unknown = null;
    await exp.catch((e) => { err = e; });
    expect(String(err)).to.include('layout-cost: unknown component');
  });
});

describe('boot API: the content script\'s state, checked where it is kept', () => {
  it('keeps a well-formed state', () => {
    const { handle, api } = setup();
    handle.setState({ mode: 'heatmap', pinned: 7, capped: true, dropped: 3, self: { msPerFrame: 0.2, mainThreadShare: 0.011 } });
    const s = api.state();
    expect(s).to.include({ enabled: true, mode: 'heatmap', pinned: 7, capped: true, droppedMessages: 3 });
    expect(s.self).to.deep.equal({ msPerFrame: 0.2, mainThreadShare: 0.011 });
    expect(s.react).to.deep.equal({ renderers: 1, roots: 2 });
  });

  it('reads a malformed state as off, with each field at its default, and keeps no foreign fields', () => {
    const { handle, api } = setup();
    handle.setState({ mode: 'components', pinned: 1, capped: true, dropped: 5, self: { msPerFrame: 1, mainThreadShare: 0.5 } });
    handle.setState({ mode: 'evil', pinned: '3', capped: 'yes', dropped: {}, self: { msPerFrame: '1', mainThreadShare: 0.5 } });
    const s = api.state();
    expect(s).to.include({ enabled: false, mode: 'off', pinned: null, capped: false, droppedMessages: 0 });
    expect(s.self).to.equal(null);
    handle.setState({ mode: 'inspect', self: { msPerFrame: 1, mainThreadShare: 0.5, extra: 'x' } });
    expect(api.state().self).to.deep.equal({ msPerFrame: 1, mainThreadShare: 0.5 });
    handle.setState({});
    expect(api.state().mode).to.equal('off');
  });

  it('answers an experiment asked while the agent is not there in the protocol\'s words (written out, not imported)', () => {
    const boot = fs.readFileSync(new URL('../../src/inject/boot/index.ts', import.meta.url), 'utf8');
    expect(boot).to.include(`'${EXPERIMENT_OVERLAY_OFF}'`);
  });
});
