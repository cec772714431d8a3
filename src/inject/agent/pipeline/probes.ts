/**
 * How much layout a change at a given place costs the engine, measured on the live page (issue 43). A relayout's
 * cost depends on where the change sits — what lies between it and its relayout boundary, and what lies under it —
 * not on the size of the component that made it: a one-cell text change in a 1 500-row table relayouts the table,
 * 400 spans changing inside a `contain: strict` box stay inside it. No model of Blink's layout caches predicts that
 * well; the engine itself does, so we ask it.
 *
 * A probe dirties layout at a site the way a change there does, without touching the DOM, and times the forced
 * layout that follows, at frame end when layout is clean:
 *  - content (text or children changed under the site): a Web Animation adds 0.001 px to the site's bottom padding.
 *    It rounds to nothing in layout units, so no box moves, but the engine relayouts the site's content and the
 *    chain up to its boundary, as a text change there does. Siblings share the chain: the estimate is kept by the
 *    site's parent (a grid's cells are one probe).
 *  - box (the site's own size may change: a width, a padding, a class whose rules move boxes, a layout animation):
 *    the animation takes 1 px off the site's content width (its `width`, when fixed and content-box; else 1 px of
 *    right padding), so everything under it relayouts at the new width, as when its size changes.
 * Then the animation is cancelled and layout forced again (the page's own frame finds it clean); the estimate is the
 * mean of the two layouts. A Web Animation makes no DOM mutation (the page's MutationObservers see nothing), starts
 * no CSS transition, fires no event, and is gone before anything can read `getAnimations()`; no frame is painted in
 * between, so nothing the page shows changes.
 *
 * Probes cost the page real layouts: they run only for sites that share a frame with another component's (a frame
 * with one cause needs no split), at most PROBES_PER_FRAME a frame, within a budget of the wall clock
 * (BUDGET_SHARE, after an initial allowance), and an estimate is kept PROBE_TTL_MS before it is refreshed, or until the
 * frames' layout drifts from what the estimates explain (DRIFT, with a budget of its own). Their time is our own
 * (self-clock.ts), reported as such.
 *
 * A place whose changes are a frame's only ones needs no probe: that frame's layout is its cost, measured by the
 * frame itself (`seen`). A grid whose cells change alone in most frames (the header's readout beside it in the rest)
 * is weighed by its own last such frame while that is recent (SEEN_FRESH_MS) and of about as many sites, and never
 * probed for it: each probe of such a grid is two relayouts of the whole grid, repeated (about 80 ms a refresh on the
 * StressGrid demo, nine tenths of all probe time there; docs/TIMING.md §2). A frame may hold page code's attribute or
 * text write that no observer reported yet (mutations.ts: a component's foreign writers are found by discovery,
 * then observed), and its layout was counted as the place's own: an imperative widget writing beside a component's
 * text gave the text 58 % of their frames against 21–25 % true (the attribution bench's page-code scenario). So every
 * place's figure is let go when a foreign writer is found (`forgetSeen`): the frames before were not what they seemed.
 */
import { PASS_MS } from '../../../protocol/layout-pass';

/**
 * Probed estimates, ms: `one` for a change at one site of the key, `per` for each further site changing with it (a
 * grid's cells relayout one by one; spans in one line box barely add to it), and when they were made.
 */
export interface Estimate {
  one: number;
  per: number;
  at: number;
  /** What its probe cost (ms of our own time). */
  cost: number;
  /** Probes averaged into it (−1: none, the place's own frame stands for it: `Probes.seen`). */
  count: number;
}

export const PROBE_CONTENT = 0;
export const PROBE_BOX = 1;
/** Leaves whose size changes, grouped by parent like content: 1 px more right padding each. */
export const PROBE_LEAF = 2;
/** Elements whose text changed, grouped by parent: 0.0001 px more letter spacing each, which reshapes their text. */
export const PROBE_TEXT = 3;
const FLAVORS = 4;

/**
 * An estimate older than this is refreshed when a frame needs it and the budget allows; an expensive one waits longer,
 * TTL_PER_PROBE_MS for each ms its probe took (a 60 ms relayout probed again every two minutes, not every 20 s). A new
 * cheap one is refreshed sooner, FIRST_TTL_MS doubling with each probe, and the probes averaged (the first replaced,
 * then up to AVERAGED of them, then each new one weighs 1/AVERAGED): one probe of a busy machine's moment is not kept
 * for 20 s.
 */
export const PROBE_TTL_MS = 20_000;
const TTL_PER_PROBE_MS = 500;
const FIRST_TTL_MS = 500;
const AVERAGED = 8;
/**
 * Sites of one key probed together, at most (their estimate is extrapolated past it, with its noise). A Web Animation
 * costs about 20 µs to make and to style; 128 of them a few ms.
 */
