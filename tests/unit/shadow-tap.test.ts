/**
 * The attachShadow tap (src/inject/shadow.ts) keeps a weak list of shadow
 * hosts; a page that creates and drops hosts must not grow it (issue 11).
 */
import { expect } from 'chai';
import { installShadowTap } from '../../src/inject/boot/shadow';

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
    const state = installShadowTap(win, () => undefined);
    const live: FakeElement[] = [];
    for (let i = 0; i < 200_000; i++) {
      const el = new FakeElement();
      el.attachShadow({ mode: 'closed' });
      if (i % 1000 === 0) live.push(el);
      else el.dead = true;
    }
    expect(state.hosts.length).to.be.below(4096);
    const kept = new Set(state.hosts.map((r) => r.deref()).filter(Boolean));
    for (const el of live) expect(kept.has(el as never)).to.equal(true);
  });
});
