/**
 * The boot script's API (src/inject/boot/api.ts) forwards every call, its arguments copied, to the agent, or keeps it
 * until the agent is there; `state()` answers before the agent from what the hook saw. The agent keeps the content
 * script's `state` message (src/inject/agent/content-state.ts) with each field checked.
 */
import { expect } from 'chai';
import { API_KEY, installApi } from '../../src/inject/boot/api';
import type { AgentHandle, ApiRequest, HookState } from '../../src/inject/boot/link';
import { contentState } from '../../src/inject/agent/content-state';
import type { LayoutCostState } from '../../src/protocol';

type Api = { state(): LayoutCostState } & Record<string, (...a: unknown[]) => unknown>;

function setup() {
  const win = {} as unknown as Window & typeof globalThis;
  const kept: ApiRequest[] = [];
  const called: ApiRequest[] = [];
  let agent: AgentHandle | null = null;
  const hook = {
    renderers: new Map([[1, {}]]), roots: new Map([[1, new Set([{ current: null }, { current: null }])]]), tap: null,
    onRenderer: null, chained: 0, adopt: () => {}, counts: () => ({ renderers: 1, roots: 2 }),
  } as unknown as HookState;
  installApi(win, {
    version: 'test', hook, vue: { seen: false, onSeen: null }, notes: ['a note'], agent: () => agent, keep: (c) => kept.push(c),
    internals: () => ({}),
  });
  const api = (win as unknown as Record<string, Api>)[API_KEY];
  const attach = (): void => {
    agent = {
      call: (c) => called.push(c), nodeOf: () => null, ownerOf: () => 7, stats: () => ({}),
      state: () => ({ enabled: true, mode: 'heatmap' } as LayoutCostState),
    };
  };
  return { api, kept, called, attach };
}

describe('boot API: calls forwarded as the page made them', () => {
  it('keeps calls made before the agent, their arguments copied, and answers state() from the hook', () => {
    const { api, kept } = setup();
    const opts = { maxRows: 50 };
    expect(api.startRecording(opts)).to.equal(undefined);
    opts.maxRows = 1;
    expect(api.enable('heatmap')).to.equal(undefined);
    expect(kept.map((c) => [c.call, c.args, c.settle])).to.deep.equal([
      ['startRecording', [{ maxRows: 50 }, undefined], null], ['enable', ['heatmap', undefined], null],
    ]);
    expect(api.state()).to.deep.include({ enabled: false, mode: 'off', agent: false, degraded: ['a note'] });
    expect(api.state().react).to.deep.equal({ renderers: 1, roots: 2 });
  });

  it('sends an argument that is not plain data (an event handler\'s event, a function) as null', () => {
    const { api, kept } = setup();
    api.enable(() => 1);
    api.pin(7, { node: Symbol('x') });
    expect(kept.map((c) => c.args)).to.deep.equal([[null, undefined], [7, null]]);
  });

  it('goes to the agent once it is there; an asked call resolves with the answer\'s result or rejects with its error', async () => {
    const { api, kept, called, attach } = setup();
    attach();
    const snap = api.snapshot() as Promise<unknown>;
    const exp = api.experiment(3, { css: 'contain: layout' }) as Promise<unknown>;
    expect(kept).to.deep.equal([]);
    expect(called.map((c) => [c.call, c.args])).to.deep.equal([['snapshot', [undefined, undefined]], ['experiment', [3, { css: 'contain: layout' }]]]);
    called[0].settle!({ ok: true, result: { components: [] } });
    called[1].settle!({ ok: false, error: 'unknown component' });
    expect(await snap).to.deep.equal({ components: [] });
    let err: unknown = null;
    await exp.catch((e) => { err = e; });
    expect(String(err)).to.include('layout-cost: unknown component');
    expect(api.state()).to.deep.include({ enabled: true, mode: 'heatmap' });
  });
});

describe('agent: the content script\'s state, checked where it is kept', () => {
  it('answers owner(node) 0 before the agent, and the agent\'s answer after', () => {
    const { api, attach } = setup();
    expect(api.owner({})).to.equal(0);
    attach();
    expect(api.owner({})).to.equal(7);
  });

  it('keeps a well-formed state', () => {
    const s = contentState({ mode: 'heatmap', pinned: 7, capped: true, dropped: 3, self: { msPerFrame: 0.2, mainThreadShare: 0.011 }, minified: false });
    expect(s).to.deep.equal({ mode: 'heatmap', pinned: 7, capped: true, dropped: 3, self: { msPerFrame: 0.2, mainThreadShare: 0.011 }, minified: false });
  });

  it('reads a malformed state as off, with each field at its default, and keeps no foreign fields', () => {
    expect(contentState({ mode: 'evil', pinned: '3', capped: 'yes', dropped: {}, self: { msPerFrame: '1', mainThreadShare: 0.5 }, minified: 'no' }))
      .to.deep.equal({ mode: 'off', pinned: null, capped: false, dropped: 0, self: null, minified: null });
    expect(contentState({ mode: 'inspect', self: { msPerFrame: 1, mainThreadShare: 0.5, extra: 'x' } }).self)
      .to.deep.equal({ msPerFrame: 1, mainThreadShare: 0.5 });
    expect(contentState(null).mode).to.equal('off');
  });
});