export const MAX_SAMPLE = 128;
/**
 * A probe is made at least twice and again until REPEAT_MS have been measured (at most REPEATS times), and the smallest
 * reading taken: the clock ticks in 100 µs with jitter on ordinary pages, a preempted probe reads high, and an estimate
 * is kept for PROBE_TTL_MS. A group's per-site figure is a difference of two such readings, less their noise.
 */
const REPEAT_MS = 5;
const REPEATS = 6;
/**
 * A first estimate's one-site probe is made again while the frame's time allows (once), and for a cheap place until
 * FIRST_CHEAP_MS are spent on it (FIRST_TRIES in all): a 0.1 ms text probed once, cold or preempted beside a CPU hog,
 * read 0.6 ms and took a quarter of a frame from a 7 ms grid it shared the frame with until the batch landed.
 */
const FIRST_TRIES = 4;
const FIRST_CHEAP_MS = 1;
/** Keys a batch measures, at most. */
const PROBES_PER_FRAME = 4;
/** Probe time a frame, at most (past it, the batch goes on in the next frame; one probe is always made). */
const FRAME_MS = 8;
/** The share of the wall clock probes may take, after the allowance. */
const BUDGET_SHARE = 0.003;
const ALLOWANCE_MS = 30;
/**
 * Every probe, whatever asked for it (a first estimate, its refinement, a refresh, a drift), also draws on one bucket:
 * BUCKET_MS, full at start, filled at BUCKET_SHARE of the wall clock up to that again. The budgets above each had an
 * allowance and a share of their own, and together let probes take about 1 % of the main thread on a page of many
 * small places (the demo's chart, 24 bars each in a column of its own, refreshed one batch after another), and let a
 * page idle for minutes spend what it saved in one burst.
 */
const BUCKET_MS = 150;
const BUCKET_SHARE = 0.002;
const MAX_QUEUE = 32;
/**
 * The page's layout switches between regimes (Chrome's, at garbage collections: the same change 2–3× slower for seconds,
 * docs/TIMING.md §2), and a place's estimate made in one split frames made in the other as it would have split the
 * first (the attribution bench's animation page: 86.7 % for the larger actor, 88.8 % true in the regime the estimates
 * were made in, 75.8 % in the one the frames ran in). So each frame whose places were all probed compares its layout
 * with what its estimates explain: the ratio's median over the first REF_FRAMES frames after a batch is the reference,
 * and DRIFT_FRAMES frames in a row off it by more than DRIFT× mark every place due again, the batch that follows
 * replacing the estimates (not averaged with them), within a budget of its own (DRIFT_ALLOWANCE_MS plus DRIFT_SHARE of
 * the wall clock since start, at most one every DRIFT_GAP_MS).
 */
const REF_FRAMES = 5;
const DRIFT_FRAMES = 6;
const DRIFT = 1.4;
const DRIFT_ALLOWANCE_MS = 60;
const DRIFT_SHARE = 0.001;
const DRIFT_GAP_MS = 3_000;
/**
 * A place's own frame (`seen`) stands for it this long, for a group of between 1/SEEN_RANGE and SEEN_RANGE times its
 * sites (scaled by the probed shape when there is one: `estimate`).
 */
export const SEEN_FRESH_MS = 2_000;
const SEEN_RANGE = 1.5;
const CONTENT_PAD = [{ paddingBottom: '0.001px', composite: 'add' }, { paddingBottom: '0.001px', composite: 'add' }];
/**
 * Text: its letter spacing reshapes it, and (one site alone) the padding marks its box's intrinsic widths dirty, as new
 * text does (a table's column widths are worked out again); on the right, as new text widens a line (a bottom padding
 * also moved every block after the site, which new text on one line does not). Many sites together get the spacing
 * only: padding on many spans of one line box costs more than their new text does (measured: 256 of 400 spans padded
 * 2.2× one span, their text changing 1.5×, their spacing 1.2×).
 */
const TEXT_ONE = [
  { letterSpacing: '0.0001px', paddingRight: '0.001px', composite: 'add' },
  { letterSpacing: '0.0001px', paddingRight: '0.001px', composite: 'add' },
];
const TEXT_MANY = [{ letterSpacing: '0.0001px', composite: 'add' }, { letterSpacing: '0.0001px', composite: 'add' }];
const BOX_PAD = [{ paddingRight: '1px', composite: 'add' }, { paddingRight: '1px', composite: 'add' }];
const OPTIONS: KeyframeAnimationOptions = { duration: 1e9, fill: 'both' };
/** Displays whose boxes take no padding: probed at a cell inside (rows, row groups) or at the parent (contents). */
const NO_PADDING = /^(table-row|table-row-group|table-header-group|table-footer-group|table-column|table-column-group|contents)$/;

