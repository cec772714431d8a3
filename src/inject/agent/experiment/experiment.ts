/**
 * A containment experiment on the live page (docs/DIAGNOSE.md). A CSS
 * declaration goes on a component's top host elements through one adopted
 * style sheet whose only rule selects a generated attribute; the attribute is
 * set on those hosts for the experiment's length and removed afterwards, with
 * the sheet, so the page's own style sheets and DOM are never touched (the
 * agent's MutationObserver watches children only, and React never sees an
 * attribute it did not set).
 *
 * The sheet is switched on and off (`disabled`) between blocks of the page's
 * own frames in ABBA order (off, on, on, off, …), so a page whose work drifts
 * weighs on both sides alike; the first frame after each switch carries the
 * switch's own restyle and is not counted. Before the first block the boxes
 * of the hosts and of their first descendants are read with the sheet off and
 * on, in one task (the page cannot change in between): a box that moved or
 * resized means the declaration changes what the page shows, and such a
 * declaration is never called faster (verdict.ts). The same comparison runs
 * again after the last block.
 *
 * Everything here is the agent's own work (clock), and its layout reads are
 * not the page's forced reflows (forced.pause()).
 *
 * Then, where the content script can take screenshots (the top frame), the
 * area of those boxes is captured three times — off, on, off — before the
 * first block: pixels the same in both "off" captures but not in the "on" one
 * changed because of the declaration (background/pixel-diff.ts). Frames in
 * that phase are not counted. Only for experiments the developer started in
 * the DevTools panel: a count derived from screenshots of the tab (which
 * may show cross-origin frames) is never handed to the page's own script,
 * which can call `__LAYOUT_COST__.experiment()` itself.
 */
import type { PixelAnswer } from '../../../protocol';
import type { ExperimentBlock, ExperimentOutcome, ExperimentRequest } from '../../../protocol/experiment';
import { figures, judge, type FrameSample } from './verdict';

/** Frames per block; the block count is frames / BLOCK_FRAMES, rounded up to even (ABBA). */
const BLOCK_FRAMES = 10;
/** An experiment gives up waiting for frames after this long without one… */
const IDLE_MS = 3_000;
/** …and ends after this long per requested frame, whatever it has. */
const MS_PER_FRAME_LIMIT = 250;
const MIN_DURATION_MS = 15_000;
/** Elements whose boxes are compared: the top hosts and their descendants, breadth first. */
const MAX_BOXES = 400;
/** A box that moved or resized by more than this (CSS px) has changed. */
const BOX_EPSILON = 0.01;
export const EXPERIMENT_ATTRIBUTE = 'data-layout-cost-experiment';

export interface ExperimentHost {
  readonly win: Window & typeof globalThis;
  now(): number;
  /** The component's top host elements now (empty: unknown id or no DOM). */
  hostsOf(id: number): Element[];
  /** Our own layout reads run between these (not page forced reflows). */
  pause(): void;
  resume(): void;
  /** A screenshot step (0 off, 1 on, 2 off) of a viewport rect, through the content script and the worker. */
  capture(step: number, rect: number[]): Promise<PixelAnswer>;
  debug(...args: unknown[]): void;
}

interface Running {
  req: ExperimentRequest;
  hosts: Element[];
  roots: (Document | ShadowRoot)[];
  sheet: CSSStyleSheet;
  token: string;
  /** The sheet is on for the current block. */
  applied: boolean;
  block: number;
  blocks: number;
  blockFrames: number;
  discard: boolean;
  lastEnd: number;
  blockStart: number;
  before: FrameSample[];
  after: FrameSample[];
  windows: ExperimentBlock[];
  boxesCompared: number;
  boxesChanged: number;
  /** The union of the compared boxes, off and on (viewport CSS px: x, y, w, h); null when none showed. */
  area: number[] | null;
  /** Screenshots first, then the measured blocks. */
  phase: 'pixels' | 'measure';
  pixelsCompared: number;
  pixelsChanged: number | null;
  pixelNote: string | null;
  boundary: string | null;
  selector: string;
  scroll: [number, number];
  idleTimer: ReturnType<typeof setTimeout> | null;
  deadline: number;
  done: (o: ExperimentOutcome) => void;
}

let tokens = 0;

export class ExperimentRunner {
  private run: Running | null = null;

  constructor(private readonly host: ExperimentHost) {}

  get busy(): boolean {
    return this.run !== null;
  }

