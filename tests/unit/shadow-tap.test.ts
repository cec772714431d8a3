/**
 * The attachShadow tap (src/inject/boot/shadow.ts) keeps a weak list of shadow
 * hosts; a page that creates and drops hosts must not grow it (issue 11). It
 * touches nothing of `Element` until it is installed (issue 10: the first
 * touch of `Element` costs a page load ≈ 0.25 ms).
 */
import { expect } from 'chai';
import { shadowTap } from '../../src/inject/boot/shadow';

describe('attachShadow tap', () => {
  const RealWeakRef = globalThis.WeakRef;
  afterEach(() => {
    globalThis.WeakRef = RealWeakRef;
  });

  it('prunes collected hosts as it goes: 200 000 dropped hosts leave a short list; live ones are kept', () => {
    // A WeakRef whose target "is collected" when the test marks it dead (GC cannot be forced here).
    class TestRef<T extends { dead?: boolean }> {
      constructor(private readonly t: T) {}
      deref(): T | undefined {
        return this.t.dead ? undefined : this.t;
      }
    }
    globalThis.WeakRef = TestRef as unknown as WeakRefConstructor;
    class FakeElement {
      dead = false;
      attachShadow(this: FakeElement, _init: ShadowRootInit): object {
        return { host: this };
      }
    }
    const win = { Element: FakeElement } as unknown as Window & typeof globalThis;
    const state = shadowTap(win, () => undefined);
    state.tap();
    const live: FakeElement[] = [];
    for (let i = 0; i < 200_000; i++) {
      const el = new FakeElement();
      el.attachShadow({ mode: 'closed' });
      if (i % 1000 === 0) live.push(el);
      else el.dead = true;
    }
    expect(state.hosts.length).to.be.below(4096);
    const kept = new Set(state.hosts.map((r: { deref(): unknown }) => r.deref()).filter(Boolean));
    for (const el of live) expect(kept.has(el as never)).to.equal(true);
  });

  it('reads nothing of Element until tapped, then wraps attachShadow once and reports each root', () => {
    let reads = 0;
    const calls: string[] = [];
    class FakeElement {
      attachShadow(init: ShadowRootInit): object {
        calls.push(init.mode);
        return { host: this };
      }
    }
    const win = {
      get Element() {
        reads++;
        return FakeElement;
      },
    } as unknown as Window & typeof globalThis;
    const state = shadowTap(win, () => undefined);
    expect(reads).to.equal(0);
    expect(state.tapped).to.equal(false);
    const before = new FakeElement();
    before.attachShadow({ mode: 'closed' });
    expect(state.hosts.length).to.equal(0);
    const seen: unknown[] = [];
    state.onAttach = (host) => seen.push(host);
    state.tap();
    state.tap();
    expect(reads).to.equal(1);
    const after = new FakeElement();
    const root = after.attachShadow({ mode: 'closed' });
    expect(calls).to.deep.equal(['closed', 'closed']);
    expect(state.rootOf.get(after as never)).to.equal(root);
    expect(state.rootOf.get(before as never)).to.equal(undefined);
    expect(seen).to.deep.equal([after]);
  });
});