export interface ProbeHost {
  win: Window & typeof globalThis;
  now(): number;
  /** Our own layout reads: not the page's forced reflows. */
  pause(): void;
  resume(): void;
  debug(...args: unknown[]): void;
}

/**
 * One measurement of a batch: the first `n` of `sites` changed at once, its samples so far; `all`: 0 for the one-site
 * measurement, else how many of the key's sites it stands for (the sample, or a text parent's children).
 */
interface Measure {
  q: Queued;
  sites: Element[];
  n: number;
  got: number[];
  sum: number;
  failed: boolean;
  all: number;
  /** The `run` that read it last: a measure is read at most once a frame (`run`). */
  turn: number;
}

/**
 * The smallest reading: preemption only ever adds to a probe (a CPU hog beside the browser). Of two readings the mean
 * kept half of it; of three to six the lower median still kept it when two of them were preempted.
 */
function least(xs: number[]): number {
  let m = xs[0];
  for (let i = 1; i < xs.length; i++) if (xs[i] < m) m = xs[i];
  return m;
}

/** How far the second smallest reading lies above the smallest: the noise the readings show (0 for one reading). */
function spread(xs: number[]): number {
  if (xs.length < 2) return 0;
  let a = Infinity, b = Infinity;
  for (const x of xs) {
    if (x < a) {
      b = a;
      a = x;
    } else if (x < b) b = x;
  }
  return b - a;
}

/**
 * What each further site adds: the sample's reading above the one site's, less the noise both showed, over the
 * sample's further sites. The figure is multiplied by every site that changed (400 spans from a sample of 128:
 * three times over): a difference within the noise is no difference. Measured on the table-box page (a 400-span box
 * whose sample reads what one span does): a difference of lower medians gave the box up to 29 points of the frame
 * from its noise alone, beside a CPU hog and without one (docs/TIMING.md §2).
 */
function perSite(one: number, oneNoise: number, all: number[], n: number): number {
  return Math.max(0, least(all) - one - oneNoise - spread(all)) / (n - 1);
}

/** A place's own frame: its layout, ms, for `k` sites, and when. */
interface Seen {
  ms: number;
  k: number;
  at: number;
}

interface Queued {
  flavor: number;
  key: Element;
  sites: Element[];
}

export class Probes {
  /** Estimates by flavor, then key. */
  private estimates: WeakMap<Element, Estimate>[] = [];
  /** Each place's last own frame (`seen`), by flavor, then key. */
  private seenBy: WeakMap<Element, Seen>[] = [];
  /** What `estimate` returns for a place weighed by its own frame (read at once by the caller; count −1 says so). */
  private readonly fromSeen: Estimate = { one: 0, per: 0, at: 0, cost: 0, count: -1 };
  /** Groups weighed by their own frame instead of an estimate, since start (internals). */
  seenUsed = 0;
  private queue: Queued[] = [];
  private readonly queued: WeakSet<Element>[] = [];
  private startedAt = 0;
  /** What the bucket holds (BUCKET_MS), ms of probes, when last filled. */
  private bucket = BUCKET_MS;
  private bucketAt = 0;
  private readonly anims: Animation[] = [];
  /** A probe's elements and their keyframes, all read before the first animation starts (`probe`). */
  private readonly targets: Element[] = [];
  private readonly frames: unknown[][] = [];
  /** The keys being measured, over one frame or more (`run`), and what they cost so far. */
  private batch: Measure[] = [];
  private batchCost = 0;
  /** The batch's next measure: each frame goes on from where the last one stopped. */
  private cursor = 0;
  /** Calls of `run` with a batch, since start (each measure's `turn`). */
  private turns = 0;
  /** The places the frame being weighed asked for (`settle`), and whether one of them is due. */
  private readonly askedFlavor: number[] = [];
  private readonly askedKey: (Element | null)[] = [];
  private readonly askedSites: (readonly Element[] | null)[] = [];
  private askedN = 0;
  private due = false;
  /** Probe ms spent since start, and the part of it first estimates took (their own allowance: `firstMay`). */
  spentMs = 0;
  private firstSpentMs = 0;
  /** Probes made since start (internals; the timing tests subtract their layouts). */
  made = 0;
  /** Places measured in the frame that first needed them (`first`), since start. */
  firsts = 0;
  /** Probe ms the frame being split may still spend on first estimates (`firstMay`), and the places it measured. */
  private firstLeft = 0;
  private firstKeys = 0;
  /** False where the engine's Web Animations are missing or replaced: no probes, estimates stay unknown. */
  usable = true;
  /** Layout over what the estimates explained, in the frames since the last batch (`observe`), and the reference. */
  private readonly ratios: number[] = [];
  private ratioRef = 0;
  private driftRun = 0;
  /** Every place is due (the regime changed); the batch for it replaces, and spends the drift budget. */
  private drifted = false;
  private driftBatch = false;
  private driftSpentMs = 0;
  private driftAt = -Infinity;
  /**
   * The batch refines a first estimate (made by the frame that needed it), and spends the refinements' allowance: a
   * place first seen a frame after its frame-mates' batch began is queued with them again, and their refresh must not
   * keep its rough first reading standing for seconds (docs/TIMING.md §2).
   */
  private refineBatch = false;
  private refineSpentMs = 0;
  /** Batches made because the frames drifted from their estimates, since start (internals). */
  drifts = 0;
  private readonly animate: ((this: Element, k: Keyframe[], o: KeyframeAnimationOptions) => Animation) | null;

