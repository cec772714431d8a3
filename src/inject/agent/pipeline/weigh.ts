/**
 * Turns the frame's causes (causes.ts) into the weights the split uses (attribution.ts): per component, the layout
 * its changes make the engine do, in ms, and the elements they restyle.
 *
 * Layout. Content sites, and leaves that may resize, are grouped by their parent (probes.ts: siblings share the way
 * up to their boundary): a group of k sites costs what its probe says one site costs plus what each further one adds
 * (a grid's 490 changed cells are 490 small relayouts under one grid relayout), and each component gets its sites'
 * part of its groups (the largest, when its sites lie under several parents: their ways up overlap). A box site (its own size may change)
 * costs the relayout under it, shared by the components that changed it; a component's boxes add up (disjoint
 * subtrees). A component weighs the larger of the two, plus the elements it inserted (ADDED_MS each, styled and laid
 * out for the first time: no probe replays that; what else none replays, such as shaping new text, the split gives out
 * evenly, attribution.ts). A
 * group not probed yet weighs what the frame's probed components weigh on average (all alike when none is), and is
 * queued for a probe when the frame has two places to tell apart; a frame whose causes all sit in one place needs
 * none.
 *
 * Style: the elements restyled — one for each element whose own style changed, the subtree for an inherited
 * property or a selector that reads the change above a combinator, and every element inserted.
 */
import { type CauseOwner, type Causes } from './causes';
import { MAX_SAMPLE, PROBE_BOX, PROBE_CONTENT, PROBE_LEAF, Probes } from './probes';

/** First style and layout of one inserted element, ms. */
export const ADDED_MS = 0.002;

/** Elements in `el`'s subtree, itself included. */
function subtreeSize(el: Element): number {
  return el.isConnected ? el.getElementsByTagName('*').length + 1 : 1;
}

/** Content sites of the frame under one parent. */
interface Group {
  /** The first MAX_SAMPLE sites (the probe's sample). */
  sample: Element[];
  /** All of them. */
  k: number;
  /** Its estimate this frame (ms for all k), −1 while unknown. */
  ms: number;
}

// Scratch, frame after frame: groups by parent, for content sites (and inserted ones) and for leaves.
const contentGroups = new Map<Element, Group>();
const leafGroups = new Map<Element, Group>();
const spare: Group[] = [];
const boxUsers = new Map<Element, number>();

function addSite(groups: Map<Element, Group>, site: Element, more = 0): void {
  const key = Probes.contentKey(site);
  let g = groups.get(key);
  if (g === undefined) {
    g = spare.pop() ?? { sample: [], k: 0, ms: -1 };
    g.sample.length = 0;
    g.k = 0;
    g.ms = -1;
    groups.set(key, g);
  }
  if (more > 0) {
    g.k += more;
    return;
  }
  if (g.sample.length < MAX_SAMPLE) g.sample.push(site);
  g.k++;
}

function release(groups: Map<Element, Group>): void {
  for (const g of groups.values()) spare.push(g);
  groups.clear();
}

/**
 * The largest part, among `sites`' groups, that `sites` hold: a group's ms times its sites there over all of its.
 * `extent` is the part so far; −1 when a group has no estimate.
 */
function part(groups: Map<Element, Group>, sites: readonly Element[], more: number, extent: number): number {
  let out = extent;
  for (let j = 0; j < sites.length; j++) {
    const key = Probes.contentKey(sites[j]);
    // Sites come in runs of one parent: each group once.
    if (j > 0 && Probes.contentKey(sites[j - 1]) === key) continue;
    const g = groups.get(key);
    if (g === undefined || g.ms < 0) return -1;
    let own = j === sites.length - 1 || Probes.contentKey(sites[sites.length - 1]) === key ? more : 0;
    for (let x = j; x < sites.length; x++) if (Probes.contentKey(sites[x]) === key) own++;
    out = Math.max(out, g.ms * (own / g.k));
  }
  return out;
}

