/**
 * Component types and where they are defined (issue 15; docs/SOURCES.md), in the content script: the agent sends
 * new types' function text and which component is of which type (`types`); this asks the worker to find them in the
 * page's scripts (`locate`, a batch at a time, never on the commit path) and keeps the answers (`located`) for the
 * table, the pinned view and `snapshot()`: the original name when a source map gave one, the file and line.
 */
import {
  MAX_INLINE_SCRIPT, MAX_LOCATE_SCRIPTS, MAX_LOCATE_TYPES, type DebugHint, type LocatedType, type LocateRequest, type RowSource, type TypeText,
} from '../../protocol';
import { kindOfType, type ComponentKind } from '../../protocol/component-kind';
import { nameLooksMinified, namesLookMinified } from '../../protocol/names';

/** Kinds by number, as `kinds` keeps them (0: own, the default for a type not placed yet). */
const KINDS: readonly ComponentKind[] = ['own', 'library', 'framework'];

const MAX_TYPES = 20_000;

/**
 * How long a new type is "being placed" (issue 44): its kind is not known until the worker answers (usually well under
 * a second), and a meter drawn for it as the app's own would appear and go once it is placed as a library's. Hidden in
 * the own-only views meanwhile, and shown as the app's own after this long without an answer (a component we cannot
 * place is shown, never hidden).
 */
export const PLACING_MS = 3000;

export interface SourceSummary {
  /** Types seen, located (found in a script), mapped (through a source map), waiting for an answer. */
  types: number;
  located: number;
  mapped: number;
  pending: number;
}

