/**
 * The wrapper mechanics (src/inject/agent/timing/wrap.ts) on plain objects: exact
 * pass-through (this, arguments and their count, return, exceptions, name,
 * length, not constructible), the nesting guard, and identity restored on
 * uninstall.
 */
import { expect } from 'chai';
import { OwnerKind, WrapperSet, type WrapHost, type WrapSpec } from '../../src/inject/agent/timing/wrap';

class FakeHost implements WrapHost {
  active = true;
  depth = 0;
  clock = 0;
  done_: { self: unknown; ms: number; owner: OwnerKind }[] = [];
  remembered: [unknown, unknown][] = [];
  preflushed: unknown[] = [];
  now(): number {
    return this.clock;
  }
  done(self: unknown, t0: number, owner: OwnerKind): void {
    this.done_.push({ self, ms: this.clock - t0, owner });
  }
  remember(decl: unknown, element: unknown): void {
    this.remembered.push([decl, element]);
  }
  preflush(self: unknown): void {
    this.preflushed.push(self);
  }
}

function makeProto() {
  const calls: { self: unknown; n: number; args: unknown[] }[] = [];
  const proto = {};
  let scroll = 0;
  Object.defineProperties(proto, {
    height: { get() { calls.push({ self: this, n: 0, args: [] }); return 42; }, enumerable: true, configurable: true },
    scrollTop: {
      get() { return scroll; },
      set(v: number) { scroll = v; calls.push({ self: this, n: 1, args: [v] }); },
      enumerable: true, configurable: true,
    },
    measure: {
      value: function measure(this: unknown, ...args: unknown[]) {
        calls.push({ self: this, n: args.length, args });
        if (args[0] === 'throw') throw new TypeError('Illegal invocation');
        return { rect: true };
      },
      writable: true, enumerable: true, configurable: true,
    },
    compute: { value: function compute(el: unknown) { return { decl: el }; }, writable: true, enumerable: true, configurable: true },
    fixed: { value: () => 1, writable: false, enumerable: true, configurable: false },
  });
  return { proto, calls };
}

const spec = (target: object, name: string, kind: WrapSpec['kind']): WrapSpec => ({ target, name, kind, owner: OwnerKind.Self });

