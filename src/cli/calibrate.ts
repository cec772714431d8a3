/**
 * The calibration pass (issue 43, item 3; docs/TIMING.md, "Calibration"). Chrome's trace names which node invalidated
 * style or layout (invalidation tracking), but a Layout with several causes is one event: Chromium 156 writes no
 * layout roots and no time per root. So the pass makes each cause's change alone, in the page, and times it with
 * Chrome's own trace:
 *
 * - `CALIBRATE_SCRIPT`, evaluated in a page whose overlay is on, watches the DOM with a MutationObserver. Its callback
 *   runs after the script that changed the DOM and before the frame lays out; it groups the batch's changes by the
 *   component that rendered each node (`__LAYOUT_COST__.owner`), undoes all of them, lets the engine lay out the state
 *   before, then redoes one group at a time, forcing style and layout after each between two user-timing marks. The
 *   DOM ends as the page left it; the frame then has nothing of theirs left to lay out.
 * - Before it starts, `measurePass` times what a frame's layout pass costs beyond a replay of the same change, on this
 *   page and machine: a hidden one-line text changed in a frame of its own, then undone and replayed.
 * - `calibrationFromTrace` reads the trace: each group's window's UpdateLayoutTree and Layout ms (and, for a window
 *   that lays out, that pass cost: measured, else PASS_MS, the agent's probes' figure). A change that
 *   invalidates nothing (an `aria-*` no selector reads) leaves no style or layout event in its window; with invalidation
 *   tracking in the trace, a window counts only when Chrome saw its change invalidate something. What a batch's "before"
 *   window costs beyond its replays, and a frame's own style and layout outside every window, go to the components
 *   whose running animations the script listed then.
 *
 * The pass changes what it measures (every batch is laid out twice more), so its milliseconds are not the page's:
 * each component's share of them is the figure. It is measured against Chrome's trace of each change alone by
 * bench/attribution.ts. What it cannot put back (a focused element, media, frames) it does not touch (the batch is
 * skipped and counted).
 *
 * The script is a string (the bundler's helpers do not exist in the page), for browsers driven over CDP: the bench
 * (bench/attribution.ts) and `layout-cost audit --calibrate` (run.ts, calibrated.ts).
 */

import { PASS_MS } from '../protocol/layout-pass';
import { median } from '../inject/agent/experiment/verdict';

/** Where the page keeps the pass (`start()`, `stop()` → its log). */
export const CALIBRATION_KEY = '__LAYOUT_COST_CALIBRATION__';
export const MARK_PREFIX = 'lcc:';
export const ANIM_PREFIX = 'lcc-anim:';
/** Batches measured at most (windows kept in the page). */
export const MAX_WINDOWS = 20_000;
/** Components replayed one by one in a batch; past it, they are replayed by their parent component (a grid's cells). */
export const MAX_GROUPS = 16;
/**
 * Rounds of the pass-cost measurement (`measurePass`), and how many must have read both windows for its figure to stand
 * (else PASS_MS, the probes' figure); the figure is kept within 0 and MAX_PASS_MS (a page laying out its own work in
 * the frames measured reads high).
 */
export const PASS_ROUNDS = 16;
/** How long `measurePass` waits for a frame before it stops (a hidden tab gets none): the pass never waits on it. */
const FRAME_WAIT_MS = 250;
const MIN_PASS_ROUNDS = 5;
export const MAX_PASS_MS = 0.5;

