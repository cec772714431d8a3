/**
 * Turns the frame's causes (causes.ts) into the weights the split uses (attribution.ts): per component, the layout
 * its changes make the engine do, in ms, and the elements they restyle.
 *
 * Layout. Sites of text changes, of children added or removed (and insertions), and leaves that may resize are
 * grouped by their parent (siblings share the way up to their boundary) and probed as a group (probes.ts): a group of
 * k sites costs its probe of them together, extrapolated past the sample. Each component gets its sites' part of its
 * groups — the largest part when its sites lie under several parents (their ways up overlap). A box site (its own size
 * may change) costs the relayout under it, shared by the components that changed it; a component's boxes add up
 * (disjoint subtrees). A component weighs the larger of the two, plus the elements it inserted (ADDED_MS each, styled
 * and laid out for the first time: no probe replays that). Every place probed also weighs PASS_MS, what a layout pass
 * costs beyond what its probe replays — once for each parent component among those that changed it (changes made
 * apart, each of which alone would have cost a pass; a grid's cells, rendered by their grid, are one). The components
 * with places not probed yet share what the frame's layout took beyond what the probed places explain (PASS_MS at
 * least, for one with none probed; all alike when none is), and those places are queued for a probe when the frame has
 * two places to tell apart; a frame whose causes all sit in one place needs none.
 *
 * Style: the elements restyled — one for each element whose own style changed, the subtree for an inherited
 * property or a selector that reads the change above a combinator, and every element inserted.
 */
import { CHANGE_CHILDREN, CHANGE_RESIZE, CHANGE_STYLE, CHANGE_TEXT } from '../adapter';
import { LAYOUT_BITS, STYLE_BITS, type CauseOwner, type Causes, type Sites, type Slot } from './causes';
import { MAX_SAMPLE, PROBE_BOX, PROBE_CONTENT, PROBE_LEAF, PROBE_TEXT, Probes } from './probes';
import { PASS_MS } from '../../../protocol/layout-pass';

/** First style and layout of one inserted element, ms. */
export const ADDED_MS = 0.002;

/** Elements in `el`'s subtree, itself included. */
function subtreeSize(el: Element): number {
  return el.isConnected ? el.getElementsByTagName('*').length + 1 : 1;
}

/** Sites of one kind under one parent, this frame. */
interface Group {
  /** The first MAX_SAMPLE sites (the probe's sample). */
  sample: Element[];
  /** All of them. */
  k: number;
  /** Its estimate this frame (ms for all k), −1 while unknown. */
  ms: number;
  /**
   * The distinct parents of the components that changed its sites (the first MAX_APART of them): each weighs a pass,
   * PASS_MS. A grid's cells, rendered by their grid, are one change of the place; three one-line texts that sit side by
   * side but each render on their own are three — each alone would have cost the frame a layout pass.
   */
  parents: (CauseOwner | null | undefined)[];
}

/** Distinct parents counted per group, at most. */
const MAX_APART = 8;

/** The grouped kinds of site, and the probe each is measured with. */
const TEXT = 0, CHILDREN = 1, LEAF = 2;
const FLAVOR = [PROBE_TEXT, PROBE_CONTENT, PROBE_LEAF];

// Scratch, frame after frame.
const groups = [new Map<Element, Group>(), new Map<Element, Group>(), new Map<Element, Group>()];
const spare: Group[] = [];
const boxUsers = new Map<Element, number>();
const boxSample: Element[] = [];
/** The frame's components with some places probed and some not (a grid's boxes, four measured a frame). */
const partial: number[] = [];

/** The grouped kind of a change of one such kind at most (causes.ts `isSingle`), −1 for none. */
function groupedKind(how: number): number {
  return (how & CHANGE_TEXT) !== 0 ? TEXT : (how & CHANGE_CHILDREN) !== 0 ? CHILDREN : (how & CHANGE_RESIZE) !== 0 ? LEAF : -1;
}

