/**
 * A recording (issue 13): what `__LAYOUT_COST__.stopRecording()` resolves to
 * and the panel saves and opens (docs/RECORDING.md has the schema). It comes
 * from the page or from a file: both are data, checked and capped by
 * `recordingValidator` before anything shows them.
 */
import type { DirtiedBy } from './snapshot';
import { dirtiedByValidator } from './dirtied';
import { interactionValidator, shiftValidator, type Interaction, type LayoutShift } from './vitals';
import { arrayOf, INVALID, isRecord, nullable, num, str, validItemsOf, type Validator } from './validate';

export const RECORDING_VERSION = 1;
/** What a file or a page may hand the panel, at most. */
export const MAX_RECORDING_FRAMES = 200_000;
export const MAX_RECORDING_COMPONENTS = 200_000;
/** Interactions, and shifts, a recording carries at most. */
export const MAX_RECORDED_VITALS = 1000;

export interface RecordedComponent {
  id: number;
  /** Self cost in this frame (what the frame's attribution gave it). */
  selfStyleMs: number;
  selfLayoutMs: number;
  selfForcedMs: number;
  /** Inclusive: itself and every descendant. */
  styleMs: number;
  layoutMs: number;
  forcedMs: number;
  /** Forced reflows in it and below, this frame (inclusive, like the ms; files without it read as 0). */
  forcedCount: number;
}

export interface RecordedFrame {
  frame: number;
  /** performance.now() of the page (ms) when the frame-end style flush began. */
  time: number;
  styleMs: number;
  layoutMs: number;
  forcedMs: number;
  components: RecordedComponent[];
  /** Components with cost this frame left out of `components` (past MAX_FRAME_COMPONENTS). */
  componentsLeftOut: number;
  mounts: number[];
  unmounts: number[];
  /** [id, commits since the previous frame] */
  commits: [number, number][];
  /** Sampled forced reflows; `after`: the components whose writes each laid out, when any (docs/TIMING.md §3). */
  stacks: { id: number; ms: number; stack: string; after?: string[] }[];
}

export interface ComponentInfo {
  name: string;
  parentId: number | null;
  depth: number;
  key: string | null;
}

export interface Recording {
  kind: 'layout-cost-recording';
  version: number;
  url: string;
  /** Date.now() at start and stop. */
  startedAt: number;
  stoppedAt: number;
  /** performance.timeOrigin of the page: `time` + timeOrigin is the wall clock. */
  timeOrigin: number;
  frames: RecordedFrame[];
  components: Record<string, ComponentInfo>;
  /** Oldest frames dropped to stay under MAX_ROWS. */
  droppedFrames: number;
  limits: { maxRows: number; maxFrameComponents: number };
  /** The pinned component's dirtied-by at the stop, if any (docs/DIAGNOSE.md). */
  dirtied?: { id: number; items: DirtiedBy[] } | null;
  /** Interactions and layout shifts that happened while it recorded (issue 46; files without them read as []). */
  interactions?: Interaction[];
  shifts?: LayoutShift[];
}


const ms = num(0, 1e7);
const id = num(0, 2 ** 31);
const recordedComponent: Validator<RecordedComponent> = isRecord({
  id, selfStyleMs: ms, selfLayoutMs: ms, selfForcedMs: ms, styleMs: ms, layoutMs: ms, forcedMs: ms,
  forcedCount: (x: unknown) => (x === undefined ? 0 : num(0, 1e9)(x)),
});
/** A pair of whole numbers ([id, count], [id, type]). */
export const pair: Validator<[number, number]> = (v) => {
  const a = arrayOf(num(0, 2 ** 53), 2)(v);
  return a !== INVALID && a.length === 2 ? [a[0], a[1]] : INVALID;
};
const recordedFrame: Validator<RecordedFrame> = isRecord({
  frame: num(0, 2 ** 53), time: num(0, 1e12), styleMs: ms, layoutMs: ms, forcedMs: ms,
  components: validItemsOf(recordedComponent, 1000), componentsLeftOut: num(0, 1e9),
  mounts: arrayOf(id, 10_000), unmounts: arrayOf(id, 10_000), commits: arrayOf(pair, 10_000),
  stacks: arrayOf(isRecord({ id, ms, stack: str(4096), after: (v: unknown) => (v === undefined ? undefined : arrayOf(str(200), 3)(v)) }), 16),
});
const componentInfo: Validator<ComponentInfo> = isRecord({
  name: str(512), parentId: nullable(id), depth: num(0, 1e5), key: nullable(str(512)),
});

/** A recording from the page or a file: checked, capped; null when it is not one (or of an unknown version). */
export const recordingValidator: Validator<Recording> = (v) => {
  const base = isRecord({
    kind: (x: unknown) => (x === 'layout-cost-recording' ? x : INVALID), version: num(1, RECORDING_VERSION),
    url: str(2048), startedAt: num(0, 1e15), stoppedAt: num(0, 1e15), timeOrigin: num(0, 1e15),
    frames: validItemsOf(recordedFrame, MAX_RECORDING_FRAMES), droppedFrames: num(0, 2 ** 53),
    limits: isRecord({ maxRows: num(0, 1e9), maxFrameComponents: num(0, 1e6) }),
    dirtied: (x: unknown) => (x === undefined || x === null ? null
      : isRecord({ id, items: arrayOf(dirtiedByValidator, 5) })(x)),
    interactions: (x: unknown) => (x === undefined ? [] : validItemsOf(interactionValidator, MAX_RECORDED_VITALS)(x)),
    shifts: (x: unknown) => (x === undefined ? [] : validItemsOf(shiftValidator, MAX_RECORDED_VITALS)(x)),
  })(v);
  if (base === INVALID) return INVALID;
  const raw = (v as { components?: unknown }).components;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return INVALID;
  const components: Record<string, ComponentInfo> = {};
  let n = 0;
  for (const k of Object.keys(raw)) {
    if (++n > MAX_RECORDING_COMPONENTS) break;
    if (!/^\d{1,10}$/.test(k)) continue;
    const c = componentInfo((raw as Record<string, unknown>)[k]);
    if (c !== INVALID) components[k] = c;
  }
  return { ...base, kind: 'layout-cost-recording', components };
};