  constructor(private readonly host: ProbeHost, isNative: (fn: unknown) => boolean) {
    this.clear();
    const fn = host.win.Element.prototype.animate as unknown;
    this.animate = typeof fn === 'function' && isNative(fn) ? fn as Probes['animate'] : null;
    this.usable = this.animate !== null;
  }

  start(): void {
    this.startedAt = this.host.now();
    this.bucket = BUCKET_MS;
    this.bucketAt = this.startedAt;
    this.spentMs = 0;
    this.firstSpentMs = 0;
    this.driftSpentMs = 0;
    this.refineSpentMs = 0;
    this.driftAt = -Infinity;
    this.resetRatio();
  }

  /** What the bucket holds now, filled since it was last. */
  private level(): number {
    const now = this.host.now();
    this.bucket = Math.min(BUCKET_MS, this.bucket + BUCKET_SHARE * (now - this.bucketAt));
    this.bucketAt = now;
    return this.bucket;
  }

  private resetRatio(): void {
    this.ratios.length = 0;
    this.ratioRef = 0;
    this.driftRun = 0;
  }

  /**
   * A frame whose places all had estimates: its measured layout against what they explained (ms). Off the reference by
   * more than DRIFT× for DRIFT_FRAMES frames in a row, every place is due again (see DRIFT).
   */
  observe(layoutMs: number, explainedMs: number): void {
    if (!(explainedMs > 0) || !(layoutMs > 0) || this.batch.length > 0 || this.drifted || this.driftBatch) return;
    const q = layoutMs / explainedMs;
    if (this.ratioRef === 0) {
      this.ratios.push(q);
      if (this.ratios.length >= REF_FRAMES) {
        this.ratios.sort((a, b) => a - b);
        this.ratioRef = this.ratios[REF_FRAMES >> 1];
        this.ratios.length = 0;
      }
      return;
    }
    const off = q > this.ratioRef ? q / this.ratioRef : this.ratioRef / q;
    this.driftRun = off > DRIFT ? this.driftRun + 1 : 0;
    if (this.driftRun < DRIFT_FRAMES) return;
    this.driftRun = 0;
    const now = this.host.now();
    if (now - this.driftAt < DRIFT_GAP_MS || this.driftSpentMs > DRIFT_ALLOWANCE_MS + DRIFT_SHARE * (now - this.startedAt)) return;
    this.driftAt = now;
    this.drifted = true;
  }

  private static ttl(e: Estimate): number {
    const byCost = e.cost * TTL_PER_PROBE_MS;
    if (e.count < AVERAGED) return Math.max(Math.min(PROBE_TTL_MS, FIRST_TTL_MS * 2 ** (e.count - 1)), byCost);
    return Math.max(PROBE_TTL_MS, byCost);
  }

  /** The key content sites share: their parent (siblings share the way up to their boundary). */
  static contentKey(site: Element): Element {
    return site.parentElement ?? site;
  }

  /**
   * A frame whose changes that cost layout were `k` sites of one flavor under `key`, and nothing else (causes.ts
   * `alike`), with no forced reflow: its layout, `layoutMs`, is what they cost the engine.
   */
  seen(flavor: number, key: Element, k: number, layoutMs: number): void {
    if (!(k > 0) || !(layoutMs >= 0)) return;
    const map = this.seenBy[flavor];
    const at = this.host.now();
    const s = map.get(key);
    if (s === undefined) map.set(key, { ms: layoutMs, k, at });
    else {
      s.ms = layoutMs;
      s.k = k;
      s.at = at;
    }
  }

  /** Lets every place's own figure go (a foreign writer was found: the frames before held its writes unseen). */
  forgetSeen(): void {
    for (let f = 0; f < FLAVORS; f++) this.seenBy[f] = new WeakMap();
  }

  /** Whether the place had a frame of its own lately (`seen`). */
  private seenLately(flavor: number, key: Element): boolean {
    const s = this.seenBy[flavor].get(key);
    return s !== undefined && this.host.now() - s.at <= SEEN_FRESH_MS;
  }

