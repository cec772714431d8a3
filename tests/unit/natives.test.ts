/**
 * The agent's readers of source text and error stacks (src/inject/agent/natives.ts), built from built-ins taken
 * before the page ran: what the page replaces or installs later never runs through them.
 */
import { expect } from 'chai';
import { nativeReaders } from '../../src/inject/agent/natives';
import { Pristine } from '../../src/inject/agent/pristine';
import type { BootNatives } from '../../src/inject/boot/link';

function taken(): BootNatives {
  return {
    fnToString: Function.prototype.toString, reflectApply: Reflect.apply, NativeError: Error,
    ownDescriptor: Object.getOwnPropertyDescriptor,
    protoStack: (Object.getOwnPropertyDescriptor(Error.prototype, 'stack')?.get ?? null) as BootNatives['protoStack'],
    kept: [
      Array.prototype, 'push', Array.prototype.push, 'Array.prototype',
      Map.prototype, 'set', Map.prototype.set, 'Map.prototype',
      Map.prototype, 'get', Map.prototype.get, 'Map.prototype',
    ],
    define: Object.defineProperty,
  };
}

describe('agent natives (source text and stacks)', () => {
  it('reads a function\'s source with the built-in taken at boot, not the page\'s replacement', () => {
    const r = nativeReaders(taken());
    function Card(): number { return 42; }
    const original = Function.prototype.toString;
    let ran = 0;
    Function.prototype.toString = function () { ran++; return 'page'; };
    try {
      expect(r.sourceOf(Card)).to.match(/return 42/);
      expect(ran).to.equal(0);
    } finally {
      Function.prototype.toString = original;
    }
    expect(r.sourceOf('not a function')).to.equal(null);
  });

  it('reads an error\'s stack, and refuses where reading it would run page code', () => {
    const r = nativeReaders(taken());
    // The test runner formats stacks itself (source maps): the reader would rightly refuse while it does.
    const runner = Object.getOwnPropertyDescriptor(Error, 'prepareStackTrace');
    delete (Error as { prepareStackTrace?: unknown }).prepareStackTrace;
    try {
      stacks(r);
    } finally {
      if (runner) Object.defineProperty(Error, 'prepareStackTrace', runner);
    }
  });
});

function stacks(r: ReturnType<typeof nativeReaders>): void {
  const e = new Error('here');
  expect(r.stackOf(e)).to.match(/here/);
  expect(r.stackOf(null)).to.equal(null);
  expect(r.stackOf('text')).to.equal(null);
  // A stack getter the page put on the object: never called.
  let ran = 0;
  const fake = {};
  Object.defineProperty(fake, 'stack', { get() { ran++; return 'page stack'; } });
  expect(r.stackOf(fake)).to.equal(null);
  expect(ran).to.equal(0);
  // Error.prepareStackTrace (V8 would call it to format the stack): refused.
  const E = Error as unknown as { prepareStackTrace?: unknown };
  const had = Object.getOwnPropertyDescriptor(Error, 'prepareStackTrace');
  E.prepareStackTrace = () => { ran++; return 'formatted by the page'; };
  try {
    expect(r.stackOf(new Error('later'))).to.equal(null);
  } finally {
    if (had) Object.defineProperty(Error, 'prepareStackTrace', had);
    else delete E.prepareStackTrace;
  }
  expect(ran).to.equal(0);
  // Capped.
  const long = new Error('x'.repeat(10_000));
  expect(r.stackOf(long)!.length).to.equal(4000);
}

describe('agent on the browser\'s own built-ins (pristine.ts)', () => {
  it('puts the kept built-ins back around its entries, and the page\'s after; nothing when none was replaced', () => {
    const push = Array.prototype.push;
    const set = Map.prototype.set;
    let t = 0;
    const p = new Pristine(taken(), () => (t += 2000));
    p.run(() => undefined);
    expect(p.replaced).to.deep.equal([]);
    // The page wraps push and set (its wrappers drop every call).
    const pagePush = function (this: unknown[]): number { return this.length; };
    const pageSet = function (this: Map<unknown, unknown>): Map<unknown, unknown> { return this; };
    Array.prototype.push = pagePush;
    Map.prototype.set = pageSet as typeof Map.prototype.set;
    try {
      const a: number[] = [];
      const m = new Map<string, number>();
      p.run(() => {
        // Nested entries count once; ours are in place throughout.
        p.run(() => a.push(1));
        a.push(2);
        m.set('k', 3);
        expect(Array.prototype.push).to.equal(push);
      });
      expect(a).to.deep.equal([1, 2]);
      expect(m.get('k')).to.equal(3);
      expect(p.replaced).to.deep.equal(['Array.prototype.push', 'Map.prototype.set']);
      // The page's wrappers are back once we are out, even when our code threw.
      expect(Array.prototype.push).to.equal(pagePush);
      expect(() => p.run(() => { throw new Error('ours'); })).to.throw('ours');
      expect(Map.prototype.set).to.equal(pageSet);
      // Page code we call into that wraps again while ours run: its new wrapper stays.
      const again = function (this: unknown[]): number { return -1; };
      p.run(() => { Array.prototype.push = again; });
      expect(Array.prototype.push).to.equal(again);
    } finally {
      Array.prototype.push = push;
      Map.prototype.set = set;
    }
  });

  it('a replacement frozen in place is said, not swapped', () => {
    const holder: Record<string, unknown> = { f() { return 1; } };
    const n = { ...taken(), kept: [holder, 'f', holder.f, 'holder'] };
    const page = () => 2;
    Object.defineProperty(holder, 'f', { value: page, writable: false, configurable: false });
    const p = new Pristine(n, () => 5000);
    p.run(() => expect(holder.f).to.equal(page));
    expect(p.stuck).to.deep.equal(['holder.f']);
    expect(p.replaced).to.deep.equal([]);
  });
});
