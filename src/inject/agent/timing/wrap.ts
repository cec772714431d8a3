
/** How a wrapper finds the node whose owner pays for the flush. */
export const enum OwnerKind {
  /** `this` is the element read. */
  Self = 0,
  /** The document as a whole (hit-testing, window scroll metrics): `<page>`. */
  Page = 1,
  /** `this` is a Range: its start container. */
  RangeStart = 2,
  /** `this` is a ShadowRoot: its host. */
  ShadowHost = 3,
  /** `this` is a computed-style declaration: the element it was computed for. */
  Declaration = 4,
  /** `this` is a MouseEvent: its target. */
  EventTarget = 5,
}
/**
 * Exact pass-through wrappers for layout-reading DOM APIs, installed by
 * redefining own properties of prototypes (and of window) and undone by
 * putting the saved descriptors back, so function identity returns to
 * whatever was there before enable (the native function on an ordinary page).
 *
 * Pass-through means: same `this`, same arguments (arity kept for up to three
 * arguments: WebIDL overloads such as `scrollTo()` vs `scrollTo(x, y)` are
 * chosen by argument count, and natives ignore arguments beyond their last),
 * same return value, same exceptions; wrappers are method-shorthand functions,
 * so like natives they have no `prototype` and are not constructors, and
 * they carry the native's `name` and `length`. `Function.prototype.toString`
 * shows our source, not "[native code]" (docs/TIMING.md).
 *
 * Nothing is allocated per call: each wrapper is created once at install and
 * calls the native through a pre-bound `call`, immune to later page patches
 * of `Function.prototype.call`.
 *
 * Free of DOM globals: targets come in as plain objects, so the mechanics
 * are unit-tested in Node.
 */

/** What the wrappers report to; the forced-reflow timer implements it. */
export interface WrapHost {
  /** Off: every wrapper is a bare pass-through (a leaked reference to one costs one check). */
  active: boolean;
  /** > 0 while a timed call or one of the agent's own reads runs: nested calls pass straight through. */
  depth: number;
  now(): number;
  /** A timed call returned or threw after starting at `t0`. Must never throw. */
  done(self: unknown, t0: number, owner: OwnerKind): void;
  /** `getComputedStyle(element)` returned `decl` (untimed: reading a property is what flushes). */
  remember(decl: unknown, element: unknown): void;
  /** Times, as a read of `self`, the style/layout flush a call is about to do anyway. Must never throw. */
  preflush(self: unknown, owner: OwnerKind): void;
}

export type WrapKind =
  /** Accessor: time the getter; keep the setter as it is. */
  | 'get'
  /** Accessor: time the getter and the setter (`scrollTop = …` also forces layout). */
  | 'getset'
  /** Method: timed. */
  | 'method'
  /** Method, untimed: remember which element a returned style declaration belongs to. */
  | 'remember'
  /**
   * Method that flushes and then runs page code synchronously (`focus()` fires focus and blur handlers):
   * the flush is timed just before it (the same work, a few µs earlier), the call itself is not, so the
   * handlers' own time is not taken for a reflow (their reads are timed as usual).
   */
  | 'preflush';

export interface WrapSpec {
  target: object;
  name: string;
  kind: WrapKind;
  owner: OwnerKind;
}

interface Saved {
  target: object;
  name: string;
  original: PropertyDescriptor;
  ours: PropertyDescriptor;
}

type AnyFn = (...args: unknown[]) => unknown;
// Captured at module load: `uncurry(f)(self, a, b)` is `f.call(self, a, b)` without going through the page's `.call`.
const uncurry = Function.prototype.bind.bind(Function.prototype.call) as <F extends AnyFn>(f: F) => (self: unknown, ...args: unknown[]) => unknown;
const defineProperty = Object.defineProperty;
const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;

function mimic(fn: AnyFn, native: AnyFn): void {
  // Own `name`/`length` of functions are configurable; copy the native's so introspection matches.
  defineProperty(fn, 'name', { value: native.name, configurable: true });
  defineProperty(fn, 'length', { value: native.length, configurable: true });
}

function timedGetter(host: WrapHost, name: string, native: AnyFn, owner: OwnerKind): AnyFn {
  const call = uncurry(native);
  const fn = getOwnPropertyDescriptor({
    get [name]() {
      if (!host.active || host.depth !== 0) return call(this);
      host.depth++;
      const t0 = host.now();
      try {
        return call(this);
      } finally {
        host.depth--;
        host.done(this, t0, owner);
      }
    },
  }, name)!.get as AnyFn;
  mimic(fn, native);
  return fn;
}