/** The sites of a slot grouped as `kind` (insertions count as children of their parent), and how many went uncounted. */
function sitesOf<E extends CauseOwner>(s: Slot<E>, kind: number, added: boolean): Sites {
  return kind === TEXT ? s.texts : kind === LEAF ? s.leaves : added ? s.added : s.content;
}

function moreOf<E extends CauseOwner>(s: Slot<E>, kind: number, added: boolean): number {
  return added ? 0 : kind === TEXT ? s.moreTexts : kind === LEAF ? s.moreLeaves : s.moreContent;
}

/** The group `groupOf` found last: sites come in runs of one parent (a grid's cells), one map look-up a run. */
let lastMap: Map<Element, Group> | null = null;
let lastKey: Element | null = null;
let lastGroup: Group | undefined;

function groupOf(map: Map<Element, Group>, key: Element): Group | undefined {
  if (map !== lastMap || key !== lastKey) {
    lastMap = map;
    lastKey = key;
    lastGroup = map.get(key);
  }
  return lastGroup;
}

/** Forgets the last group (its map changed, or the frame's groups are let go). */
function forgetGroup(): void {
  lastMap = lastKey = null;
  lastGroup = undefined;
}

/** Adds `site` (or `more` sites beside it), changed by `owner`, to the group of `key`; true when the group is new. */
function addSite(map: Map<Element, Group>, key: Element, site: Element, owner: CauseOwner, more = 0): boolean {
  let g = groupOf(map, key);
  const fresh = g === undefined;
  if (g === undefined) {
    g = spare.pop() ?? { sample: [], k: 0, ms: -1, parents: [] };
    g.sample.length = 0;
    g.k = 0;
    g.ms = -1;
    g.parents.length = 0;
    map.set(key, g);
    lastGroup = g;
  }
  // Sites come in runs of one owner, and owners in runs of one parent (a grid's cells): one comparison a site.
  const ps = g.parents;
  const parent = owner.parent;
  if (ps.length === 0 || (ps[ps.length - 1] !== parent && ps.length < MAX_APART && !ps.includes(parent))) ps.push(parent);
  if (more > 0) g.k += more;
  else {
    if (g.sample.length < MAX_SAMPLE) g.sample.push(site);
    g.k++;
  }
  return fresh;
}

/** Each site's group key: as given with it, else its parent read from the DOM (once a frame). */
function keysOf(sites: Sites): void {
  const { items, keys, n } = sites;
  for (let j = 0; j < n; j++) if (keys[j] === null) keys[j] = Probes.contentKey(items[j]);
}

/**
 * The largest part, among `sites`' groups, that `sites` hold: a group's ms times its sites there over all of its.
 * `extent` is the part so far; −1 when a group has no estimate.
 */
function part(map: Map<Element, Group>, sites: Sites, more: number, extent: number): number {
  let out = extent;
  const { keys, n } = sites;
  for (let j = 0; j < n; j++) {
    const key = keys[j] as Element;
    // Sites come in runs of one parent: each group once.
    if (j > 0 && keys[j - 1] === key) continue;
    const g = groupOf(map, key);
    if (g === undefined || g.ms < 0) return -1;
    let own = keys[n - 1] === key ? more : 0;
    for (let x = j; x < n; x++) if (keys[x] === key) own++;
    out = Math.max(out, g.ms * (own / g.k));
  }
  return out;
}

/**
 * A frame whose changes that cost layout all sat in one group (causes.ts `alike`, one grouped kind) and that no forced
 * reflow cut short: its layout, `layoutMs`, is that place's own cost for as many sites — the probes keep it for the
 * frames it shares with other places (probes.ts `seen`). Call after the frame's measurement, before `weigh`.
 */
export function noteSeen<E extends CauseOwner>(causes: Causes<E>, probes: Probes, layoutMs: number): void {
  const bits = causes.groupedBits;
  if (bits === 0 || (bits & (bits - 1)) !== 0 || causes.layoutChanges === 0 || !causes.alike()) return;
  const key = causes.aloneKey;
  if (key !== null) probes.seen(FLAVOR[groupedKind(bits)], key, causes.layoutChanges, layoutMs);
}

