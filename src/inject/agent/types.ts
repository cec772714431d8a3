/**
 * Component types and their source text (issue 15), off the commit path: a
 * timer pass (once a second while the overlay is on) looks at components it
 * has not typed yet, takes each one's own function (adapter.typeOf: memo and
 * forwardRef unwrapped; the component is never called), numbers the function
 * (a WeakMap, so types live as long as the page keeps them), and reads a new
 * function's text with the boot's captured Function.prototype.toString (the
 * page's replacement never runs). The content script has the worker find that
 * text in the page's scripts and map it through their source maps.
 *
 * It also measures whether names look minified from the names it sees
 * (`looksMinified`), rather than guessing from React's build: a production
 * React with an unminified app (or displayName everywhere) has real names.
 */
import { namesLookMinified } from '../../protocol/names';
import { MAX_TYPE_TEXT, type DebugHint, type TypeText } from '../../protocol/sources';

/** Components typed per pass at most, and the pass's time budget (checked every 64 components looked at). */
const PER_PASS = 5000;
const PASS_BUDGET_MS = 6;
const MAX_TYPES = 20_000;

export interface TypeSource {
  /**
   * A live component's handle by id. Ids only grow (they are never reused), so the ids not typed yet are the ones
   * above the last typed (a watermark instead of a set of typed ids: no state per component, docs/PERFORMANCE.md,
   * memory), and a pass looks at the ids mounted since the last one, live or not.
   */
  entry(id: number): { handle: object } | undefined;
  /** The lowest live id (where a pass after `reset` starts; any value above `mounts` when none is live). */
  lowestId(): number;
  /** How many components have mounted since the agent started (only ever grows): no new mount, nothing new to type. */
  readonly mounts: number;
  typeOf(handle: object): unknown;
  sourceOf(fn: unknown): string | null;
  /** React's debug information for development builds (adapter.debugOf), read once per new type. */
  debugOf(handle: object): DebugHint | null;
  nameOf(id: number): string;
  /** Live components whose code a hot update replaced since the last call (typed again, whatever their id). */
  takeRetyped?(): number[];
}

export class TypeSourcer {
  private ids = new WeakMap<object, number>();
  /**
   * Type ids only grow, across resets too: a `types` message still in flight when the overlay goes off names ids the
   * next generation never reuses. The cap counts the types numbered since the last reset (`typed`), not the ids.
   */
  private nextType = 1;
  private typed = 0;
  /** Every component with an id up to this one has been typed (or had unmounted before its pass). */
  private typedUpTo = 0;
  private readonly names = new Set<string>();
  private minified = false;

  constructor(private readonly src: TypeSource) {}

  /** Components were left for the next pass (the budget ran out): call again soon. */
  more = false;
  /** `src.mounts` when the last pass looked at every component; -1: never, or reset since. */
  private seenMounts = -1;

  /** One pass: new members and new types, or null when nothing changed. */
  pass(now: () => number = () => 0): { types: TypeText[]; members: [number, number][]; minified: boolean } | null {
    // Once every component has been looked at, a pass without a mount since has nothing to do: it does not walk the
    // components (4 900 of them once a second cost StressGrid ≈ 0.15 % of its main thread).
    const mounts = this.src.mounts;
    const again = this.src.takeRetyped?.() ?? [];
    if (!this.more && mounts === this.seenMounts && again.length === 0) return null;
    const types: TypeText[] = [];
    const members: [number, number][] = [];
    let namesChanged = false;
    // Hot-updated components first: a new function (a new type: its text is looked up afresh, in the newest script
    // holding it) and its name again. Those above the watermark are typed below as usual.
    for (const id of again) {
      if (id > this.typedUpTo) continue;
      const e = this.src.entry(id);
      if (e === undefined) continue;
      const t = this.typeId(e.handle, types, true);
      if (t !== 0) members.push([id, t]);
      namesChanged = this.noteName(id) || namesChanged;
    }
    const end = now() + PASS_BUDGET_MS;
    this.more = false;
    if (this.typedUpTo === 0) this.typedUpTo = Math.max(0, Math.min(mounts, this.src.lowestId() - 1));
    for (let id = this.typedUpTo + 1, n = 0; id <= mounts; id++) {
      if ((++n & 63) === 0 && now() > end) {
        this.more = true;
        break;
      }
      const e = this.src.entry(id);
      if (e === undefined) {
        this.typedUpTo = id;
        continue;
      }
      if (members.length >= PER_PASS) {
        this.more = true;
        break;
      }
      this.typedUpTo = id;
      namesChanged = this.noteName(id) || namesChanged;
      const t = this.typeId(e.handle, types);
      if (t !== 0) members.push([id, t]);
    }
    if (!this.more) this.seenMounts = mounts;
    if (namesChanged) this.minified = namesLookMinified(this.names);
    if (types.length === 0 && members.length === 0 && !namesChanged) return null;
    return { types, members, minified: this.minified };
  }

  /** True when the component's name is new to the minified-names judgement. */
  private noteName(id: number): boolean {
    const name = this.src.nameOf(id);
    if (this.names.has(name) || this.names.size >= MAX_TYPES) return false;
    this.names.add(name);
    return true;
  }

  /** The type id of the handle's function, numbering a new one (its text joins `types`); 0: no function, or capped. */
  private typeId(handle: object, types: TypeText[], hot = false): number {
    const fn = this.src.typeOf(handle);
    if (typeof fn !== 'function') return 0;
    let t = this.ids.get(fn);
    if (t === undefined) {
      if (this.typed >= MAX_TYPES) return 0;
      this.typed++;
      t = this.nextType++;
      this.ids.set(fn, t);
      const text = this.src.sourceOf(fn);
      // Native and bound functions have no text of their own to find.
      if (text !== null && !/\{\s*\[native code\]\s*\}$/.test(text)) {
        types.push({ typeId: t, text: text.slice(0, MAX_TYPE_TEXT), length: text.length, hint: this.src.debugOf(handle), hot });
      }
    }
    return t;
  }

  get namesMinified(): boolean {
    return this.minified;
  }

  /** The overlay went off (the content script dropped what it knew): start over, sending every type again. */
  reset(): void {
    this.seenMounts = -1;
    this.typedUpTo = 0;
    this.ids = new WeakMap();
    this.typed = 0;
    this.names.clear();
    this.minified = false;
  }
}