/** The page's scripts, in document order, then other script resources it loaded (chunks, modules), then inline ones. */
export function pageScripts(doc: Document, perf: Performance, href: string): LocateRequest['scripts'] {
  const out: LocateRequest['scripts'] = [];
  const seen = new Set<string>();
  const add = (url: string, inline: string | null): void => {
    if (out.length >= MAX_LOCATE_SCRIPTS || seen.has(url)) return;
    seen.add(url);
    out.push({ url, inline });
  };
  const inline: string[] = [];
  const scripts = doc.scripts;
  for (let i = 0; i < scripts.length; i++) {
    const s = scripts[i];
    if (s.src) add(s.src, null);
    else if (s.text.length > 0 && s.text.length <= MAX_INLINE_SCRIPT) inline.push(s.text);
  }
  try {
    for (const e of perf.getEntriesByType('resource') as PerformanceResourceTiming[]) {
      if (e.initiatorType === 'script' || /\.m?js(?:[?#]|$)/.test(e.name)) add(e.name, null);
    }
  } catch {
    // No resource timing: the script elements will do.
  }
  inline.forEach((text, i) => add(`${href.split('#')[0]}#inline-${i + 1}`, text));
  return out;
}

/**
 * Types by id. Which component is of which type is the component's own `typeId` (store.ts): a table from component id
 * to type here cost ≈ 14 B per component (docs/PERFORMANCE.md, memory).
 */
export class SourceBook {
  /** `now` (ms) and `later` (a timer) are the browser's; the unit tests give their own. */
  constructor(
    private readonly now: () => number = () => Date.now(),
    private readonly later: (fn: () => void, ms: number) => unknown = (fn, ms) => setTimeout(fn, ms),
  ) {}

  /**
   * The agent's type ids (they only grow, across overlay toggles too) → this script's own, 1 to MAX_TYPES from each
   * reset: small enough to share a component's one integer with its depth (store.ts `shape`). Every other table here and
   * the worker's requests use these.
   */
  private readonly local = new Map<number, number>();
  private readonly texts = new Map<number, { text: string; hint: DebugHint | null; hot: boolean }>();
  private readonly located = new Map<number, LocatedType>();
  private readonly asked = new Set<number>();
  /** Bumped whenever a type is located or all are forgotten: rows' names and sources may have changed (panel-feed.ts). */
  version = 0;

  /** This script's number for the agent's type `agentId` (given on first sight; 0 when MAX_TYPES are numbered). */
  localType(agentId: number): number {
    let t = this.local.get(agentId);
    if (t === undefined) {
      if (this.local.size >= MAX_TYPES || !Number.isInteger(agentId)) return 0;
      t = this.local.size + 1;
      this.local.set(agentId, t);
      // Its kind is not known until it is placed (its text may come a batch later): from first sight.
      this.startPlacing(t);
    }
    return t;
  }

  /** The agent's new `types` (their members go to the store): returns true when there are types to look up. */
  onTypes(types: TypeText[]): boolean {
    for (const t of types) {
      const id = this.localType(t.typeId);
      if (id === 0) continue;
      // A hot update's new type for a component already shown (Fast Refresh): it stays shown while it is placed again.
      if (t.hot === true && id <= MAX_TYPES) this.placingBits[id] = 0;
      this.texts.set(id, { text: t.text, hint: t.hint, hot: t.hot === true });
    }
    return this.texts.size > this.asked.size;
  }

  /** Local types being placed (1) — not answered yet, and first seen under PLACING_MS ago. */
  private readonly placingBits = new Uint8Array(MAX_TYPES + 1);
  /** Each placing type's deadline (ms, `now()`'s clock), in the order they began: deadlines only grow. */
  private readonly placingQueue: [number, number][] = [];
  private placingHead = 0;
  private placingTimer = false;

  private startPlacing(id: number): void {
    this.placingBits[id] = 1;
    this.placingQueue.push([id, this.now() + PLACING_MS]);
    this.armPlacing();
  }

  private armPlacing(): void {
    if (this.placingTimer || this.placingHead >= this.placingQueue.length) return;
    this.placingTimer = true;
    const wait = Math.max(0, this.placingQueue[this.placingHead][1] - this.now());
    this.later(() => {
      this.placingTimer = false;
      this.expirePlacing();
      this.armPlacing();
    }, wait + 1);
  }

  /** Types past their deadline unanswered are the app's own from now on: a new version redraws what shows them. */
  private expirePlacing(): void {
    const now = this.now();
    let changed = false;
    while (this.placingHead < this.placingQueue.length && this.placingQueue[this.placingHead][1] <= now) {
      const [id] = this.placingQueue[this.placingHead++];
      if (this.placingBits[id] === 1) {
        this.placingBits[id] = 0;
        changed = true;
      }
    }
    if (this.placingHead === this.placingQueue.length) {
      this.placingQueue.length = 0;
      this.placingHead = 0;
    }
    if (changed) this.version++;
  }

  /**
   * Components not typed yet (type 0: the agent names their types in a pass each second) count as being placed while
   * components keep mounting, and PLACING_MS after the last mount; a flag the timer turns off, not a clock read per
   * component. Type 0 also means "over MAX_TYPES": those show once mounting pauses.
   */
  private untypedHidden = false;
  private untypedUntil = 0;
  private untypedTimer = false;
  /** Bumped when untyped components show again: the overlay redraws (drawVersion); the panel's rows do not change. */
  private untypedFlips = 0;

  /** What the overlay's plan keys on: the sources' version and the untyped window's ends. */
  get drawVersion(): number {
    return this.version + this.untypedFlips;
  }

  /** Components mounted (content/agent/index.ts, after a records batch that mounted some): they are typed later. */
  noteMounts(): void {
    this.untypedUntil = this.now() + PLACING_MS;
    // No new version: the mounts themselves redraw the overlay, and a version sends the panel a whole table (a page
    // that mounts all the time would send nothing but whole tables).
    this.untypedHidden = true;
    this.armUntyped();
  }

  private armUntyped(): void {
    if (this.untypedTimer) return;
    this.untypedTimer = true;
    this.later(() => {
      this.untypedTimer = false;
      if (!this.untypedHidden) return;
      if (this.now() >= this.untypedUntil) {
        this.untypedHidden = false;
        this.untypedFlips++;
      } else {
        this.armUntyped();
      }
    }, Math.max(0, this.untypedUntil - this.now()) + 1);
  }

  /** True while a type's kind is not known yet (issue 44): the own-only views leave it out until it is placed. */
  placing(typeId: number): boolean {
    if (typeId === 0) return this.untypedHidden;
    return typeId > 0 && typeId <= MAX_TYPES && this.placingBits[typeId] === 1;
  }

  /** The next batch to look up (types not asked yet), or null. */
  nextBatch(scripts: () => LocateRequest['scripts']): LocateRequest | null {
    const types: LocateRequest['types'] = [];
    for (const [typeId, t] of this.texts) {
      if (this.asked.has(typeId)) continue;
      this.asked.add(typeId);
      types.push({ typeId, text: t.text, hint: t.hint, hot: t.hot });
      if (types.length >= MAX_LOCATE_TYPES) break;
    }
    return types.length === 0 ? null : { types, scripts: scripts() };
  }

  /** A request went unanswered (the worker restarted): its types may be asked again. */
  unask(typeIds: number[]): void {
    for (const t of typeIds) if (!this.located.has(t)) this.asked.delete(t);
  }

  /** Each local type's kind (KINDS index), read by every overlay choice: a byte per type rather than a look-up. */
  private kinds = new Uint8Array(MAX_TYPES + 1);

  onLocated(types: LocatedType[]): void {
    for (const t of types) {
      if (!this.texts.has(t.typeId)) continue;
      this.located.set(t.typeId, t);
      if (t.typeId > 0 && t.typeId <= MAX_TYPES) this.placingBits[t.typeId] = 0;
      const k = t.state === 'not-found' ? 'own' : kindOfType(t.fileUrl ?? t.file, t.url);
      if (t.typeId > 0 && t.typeId <= MAX_TYPES) this.kinds[t.typeId] = KINDS.indexOf(k);
    }
    this.version++;
  }

  /** The page's name of each local type (its first component's), for the judgement below. */
  private readonly pageNames = new Map<number, string>();

  /** A component of local type `typeId` is named `name` in the page. */
  noteName(typeId: number, name: string): void {
    if (typeId > 0 && !this.pageNames.has(typeId)) this.pageNames.set(typeId, name);
  }

  /**
   * Whether the app's own code looks minified (issue 44): the page's names of the types placed as the app's own; null
   * until one is placed (the agent's judgement over every name stands until then). A framework's dev overlay with
   * minified names (Next.js's) no longer makes a readable app "minified".
   */
  ownNamesMinified(): boolean | null {
    if (this.ownMinified.version === this.version && this.ownMinified.names === this.pageNames.size) return this.ownMinified.value;
    const names: string[] = [];
    for (const [typeId, name] of this.pageNames) {
      const l = this.located.get(typeId);
      if (l && l.state !== 'not-found' && this.kinds[typeId] === 0) names.push(name);
    }
    const value = names.length === 0 ? null : namesLookMinified(names);
    this.ownMinified = { version: this.version, names: this.pageNames.size, value };
    return value;
  }

  /** The last judgement, with the sources version and the number of named types it was made from. */
  private ownMinified: { version: number; names: number; value: boolean | null } = { version: -1, names: -1, value: null };

  /** Whose code a component of this type is (own until it is placed). */
  kindOf(typeId: number): ComponentKind {
    return KINDS[typeId > 0 && typeId <= MAX_TYPES ? this.kinds[typeId] : 0];
  }

  /** True when components of this type are a library's or the framework's, or not placed yet (`placing`). */
  foreign(typeId: number): boolean {
    if (typeId === 0) return this.untypedHidden;
    return typeId > 0 && typeId <= MAX_TYPES && (this.kinds[typeId] !== 0 || this.placingBits[typeId] === 1);
  }

  private of(typeId: number): LocatedType | null {
    return typeId > 0 ? this.located.get(typeId) ?? null : null;
  }

  /** The table's and panel's source for a component of this type (0: not typed yet; null: not looked up yet, or not found). */
  rowSource(typeId: number): RowSource | null {
    const l = this.of(typeId);
    if (!l || l.state === 'not-found' || l.file === null || l.fileUrl === null) return null;
    return { file: l.file, line: l.fileLine, column: l.fileColumn + 1, url: l.fileUrl, state: l.state };
  }

  /**
   * The name to show: the source map's original name when the page's looks minified (or is "Anonymous", or is the
   * original with a bundler's suffix) and the map has another, else the page's (a displayName the developer chose
   * stays). An "Anonymous" type whose code the map places in a `.vue` file is named by that file, as Vue DevTools does.
   */
  nameOf(typeId: number, pageName: string): { name: string; minifiedName: string | null } {
    const located = this.of(typeId);
    // A Vue single-file component with no name of its own (template only, a production build: issue 63) is its file.
    if (pageName === 'Anonymous' && located?.file) {
      const sfc = /([^/\\]+)\.vue$/.exec(located.file);
      if (sfc) return { name: sfc[1], minifiedName: null };
    }
    const orig = located?.originalName ?? null;
    // "Anonymous": the minifier dropped the function's name (memo(function Row …) → memo(function(…))). A suffix: a
    // bundler renamed it apart from a binding of the same name (`const Panel = forwardRef(function Panel…)` → Panel2).
    return orig && orig !== pageName && (pageName === 'Anonymous' || nameLooksMinified(pageName) || renamedFrom(pageName, orig))
      ? { name: orig, minifiedName: pageName } : { name: pageName, minifiedName: null };
  }

  summary(): SourceSummary {
    let mapped = 0, found = 0;
    for (const l of this.located.values()) {
      if (l.state === 'mapped') mapped++;
      if (l.state !== 'not-found') found++;
    }
    return { types: this.texts.size, located: found, mapped, pending: this.asked.size - this.located.size };
  }

  reset(): void {
    this.version++;
    this.local.clear();
    this.texts.clear();
    this.located.clear();
    this.asked.clear();
    this.kinds.fill(0);
    this.placingBits.fill(0);
    this.placingQueue.length = 0;
    this.placingHead = 0;
    this.untypedHidden = false;
    this.pageNames.clear();
  }
}

/** `Panel2`, `Panel$1`, `Panel_1` from `Panel`: how esbuild, Rollup and Babel rename a binding apart from another. */
export function renamedFrom(name: string, original: string): boolean {
  return name.length > original.length && name.startsWith(original) && /^[$_]?\d+$/.test(name.slice(original.length));
}