  /** What `k` sites under `key` cost by the place's own recent frame (less a pass: weigh.ts adds it), else −1. */
  private bySeen(flavor: number, key: Element, k: number): number {
    const s = this.seenBy[flavor].get(key);
    if (s === undefined || !this.seenLately(flavor, key)) return -1;
    const e = this.estimates[flavor].get(key);
    let ms: number;
    // The probed shape, when there is one, scales it to another count of sites (two ticks of a grid before one frame).
    if (e !== undefined && e.count > 0 && e.one > 0) ms = s.ms * (e.one + e.per * (k - 1)) / (e.one + e.per * (s.k - 1));
    else if (k * SEEN_RANGE >= s.k && k <= s.k * SEEN_RANGE) ms = s.ms;
    else return -1;
    return Math.max(0, ms - PASS_MS);
  }

  /**
   * The estimate for content changes at `sites` (all under `key`, the first MAX_SAMPLE of them), or for a box change
   * at `key` itself; null while there is none. With `want`, a missing or stale one is queued for the next `run`. `k`:
   * how many sites changed there (0: not told), for the place's own recent frame to stand for it (`seen`): then
   * nothing is probed or queued for it.
   */
  estimate(flavor: number, key: Element, sites: readonly Element[], want: boolean, k = 0): Estimate | null {
    if (k > 0) {
      const ms = this.bySeen(flavor, key, k);
      if (ms >= 0) {
        this.seenUsed++;
        const f = this.fromSeen;
        f.one = ms;
        f.per = 0;
        return f;
      }
    }
    let e = this.estimates[flavor].get(key);
    if (want && e === undefined && this.firstLeft > 0 && this.firstKeys < PROBES_PER_FRAME) e = this.first(flavor, key, sites);
    if (want) {
      if (e === undefined || e.count === 0 || this.drifted || this.host.now() - e.at > Probes.ttl(e)) this.due = true;
      const n = this.askedN;
      if (n < MAX_QUEUE) {
        this.askedFlavor[n] = flavor;
        this.askedKey[n] = key;
        this.askedSites[n] = sites;
        this.askedN = n + 1;
      }
    }
    return e ?? null;
  }

  /**
   * The frame's estimates are read (`estimate` with `want`, then this): when one of its places is due (new, first
   * estimate only, or stale), all of them are queued, to be measured again in one batch. A frame is split by the ratio
   * of its places' estimates; each refreshed on its own schedule, a cheap place measured a moment ago stood against an
   * expensive one measured seconds before, when the machine was slower (a page just started: the same box read 1.8 ms
   * then and 1.2 ms later).
   */
  settle(): void {
    if (this.drifted && this.askedN > 0) {
      // Queued afresh: the drift's batch measures the frame's places; what the queue held is let go (queued again when a
      // frame asks for it).
      this.drifted = false;
      this.driftBatch = true;
      for (const q of this.queue) this.queued[q.flavor].delete(q.key);
      this.queue.length = 0;
    }
    if (this.due) {
      for (let i = 0; i < this.askedN; i++) {
        const key = this.askedKey[i] as Element;
        const flavor = this.askedFlavor[i];
        this.enqueue(flavor, key, flavor === PROBE_BOX ? [key] : this.askedSites[i] as readonly Element[]);
      }
    }
    for (let i = 0; i < this.askedN; i++) this.askedKey[i] = this.askedSites[i] = null;
    this.askedN = 0;
    this.due = false;
  }

  /**
   * Lets the next `estimate` calls measure a place they have no estimate of at once (`first`), until `ms` of probes
   * are spent this frame or PROBES_PER_FRAME places are measured, within the budget: the frame that first needs a
   * place is split by what the engine says of it, not by a guess (the places past the cap weigh what the measured ones
   * do, as any place not probed yet). Call with layout clean (the frame's end, measured); `firstDone` closes it.
   */
  firstMay(ms: number): void {
    // An allowance of their own: the batch that refines them must not wait for the budget they spent (on a run of a
    // second, a rough first estimate would stand to the end).
    const allowed = ALLOWANCE_MS + BUDGET_SHARE * (this.host.now() - this.startedAt);
    this.firstLeft = this.usable ? Math.min(ms, allowed - this.firstSpentMs, this.level()) : 0;
    this.firstKeys = 0;
  }

  firstDone(): void {
    this.firstLeft = 0;
  }

