/**
 * The agent's readers of source text and error stacks, built from the built-ins the boot script took before the page's
 * first script (boot/link.ts `BootNatives`): nothing the page replaced later runs through them. They live here, loaded
 * on enable, rather than in the boot script compiled on every page load.
 */
import type { BootNatives } from '../boot/link';

export interface NativeReaders {
  /** A function's source text; null when it has none to give. */
  sourceOf(fn: unknown): string | null;
  /**
   * An Error's stack text (React 19's `_debugStack`), or null where reading it could run page code: a page's
   * `Error.prepareStackTrace` (V8 calls it to format the stack) or a getter other than the engine's own.
   */
  stackOf(e: unknown): string | null;
}

export function nativeReaders(n: BootNatives): NativeReaders {
  const { fnToString, reflectApply, NativeError, ownDescriptor, protoStack } = n;
  // V8's errors have an own `stack` (a value, or in newer V8 an accessor): the engine's own getter is the one an error
  // made with the captured constructor gets (nothing of the page runs in `new`), taken on first use.
  let ownStack: unknown;
  return {
    sourceOf(fn) {
      try {
        return typeof fn === 'function' ? (reflectApply(fnToString, fn, []) as string) : null;
      } catch {
        return null;
      }
    },
    stackOf(e) {
      try {
        if (typeof e !== 'object' || e === null) return null;
        const p = ownDescriptor(NativeError, 'prepareStackTrace');
        if (p && (p.get || p.set || p.value !== undefined)) return null;
        // An own value, or only the engine's own getters (never one the page put there).
        const d = ownDescriptor(e, 'stack');
        if (d && d.get !== undefined && ownStack === undefined) ownStack = ownDescriptor(new NativeError(), 'stack')?.get ?? null;
        const s: unknown = d ? (d.get === undefined ? d.value : d.get === ownStack ? reflectApply(d.get, e, []) : null)
          : protoStack ? reflectApply(protoStack, e, []) : null;
        return typeof s === 'string' ? s.slice(0, 4000) : null;
      } catch {
        return null;
      }
    },
  };
}