export const CALIBRATE_SCRIPT = String.raw`(() => {
  'use strict';
  const KEY = ${JSON.stringify(CALIBRATION_KEY)};
  if (Object.prototype.hasOwnProperty.call(window, KEY)) return;
  const OPTS = { subtree: true, childList: true, attributes: true, attributeOldValue: true, characterData: true, characterDataOldValue: true };
  const UNSAFE = 'iframe,frame,object,embed,video,audio';
  const st = { on: false, batches: 0, measured: 0, skipped: {}, windows: [], pres: [], anims: [], broken: null };
  const MARK = ${JSON.stringify(MARK_PREFIX)};
  let seq = 0, mo = null, raf = 0;
  const skip = (why) => { st.skipped[why] = (st.skipped[why] || 0) + 1; };
  const owner = (n) => { try { return window.__LAYOUT_COST__.owner(n) | 0; } catch (e) { return 0; } };
  // The components whose running animations are on the page now (null: none).
  const animated = () => {
    let ids = null;
    for (const a of document.getAnimations()) {
      if (a.playState !== 'running' || !a.effect || !a.effect.target) continue;
      const id = owner(a.effect.target);
      if (id === 0) continue;
      if (ids === null) ids = [];
      if (!ids.includes(id)) ids.push(id);
    }
    return ids;
  };
  const flush = () => { void document.documentElement.getBoundingClientRect(); };
  // A replay right after the undo's layout finds the subtree in the CPU's caches, and reads lower than the same change
  // in a frame of its own: a write to every cache line of 16 MB before each replay puts the engine's data out of them.
  let coolant = null;
  const cool = () => {
    if (coolant === null) coolant = new Float64Array(1 << 21);
    for (let k = 0; k < coolant.length; k += 8) coolant[k] += 1;
  };
  const focused = () => { const a = document.activeElement; return a && a !== document.body && a !== document.documentElement ? a : null; };
  const unsafe = (n, f) => n.nodeType === 1 && (n.matches(UNSAFE) || n.querySelector(UNSAFE) !== null || (f !== null && n.contains(f)));
  // Where a record's nodes go back (undo) or go (redo): before its next sibling, else after its previous one.
  const at = (r) => r.nextSibling !== null ? r.nextSibling : r.previousSibling !== null ? r.previousSibling.nextSibling : null;
  const undoList = (r) => {
    for (let i = r.addedNodes.length - 1; i >= 0; i--) { const n = r.addedNodes[i]; if (n.parentNode === r.target) r.target.removeChild(n); }
    const ref = at(r);
    for (const n of r.removedNodes) r.target.insertBefore(n, ref !== null && ref.parentNode === r.target ? ref : null);
  };
  const redoList = (r) => {
    for (const n of r.removedNodes) if (n.parentNode === r.target) r.target.removeChild(n);
    const ref = at(r);
    for (const n of r.addedNodes) r.target.insertBefore(n, ref !== null && ref.parentNode === r.target ? ref : null);
  };
  const setAttr = (el, ns, name, v) => { if (v === null) el.removeAttributeNS(ns, name); else el.setAttributeNS(ns, name, v); };
  function onRecords(records) {
    if (!st.on || st.broken !== null) return;
    st.batches++;
    if (st.windows.length + ${MAX_GROUPS} > ${MAX_WINDOWS}) return skip('cap');
    const groups = new Map();
    const group = (id) => { let g = groups.get(id); if (!g) groups.set(id, g = { attrs: [], texts: [], lists: [] }); return g; };
    const listOwner = new Map();
    const lists = [];
    const seenAttr = new Map();
    const seenText = new Set();
    const f = focused();
    for (const r of records) {
      if (r.type === 'childList') {
        for (const n of r.addedNodes) if (unsafe(n, f)) return skip('a frame, media or the focused element');
        for (const n of r.removedNodes) if (unsafe(n, f)) return skip('a frame, media or the focused element');
        let id = listOwner.get(r.target);
        if (id === undefined) {
          const first = r.addedNodes.length > 0 && r.addedNodes[0].isConnected ? r.addedNodes[0] : r.target;
          id = owner(first);
          listOwner.set(r.target, id);
        }
        group(id).lists.push(r);
        lists.push(r);
      } else if (r.type === 'attributes') {
        let names = seenAttr.get(r.target);
        if (!names) seenAttr.set(r.target, names = new Set());
        const k = (r.attributeNamespace || '') + ' ' + r.attributeName;
        if (names.has(k)) continue;
        names.add(k);
        group(owner(r.target)).attrs.push({ el: r.target, ns: r.attributeNamespace, name: r.attributeName, from: r.oldValue,
          to: r.target.getAttributeNS(r.attributeNamespace, r.attributeName) });
      } else if (r.type === 'characterData') {
        if (seenText.has(r.target)) continue;
        seenText.add(r.target);
        group(owner(r.target)).texts.push({ node: r.target, from: r.oldValue, to: r.target.data });
      }
    }
    if (groups.size === 0) return;
    let plan = [...groups].map(([id, g]) => ({ ids: [id], parts: [g] }));
    if (plan.length > ${MAX_GROUPS}) {
      // Too many to replay one by one: by the component around each (a cell's row or grid), then the rest together.
      const byParent = new Map();
      for (const p of plan) {
        const g = p.parts[0];
        let n = g.lists.length > 0 ? g.lists[0].target : g.attrs.length > 0 ? g.attrs[0].el : g.texts.length > 0 ? g.texts[0].node : null;
        let up = 0;
        for (let k = 0; n !== null && k < 64; k++) {
          const o = owner(n);
          if (o !== 0 && o !== p.ids[0]) { up = o; break; }
          n = n.parentNode;
        }
        let q = byParent.get(up);
        if (!q) byParent.set(up, q = { ids: [], parts: [] });
        q.ids.push(p.ids[0]);
        q.parts.push(g);
      }
      plan = [...byParent.values()];
      if (plan.length > ${MAX_GROUPS}) {
        const rest = { ids: [], parts: [] };
        for (const p of plan.splice(${MAX_GROUPS} - 1)) { rest.ids.push(...p.ids); rest.parts.push(...p.parts); }
        plan.push(rest);
      }
    }
    // In turns: what a replay leaves warm for the next one falls on each component alike (the components of a batch
    // are mostly the same from one to the next).
    if (plan.length > 1) plan = plan.slice(seq % plan.length).concat(plan.slice(0, seq % plan.length));
    // A running animation's style and layout are pending before the batch: laid out with the state before it below.
    const animIds = animated();
    const after = new Map();
    for (const r of lists) if (!after.has(r.target)) after.set(r.target, Array.from(r.target.childNodes));
    const s = ++seq;
    try {
      for (let i = lists.length - 1; i >= 0; i--) undoList(lists[i]);
      for (const g of groups.values()) {
        for (const a of g.attrs) setAttr(a.el, a.ns, a.name, a.from);
        for (const t of g.texts) t.node.data = t.from;
      }
      if (animIds !== null) performance.mark(MARK + s + ':pre');
      flush();
      if (animIds !== null) {
        performance.mark(MARK + s + ':pre:end');
        st.pres.push([s, animIds]);
      }
      let i = 0;
      for (const p of plan) {
        cool();
        performance.mark(MARK + s + ':' + i);
        for (const g of p.parts) {
          for (const r of g.lists) redoList(r);
          for (const a of g.attrs) setAttr(a.el, a.ns, a.name, a.to);
          for (const t of g.texts) t.node.data = t.to;
        }
        flush();
        performance.mark(MARK + s + ':' + i + ':end');
        st.windows.push([s, i, p.ids.slice(0, 1000)]);
        i++;
      }
      st.measured++;
    } catch (e) {
      st.broken = String(e && e.message || e).slice(0, 200);
    }
    // The DOM is as the page left it, or the pass stops (the page's state is what it was when it stops).
    for (const [target, kids] of after) {
      const now = target.childNodes;
      let same = now.length === kids.length;
      for (let j = 0; same && j < kids.length; j++) same = now[j] === kids[j];
      if (!same) { target.replaceChildren(...kids); if (st.broken === null) st.broken = 'a child list could not be replayed'; }
    }
    mo.takeRecords();
  }
  // What a frame's layout pass costs beyond a replay of the same change, on this page and machine: a one-line text at
  // the end of <body> (absolutely placed, hidden) changed in a frame of its own, then the same change undone and
  // replayed as a batch's are (cache writes, forced layout). Before start(): the observer sees none of it.
  // A frame, or false when none came within FRAME_WAIT_MS (a hidden tab has none): the measurement stops there.
  const nextFrame = () => new Promise((r) => {
    const t = setTimeout(() => r(false), ${FRAME_WAIT_MS});
    requestAnimationFrame(() => { clearTimeout(t); r(true); });
  });
  async function measurePass() {
    if (st.on || !document.body) return 0;
    const el = document.createElement('div');
    el.setAttribute('aria-hidden', 'true');
    el.style.cssText = 'position:absolute;left:0;top:0;visibility:hidden;pointer-events:none;white-space:nowrap';
    const text = document.createTextNode('lcc');
    el.appendChild(text);
    let n = 0;
    try {
      document.body.appendChild(el);
      flush();
      if (!(await nextFrame())) return 0;
      for (let i = 0; i < ${PASS_ROUNDS}; i++) {
        if (!(await nextFrame())) break;
        const before = text.data, after = 'lcc ' + i + ' ' + 'm'.repeat(1 + (i % 5));
        performance.mark(MARK + 'pass:frame:' + i);
        text.data = after;
        if (!(await nextFrame())) break;
        performance.mark(MARK + 'pass:frame:' + i + ':end');
        text.data = before;
        flush();
        cool();
        performance.mark(MARK + 'pass:replay:' + i);
        text.data = after;
        flush();
        performance.mark(MARK + 'pass:replay:' + i + ':end');
        n++;
      }
    } finally {
      el.remove();
    }
    return n;
  }
  function frame() {
    if (!st.on) return;
    raf = requestAnimationFrame(frame);
    const ids = animated();
    if (ids !== null && st.anims.length < ${MAX_WINDOWS}) {
      st.anims.push(ids);
      performance.mark(${JSON.stringify(ANIM_PREFIX)} + (st.anims.length - 1));
    }
  }
  Object.defineProperty(window, KEY, { value: Object.freeze({
    measurePass,
    start() {
      if (st.on) return;
      st.on = true;
      mo = new MutationObserver(onRecords);
      mo.observe(document, OPTS);
      raf = requestAnimationFrame(frame);
    },
    stop() {
      st.on = false;
      coolant = null;
      if (mo) { mo.disconnect(); mo = null; }
      cancelAnimationFrame(raf);
      return { batches: st.batches, measured: st.measured, skipped: Object.assign({}, st.skipped), windows: st.windows.slice(),
        pres: st.pres.slice(), anims: st.anims.slice(), broken: st.broken };
    },
  }) });
})();`;