  /**
   * The first estimate of a place: a probe of one site and, for several, one of the sample (what each further site
   * adds), and one site again while the frame's time allows, or while it is cheap (FIRST_TRIES). Rough (few
   * measurements, on a page that just started): the batch that refines it replaces it.
   */
  private first(flavor: number, key: Element, given: readonly Element[]): Estimate | undefined {
    const sites = given.slice(0, MAX_SAMPLE).filter((el) => el.isConnected);
    if (sites.length === 0) return undefined;
    const t0 = this.host.now();
    let one = this.probe(flavor, sites, 1);
    // The sample together (what each further site adds: a grid's cells are that many relayouts), then, while the
    // frame's time allows, one site again, the smaller kept (a preempted probe reads high). Each is two layouts of the
    // place: on a page whose place costs what its frame does, the first two already match the frame.
    let all = -1;
    if (one >= 0 && sites.length > 1 && flavor !== PROBE_CONTENT) all = this.probe(flavor, sites, sites.length);
    // What a probe of the site likely costs: its two layouts, at the smaller of its reading and the sample's. A reading
    // far above it was preempted, and is made again while what the probes would have cost unpreempted leaves the frame
    // room: beside two CPU hogs a text that costs 0.05 ms read 10.35 ms (33 ms of wall time), was kept, and took 67–99 %
    // of the first frames from a 700-cell grid (a retry was allowed only while the wall time spent was under half of
    // what the frame's layout took).
    const likely = 2 * (all >= 0 ? Math.min(one, all) : one);
    for (let tries = 1; one >= 0 && tries < FIRST_TRIES; tries++) {
      const spent = Math.min(this.host.now() - t0, (tries + (all >= 0 ? 1 : 0)) * likely);
      if (!(spent < FIRST_CHEAP_MS || ((tries === 1 || one > likely) && spent + likely < this.firstLeft))) break;
      const again = this.probe(flavor, sites, 1);
      if (again >= 0) one = Math.min(one, again);
    }
    const per = all >= 0 ? Math.max(0, (all - one) / (sites.length - 1)) : 0;
    const at = this.host.now();
    const cost = at - t0;
    this.spentMs += cost;
    this.bucket -= cost;
    this.firstSpentMs += cost;
    this.firstLeft -= cost;
    this.firstKeys++;
    this.firsts++;
    if (one < 0) return undefined;
    const e: Estimate = { one, per, at, cost, count: 0 };
    this.estimates[flavor].set(key, e);
    return e;
  }

  private enqueue(flavor: number, key: Element, sites: readonly Element[]): void {
    const seen = this.queued[flavor];
    if (seen.has(key) || this.queue.length >= MAX_QUEUE || !this.usable || sites.length === 0) return;
    seen.add(key);
    this.queue.push({ flavor, key, sites: sites.slice(0, MAX_SAMPLE) });
  }

  get pending(): number {
    return this.queue.length;
  }

  /**
   * Probes queued keys while the budget allows (what was spent so far is below it; a refresh must also fit what it cost
   * the last time). A batch of keys is measured in turns (each key's one site, and its sample together), so that what
   * the machine does meanwhile weighs on each alike, over as many frames as it takes: at most FRAME_MS of probes a
   * frame, and at least one probe (a page whose layout takes 60 ms pays one probe's two layouts in a frame, not a
   * batch's dozens). Call with layout clean (right after the frame's measurement).
   */
  run(): void {
    if (this.batch.length === 0 && !this.nextBatch()) return;
    this.turns++;
    const t0 = this.host.now();
    const batch = this.batch;
    let done = false;
    // Round the batch from where the last frame stopped: a batch whose probes outlast a frame's time goes on with the
    // next key, not with the first one again (two places of 10 ms were measured A, A, B, B, a frame each).
    for (let idle = 0; ;) {
      if (idle >= batch.length) {
        done = true;
        break;
      }
      const i = this.cursor;
      const m = batch[i];
      if (m.failed || (m.got.length >= 2 && m.sum >= REPEAT_MS) || m.got.length >= REPEATS) {
        idle++;
        this.cursor = (i + 1) % batch.length;
        continue;
      }
      // Gone between two frames of the batch: nothing to measure there any more.
      if (!m.sites[0].isConnected) {
        m.failed = true;
        continue;
      }
      // Read once this frame already: the rest of its readings wait for the frames after. Read again at once, with
      // nothing of the page's between, a place's caches are warm: a table cell's text read 1.6, 0.85, 0.75, 0.7, 0.65
      // and 0.65 ms in six probes within 6 ms, where its real change cost 1.5-1.8, while the portal beside it, done
      // after two readings of 4.2-4.9 ms, was read once a frame: split 80/20 against 68/32 true (docs/TIMING.md §2).
      if (m.turn === this.turns) break;
      if (this.host.now() - t0 >= FRAME_MS) break;
      m.turn = this.turns;
      idle = 0;
      this.cursor = (i + 1) % batch.length;
      const ms = this.probe(m.q.flavor, m.sites, m.n);
      if (ms < 0) m.failed = true;
      else {
        m.got.push(ms);
        m.sum += ms;
      }
    }
    const cost = this.host.now() - t0;
    this.spentMs += cost;
    this.bucket -= cost;
    this.batchCost += cost;
    if (this.driftBatch) this.driftSpentMs += cost;
    else if (this.refineBatch) this.refineSpentMs += cost;
    if (done) this.finish();
  }