  /** `pixels`: compare screenshots too (experiments the developer started in the panel only; see the file comment). */
  start(req: ExperimentRequest, pixels: boolean, done: (o: ExperimentOutcome) => void): void {
    if (this.run !== null) {
      done({ ok: false, error: 'another experiment is running on this page' });
      return;
    }
    const { win } = this.host;
    const hosts = this.host.hostsOf(req.id).filter((h) => h.isConnected);
    if (hosts.length === 0) {
      done({ ok: false, error: `component ${req.id} is not mounted or has no DOM of its own` });
      return;
    }
    const token = `${++tokens}`;
    let sheet: CSSStyleSheet;
    // content-visibility: auto without a placeholder size would collapse the box while skipped: give it its size now.
    if (/content-visibility\s*:\s*auto/i.test(req.css) && !/contain-intrinsic-size/i.test(req.css)) {
      this.host.pause();
      try {
        const r = hosts[0].getBoundingClientRect();
        req = { ...req, css: `${req.css.replace(/;\s*$/, '')}; contain-intrinsic-size: auto ${Math.round(r.width)}px ${Math.round(r.height)}px` };
      } finally {
        this.host.resume();
      }
    }
    try {
      sheet = new win.CSSStyleSheet();
      sheet.replaceSync(`[${EXPERIMENT_ATTRIBUTE}="${token}"] { ${req.css} }`);
      const rule = sheet.cssRules[0] as CSSStyleRule | undefined;
      if (!rule || rule.style.length === 0) {
        done({ ok: false, error: `the browser accepts none of "${req.css}"` });
        return;
      }
    } catch (e) {
      done({ ok: false, error: `the declaration could not be applied (${String((e as Error)?.message ?? e).slice(0, 100)})` });
      return;
    }
    sheet.disabled = true;
    const roots: (Document | ShadowRoot)[] = [];
    for (const h of hosts) {
      const r = h.getRootNode();
      if ((r instanceof win.Document || r instanceof win.ShadowRoot) && !roots.includes(r)) roots.push(r);
    }
    for (const r of roots) r.adoptedStyleSheets = [...r.adoptedStyleSheets, sheet];
    for (const h of hosts) h.setAttribute(EXPERIMENT_ATTRIBUTE, token);
    const blocks = Math.max(2, 2 * Math.ceil(req.frames / BLOCK_FRAMES / 2));
    const now = this.host.now();
    const run: Running = {
      req, hosts, roots, sheet, token, applied: false, block: 0, blocks, blockFrames: 0, discard: true, lastEnd: now, blockStart: now,
      before: [], after: [], windows: [], boxesCompared: 0, boxesChanged: 0, area: null, phase: 'pixels',
      pixelsCompared: 0, pixelsChanged: null, pixelNote: null, boundary: null, selector: selectorOf(hosts[0]),
      scroll: [win.scrollX, win.scrollY], idleTimer: null, deadline: now + Math.max(MIN_DURATION_MS, req.frames * MS_PER_FRAME_LIMIT), done,
    };
    this.run = run;
    this.host.pause();
    try {
      run.boundary = boundaryOf(win, hosts);
      this.compareBoxes(run);
    } catch (e) {
      this.host.debug('experiment boxes', e);
    } finally {
      this.host.resume();
    }
    if (pixels) void this.comparePixels(run);
    else {
      run.pixelNote = 'they are compared for experiments started in the DevTools panel only';
      this.beginBlocks(run);
    }
  }

  /** The measured blocks begin (after the screenshots, if any). */
  private beginBlocks(run: Running): void {
    run.sheet.disabled = true;
    run.applied = false;
    run.phase = 'measure';
    run.discard = true;
    this.armIdle(run);
  }

  /** The screenshot phase (see the file comment); then the measured blocks begin. */
  private async comparePixels(run: Running): Promise<void> {
    // A component that changes on its own between screenshots (a ticker) cannot be compared pixel by pixel: its
    // own change would be taken for the declaration's. Its DOM is watched while they are taken.
    let moved = false;
    const watch = new this.host.win.MutationObserver((records) => {
      if (records.some((r) => r.attributeName !== EXPERIMENT_ATTRIBUTE)) moved = true;
    });
    try {
      for (const h of run.hosts) watch.observe(h, { subtree: true, childList: true, characterData: true, attributes: true });
      const area = run.area;
      if (area === null) run.pixelNote = 'nothing of it on screen';
      for (let step = 0; step < 3 && area !== null; step++) {
        run.sheet.disabled = step !== 1;
        const a = await this.host.capture(step, area);
        if (this.run !== run) return;
        if (!a.ok) {
          run.pixelNote = a.error ?? 'no screenshot';
          break;
        }
        if (step === 2) {
          run.pixelsCompared = a.pixelsCompared;
          run.pixelsChanged = a.pixelsChanged;
        }
      }
      if (watch.takeRecords().some((r) => r.attributeName !== EXPERIMENT_ATTRIBUTE)) moved = true;
      if (moved && run.pixelNote === null) {
        run.pixelNote = 'it changed on its own while they were taken';
        run.pixelsChanged = null;
        run.pixelsCompared = 0;
      }
    } catch (e) {
      this.host.debug('experiment pixels', e);
      run.pixelNote = 'no screenshot';
      run.pixelsChanged = null;
    } finally {
      watch.disconnect();
    }
    if (this.run !== run) return;
    this.beginBlocks(run);
  }