/** What the page's script hands back: checked before it is read (the page could have replaced it). */
export interface CalibrationLog {
  batches: number;
  measured: number;
  skipped: Record<string, number>;
  /** [batch, group, component ids] per timed window (several: replayed together, split evenly). */
  windows: [number, number, number[]][];
  /** [batch, ids]: the batch's state before was laid out in a window of its own, with these components' animations pending. */
  pres: [number, number[]][];
  /** Per animation mark: the ids of the components whose running animations were listed. */
  anims: number[][];
  broken: string | null;
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

export function calibrationLogValidator(raw: unknown): CalibrationLog | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<string, unknown>;
  if (!isCount(r.batches) || !isCount(r.measured)) return null;
  if (!Array.isArray(r.windows) || r.windows.length > MAX_WINDOWS || !Array.isArray(r.anims) || r.anims.length > MAX_WINDOWS) return null;
  const ids = (v: unknown): number[] | null => (Array.isArray(v) && v.length > 0 && v.length <= 1000 && v.every(isCount) ? v.slice() : null);
  const windows: [number, number, number[]][] = [];
  for (const w of r.windows) {
    if (!Array.isArray(w) || w.length !== 3 || !isCount(w[0]) || !isCount(w[1])) return null;
    const list = ids(w[2]);
    if (list === null) return null;
    windows.push([w[0], w[1], list]);
  }
  const pres: [number, number[]][] = [];
  if (!Array.isArray(r.pres) || r.pres.length > MAX_WINDOWS) return null;
  for (const p of r.pres) {
    if (!Array.isArray(p) || p.length !== 2 || !isCount(p[0])) return null;
    const list = ids(p[1]);
    if (list === null) return null;
    pres.push([p[0], list]);
  }
  const anims: number[][] = [];
  for (const a of r.anims) {
    if (!Array.isArray(a) || a.length > 1000 || !a.every(isCount)) return null;
    anims.push(a.slice());
  }
  const skipped: Record<string, number> = {};
  if (typeof r.skipped === 'object' && r.skipped !== null) {
    for (const [k, v] of Object.entries(r.skipped).slice(0, 10)) if (isCount(v)) skipped[k.slice(0, 80)] = v;
  }
  const broken = typeof r.broken === 'string' ? r.broken.slice(0, 200) : null;
  return { batches: r.batches, measured: r.measured, skipped, windows, pres, anims, broken };
}

export interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
}

/**
 * One component's calibrated figures: Chrome's ms for its changes made alone, each window that laid out with the pass
 * cost more (what a frame's layout pass costs beyond a replay of it: `Calibration.passMs`).
 */
export interface CalibratedComponent {
  layoutMs: number;
  styleMs: number;
  /** Windows its changes were replayed in; of those, the ones Chrome saw invalidate layout (style). */
  windows: number;
  layoutCauses: number;
  styleCauses: number;
  /** Of layoutMs and styleMs, what came from its running animations (frames outside every window). */
  animationMs: number;
}

export interface Calibration {
  /** By component id (0: nodes no component rendered). */
  components: Map<number, CalibratedComponent>;
  /** A frame's style and layout outside every window with no animation listed: split by nobody. */
  unexplainedMs: number;
  batches: number;
  measured: number;
  skipped: Record<string, number>;
  broken: string | null;
  /** Windows whose marks were missing from the trace (a mark dropped: the window is not counted). */
  lostWindows: number;
  /** What each replay window that lays out weighed more (ms): measured on the page (`passRounds` rounds), or PASS_MS. */
  passMs: number;
  passRounds: number;
}

/** What `audit --calibrate` reports, per component type (calibrated.ts makes it). */
export interface TypeCalibration {
  name: string;
  /** Shares of the calibrated ms (the pass) and of the overlay's own ms (the judged recording), 0‥1. */
  layoutShare: number;
  styleShare: number;
  overlayLayoutShare: number;
  overlayStyleShare: number;
  /** What its own figures were multiplied by (null: left as they were). */
  layoutFactor: number | null;
  styleFactor: number | null;
}