describe('timing: wrappers', () => {
  it('are exact pass-throughs: this, argument count, return value', () => {
    const { proto, calls } = makeProto();
    const host = new FakeHost();
    const set = new WrapperSet();
    set.install([spec(proto, 'height', 'get'), spec(proto, 'measure', 'method')], host);
    const obj = Object.create(proto) as { height: number; measure: (...a: unknown[]) => unknown };
    expect(obj.height).to.equal(42);
    expect(calls[0].self).to.equal(obj);
    expect(obj.measure()).to.deep.equal({ rect: true });
    obj.measure(undefined);
    obj.measure(1, 2);
    obj.measure(1, 2, 3);
    // Arity is kept for up to three arguments (WebIDL overloads are chosen by count).
    expect(calls.slice(1).map((c) => c.n)).to.deep.equal([0, 1, 2, 3]);
    expect(calls[4].args).to.deep.equal([1, 2, 3]);
    expect(calls.slice(1).every((c) => c.self === obj)).to.equal(true);
    expect(host.done_.map((d) => d.self)).to.deep.equal([obj, obj, obj, obj, obj]);
  });

  it('let exceptions through unchanged, and still leave the guard clear', () => {
    const { proto } = makeProto();
    const host = new FakeHost();
    new WrapperSet().install([spec(proto, 'measure', 'method')], host);
    const obj = Object.create(proto) as { measure: (a: unknown) => unknown };
    expect(() => obj.measure('throw')).to.throw(TypeError, 'Illegal invocation');
    expect(host.depth).to.equal(0);
    expect(host.done_).to.have.length(1);
  });

  it('look like the native: name, length, no prototype, not a constructor', () => {
    const { proto } = makeProto();
    const nativeGet = Object.getOwnPropertyDescriptor(proto, 'height')!.get!;
    const nativeMeasure = (proto as { measure: () => void }).measure;
    new WrapperSet().install([spec(proto, 'height', 'get'), spec(proto, 'measure', 'method')], new FakeHost());
    const get = Object.getOwnPropertyDescriptor(proto, 'height')!.get!;
    const measure = (proto as { measure: () => void }).measure;
    expect(get).to.not.equal(nativeGet);
    expect(get.name).to.equal(nativeGet.name);
    expect(measure.name).to.equal('measure');
    expect(measure.length).to.equal(nativeMeasure.length);
    expect(Object.prototype.hasOwnProperty.call(measure, 'prototype')).to.equal(false);
    expect(() => new (measure as unknown as new () => unknown)()).to.throw(TypeError);
    const d = Object.getOwnPropertyDescriptor(proto, 'measure')!;
    expect([d.writable, d.enumerable, d.configurable]).to.deep.equal([true, true, true]);
  });

  it('time the getter and the setter of a getset accessor', () => {
    const { proto, calls } = makeProto();
    const host = new FakeHost();
    new WrapperSet().install([spec(proto, 'scrollTop', 'getset')], host);
    const obj = Object.create(proto) as { scrollTop: number };
    obj.scrollTop = 7;
    expect(obj.scrollTop).to.equal(7);
    expect(calls).to.deep.equal([{ self: obj, n: 1, args: [7] }]);
    expect(host.done_).to.have.length(2);
  });

  it('count nested calls once and pass through while paused or inactive', () => {
    const { proto } = makeProto();
    const host = new FakeHost();
    new WrapperSet().install([spec(proto, 'height', 'get')], host);
    const obj = Object.create(proto) as { height: number };
    host.depth = 1; // inside another timed call, or the agent's own read
    expect(obj.height).to.equal(42);
    host.depth = 0;
    host.active = false;
    expect(obj.height).to.equal(42);
    expect(host.done_).to.have.length(0);
  });

  it('remember which element a computed declaration belongs to, untimed', () => {
    const { proto } = makeProto();
    const host = new FakeHost();
    new WrapperSet().install([spec(proto, 'compute', 'remember')], host);
    const el = {};
    const decl = (proto as { compute: (e: unknown) => unknown }).compute(el);
    expect(host.remembered).to.deep.equal([[decl, el]]);
    expect(host.done_).to.have.length(0);
  });

  it('time a focus-like call\'s flush before it, and the reads its handlers make inside it, separately', () => {
    const { proto } = makeProto();
    const host = new FakeHost();
    let handlerSawHeight = 0;
    Object.defineProperty(proto, 'focus', {
      value: function focus(this: { height: number }, opts?: unknown) {
        handlerSawHeight = this.height; // a focus handler reading layout, synchronously inside focus()
        return opts;
      },
      writable: true, enumerable: true, configurable: true,
    });
    new WrapperSet().install([spec(proto, 'height', 'get'), spec(proto, 'focus', 'preflush')], host);
    const obj = Object.create(proto) as { focus: (o?: unknown) => unknown };
    expect(obj.focus('x')).to.equal('x');
    expect(handlerSawHeight).to.equal(42);
    expect(host.preflushed).to.deep.equal([obj]);
    expect(host.done_.map((d) => d.self)).to.deep.equal([obj]); // the handler's read, timed on its own
  });

  it('restore every descriptor on uninstall: function identity is back', () => {
    const { proto } = makeProto();
    const before = Object.getOwnPropertyNames(proto).map((n) => Object.getOwnPropertyDescriptor(proto, n));
    const set = new WrapperSet();
    const skipped = set.install([spec(proto, 'height', 'get'), spec(proto, 'scrollTop', 'getset'), spec(proto, 'measure', 'method'),
      spec(proto, 'compute', 'remember'), spec(proto, 'fixed', 'method'), spec(proto, 'absent', 'method')], new FakeHost());
    expect(skipped).to.deep.equal(['fixed']); // non-configurable: left alone; absent: nothing to time
    expect(set.installed).to.equal(4);
    expect(set.uninstall()).to.deep.equal([]);
    const after = Object.getOwnPropertyNames(proto).map((n) => Object.getOwnPropertyDescriptor(proto, n));
    expect(after).to.deep.equal(before);
    expect(set.installed).to.equal(0);
  });

  it('leave a property the page redefined after us in place (our wrapper underneath is inactive by then)', () => {
    const { proto } = makeProto();
    const host = new FakeHost();
    const set = new WrapperSet();
    set.install([spec(proto, 'measure', 'method')], host);
    const ours = (proto as { measure: () => unknown }).measure;
    const pagePatch = function measure(this: unknown) { return ours.call(this); };
    (proto as { measure: () => unknown }).measure = pagePatch;
    expect(set.uninstall()).to.deep.equal(['measure']);
    expect((proto as { measure: () => unknown }).measure).to.equal(pagePatch);
    host.active = false;
    expect((Object.create(proto) as { measure: () => unknown }).measure()).to.deep.equal({ rect: true });
    expect(host.done_).to.have.length(0);
  });
});