  /** One measured frame of the page (pipeline.ts, at frame end). */
  frame(sample: FrameSample, end: number): void {
    const run = this.run;
    if (run === null || run.phase !== 'measure') return;
    this.armIdle(run);
    if (run.discard) {
      // The frame after a switch carries the switch's restyle: not counted; the block starts after it.
      run.discard = false;
      run.lastEnd = end;
      run.blockStart = end;
    } else {
      (run.applied ? run.after : run.before).push(sample);
      run.blockFrames++;
      run.lastEnd = end;
    }
    if (run.blockFrames >= BLOCK_FRAMES) this.nextBlock(run);
    else if (end >= run.deadline) this.finish(run);
  }

  /** Stops now (the overlay was turned off, the page is going away): the page is restored, the caller told. */
  abort(reason: string): void {
    const run = this.run;
    if (run === null) return;
    this.cleanup(run);
    run.done({ ok: false, error: reason });
  }

  private nextBlock(run: Running): void {
    run.windows.push({ applied: run.applied, start: run.blockStart, end: run.lastEnd, frames: run.blockFrames });
    run.block++;
    run.blockFrames = 0;
    if (run.block >= run.blocks || run.lastEnd >= run.deadline) {
      this.finish(run);
      return;
    }
    // ABBA: off on on off off on …
    const applied = (run.block & 3) === 1 || (run.block & 3) === 2;
    if (applied !== run.applied) {
      run.applied = applied;
      run.sheet.disabled = !applied;
      run.discard = true;
    } else {
      run.blockStart = run.lastEnd;
    }
  }

  private finish(run: Running): void {
    if (run.blockFrames > 0) run.windows.push({ applied: run.applied, start: run.blockStart, end: run.lastEnd, frames: run.blockFrames });
    this.host.pause();
    try {
      if (run.hosts.every((h) => h.isConnected)) this.compareBoxes(run);
    } catch (e) {
      this.host.debug('experiment boxes', e);
    } finally {
      this.host.resume();
    }
    this.cleanup(run);
    const minFrames = Math.max(5, Math.floor(run.req.frames / 4));
    const j = judge(run.before, run.after, minFrames, run.boxesChanged, run.pixelsChanged);
    const reason = run.pixelNote === null ? j.reason : `${j.reason} (pixels not compared: ${run.pixelNote})`;
    const before = figures(run.before), after = figures(run.after);
    const total = (f: typeof before): number => f.styleMs + f.layoutMs + f.forcedMs;
    run.done({
      ok: true,
      result: {
        id: run.req.id, name: '', css: run.req.css, selector: run.selector, before, after, speedup: j.speedup,
        spread: Math.max(0, total(before) - total(after)), boundary: run.boundary,
        boxesCompared: run.boxesCompared, boxesChanged: run.boxesChanged, pixelsCompared: run.pixelsCompared,
        pixelsChanged: run.pixelsChanged, verdict: j.verdict, reason: reason.slice(0, 300), blocks: run.windows.slice(0, 200),
      },
    });
  }

  /** Takes everything of ours off the page and puts its scroll position back if a switch moved it. */
  private cleanup(run: Running): void {
    this.run = null;
    if (run.idleTimer !== null) clearTimeout(run.idleTimer);
    run.idleTimer = null;
    const { win } = this.host;
    for (const h of run.hosts) {
      try {
        if (h.getAttribute(EXPERIMENT_ATTRIBUTE) === run.token) h.removeAttribute(EXPERIMENT_ATTRIBUTE);
      } catch (e) {
        this.host.debug('experiment cleanup', e);
      }
    }
    for (const r of run.roots) {
      try {
        // The page may have changed its own adopted sheets meanwhile: only ours goes.
        r.adoptedStyleSheets = r.adoptedStyleSheets.filter((s) => s !== run.sheet);
      } catch (e) {
        this.host.debug('experiment cleanup', e);
      }
    }
    if (win.scrollX !== run.scroll[0] || win.scrollY !== run.scroll[1]) win.scrollTo(run.scroll[0], run.scroll[1]);
  }

  /** Ends the experiment with what it has when the page stops drawing frames. */
  private armIdle(run: Running): void {
    if (run.idleTimer !== null) clearTimeout(run.idleTimer);
    run.idleTimer = setTimeout(() => {
      run.idleTimer = null;
      if (this.run === run) this.finish(run);
    }, IDLE_MS);
  }

