/**
 * The agent's readers of source text and error stacks (src/inject/agent/natives.ts), built from built-ins taken
 * before the page ran: what the page replaces or installs later never runs through them.
 */
import { expect } from 'chai';
import { nativeReaders } from '../../src/inject/agent/natives';
import type { BootNatives } from '../../src/inject/boot/link';

function taken(): BootNatives {
  return {
    fnToString: Function.prototype.toString, reflectApply: Reflect.apply, NativeError: Error,
    ownDescriptor: Object.getOwnPropertyDescriptor,
    protoStack: (Object.getOwnPropertyDescriptor(Error.prototype, 'stack')?.get ?? null) as BootNatives['protoStack'],
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