function timedSetter(host: WrapHost, name: string, native: AnyFn, owner: OwnerKind): AnyFn {
  const call = uncurry(native);
  const fn = getOwnPropertyDescriptor({
    set [name](v: unknown) {
      if (!host.active || host.depth !== 0) {
        call(this, v);
        return;
      }
      host.depth++;
      const t0 = host.now();
      try {
        call(this, v);
      } finally {
        host.depth--;
        host.done(this, t0, owner);
      }
    },
  }, name)!.set as AnyFn;
  mimic(fn, native);
  return fn;
}

/** Calls `call` with exactly `n` of the (up to three) arguments. */
function pass(call: (self: unknown, ...args: unknown[]) => unknown, self: unknown, n: number, a: unknown, b: unknown, c: unknown): unknown {
  return n === 0 ? call(self) : n === 1 ? call(self, a) : n === 2 ? call(self, a, b) : call(self, a, b, c);
}

function timedMethod(host: WrapHost, name: string, native: AnyFn, owner: OwnerKind): AnyFn {
  const call = uncurry(native);
  const fn = {
    [name](this: unknown, a?: unknown, b?: unknown, c?: unknown): unknown {
      const n = arguments.length;
      if (!host.active || host.depth !== 0) return pass(call, this, n, a, b, c);
      host.depth++;
      const t0 = host.now();
      try {
        return pass(call, this, n, a, b, c);
      } finally {
        host.depth--;
        host.done(this, t0, owner);
      }
    },
  }[name] as AnyFn;
  mimic(fn, native);
  return fn;
}

function preflushMethod(host: WrapHost, name: string, native: AnyFn, owner: OwnerKind): AnyFn {
  const call = uncurry(native);
  const fn = {
    [name](this: unknown, a?: unknown, b?: unknown, c?: unknown): unknown {
      if (host.active && host.depth === 0) host.preflush(this, owner);
      return pass(call, this, arguments.length, a, b, c);
    },
  }[name] as AnyFn;
  mimic(fn, native);
  return fn;
}

function rememberMethod(host: WrapHost, name: string, native: AnyFn): AnyFn {
  const call = uncurry(native);
  const fn = {
    [name](this: unknown, a?: unknown, b?: unknown, c?: unknown): unknown {
      const n = arguments.length;
      const out = pass(call, this, n, a, b, c);
      if (host.active) host.remember(out, a);
      return out;
    },
  }[name] as AnyFn;
  mimic(fn, native);
  return fn;
}

/** Installs and removes a set of wrappers; reusable across enable/disable cycles. */
export class WrapperSet {
  private saved: Saved[] = [];

  get installed(): number {
    return this.saved.length;
  }

  /**
   * Wraps every spec whose property exists, is configurable and has the
   * expected shape. Returns the names skipped (for `state().degraded`).
   */
  install(specs: readonly WrapSpec[], host: WrapHost): string[] {
    const skipped: string[] = [];
    for (const spec of specs) {
      const { target, name, kind, owner } = spec;
      const original = getOwnPropertyDescriptor(target, name);
      if (!original) continue; // absent in this browser (e.g. caretPositionFromPoint): nothing to time
      if (!original.configurable) {
        skipped.push(name);
        continue;
      }
      let ours: PropertyDescriptor;
      if (kind === 'get' || kind === 'getset') {
        if (typeof original.get !== 'function') {
          skipped.push(name);
          continue;
        }
        const setter = kind === 'getset' && typeof original.set === 'function'
          ? timedSetter(host, name, original.set as AnyFn, owner) : original.set;
        ours = { get: timedGetter(host, name, original.get as AnyFn, owner), set: setter,
          enumerable: original.enumerable, configurable: true };
      } else {
        if (typeof original.value !== 'function') {
          skipped.push(name);
          continue;
        }
        const native = original.value as AnyFn;
        const value = kind === 'method' ? timedMethod(host, name, native, owner)
          : kind === 'preflush' ? preflushMethod(host, name, native, owner) : rememberMethod(host, name, native);
        ours = { value,
          writable: original.writable, enumerable: original.enumerable, configurable: true };
      }
      defineProperty(target, name, ours);
      this.saved.push({ target, name, original, ours });
    }
    return skipped;
  }

  /**
   * Puts every saved descriptor back. A property the page redefined after us
   * (its own wrapper around ours, or a plain assignment) is left as the page
   * made it: our wrapper underneath is inactive by then and passes through.
   * Returns the names left in place.
   */
  uninstall(): string[] {
    const kept: string[] = [];
    for (let i = this.saved.length - 1; i >= 0; i--) {
      const { target, name, original, ours } = this.saved[i];
      const now = getOwnPropertyDescriptor(target, name);
      if (now && now.get === ours.get && now.set === ours.set && now.value === ours.value) {
        defineProperty(target, name, original);
      } else {
        kept.push(name);
      }
    }
    this.saved = [];
    return kept;
  }
}