  /** Takes the next keys off the queue into a batch, within the budget; false when there is none. */
  private nextBatch(): boolean {
    // A drift found, its batch not queued yet (the next frame's `settle`): no other batch in its way.
    if (this.drifted) return false;
    const allowed = ALLOWANCE_MS + BUDGET_SHARE * (this.host.now() - this.startedAt);
    // The keys the batch would take, measured together or not at all: places split against each other are measured in
    // one moment of the machine. Taken one at a time as the budget let them, one place's new estimate stood against
    // another's made seconds before on a slower machine (a page just started, a busier core): two boxes that cost the
    // same were split 40/60 (docs/TIMING.md §2).
    let expected = 0;
    let measures = 0;
    let refining = false;
    for (let i = 0; i < this.queue.length && measures < PROBES_PER_FRAME * 2; i++) {
      const q = this.queue[i];
      // A new place expects nothing, and so does a first estimate (its cost was paid in the frame that needed it), whose
      // refinement spends the refinements' allowance (below).
      const known = this.estimates[q.flavor].get(q.key);
      if (known !== undefined && known.count === 0) refining = true;
      expected += known === undefined || known.count === 0 ? 0 : known.cost;
      measures += q.sites.length < 2 || q.flavor === PROBE_CONTENT ? 1 : 2;
    }
    // A batch that refines a first estimate goes within an allowance of its own, as the first estimates do: its
    // frame-mates' refresh, measured with it, would otherwise hold it back until the budget grew (1.7 s on the kinds
    // page, where a first reading of 3.35 ms for a 1.2 ms box split the frames 70/23 the whole while).
    if (!this.driftBatch) {
      if (refining) {
        if (this.refineSpentMs > allowed) return false;
      } else if (this.spentMs - this.firstSpentMs - this.driftSpentMs - this.refineSpentMs + expected > allowed) return false;
    }
    // All kinds together: what the bucket holds (a drift's batch, whose own budget `observe` checked, while it holds any).
    const level = this.level();
    if (level <= 0 || (level < expected && !this.driftBatch)) return false;
    this.refineBatch = refining && !this.driftBatch;
    while (this.batch.length < PROBES_PER_FRAME * 2 && this.queue.length > 0) {
      const q = this.queue[0];
      this.queue.shift();
      this.queued[q.flavor].delete(q.key);
      // Weighed by its own frames since it was queued (a grid's first frame alone came after its first estimate).
      if (this.seenLately(q.flavor, q.key)) continue;
      const sites = q.sites.filter((el) => el.isConnected);
      if (sites.length === 0) continue;
      this.batch.push({ q, sites, n: 1, got: [], sum: 0, failed: false, all: 0, turn: -1 });
      if (sites.length < 2 || q.flavor === PROBE_CONTENT) continue;
      // And the sample together: what each further site adds.
      this.batch.push({ q, sites, n: sites.length, got: [], sum: 0, failed: false, all: sites.length, turn: -1 });
    }
    this.batchCost = 0;
    this.cursor = 0;
    return this.batch.length > 0;
  }

  /** The batch is measured: its keys' estimates. */
  private finish(): void {
    const batch = this.batch;
    const at = this.host.now();
    for (let i = 0; i < batch.length; i++) {
      const m = batch[i];
      if (m.all !== 0) continue;
      const all = i + 1 < batch.length && batch[i + 1].q === m.q ? batch[i + 1] : null;
      if (m.failed || m.got.length === 0) continue;
      const one = least(m.got);
      // What each further site adds (a grid's cells whose text or width changes are that many relayouts; 400 spans
      // whose text changes in one line box reshape 400 texts but break the line box once).
      const per = all !== null && !all.failed && all.got.length > 0 && all.all > 1 ? perSite(one, spread(m.got), all.got, all.all) : 0;
      const mine = this.batchCost / batch.length * (all ? 2 : 1);
      const map = this.estimates[m.q.flavor];
      const old = map.get(m.q.key);
      if (old === undefined) map.set(m.q.key, { one, per, at, cost: mine, count: 1 });
      else {
        // The first probe is made when the overlay has just started (code not optimised yet, caches cold: up to twice
        // what later ones read): the second replaces it, the ones after are averaged.
        // A first estimate (count 0, made in the frame that needed it) is replaced too.
        // A batch made because the frames drifted from the estimates measures another regime: it replaces them.
        const w = old.count <= 1 || this.driftBatch ? 1 : 1 / Math.min(old.count, AVERAGED);
        old.one += w * (one - old.one);
        old.per += w * (per - old.per);
        old.at = at;
        old.cost = mine;
        old.count++;
      }
    }
    batch.length = 0;
    if (this.driftBatch) this.drifts++;
    this.driftBatch = false;
    this.refineBatch = false;
    // The estimates changed: the frames after them give the reference again.
    this.resetRatio();
  }