  /** Reads the boxes with the sheet off, then on (one task), and counts the ones that differ. Leaves the sheet as it was. */
  private compareBoxes(run: Running): void {
    const els = boxElements(run.hosts);
    const was = run.sheet.disabled;
    run.sheet.disabled = true;
    const off = els.map((e) => e.getBoundingClientRect());
    run.sheet.disabled = false;
    const on = els.map((e) => e.getBoundingClientRect());
    run.sheet.disabled = was;
    let changed = 0;
    const { innerWidth: vw, innerHeight: vh } = this.host.win;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const r of [...off, ...on]) {
      if (r.width <= 0 || r.height <= 0) continue;
      x0 = Math.min(x0, r.left); y0 = Math.min(y0, r.top); x1 = Math.max(x1, r.right); y1 = Math.max(y1, r.bottom);
    }
    x0 = Math.max(0, x0); y0 = Math.max(0, y0); x1 = Math.min(vw, x1); y1 = Math.min(vh, y1);
    if (run.area === null && x1 > x0 && y1 > y0) run.area = [x0, y0, x1 - x0, y1 - y0];
    for (let i = 0; i < els.length; i++) {
      const a = off[i], b = on[i];
      if (Math.abs(a.x - b.x) > BOX_EPSILON || Math.abs(a.y - b.y) > BOX_EPSILON
        || Math.abs(a.width - b.width) > BOX_EPSILON || Math.abs(a.height - b.height) > BOX_EPSILON) changed++;
    }
    run.boxesCompared = Math.max(run.boxesCompared, els.length);
    run.boxesChanged = Math.max(run.boxesChanged, changed);
  }
}

/** The hosts and their descendants, breadth first, at most MAX_BOXES. */
function boxElements(hosts: readonly Element[]): Element[] {
  const out: Element[] = hosts.slice(0, MAX_BOXES);
  for (let i = 0; i < out.length && out.length < MAX_BOXES; i++) {
    for (let c = out[i].firstElementChild; c !== null && out.length < MAX_BOXES; c = c.nextElementSibling) out.push(c);
  }
  return out;
}

/**
 * Whether the hosts already stop layout from spreading: every one has layout
 * containment (contain: layout/content/strict, content-visibility: auto or
 * hidden) or a fixed size with clipped overflow. Null when not.
 */
export function boundaryOf(win: Window, hosts: readonly Element[]): string | null {
  const why: string[] = [];
  for (const h of hosts) {
    const cs = win.getComputedStyle(h);
    const contain = cs.contain;
    const cv = cs.contentVisibility;
    if (/\b(layout|content|strict)\b/.test(contain)) why.push(`contain: ${contain}`);
    else if (cv === 'auto' || cv === 'hidden') why.push(`content-visibility: ${cv}`);
    else if (/px$/.test((h as HTMLElement).style?.width ?? '') && /px$/.test((h as HTMLElement).style?.height ?? '')
      && cs.overflow !== 'visible') why.push(`fixed size, overflow: ${cs.overflow}`);
    else return null;
  }
  return why.length > 0 ? [...new Set(why)].join('; ').slice(0, 200) : null;
}

/**
 * A selector the developer can find in their own code and that selects this element alone: its id; else its tag
 * and (non-generated) classes; else, up from it, parents until the path is unique (positions where the tag is
 * ambiguous), at most 6 levels.
 */
export function selectorOf(el: Element): string {
  // The platform's own escaping (a leading digit, a space or a quote in an id would break a hand-rolled one).
  const esc = (s: string): string => CSS.escape(s);
  const root = el.getRootNode() as Document | ShadowRoot;
  const unique = (sel: string): boolean => {
    try {
      return root.querySelectorAll(sel).length === 1;
    } catch {
      return false;
    }
  };
  const one = (e: Element, nth: boolean): string => {
    if (e.id) return `#${esc(e.id)}`;
    // Generated class names (emotion's css-…, styled-components' sc-…, hashes) are not in the developer's code.
    const classes = Array.from(e.classList)
      .filter((c) => !/^(css|sc|jsx|emotion|styled)-/.test(c) && !(c.length >= 6 && /\d/.test(c) && /[A-Z]/.test(c))).slice(0, 3);
    let s = e.localName + classes.map((c) => `.${esc(c)}`).join('');
    const parent = e.parentElement;
    if (nth && parent) {
      const same = Array.from(parent.children).filter((c) => c.localName === e.localName);
      if (same.length > 1) s += `:nth-of-type(${same.indexOf(e) + 1})`;
    }
    return s;
  };
  const self = one(el, false);
  if (el.id || unique(self)) return self.slice(0, 500);
  let path = one(el, true);
  let e: Element | null = el.parentElement;
  for (let depth = 0; e !== null && depth < 6; depth++, e = e.parentElement) {
    if (unique(path)) break;
    path = `${one(e, true)} > ${path}`;
    if (e.id) break;
  }
  return path.slice(0, 500);
}
