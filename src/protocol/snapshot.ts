/**
 * The public contract of `window.__LAYOUT_COST__`: what `state()` returns and
 * what `snapshot()` resolves to. Declared once, here; the content store builds
 * it, the MAIN world's API returns it, and the tests and benchmarks import it.
 * Documented field by field in the README ("Automation API").
 */
import type { ComponentKind } from './component-kind';
import type { Mode } from './constants';

/**
 * The outside measurement (docs/TIMING.md): Chrome's Long Animation Frames
 * (frames over 50 ms) cross-check the forced-reflow timing. Cumulative since
 * enable; absent while off or where the browser has no such entries.
 */
export interface OutsideMeasurement {
  /** Long animation frames seen. */
  longFrames: number;
  /** Chrome's `forcedStyleAndLayoutDuration` in those frames, less the overlay's own frame-end flush. */
  forcedMs: number;
  /** What the overlay timed as forced reflows within the same frames. */
  measuredMs: number;
}

/** A box in viewport CSS px. */
export interface Bounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface FrameTotals {
  count: number;
  styleMsTotal: number;
  layoutMsTotal: number;
  forcedMsTotal: number;
}

/**
 * What Layout Cost itself costs the page while on, from its own timers (the agent's work in the page's world and the
 * content script's, both on the page's main thread), over the last second or so.
 */
export interface SelfCost {
  /** Our main-thread ms per measured frame. */
  msPerFrame: number;
  /** Our main-thread ms ÷ wall-clock ms, 0‥1. */
  mainThreadShare: number;
}

export interface SnapshotComponent {
  id: number;
  name: string;
  parentId: number | null;
  depth: number;
  key: string | null;
  bounds: Bounds | null;
  authored: number;
  rendered: number;
  /** Elements other components' portals put in its DOM (left out of its inflation). */
  portaledIn: number;
  styleMs: number;
  layoutMs: number;
  forcedMs: number;
  lastFrameMs: number;
  commits: number;
  sparkline: number[];
  drawn: boolean;
  /** The occluder (1-based) whose content holds it, 0: the page; read for drawn, pinned and hovered components. */
  layer: number;
  /** Where its meter is drawn (top-left, viewport CSS px), null when it has none. */
  meterAt: { x: number; y: number } | null;
  /**
   * What dirtied its subtree, busiest first (at most 5): tracked for the pinned component only (docs/DIAGNOSE.md),
   * empty for the others.
   */
  dirtiedBy: DirtiedBy[];
  /** Where its type is defined (issue 15): the original file when a source map gave it, else the script; null until found. */
  source: { file: string; line: number; column: number } | null;
  /** The name in the page, when `name` is the original one a source map gave. */
  minifiedName?: string;
  /**
   * Whose code it is (issue 44, protocol/component-kind.ts): the app's own, a library's or the framework's, from where
   * its type is defined; `own` until placed. Every component is listed whatever the panel's or overlay's filter.
   */
  kind: ComponentKind;
}

/** DOM changes in a component's subtree of one kind, on one element type, from one source. */
export interface DirtiedBy {
  kind: 'attribute' | 'text' | 'children';
  /** The attribute's name; '#text'; 'added' or 'removed'. */
  name: string;
  /** The element (tag) they landed on. */
  on: string;
  source: 'react' | 'other';
  /** Per frame: EMA (α = 0.2) and the last frame. */
  perFrame: number;
  last: number;
}

import type { Interaction, LayoutShift } from './vitals';

export interface Snapshot {
  time: number;
  frames: FrameTotals;
  droppedEvents: number;
  page: { styleMs: number; layoutMs: number; forcedMs: number };
  /** What the page stacks over its content (dialogs, menus, the top layer), bottom to top, viewport CSS px. */
  occluders: Bounds[];
  components: SnapshotComponent[];
  /** Our own cost; null while off or before a second of measurement. */
  self: SelfCost | null;
  /** Interactions since enable (issue 46, docs/VITALS.md): bounded, newest kept, always the one INP names. */
  interactions: Interaction[];
  /** INP since enable, as web-vitals computes it; null before any interaction. */
  inp: { value: number; interactionId: number } | null;
  /** Layout shifts since enable (without recent input), newest kept. */
  shifts: LayoutShift[];
  /** CLS since enable, in session windows as web-vitals; null before any shift. */
  cls: number | null;
}

export interface LayoutCostState {
  enabled: boolean;
  mode: Mode;
  pinned: number | null;
  react: { renderers: number; roots: number };
  /** Vue 3 (issue 63): whether it made a renderer on this page, and the apps the overlay measures (0 while off). */
  vue: { found: boolean; apps: number };
  /** Preact (issue 64): whether a render root was found, and the roots the overlay measures (0 while off). */
  preact: { found: boolean; apps: number };
  minified: boolean;
  capped: boolean;
  agent: boolean;
  degraded: string[];
  /** Long Animation Frames cross-check of forced-reflow timing while on (docs/TIMING.md); null when unavailable. */
  outside: OutsideMeasurement | null;
  /** Messages from this page that the extension rejected as malformed (cumulative). */
  droppedMessages: number;
  /** Our own cost, as in the snapshot; null while off. */
  self: SelfCost | null;
}
