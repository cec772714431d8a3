/**
 * Interactions and layout shifts, per component (issue 46, docs/VITALS.md): what the page agent reads from Event
 * Timing and `layout-shift` entries while the overlay is on, joined with its own per-frame attribution, and hands to
 * the content agent whole (a few kilobytes at most, only when something new happened). The snapshot, the panel's
 * lists and recordings show it. Data from the page: checked by `vitalsValidator` before anything keeps it.
 */
import { arrayOf, isRecord, nullable, num, oneOf, str, type Validator } from './validate';

/** At most this many interactions are kept (the newest, and always the one INP names). */
export const MAX_INTERACTIONS = 50;
/** At most this many shifts are kept (the newest). */
export const MAX_SHIFTS = 50;
/** An interaction lists at most this many components (the costliest, then the ones that rendered most). */
export const MAX_INTERACTION_COMPONENTS = 20;
/** A shift names at most this many moved components. */
export const MAX_SHIFTED = 10;

export interface ComponentRef {
  id: number;
  name: string;
}

/** One component's part in an interaction: its own (self) ms summed over the interaction's frames, and its renders. */
export interface InteractionComponent extends ComponentRef {
  styleMs: number;
  layoutMs: number;
  forcedMs: number;
  renders: number;
}

export interface Interaction {
  /** The Event Timing `interactionId`. */
  id: number;
  type: 'pointer' | 'keyboard';
  /** The component owning the event's target; null when the node is gone or no component owns it. */
  target: ComponentRef | null;
  /** `performance.now()` ms of the input. */
  start: number;
  /** Input to next paint, ms (Event Timing's duration: rounded to 8 ms by the browser). */
  duration: number;
  inputDelay: number;
  processing: number;
  presentationDelay: number;
  /** Sums over the frames between the input and the next paint. */
  styleMs: number;
  layoutMs: number;
  forcedMs: number;
  components: InteractionComponent[];
  /**
   * The scripts of the Long Animation Frames (Chrome) that overlap it, longest first (at most 5): what ran, where,
   * for how long, and how much of it was forced style and layout. Empty where the browser has no LoAF, or no frame of
   * the interaction was long (over 50 ms).
   */
  scripts?: InteractionScript[];
}

export interface InteractionScript {
  /** What ran it, as the browser names it: "BUTTON#filter.onclick", "Window.requestAnimationFrame", "TimerHandler:setTimeout"… */
  invoker: string;
  /** The function's name, where the browser knows it. */
  fn: string;
  /** The script's URL and the character position of the function (":-1" when unknown). */
  source: string;
  durationMs: number;
  forcedMs: number;
}

/** At most this many scripts per interaction. */
export const MAX_INTERACTION_SCRIPTS = 5;

export interface ShiftCause extends ComponentRef {
  reason: string;
}

export interface LayoutShift {
  value: number;
  /** `performance.now()` ms of the frame that shifted. */
  time: number;
  shifted: ComponentRef[];
  cause: ShiftCause | null;
}

export interface Vitals {
  interactions: Interaction[];
  inp: { value: number; interactionId: number } | null;
  shifts: LayoutShift[];
  cls: number | null;
}

const id = num(0, 2 ** 31);
const ms = num(0, 1e7);
const name = str(200);
const ref: Validator<ComponentRef> = isRecord({ id, name });

export const interactionValidator: Validator<Interaction> = isRecord({
  id: num(0, 2 ** 53), type: oneOf(['pointer', 'keyboard'] as const), target: nullable(ref), start: num(-1e7, 1e10), duration: ms,
  inputDelay: ms, processing: ms, presentationDelay: ms, styleMs: ms, layoutMs: ms, forcedMs: ms,
  components: arrayOf(isRecord({ id, name, styleMs: ms, layoutMs: ms, forcedMs: ms, renders: num(0, 1e7) }), MAX_INTERACTION_COMPONENTS),
  // Added later: a recording saved before has none.
  scripts: (v: unknown) => (v === undefined ? [] : arrayOf(isRecord({
    invoker: str(300), fn: str(200), source: str(600), durationMs: ms, forcedMs: ms,
  }), MAX_INTERACTION_SCRIPTS)(v)),
});

export const shiftValidator: Validator<LayoutShift> = isRecord({
  value: num(0, 1e3), time: num(-1e7, 1e10), shifted: arrayOf(ref, MAX_SHIFTED),
  cause: nullable(isRecord({ id, name, reason: str(300) })),
});

export const vitalsValidator: Validator<Vitals> = isRecord({
  interactions: arrayOf(interactionValidator, MAX_INTERACTIONS),
  inp: nullable(isRecord({ value: ms, interactionId: num(0, 2 ** 53) })),
  shifts: arrayOf(shiftValidator, MAX_SHIFTS),
  cls: nullable(num(0, 1e3)),
});

export const NO_VITALS: Vitals = { interactions: [], inp: null, shifts: [], cls: null };

/**
 * What the page agent hands over when something changed: the interactions new or updated since the last hand-over,
 * the new shifts, and INP and CLS as they are now (the same shape as `Vitals`, merged by `mergeVitals`).
 */
export type VitalsDelta = Vitals;

/**
 * `delta` applied to `prev` (a new object; neither is changed): interactions replaced by id or added, in order of their
 * start; shifts appended; each list bounded, the newest kept — and the interaction INP names always.
 */
export function mergeVitals(prev: Vitals, delta: VitalsDelta): Vitals {
  const byId = new Map<number, Interaction>();
  for (const i of prev.interactions) byId.set(i.id, i);
  for (const i of delta.interactions) byId.set(i.id, i);
  let interactions = [...byId.values()].sort((a, b) => a.start - b.start);
  const keep = delta.inp?.interactionId;
  while (interactions.length > MAX_INTERACTIONS) {
    const i = interactions.findIndex((x) => x.id !== keep);
    interactions = interactions.filter((_, k) => k !== i);
  }
  const shifts = [...prev.shifts, ...delta.shifts].slice(-MAX_SHIFTS);
  return { interactions, inp: delta.inp, shifts, cls: delta.cls };
}

/**
 * `v` with each component's name as `nameOf` gives it now (a new object; `v` is not changed). The page agent names a
 * component as it mounted, which in a production build is its minified name; the content script's name is the source
 * map's once a types pass has placed it (the table's): what a snapshot, a recording and the panel show of
 * interactions and shifts is renamed to match. `nameOf` returns null for a component it does not know (gone): its
 * name is kept.
 */
export function renameVitals(v: Vitals, nameOf: (id: number) => string | null): Vitals {
  if (v.interactions.length === 0 && v.shifts.length === 0) return v;
  const ref = <R extends ComponentRef>(r: R): R => {
    const n = r.id > 0 ? nameOf(r.id) : null;
    return n === null || n === r.name ? r : { ...r, name: n };
  };
  return {
    interactions: v.interactions.map((i) => ({ ...i, target: i.target === null ? null : ref(i.target), components: i.components.map(ref) })),
    inp: v.inp,
    shifts: v.shifts.map((s) => {
      const shifted = s.shifted.map(ref);
      let cause = s.cause === null ? null : ref(s.cause);
      // Its reason names the first moved component last ("… above Feed"): that name too.
      const was = s.shifted[0]?.name, now = shifted[0]?.name;
      if (cause !== null && was !== now && cause.reason.endsWith(` above ${was}`)) {
        cause = { ...cause, reason: `${cause.reason.slice(0, cause.reason.length - was.length)}${now}` };
      }
      return { ...s, shifted, cause };
    }),
    cls: v.cls,
  };
}