  /** The first `n` sites changed at once: the mean of the two layouts (applied, then cancelled), or −1. */
  private probe(flavor: number, sites: Element[], n: number): number {
    const { win } = this.host;
    const doc = win.document;
    const root = doc.documentElement;
    if (this.animate === null) return -1;
    const anims = this.anims;
    this.host.pause();
    const { targets, frames } = this;
    try {
      // Every element and its keyframes first: each reads computed style, and a read after an animation started
      // restyled the document for it — a style update per site, up to MAX_SAMPLE a probe (3.5 % of the agent's own
      // JS samples at 10 %, docs/PERFORMANCE.md, "Thirty-fifth session").
      for (let i = 0; i < n; i++) {
        const target = this.target(sites[i]);
        if (target === null) continue;
        targets.push(target);
        frames.push(flavor === PROBE_BOX ? this.boxFrames(target) : flavor === PROBE_LEAF ? BOX_PAD
          : flavor === PROBE_TEXT ? (n === 1 ? TEXT_ONE : TEXT_MANY) : CONTENT_PAD);
      }
      for (let i = 0; i < targets.length; i++) anims.push(this.animate.call(targets[i], frames[i] as Keyframe[], OPTIONS));
      if (anims.length === 0) return -1;
      doc.getAnimations();
      const t0 = this.host.now();
      root.getBoundingClientRect();
      const t1 = this.host.now();
      for (const a of anims) a.cancel();
      anims.length = 0;
      doc.getAnimations();
      const t2 = this.host.now();
      root.getBoundingClientRect();
      const t3 = this.host.now();
      this.made++;
      return (t1 - t0 + t3 - t2) / 2;
    } catch (e) {
      this.host.debug('probe', e);
      return -1;
    } finally {
      for (const a of anims) {
        try {
          a.cancel();
        } catch (e) {
          this.host.debug('probe cancel', e);
        }
      }
      anims.length = targets.length = frames.length = 0;
      this.host.resume();
    }
  }

  /** Where padding applies: a row's first cell, a display: contents element's parent; an outer <svg> for SVG. */
  private target(site: Element): Element | null {
    const { win } = this.host;
    let el: Element | null = site;
    for (let g = 0; el !== null && g < 8; g++) {
      if (el instanceof win.SVGElement && !(el instanceof win.SVGSVGElement && el.ownerSVGElement === null)) {
        el = (el as SVGElement).ownerSVGElement ?? el.parentElement;
        continue;
      }
      const display: string = win.getComputedStyle(el).display;
      if (!NO_PADDING.test(display)) return el;
      el = display === 'contents' ? el.parentElement : el.querySelector('td, th') ?? el.parentElement;
    }
    return null;
  }

  /** 1 px off the content width: `width` when it is a fixed content-box length, else 1 px more right padding. */
  private boxFrames(el: Element): unknown[] {
    try {
      const { win } = this.host;
      const map = (el as Element & { computedStyleMap?: () => StylePropertyMapReadOnly }).computedStyleMap?.();
      const w = map?.get('width');
      // Firefox has no computed style map: the padding it is.
      if (w !== undefined && w !== null && typeof win.CSSKeywordValue === 'function' && !(w instanceof win.CSSKeywordValue)
        && this.host.win.getComputedStyle(el).boxSizing === 'content-box') {
        const one = { width: `calc(${String(w).slice(0, 200)} - 1px)` };
        return [one, one];
      }
    } catch (e) {
      this.host.debug('probe width', e);
    }
    return BOX_PAD;
  }

  clear(): void {
    this.forgetSeen();
    for (let f = 0; f < FLAVORS; f++) {
      this.estimates[f] = new WeakMap();
      this.queued[f] = new WeakSet();
    }
    this.queue = [];
    this.batch = [];
    this.cursor = 0;
    this.due = false;
    this.settle();
    this.made = 0;
    this.firsts = 0;
    this.firstLeft = 0;
    this.spentMs = 0;
    this.firstSpentMs = 0;
    this.driftSpentMs = 0;
    this.refineSpentMs = 0;
    this.drifted = this.driftBatch = this.refineBatch = false;
    this.drifts = 0;
    this.seenUsed = 0;
    this.resetRatio();
  }
}