export interface CalibrationReport {
  batches: number;
  measured: number;
  skipped: Record<string, number>;
  lostWindows: number;
  broken: string | null;
  /** The pass's frame style and layout that no replay and no animation explained. */
  unexplainedMs: number;
  /** What each replay that laid out weighed more (ms), and the rounds it was measured in on the page (0: PASS_MS). */
  passMs: number;
  passRounds: number;
  types: TypeCalibration[];
}

const STYLE = 'UpdateLayoutTree';
const LAYOUT = 'Layout';
/** JS on the main thread: a Layout inside one was forced by script (the page's or ours), not the frame's own. */
const SCRIPT = new Set(['FunctionCall', 'EvaluateScript', 'FireAnimationFrame', 'TimerFire', 'EventDispatch', 'RunMicrotasks',
  'v8.callFunction', 'FireIdleCallback', 'v8.run', 'ParseHTML']);
const STYLE_INVALIDATIONS = new Set(['StyleRecalcInvalidationTracking', 'StyleInvalidatorInvalidationTracking', 'ScheduleStyleInvalidationTracking']);
const LAYOUT_INVALIDATIONS = new Set(['LayoutInvalidationTracking']);

/**
 * The calibrated figures from the pass's trace and the page's log. Pure (unit-tested). `events` is the whole trace;
 * the thread is the one that made the marks.
 */