export interface Weights<E> {
  owners: E[];
  layout: number[];
  style: number[];
  /** The layout the weights account for, ms, when every one was probed; −1 when not (alike, or not probed yet). */
  explainedMs: number;
  /** Whether a group was weighed by its place's own frame (probes.ts `seen`), not by a probe alone. */
  bySeen: boolean;
}

/**
 * Fills `out` from `causes` (index-aligned: owners, layout ms, style elements). `probes` gives the estimates (null:
 * none, the probes are off); `layoutMs` is what the frame's layout took, measured.
 */
export function weigh<E extends CauseOwner>(causes: Causes<E>, probes: Probes | null, out: Weights<E>, layoutMs: number): void {
  out.explainedMs = -1;
  out.bySeen = false;
  if (causes.alike()) {
    // Every change weighs alike (a grid's cells under their grid): no slot, no group, no probe. An owner logged twice
    // gets two parts (the split adds them up).
    const m = causes.changes;
    if (out.owners.length !== m) out.owners.length = out.layout.length = out.style.length = m;
    for (let i = 0; i < m; i++) {
      const how = causes.loggedHow(i);
      out.owners[i] = causes.loggedOwner(i);
      out.style[i] = (how & STYLE_BITS) !== 0 ? 1 : 0;
      out.layout[i] = (how & LAYOUT_BITS) !== 0 ? 1 : 0;
    }
    return;
  }
  causes.build();
  const n = causes.length;
  // After the slots, the changes that weigh their group's part alone (causes.ts `build`): a grid's cells.
  const m = causes.singleCount;
  if (out.owners.length !== n + m) out.owners.length = out.layout.length = out.style.length = n + m;
  let layoutSlots = 0;
  // Distinct places: parents of grouped sites, and boxes.
  const parents = new Set<Element>();
  let lastParent: Element | null = null;
  forgetGroup();
  for (let i = 0; i < n; i++) {
    const s = causes.slots[i];
    if (!s.layout) continue;
    layoutSlots++;
    for (let kind = TEXT; kind <= LEAF; kind++) {
      for (let a = 0; a < (kind === CHILDREN ? 2 : 1); a++) {
        const sites = sitesOf(s, kind, a === 1);
        if (sites.n === 0) continue;
        keysOf(sites);
        for (let j = 0; j < sites.n; j++) {
          const key = sites.keys[j] as Element;
          addSite(groups[kind], key, sites.items[j], s.owner);
          if (key !== lastParent) parents.add((lastParent = key));
        }
        const more = moreOf(s, kind, a === 1);
        if (more > 0) addSite(groups[kind], sites.keys[sites.n - 1] as Element, sites.items[0], s.owner, more);
      }
    }
    for (let j = 0; j < s.boxes.n; j++) {
      const site = s.boxes.items[j];
      boxUsers.set(site, (boxUsers.get(site) ?? 0) + 1);
    }
  }
  for (let j = 0; j < m; j++) {
    const i = causes.singles[j];
    const kind = groupedKind(causes.loggedHow(i));
    if (kind < 0) continue;
    layoutSlots++;
    const key = causes.loggedKey(i);
    addSite(groups[kind], key, causes.loggedSite(i) as Element, causes.loggedOwner(i));
    if (key !== lastParent) parents.add((lastParent = key));
  }
  const want = probes !== null && layoutSlots >= 2 && parents.size + boxUsers.size >= 2;
  if (probes !== null) {
    for (let kind = TEXT; kind <= LEAF; kind++) {
      for (const [key, g] of groups[kind]) {
        const e = probes.estimate(FLAVOR[kind], key, g.sample, want, g.k);
        if (e === null) continue;
        g.ms = e.one + e.per * (g.k - 1) + PASS_MS * g.parents.length;
        if (e.count < 0) out.bySeen = true;
      }
    }
  }
  let knownSum = 0, known = 0, unknown = 0;
  for (let i = 0; i < n; i++) {
    const s = causes.slots[i];
    out.owners[i] = s.owner;
    let style = s.styled;
    for (let j = 0; j < s.trees.n; j++) style += subtreeSize(s.trees.items[j]);
    let added = 0;
    for (let j = 0; j < s.added.n; j++) added += subtreeSize(s.added.items[j]);
    out.style[i] = style + added;
    if (!s.layout) {
      out.layout[i] = 0;
      continue;
    }
    const extra = added * ADDED_MS;
    let extent = 0, boxes = 0, missing = false, any = false;
    for (let kind = TEXT; kind <= LEAF; kind++) {
      for (let a = 0; a < (kind === CHILDREN ? 2 : 1); a++) {
        const sites = sitesOf(s, kind, a === 1);
        if (sites.n === 0) continue;
        const p = part(groups[kind], sites, moreOf(s, kind, a === 1), extent);
        if (p < 0) missing = true;
        else {
          any = true;
          extent = p;
        }
      }
    }
    for (let j = 0; j < s.boxes.n; j++) {
      const site = s.boxes.items[j];
      boxSample[0] = site;
      const e = probes?.estimate(PROBE_BOX, site, boxSample, want) ?? null;
      if (e === null) missing = true;
      else {
        any = true;
        boxes += (e.one + PASS_MS) / (boxUsers.get(site) ?? 1);
      }
    }
    if (missing && !any) {
      // Unknown: filled in below.
      out.layout[i] = -1 - extra;
      unknown++;
      continue;
    }
    const w = Math.max(extent, boxes) + extra;
    out.layout[i] = w;
    knownSum += w;
    known++;
    if (missing) partial.push(i);
  }
  for (let j = 0; j < m; j++) {
    const i = causes.singles[j];
    const how = causes.loggedHow(i);
    const o = n + j;
    out.owners[o] = causes.loggedOwner(i);
    out.style[o] = (how & CHANGE_STYLE) !== 0 ? 1 : 0;
    const kind = groupedKind(how);
    if (kind < 0) {
      out.layout[o] = 0;
      continue;
    }
    // Its part of its group, as a slot of one site gets it (`part`).
    const g = groupOf(groups[kind], causes.loggedKey(i)) as Group;
    if (g.ms < 0) {
      out.layout[o] = -1;
      unknown++;
      continue;
    }
    const w = g.ms / g.k;
    out.layout[o] = w;
    knownSum += w;
    known++;
  }
  boxSample.length = 0;
  // Every place of the frame queued when one is due (before the groups, whose samples it may copy, are let go).
  probes?.settle();
  for (const map of groups) {
    for (const g of map.values()) {
      g.parents.length = 0;
      spare.push(g);
    }
    map.clear();
  }
  forgetGroup();
  boxUsers.clear();
  if (known > 0 && known === layoutSlots && partial.length === 0) out.explainedMs = knownSum;
  // Not probed yet: the layout the probed places leave unexplained, shared by the components with places not probed
  // (at least a pass each for those with none probed); all alike when none is probed. Given the probed ones' mean, an
  // unprobed 700-cell grid weighed what three one-line texts beside it did, and they took 75 % of the frame, 4 % true,
  // when a CPU hog's preemption spent the first-need allowance on them; given only its four boxes probed in that
  // frame, the grid left the texts 25 %.
  const short = unknown + partial.length;
  const rest = short === 0 ? 0 : (layoutMs - knownSum) / short;
  const fill = known === 0 ? 1 : Math.max(PASS_MS, rest);
  for (let i = 0; i < n + m; i++) if (out.layout[i] < 0) out.layout[i] = fill + (-1 - out.layout[i]);
  for (const i of partial) out.layout[i] += Math.max(0, rest);
  partial.length = 0;
}
