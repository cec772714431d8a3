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
  const posted: unknown[] = [];
  const status: PageStatus = {
    renderers: 1, roots: 2, agent: false, minified: false, degraded: [], timerResolutionMs: 0.1, url: 'http://x/', outside: undefined,
  };
  const handle = installApi(win, {
    version: 'test', post: (type, payload) => posted.push({ type, payload }), status: () => status, nodeOf: () => null,
    fillKeys: () => undefined, internals: () => ({}), notes: [],
  }, new Map());
  const api = (win as unknown as Record<string, { state(): LayoutCostState }>)[API_KEY];
  return { handle, api, posted };
}

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