/**
 * What a layout pass costs the page in a frame beyond what a probe replays, ms: each change alone would pay it (the
 * pass's fixed work, run with caches the frame's scripts left cold), so each place weighs it once. Measured here
 * (Chromium 156, 2 shared cores) as a one-line text change's cost alone in Chrome's trace less its probe: 0.13–0.20 ms
 * in five of bench/attribution.ts's scenarios. A fixed figure: on a machine twice as fast it is half that, and the
 * smallest causes weigh a little more than they should (docs/TIMING.md §2).
 */
export const PASS_MS = 0.15;

export interface Weights<E> {
  owners: E[];
  layout: number[];
  style: number[];
}

/**
 * Fills `out` from `causes` (index-aligned: owners, layout ms, style elements). `probes` gives the estimates (null:
 * none, the probes are off).
 */
export function weigh<E extends CauseOwner>(causes: Causes<E>, probes: Probes | null, out: Weights<E>): void {
  const n = causes.length;
  out.owners.length = out.layout.length = out.style.length = n;
  let layoutSlots = 0;
  for (let i = 0; i < n; i++) {
    const s = causes.slots[i];
    if (!s.layout) continue;
    layoutSlots++;
    for (const site of s.content) addSite(contentGroups, site);
    for (const site of s.added) addSite(contentGroups, site);
    for (const site of s.leaves) addSite(leafGroups, site);
    if (s.moreContent > 0) addSite(contentGroups, s.content[s.content.length - 1], s.moreContent);
    if (s.moreLeaves > 0) addSite(leafGroups, s.leaves[s.leaves.length - 1], s.moreLeaves);
    for (const site of s.boxes) boxUsers.set(site, (boxUsers.get(site) ?? 0) + 1);
  }
  // Two places to tell apart (else every cause weighs alike and no probe is needed).
  const places = contentGroups.size + leafGroups.size + boxUsers.size;
  const want = probes !== null && layoutSlots >= 2 && places >= 2;
  if (probes !== null) {
    for (const [key, g] of contentGroups) {
      const e = probes.estimate(PROBE_CONTENT, key, g.sample, want);
      if (e !== null) g.ms = e.one + e.per * (g.k - 1) + PASS_MS;
    }
    for (const [key, g] of leafGroups) {
      const e = probes.estimate(PROBE_LEAF, key, g.sample, want);
      if (e !== null) g.ms = e.one + e.per * (g.k - 1) + PASS_MS;
    }
  }
  let knownSum = 0, known = 0;
  for (let i = 0; i < n; i++) {
    const s = causes.slots[i];
    out.owners[i] = s.owner;
    let style = s.styled;
    for (const el of s.trees) style += subtreeSize(el);
    let added = 0;
    for (const el of s.added) added += subtreeSize(el);
    out.style[i] = style + added;
    if (!s.layout) {
      out.layout[i] = 0;
      continue;
    }
    let extent = 0, boxes = 0, missing = false, any = false;
    for (let kind = 0; kind < 3; kind++) {
      const sites = kind === 0 ? s.content : kind === 1 ? s.added : s.leaves;
      if (sites.length === 0) continue;
      const p = part(kind === 2 ? leafGroups : contentGroups, sites, kind === 0 ? s.moreContent : kind === 2 ? s.moreLeaves : 0, extent);
      if (p < 0) missing = true;
      else {
        any = true;
        extent = p;
      }
    }
    for (const site of s.boxes) {
      const e = probes?.estimate(PROBE_BOX, site, [site], want) ?? null;
      if (e === null) missing = true;
      else {
        any = true;
        boxes += (e.one + PASS_MS) / (boxUsers.get(site) ?? 1);
      }
    }
    const extra = added * ADDED_MS;
    if (missing && !any) {
      // Unknown: filled in below.
      out.layout[i] = -1 - extra;
      continue;
    }
    const w = Math.max(extent, boxes) + extra;
    out.layout[i] = w;
    knownSum += w;
    known++;
  }
  release(contentGroups);
  release(leafGroups);
  boxUsers.clear();
  // Not probed yet: what the probed ones weigh on average, or all alike.
  const fill = known > 0 ? knownSum / known : 1;
  for (let i = 0; i < n; i++) if (out.layout[i] < 0) out.layout[i] = fill + (-1 - out.layout[i]);
}