export function calibrationFromTrace(events: readonly TraceEvent[], log: CalibrationLog): Calibration {
  const out: Calibration = {
    components: new Map(), unexplainedMs: 0, batches: log.batches, measured: log.measured, skipped: log.skipped,
    broken: log.broken, lostWindows: 0, passMs: PASS_MS, passRounds: 0,
  };
  const marks = new Map<string, TraceEvent>();
  let thread: { pid: number; tid: number } | null = null;
  for (const e of events) {
    if ((e.ph === 'R' || e.ph === 'I' || e.ph === 'n' || e.ph === 'b') && e.cat.includes('user_timing')
      && (e.name.startsWith(MARK_PREFIX) || e.name.startsWith(ANIM_PREFIX))) {
      marks.set(e.name, e);
      thread ??= { pid: e.pid, tid: e.tid };
    }
  }
  if (thread === null) {
    out.lostWindows = log.windows.length;
    return out;
  }
  const mine = events.filter((e) => e.pid === thread!.pid && e.tid === thread!.tid).sort((a, b) => a.ts - b.ts);
  // Outermost style and layout, and the invalidations, in time order.
  const work: TraceEvent[] = [];
  let cover = -Infinity;
  for (const e of mine) {
    if (e.ph !== 'X' || (e.name !== STYLE && e.name !== LAYOUT)) continue;
    const end = e.ts + (e.dur ?? 0);
    if (end <= cover) continue;
    cover = end;
    work.push(e);
  }
  const scripts = mine.filter((e) => e.ph === 'X' && SCRIPT.has(e.name));
  const invalidations = mine.filter((e) => STYLE_INVALIDATIONS.has(e.name) || LAYOUT_INVALIDATIONS.has(e.name));
  const tracking = invalidations.length > 0;
  const comp = (id: number): CalibratedComponent => {
    let c = out.components.get(id);
    if (!c) out.components.set(id, c = { layoutMs: 0, styleMs: 0, windows: 0, layoutCauses: 0, styleCauses: 0, animationMs: 0 });
    return c;
  };
  const inWindow: boolean[] = new Array(work.length).fill(false);
  // Sorted by start: the windows, then a binary search into the work and the invalidations.
  const lowerBound = (list: readonly TraceEvent[], ts: number): number => {
    let lo = 0, hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid].ts < ts) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  /** Style and layout ms between two marks (the work in them marked as explained), and the invalidations in them. */
  const windowOf = (from: string, to: string) => {
    const a = marks.get(from);
    const b = marks.get(to);
    if (!a || !b) return null;
    let style = 0, layout = 0, styleInv = 0, layoutInv = 0;
    for (let i = lowerBound(work, a.ts); i < work.length && work[i].ts <= b.ts; i++) {
      inWindow[i] = true;
      if (work[i].name === LAYOUT) layout += (work[i].dur ?? 0) / 1000;
      else style += (work[i].dur ?? 0) / 1000;
    }
    for (let i = lowerBound(invalidations, a.ts); i < invalidations.length && invalidations[i].ts <= b.ts; i++) {
      if (LAYOUT_INVALIDATIONS.has(invalidations[i].name)) layoutInv++;
      else styleInv++;
    }
    return { style, layout, styleInv, layoutInv };
  };
  // The pass cost (`measurePass`): each round's frame layout less its replay's, the median, when enough rounds read both.
  const passDiffs: number[] = [];
  for (let i = 0; i < PASS_ROUNDS; i++) {
    const inFrame = windowOf(`${MARK_PREFIX}pass:frame:${i}`, `${MARK_PREFIX}pass:frame:${i}:end`);
    const replay = windowOf(`${MARK_PREFIX}pass:replay:${i}`, `${MARK_PREFIX}pass:replay:${i}:end`);
    if (inFrame !== null && replay !== null && inFrame.layout > 0 && replay.layout > 0) passDiffs.push(inFrame.layout - replay.layout);
  }
  out.passRounds = passDiffs.length;
  if (passDiffs.length >= MIN_PASS_ROUNDS) out.passMs = Math.min(MAX_PASS_MS, Math.max(0, median(passDiffs)));
  // What each batch's replays add up to: the part of its "before" window they do not explain is its animations'.
  const replayed = new Map<number, { style: number; layout: number }>();
  for (const [batch, group, ids] of log.windows) {
    const w = windowOf(`${MARK_PREFIX}${batch}:${group}`, `${MARK_PREFIX}${batch}:${group}:end`);
    if (w === null) {
      out.lostWindows++;
      continue;
    }
    // With invalidation tracking in the trace, a window's ms count only when Chrome saw the change invalidate something
    // (a layout invalidation comes with the style change that made it). Without it, a change that invalidates nothing
    // leaves its window with no style or layout event at all.
    const causesLayout = tracking ? w.layoutInv > 0 : w.layout > 0;
    const causesStyle = tracking ? w.styleInv > 0 || w.layoutInv > 0 : w.style > 0;
    // A replay's layout pass, forced right after the cache writes, reads the fixed work of a frame's pass low (small
    // changes most: a light cell 0.09 against 0.23 ms alone): each window that lays out weighs it once more (measured
    // on the page, else the figure the agent's probes use).
    const layout = causesLayout ? w.layout + out.passMs : 0;
    const style = causesStyle ? w.style : 0;
    const sum = replayed.get(batch) ?? { style: 0, layout: 0 };
    sum.style += w.style;
    sum.layout += w.layout;
    replayed.set(batch, sum);
    for (const id of ids) {
      const c = comp(id);
      c.windows++;
      if (causesLayout) c.layoutCauses++;
      if (causesStyle) c.styleCauses++;
      c.layoutMs += layout / ids.length;
      c.styleMs += style / ids.length;
    }
  }
  for (const [batch, ids] of log.pres) {
    const w = windowOf(`${MARK_PREFIX}${batch}:pre`, `${MARK_PREFIX}${batch}:pre:end`);
    if (w === null) {
      out.lostWindows++;
      continue;
    }
    const sum = replayed.get(batch) ?? { style: 0, layout: 0 };
    const layout = Math.max(0, w.layout - sum.layout);
    const style = Math.max(0, w.style - sum.style);
    for (const id of ids) {
      const c = comp(id);
      c.layoutMs += layout / ids.length;
      c.styleMs += style / ids.length;
      c.animationMs += (layout + style) / ids.length;
    }
  }
  // The frame's own style and layout outside every window: an animation's, when the script listed one before it.
  const animMarks = [...marks.values()].filter((m) => m.name.startsWith(ANIM_PREFIX)).sort((x, y) => x.ts - y.ts);
  let s = 0;
  for (let i = 0; i < work.length; i++) {
    if (inWindow[i]) continue;
    const e = work[i];
    while (s < scripts.length && scripts[s].ts + (scripts[s].dur ?? 0) < e.ts) s++;
    let forced = false;
    for (let j = s; j < scripts.length && scripts[j].ts <= e.ts; j++) {
      if (scripts[j].ts + (scripts[j].dur ?? 0) >= e.ts + (e.dur ?? 0)) {
        forced = true;
        break;
      }
    }
    if (forced) continue;
    const ms = (e.dur ?? 0) / 1000;
    // The last animation mark at most one frame (50 ms) before.
    const k = lowerBound(animMarks, e.ts) - 1;
    const mark = k >= 0 && e.ts - animMarks[k].ts <= 50_000 ? animMarks[k] : null;
    const ids = mark === null ? null : log.anims[Number(mark.name.slice(ANIM_PREFIX.length))];
    if (!ids || ids.length === 0) {
      out.unexplainedMs += ms;
      continue;
    }
    for (const id of ids) {
      const c = comp(id);
      if (e.name === LAYOUT) c.layoutMs += ms / ids.length;
      else c.styleMs += ms / ids.length;
      c.animationMs += ms / ids.length;
    }
  }
  return out;
}

/**
 * Categories the pass traces: the timeline and the marks. Not invalidation tracking
 * (`disabled-by-default-devtools.timeline.invalidationTracking`): it writes an event with a script stack for every
 * node the page, the undo and the replay touch — on the attribution bench's 490-cell grid Chrome's 400 MB buffer was
 * full after 35 frames (290 000 events), and the rest of the pass was lost. `calibrationFromTrace` reads it when a
 * trace has it (a trace recorded by other means, over a short pass).
 */
export const CALIBRATION_CATEGORIES = ['devtools.timeline', 'blink.user_timing'];

/**
 * Splits the trace's JSON (`{"traceEvents":[{…},{…}]}`, hundreds of MB with invalidation tracking's stacks) into its
 * events' texts as it streams in, so that only the events the pass reads are ever parsed.
 */
export class EventSplitter {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private current: string[] = [];
  private start = -1;
  private inArray = false;

  constructor(private readonly onEvent: (text: string) => void) {}

  push(chunk: string): void {
    let from = this.start >= 0 ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 92) this.escaped = true; // \
        else if (c === 34) this.inString = false; // "
        continue;
      }
      if (c === 34) this.inString = true;
      else if (c === 123 || c === 91) { // { [
        this.depth++;
        if (this.depth === 2) this.inArray = c === 91;
        // An event: an object in the array two levels in ({"traceEvents":[ here ), the form Chrome's stream has.
        if (c === 123 && this.depth === 3 && this.inArray) {
          this.start = i;
          from = i;
          this.current = [];
        }
      } else if (c === 125 || c === 93) { // } ]
        if (c === 125 && this.depth === 3 && from >= 0) {
          this.current.push(chunk.slice(from, i + 1));
          this.onEvent(this.current.join(''));
          this.current = [];
          this.start = -1;
          from = -1;
        }
        this.depth--;
      }
    }
    if (from >= 0) {
      this.current.push(chunk.slice(from));
      this.start = 0;
    }
  }
}

/** Names of the events the pass reads; invalidations are kept without their data (their stacks are most of the trace). */
const KEPT = new Set([STYLE, LAYOUT, ...SCRIPT, ...STYLE_INVALIDATIONS, ...LAYOUT_INVALIDATIONS]);

function keptEvent(text: string): TraceEvent | null {
  const at = text.indexOf('"name":"');
  if (at < 0) return null;
  const name = text.slice(at + 8, text.indexOf('"', at + 8));
  const mark = name.startsWith(MARK_PREFIX) || name.startsWith(ANIM_PREFIX);
  if (!mark && !KEPT.has(name)) return null;
  try {
    const e = JSON.parse(text) as TraceEvent;
    if (typeof e.ts !== 'number' || typeof e.cat !== 'string') return null;
    return { name: e.name, cat: e.cat, ph: e.ph, ts: e.ts, dur: e.dur, pid: e.pid, tid: e.tid };
  } catch {
    return null;
  }
}

/** What of a puppeteer page the pass needs (a CDP session for the trace, string evaluation). */
interface CdpLike {
  send(method: string, params?: object): Promise<unknown>;
  on(event: string, fn: (e: unknown) => void): unknown;
  off(event: string, fn: (e: unknown) => void): unknown;
  detach(): Promise<void>;
}
interface TracedPage {
  evaluate(expression: string): Promise<unknown>;
  createCDPSession(): Promise<CdpLike>;
}

/** Invalidation tracking writes an event per invalidated element: a restyle of 4 000 rows fills Chrome's default buffer. */
const TRACE_BUFFER_KB = 400_000;
const TRACE_SETTLE_MS = 500;

/**
 * A trace of `body` with the calibration's categories in a buffer big enough for invalidation tracking, read back as
 * a stream (Chrome drops what does not fit: a window whose marks were dropped is counted as lost, not guessed).
 */
export async function traceCalibration(page: TracedPage, body: () => Promise<void>): Promise<TraceEvent[]> {
  const cdp = await page.createCDPSession();
  try {
    const complete = new Promise<{ stream?: string }>((resolve) => {
      const on = (e: unknown): void => {
        cdp.off('Tracing.tracingComplete', on);
        resolve(e as { stream?: string });
      };
      cdp.on('Tracing.tracingComplete', on);
    });
    await cdp.send('Tracing.start', {
      transferMode: 'ReturnAsStream',
      traceConfig: { recordMode: 'recordUntilFull', traceBufferSizeInKb: TRACE_BUFFER_KB, includedCategories: CALIBRATION_CATEGORIES },
    });
    // The renderer starts recording a moment after the browser answers: marks made at once were lost.
    await new Promise((r) => setTimeout(r, TRACE_SETTLE_MS));
    let failed: unknown = null;
    try {
      await body();
    } catch (e) {
      failed = e;
    }
    await cdp.send('Tracing.end');
    const { stream } = await complete;
    if (failed !== null) throw failed;
    if (!stream) return [];
    const events: TraceEvent[] = [];
    const split = new EventSplitter((text) => {
      const e = keptEvent(text);
      if (e !== null) events.push(e);
    });
    for (;;) {
      const r = await cdp.send('IO.read', { handle: stream, size: 1 << 20 }) as { data: string; eof: boolean; base64Encoded?: boolean };
      split.push(r.base64Encoded ? Buffer.from(r.data, 'base64').toString('utf8') : r.data);
      if (r.eof) break;
    }
    await cdp.send('IO.close', { handle: stream });
    return events;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/**
 * The pass in a page already showing its components (the overlay on): the script, the trace over `body` (the steps),
 * the figures. Throws when the page's log is not what the script writes.
 */
export async function calibrateOver(page: TracedPage, body: () => Promise<void>): Promise<Calibration> {
  await page.evaluate(CALIBRATE_SCRIPT);
  let raw: unknown = null;
  const events = await traceCalibration(page, async () => {
    await page.evaluate(`window.${CALIBRATION_KEY}.measurePass()`);
    await page.evaluate(`window.${CALIBRATION_KEY}.start()`);
    try {
      await body();
    } finally {
      raw = await page.evaluate(`window.${CALIBRATION_KEY}.stop()`);
    }
  });
  const log = calibrationLogValidator(raw);
  if (log === null) throw new Error('the calibration pass left no readable log in the page');
  return calibrationFromTrace(events, log);
}
