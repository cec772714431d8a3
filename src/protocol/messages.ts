/**
 * The one message protocol between the four contexts.
 *
 *   page (MAIN world) ⇄ content script   over a private MessagePort
 *   content script    ⇄ service worker   over a long-lived runtime port ("content")
 *   panel             ⇄ service worker   over a long-lived runtime port ("panel")
 *
 * Every message is an envelope `{source, v, type, payload}`. Receivers call
 * `parseMessage` once at their boundary: it checks source, version, type and
 * the payload's shape and sizes, and returns null (never throws) for anything
 * else, so the caller can count the drop.
 */
import { COMPONENT_KINDS, type ComponentKind } from './component-kind';
import { MAX_COPIED_RECORDS, MAX_RECORDS_PER_BATCH, MAX_STRINGS_PER_BATCH, MAX_STRING_LENGTH, RECORD_STRIDE } from './records';
import { MODES, PROTOCOL_VERSION, Source, type Mode, type SourceName } from './constants';
import { contentToPage } from './content-to-page';
import { experimentOutcome, experimentRequest, type ExperimentOutcome, type ExperimentRequest } from './experiment';
import type { DirtiedBy, OutsideMeasurement, SelfCost } from './snapshot';
import { dirtiedByValidator } from './dirtied';
import { vitalsValidator, type Vitals, type VitalsDelta } from './vitals';
import { pair, recordingValidator, type Recording } from './recording';
import { debugHintValidator, locatedValidator, locateRequestValidator, MAX_TYPE_TEXT, optionalBool, type LocatedType, type LocateRequest, type TypeText } from './sources';
import { parseWith } from './guard';
import {
  anyValue, arrayOf, bool, INVALID, isRecord, nullable, num, numArray, oneOf, str, validItemsOf, type Validator,
} from './validate';

export {
  MODES, PROTOCOL_VERSION, Source,
  type Mode, type OnMode, type SourceName,
} from './constants';
export { nextMode, PORT_NAME_CONTENT, PORT_NAME_DEVTOOLS, PORT_NAME_PANEL } from './ports';

const mode = oneOf(MODES);
const id = num(0, 2 ** 31);
const optId = nullable(id);
const ms = num(0, 1e7);
const name = str(MAX_STRING_LENGTH);

const outsideMeasurement: Validator<OutsideMeasurement | undefined> = (v) =>
  v === undefined ? undefined : isRecord({ longFrames: num(0, 2 ** 53), forcedMs: num(0, 1e12), measuredMs: num(0, 1e12) })(v);

export interface PageStatus {
  renderers: number;
  roots: number;
  agent: boolean;
  minified: boolean;
  /** Reasons measurement is degraded (e.g. the page replaced requestAnimationFrame). */
  degraded: string[];
  timerResolutionMs: number;
  url: string;
  /** Added in the layout-timing issue (additive: absent means unknown). */
  outside?: OutsideMeasurement;
  /** Vue 3 on the page (issue 63, additive: absent means none seen): its apps while the overlay is on (0 while off). */
  vue?: VueFound;
  /** Preact on the page (issue 64, additive: absent means none found): its render roots while the overlay is on. */
  preact?: VueFound;
}
/** A framework found on the page that counts apps (Vue, Preact). */
export interface VueFound {
  apps: number;
}
const vueFound: Validator<VueFound | undefined> = (v) => (v === undefined ? undefined : isRecord({ apps: num(0, 1e6) })(v));
const pageStatus: Validator<PageStatus> = isRecord({
  renderers: num(0, 1e4), roots: num(0, 1e6), agent: bool, minified: bool,
  degraded: arrayOf(str(200), 16), timerResolutionMs: num(0, 1000), url: str(2048), outside: outsideMeasurement, vue: vueFound, preact: vueFound,
});

export interface Settings {
  meterStyle: 'sparkline' | 'bars';
  colorBlind: boolean;
  msRamp: [number, number, number];
  inflationRamp: [number, number, number];
  surfaceLayoutFraction: number;
  surfaceRenderedFraction: number;
  surfaceInflationFactor: number;
  /** Write each frame's style/layout split and forced reflows to a "Layout Cost" track group in the Performance panel. */
  performanceTrack: boolean;
  /** Meters for library and framework components too (issue 44); off: the app's own components only. */
  showLibraries: boolean;
  /** Outline a layout shift's cause and the components it moved for a moment when it happens (issue 46). */
  flashShifts: boolean;
}
const ramp: Validator<[number, number, number]> = (v) => {
  const a = numArray(3, 0, 1e6)(v);
  return a !== INVALID && a.length === 3 && a[0] <= a[1] && a[1] <= a[2] ? [a[0], a[1], a[2]] : INVALID;
};
export const settingsValidator: Validator<Settings> = isRecord({
  meterStyle: oneOf(['sparkline', 'bars'] as const), colorBlind: bool, msRamp: ramp, inflationRamp: ramp,
  surfaceLayoutFraction: num(0, 1), surfaceRenderedFraction: num(0, 1), surfaceInflationFactor: num(1, 1000),
  // Added later: settings stored before them have none (their defaults).
  performanceTrack: (v: unknown) => (v === undefined ? true : bool(v)),
  showLibraries: (v: unknown) => (v === undefined ? false : bool(v)),
  flashShifts: (v: unknown) => (v === undefined ? false : bool(v)),
});

/** A component as the panel and the snapshot see it. */
export interface ComponentRow {
  id: number;
  name: string;
  parentId: number | null;
  depth: number;
  key: string | null;
  styleMs: number;
  layoutMs: number;
  forcedMs: number;
  lastFrameMs: number;
  authored: number;
  rendered: number;
  /** Elements of `rendered` that portals of components outside this one's subtree placed in its DOM. */
  portaledIn: number;
  commits: number;
  /** Where its type is defined (issue 15), once looked up; null: not yet, or not found. */
  source?: RowSource | null;
  /** The name in the page when `name` came from a source map. */
  minifiedName?: string | null;
  /** Whose code it is (protocol/component-kind.ts); absent: own. */
  kind?: ComponentKind;
  /** Its type is still being placed (content/agent/sources.ts, PLACING_MS): its kind is not known yet. */
  placing?: boolean;
}

/** A component type's source location as the panel shows and opens it (1-based line and column). */
export interface RowSource {
  file: string;
  line: number;
  column: number;
  /** What DevTools' Sources panel opens (the original file's URL when mapped, else the script's). */
  url: string;
  state: 'mapped' | 'no-map' | 'map-error' | 'react-debug';
}
const rowSource: Validator<RowSource | null> = (v) => (v === undefined || v === null ? null : isRecord({
  file: str(300), line: num(0, 1e9), column: num(0, 1e9), url: str(4096), state: oneOf(['mapped', 'no-map', 'map-error', 'react-debug'] as const),
})(v));
const componentRow: Validator<ComponentRow> = isRecord({
  id, name, parentId: optId, depth: num(0, 1e5), key: nullable(name), styleMs: ms, layoutMs: ms, forcedMs: ms,
  lastFrameMs: ms, authored: num(0, 1e8), rendered: num(0, 1e8), portaledIn: num(0, 1e8), commits: num(0, 1e12),
  source: rowSource, minifiedName: (v: unknown) => (v === undefined ? null : nullable(name)(v)),
  kind: (v: unknown) => (v === undefined ? 'own' : oneOf(COMPONENT_KINDS)(v)),
  placing: (v: unknown) => (v === undefined ? false : bool(v)),
});

export interface PinnedDetail extends ComponentRow {
  lastStyleMs: number;
  lastLayoutMs: number;
  lastForcedMs: number;
  frame: number;
  sparkline: number[];
  chain: { id: number; name: string }[];
  /** Sampled forced reflows; `after`: the components whose writes the reflow laid out (issue 43), when any. */
  stacks: { ms: number; stack: string; after?: string[] }[];
  /** What dirtied its subtree (pinned only; snapshot.ts DirtiedBy). */
  dirtiedBy: DirtiedBy[];
  /** Its top elements' layout containment, if any ("contain: layout"), null when none (pinned only). */
  boundary: string | null;
  /** Frames in which only its subtree changed, and their layout ms per frame (EMA): its spread (pinned only). */
  alone: AloneFrames;
  /**
   * A wrapper chain whose meters collapsed into one on the canvas (same box),
   * shallowest first, this component included; empty when it has its own meter.
   */
  sharedMeter: { id: number; name: string }[];
}
const idName = isRecord({ id, name });
/** Names of the components whose writes a forced reflow laid out. */
export const MAX_WRITERS = 3;
const writers: Validator<string[] | undefined> = (v) => (v === undefined ? undefined : arrayOf(str(200), MAX_WRITERS)(v));
export interface AloneFrames {
  frames: number;
  layoutMs: number;
}
const aloneFrames: Validator<AloneFrames> = isRecord({ frames: num(0, 2 ** 53), layoutMs: num(0, 1e7) });
const dirtiedList: Validator<DirtiedBy[]> = (v) => (v === undefined ? [] : arrayOf(dirtiedByValidator, 5)(v));
const sharedMeter: Validator<{ id: number; name: string }[]> = (v) => (v === undefined ? [] : arrayOf(idName, 64)(v));
const pinnedDetail: Validator<PinnedDetail> = (v) => {
  const row = componentRow(v);
  if (row === INVALID) return INVALID;
  const rest = isRecord({
    lastStyleMs: ms, lastLayoutMs: ms, lastForcedMs: ms, frame: num(0, 1e12), sparkline: numArray(120, 0, 1e7),
    chain: arrayOf(idName, 256), stacks: arrayOf(isRecord({ ms, stack: str(4096), after: writers }), 16), sharedMeter, dirtiedBy: dirtiedList,
    boundary: (x: unknown) => (x === undefined ? null : nullable(str(200))(x)),
    alone: (x: unknown) => (x === undefined ? { frames: 0, layoutMs: 0 } : aloneFrames(x)),
  })(v);
  return rest === INVALID ? INVALID : { ...row, ...rest };
};

export interface TableUpdate {
  frameId: number;
  frames: number;
  rows: ComponentRow[];
  page: { styleMs: number; layoutMs: number; forcedMs: number };
  pinned: PinnedDetail | null;
  /** The live frame strip, oldest first: [frame, style, layout, forced ms] (empty before the first frame). */
  strip: StripBar[];
  /** False for a recording's table, built in the panel (ms only; never on the wire). */
  counts?: false;
}

/**
 * The component table on the wire (content → worker → panel). A `whole` update carries every component; the others
 * carry only the rows that changed since update `seq − 1` of the same content script, and the ids that went
 * (`removed`). The panel keeps the table (model.ts) and asks for a whole one (`tableResync`) when it missed an update;
 * the content script also sends a whole one every few seconds (panel-feed.ts, docs/ARCHITECTURE.md).
 */
export interface TableMessage extends TableUpdate {
  seq: number;
  whole: boolean;
  removed: number[];
  /**
   * New values of rows the panel already has, ROW_VALUES numbers each (ROW_VALUE_FIELDS, ms to the µs): a changed row
   * costs the page ≈ 40 bytes to serialise instead of its whole object with names and source URL. `rows` then holds
   * only components the panel has not seen.
   */
  values: number[];
}
/** What `TableMessage.values` carries of each changed row, in order (the row's id first). */
export const ROW_VALUE_FIELDS = ['id', 'styleMs', 'layoutMs', 'forcedMs', 'lastFrameMs', 'authored', 'rendered', 'portaledIn', 'commits'] as const;
export const ROW_VALUES = ROW_VALUE_FIELDS.length;

/** [frame, style, layout, forced ms, performance.now() of the frame (absent from an older content script)]. */
export type StripBar = [number, number, number, number, number?];
/** At most this many bars in a table update's strip. */
export const MAX_STRIP = 240;

export interface Status extends PageStatus {
  frameId: number;
  mode: Mode;
  pinned: number | null;
  components: number;
  droppedEvents: number;
  droppedMessages: number;
  drawn: number;
  /** Meters left out to keep meters apart or off a dialog or menu that covers them. */
  hidden: number;
  capped: boolean;
  /** The component the panel's hovered table row outlines on the page, if any. */
  hovered: number | null;
  /** Layout Cost's own cost in this frame (null while off or not yet measured). */
  self: SelfCost | null;
  /** Component types and how many were found in the page's scripts and mapped to their sources (issue 15). */
  sources?: { types: number; located: number; mapped: number; pending: number } | null;
  /** Interactions and layout shifts since enable (issue 46); absent from an older content script. */
  vitals?: Vitals | null;
}
const status: Validator<Status> = (v) => {
  const base = pageStatus(v);
  const rest = isRecord({
    frameId: num(0, 2 ** 53), mode, pinned: optId, components: num(0, 1e8), droppedEvents: num(0, 2 ** 53),
    droppedMessages: num(0, 2 ** 53), drawn: num(0, 1e6), hidden: num(0, 1e6), capped: bool, hovered: optId,
    self: nullable(contentToPage().selfCost),
    sources: (x: unknown) => (x === undefined || x === null ? null
      : isRecord({ types: num(0, 1e6), located: num(0, 1e6), mapped: num(0, 1e6), pending: num(0, 1e6) })(x)),
    vitals: (x: unknown) => (x === undefined || x === null ? null : vitalsValidator(x)),
  })(v);
  return base === INVALID || rest === INVALID ? INVALID : { ...base, ...rest };
};

/**
 * The answer to a screenshot step. After step 2: of the pixels that were the same in both captures without the
 * declaration (`pixelsCompared`), how many differed with it (`pixelsChanged`). `error` says why not.
 */
export interface PixelAnswer {
  ok: boolean;
  error: string | null;
  pixelsCompared: number;
  pixelsChanged: number;
}
const pixelAnswer = { ok: bool, error: nullable(str(300)), pixelsCompared: num(0, 1e9), pixelsChanged: num(0, 1e9) };
const rect4: Validator<number[]> = (v) => {
  const a = numArray(4, -1e6, 1e6)(v);
  return a !== INVALID && a.length === 4 ? a : INVALID;
};

export type ApiCall = 'enable' | 'disable' | 'pin' | 'snapshot' | 'experiment' | 'startRecording' | 'stopRecording' | 'exportTrace';

/** Payload types per message type; one map per direction. */
export interface PageToContent {
  /**
   * Drained ring records: `buffer` is a transferred ArrayBuffer of Float64 slots, or, for a batch of at most
   * MAX_COPIED_RECORDS, the same slots as a plain array of numbers (copied by the post). New interned strings start at
   * `stringBase`; `keys` belong to this batch's Mount records only.
   */
  records: {
    buffer: ArrayBuffer | number[]; count: number; strings: string[]; stringBase: number; dropped: number; keys: string[];
    /** Batches are numbered 1, 2, 3 …: a gap means one was lost (resync). */
    seq: number;
    /** The agent's own main-thread ms since the last batch (inject/agent/self-clock.ts). */
    selfMs: number;
    /**
     * Interactions new or updated and shifts new since the last batch, INP and CLS now (issue 46, protocol/vitals.ts):
     * in the batch, not a message of their own, so that handing them over costs no post.
     */
    vitals?: VitalsDelta;
  };
  status: PageStatus;
  /**
   * A call of `window.__LAYOUT_COST__`, its arguments (at most 2) as the page gave them: the content script checks
   * them (content/agent/api-calls.ts) and answers a bad one with why where the call has an answer.
   */
  api: { reqId: number; call: ApiCall; args: unknown[] };
  hit: { seq: number; id: number | null };
  /** The answer to the content script's `experiment` with the same seq. */
  experimentResult: { seq: number; outcome: ExperimentOutcome };
  /**
   * What dirtied the pinned component `id` (at most 5, busiest first; see agent/pipeline/dirtied.ts), whether its
   * top elements are layout boundaries already, and the layout of frames in which only it changed.
   */
  dirtied: { id: number; items: DirtiedBy[]; boundary: string | null; alone: AloneFrames };
  /** An experiment's screenshot `step` (0 off, 1 on, 2 off) of `rect` (viewport CSS px, x y w h): see PixelAnswer. */
  capture: { seq: number; step: number; rect: number[] };
  /** `after`: the components whose pending writes the reflow laid out (at most MAX_WRITERS names), when any. */
  stack: { id: number; ms: number; stack: string; after?: string[] };
  /**
   * Component types (issue 15, agent/types.ts): new types' source text (the function's own text, read with the
   * native Function.prototype.toString, capped) and which components are of which type. Whether names look minified
   * travels in the page status.
   */
  types: { types: TypeText[]; members: [number, number][] };
}

export interface ContentToPage {
  /**
   * What the agent should do: `mode` off detaches everything; `track`: write the Performance panel track; `commits`:
   * send each frame's commit counts (a panel or a recording reads them); else the agent holds them until something
   * does (an API call, this turning on). Components' keys go under the same condition (the same readers show them);
   * else the agent holds them, sends the held ones when this turns on, and fills them into the API's results itself
   * (agent/api-keys.ts). `flash`: layout shifts are outlined on the page as they happen (setting flashShifts), so
   * their causes are wanted at once; else, with `commits` off, the agent looks for them only when something asks.
   */
  config: { mode: Mode; wantBounds: number[]; pinned: number | null; track: boolean; commits: boolean; flash: boolean };
  apiResult: { reqId: number; result: unknown };
  hitTest: { seq: number; x: number; y: number };
  /** A records batch went missing (its `seq` was skipped): the agent sends everything again. */
  resync: Record<string, never>;
  /**
   * `pixels`: compare screenshots too. Only for experiments the developer started in the DevTools panel: a page's own
   * script must not get counts derived from screenshots of the tab (docs/DIAGNOSE.md, Security).
   */
  experiment: { seq: number; request: ExperimentRequest; pixels: boolean };
  /** The answer to the agent's `capture` with the same seq. */
  captured: PixelAnswer & { seq: number };
  /** Also the handshake's acknowledgement. `dropped`: messages the content script rejected. */
  state: { mode: Mode; pinned: number | null; capped: boolean; dropped: number; self: SelfCost | null; minified?: boolean | null };
}
export interface ContentToBackground {
  /** `since`: when this document started (`performance.timeOrigin`, epoch ms): a document older than the tab's mode keeps it. */
  hello: { top: boolean; mode: Mode; since: number };
  toggle: { via: 'key' | 'api' | 'panel' };
  setMode: { mode: Mode };
  /**
   * The frame needs the content script's agent (portless: the boot asks, the worker injects agent.js and
   * content-agent.js).
   */
  needContent: Record<string, never>;
  status: Status;
  table: TableMessage;
  snapshot: { reqId: number; snapshot: unknown };
  experimentResult: { reqId: number; outcome: ExperimentOutcome };
  /**
   * A recording the panel asked to stop (its `record` with on: false, `frame` null), or the live strip's frames the
   * panel paused on (its `recent`, `frame` the frame it picked).
   */
  recording: { recording: Recording; frame: number | null };
  /** A screenshot of the tab for an experiment (top frame only); `dpr`: the frame's devicePixelRatio. */
  capture: { reqId: number; step: number; rect: number[]; dpr: number };
  /** Find component types' source text in the page's scripts and map it (protocol/sources.ts). */
  locate: { reqId: number; request: LocateRequest };
}
export interface BackgroundToContent {
  mode: { mode: Mode };
  panel: { connected: boolean };
  /** The answer to a portless `hello` (runtime.sendMessage): the tab's mode and whether a panel is open on it. */
  helloAck: { mode: Mode; panel: boolean };
  pin: { id: number | null };
  hover: { id: number | null };
  /** A layout shift picked in the panel's Vitals tab: its cause and what it moved, outlined on the page for a moment. */
  outline: { cause: number | null; moved: number[] };
  snapshotRequest: { reqId: number };
  experiment: { reqId: number; request: ExperimentRequest };
  captured: PixelAnswer & { reqId: number };
  /** Start or stop recording (the stopped recording comes back as `recording`). */
  record: { on: boolean };
  /** The live strip's frames so far, `frame` picked (they come back as `recording`). */
  recent: { frame: number };
  /** DevTools is open on the tab (the Performance panel can record): the track is written only then. */
  devtools: { open: boolean };
  located: { reqId: number; types: LocatedType[] };
  /** The panel missed a table update: send a whole table next. */
  tableResync: Record<string, never>;
}
export interface PanelToBackground {
  hello: { tabId: number };
  toggle: { via: 'key' | 'api' | 'panel' };
  setMode: { mode: Mode };
  pin: { id: number | null; frameId: number };
  hover: { id: number | null; frameId: number };
  outline: { cause: number | null; moved: number[]; frameId: number };
  snapshotRequest: { reqId: number; frameId: number };
  experiment: { reqId: number; frameId: number; request: ExperimentRequest };
  record: { frameId: number; on: boolean };
  recent: { frameId: number; frame: number };
  /** This frame's table updates arrived out of order (or the panel has none to apply them to). */
  tableResync: { frameId: number };
}
export interface BackgroundToPanel {
  mode: { mode: Mode };
  status: Status;
  table: TableMessage;
  snapshot: { reqId: number; frameId: number; snapshot: unknown };
  contentGone: { frameId: number };
  experimentResult: { reqId: number; frameId: number; outcome: ExperimentOutcome };
  recording: { frameId: number; recording: Recording; frame: number | null };
}

type Validators<M> = { [K in keyof M]: Validator<M[K]> };

/**
 * An ArrayBuffer from any realm: Firefox hands a content script the page's messages as objects of the page's
 * compartment, where `instanceof` this realm's ArrayBuffer is false. The byteLength getter checks the internal slot.
 */
const byteLengthOf = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength')?.get;
function isArrayBuffer(b: unknown): b is ArrayBuffer {
  if (typeof b !== 'object' || b === null || !byteLengthOf) return false;
  try {
    byteLengthOf.call(b);
    return true;
  } catch {
    return false;
  }
}

/**
 * A small batch's slots as a plain array (MAX_COPIED_RECORDS): numbers only (any, as a Float64 slot holds), at most
 * that many records' worth.
 */
const copiedRecords = arrayOf((x: unknown) => (typeof x === 'number' ? x : INVALID), MAX_COPIED_RECORDS * RECORD_STRIDE);

const recordsPayload: Validator<PageToContent['records']> = (v) => {
  const o = isRecord({
    // An array first: asking an array whether it is an ArrayBuffer throws, and a throw costs a batch's whole check.
    buffer: (b) => (Array.isArray(b) ? copiedRecords(b) : isArrayBuffer(b) ? b : INVALID),
    count: num(0, MAX_RECORDS_PER_BATCH),
    strings: arrayOf(name, MAX_STRINGS_PER_BATCH),
    stringBase: num(0, 2 ** 31),
    keys: arrayOf(name, MAX_RECORDS_PER_BATCH),
    seq: num(1, 2 ** 53),
    dropped: num(0, 2 ** 53),
    selfMs: num(0, 1e7),
    vitals: (x: unknown) => (x === undefined ? undefined : vitalsValidator(x)),
  })(v);
  if (o === INVALID || !Number.isInteger(o.count)) return INVALID;
  if (Array.isArray(o.buffer)) return o.count * RECORD_STRIDE <= o.buffer.length ? o : INVALID;
  // A Float64Array needs a whole number of slots (a 100-byte buffer threw a RangeError in the content script).
  if (o.buffer.byteLength % 8 !== 0
    || o.buffer.byteLength > MAX_RECORDS_PER_BATCH * RECORD_STRIDE * 8
    || o.count * RECORD_STRIDE * 8 > o.buffer.byteLength) return INVALID;
  return o;
};

const stripBar: Validator<StripBar> = (v) => {
  const a = arrayOf(num(0, 1e12), 5)(v);
  if (a === INVALID || a.length < 4 || a[1] > 1e7 || a[2] > 1e7 || a[3] > 1e7) return INVALID;
  return a.length === 5 ? [a[0], a[1], a[2], a[3], a[4]] : [a[0], a[1], a[2], a[3]];
};
/** Groups of ROW_VALUES numbers within a row's ranges; a group out of range is left out (as an invalid row is). */
const rowValues: Validator<number[]> = (v) => {
  if (!Array.isArray(v) || v.length > 100_000 * ROW_VALUES || v.length % ROW_VALUES !== 0) return INVALID;
  const out: number[] = [];
  const rowId = num(1, 2 ** 31), count = num(0, 1e8), commits = num(0, 1e12);
  const each: Validator<number>[] = [rowId, ms, ms, ms, ms, count, count, count, commits];
  for (let i = 0; i < v.length; i += ROW_VALUES) {
    let ok = true;
    for (let k = 0; k < ROW_VALUES && ok; k++) ok = each[k](v[i + k]) !== INVALID;
    if (ok) for (let k = 0; k < ROW_VALUES; k++) out.push(v[i + k] as number);
  }
  return out;
};
const tableMessage: Validator<TableMessage> = isRecord({
  frameId: num(0, 2 ** 53), frames: num(0, 1e12), rows: validItemsOf(componentRow, 100_000),
  page: isRecord({ styleMs: ms, layoutMs: ms, forcedMs: ms }), pinned: nullable(pinnedDetail),
  strip: (v: unknown) => (v === undefined ? [] : validItemsOf(stripBar, MAX_STRIP)(v)),
  seq: num(0, 2 ** 53), whole: bool, removed: numArray(100_000, 1, 2 ** 31), values: rowValues,
});
const via = oneOf(['key', 'api', 'panel'] as const);
const anyJson = anyValue;
const empty: Validator<Record<string, never>> = (v) => (typeof v === 'object' && v !== null ? {} : INVALID);

export const validators = {
  [Source.Page]: {
    records: recordsPayload,
    status: pageStatus,
    api: isRecord({
      reqId: num(0, 2 ** 53), call: oneOf(['enable', 'disable', 'pin', 'snapshot', 'experiment', 'startRecording', 'stopRecording', 'exportTrace'] as const),
      args: (v: unknown) => (Array.isArray(v) && v.length <= 2 ? v : INVALID),
    }),
    hit: isRecord({ seq: num(0, 2 ** 53), id: optId }),
    experimentResult: isRecord({ seq: num(0, 2 ** 53), outcome: experimentOutcome }),
    capture: isRecord({ seq: num(0, 2 ** 53), step: num(0, 2), rect: rect4 }),
    dirtied: isRecord({ id, items: arrayOf(dirtiedByValidator, 5), boundary: nullable(str(200)), alone: aloneFrames }),
    stack: isRecord({ id, ms, stack: str(4096), after: writers }),
    types: isRecord({
      types: validItemsOf(isRecord({ typeId: num(1, 2 ** 31), text: str(MAX_TYPE_TEXT), length: num(0, 1e9), hint: debugHintValidator, hot: optionalBool }), 2000),
      members: validItemsOf(pair, 20_000),
    }),
  } satisfies Validators<PageToContent>,
  [Source.Content]: {
    ...contentToPage().table,
    // content → background
    hello: isRecord({ top: bool, mode, since: num(0, 1e15) }),
    toggle: isRecord({ via }),
    setMode: isRecord({ mode }),
    needContent: empty,
    status,
    table: tableMessage,
    snapshot: isRecord({ reqId: num(0, 2 ** 53), snapshot: anyJson }),
    experimentResult: isRecord({ reqId: num(0, 2 ** 53), outcome: experimentOutcome }),
    capture: isRecord({ reqId: num(0, 2 ** 53), step: num(0, 2), rect: rect4, dpr: num(0.01, 100) }),
    recording: isRecord({ recording: recordingValidator, frame: nullable(num(0, 1e12)) }),
    locate: isRecord({ reqId: num(0, 2 ** 53), request: locateRequestValidator }),
  } satisfies Validators<ContentToPage & ContentToBackground>,
  [Source.Background]: {
    mode: isRecord({ mode }),
    panel: isRecord({ connected: bool }),
    helloAck: isRecord({ mode, panel: bool }),
    pin: isRecord({ id: optId }),
    hover: isRecord({ id: optId }),
    outline: isRecord({ cause: optId, moved: arrayOf(num(0, 2 ** 53), 10) }),
    snapshotRequest: isRecord({ reqId: num(0, 2 ** 53) }),
    experiment: isRecord({ reqId: num(0, 2 ** 53), request: experimentRequest }),
    captured: isRecord({ reqId: num(0, 2 ** 53), ...pixelAnswer }),
    record: isRecord({ on: bool }),
    recent: isRecord({ frame: num(0, 1e12) }),
    devtools: isRecord({ open: bool }),
    located: isRecord({ reqId: num(0, 2 ** 53), types: locatedValidator }),
    tableResync: empty,
    // background → panel
    status,
    table: tableMessage,
    snapshot: isRecord({ reqId: num(0, 2 ** 53), frameId: num(0, 2 ** 53), snapshot: anyJson }),
    contentGone: isRecord({ frameId: num(0, 2 ** 53) }),
    experimentResult: isRecord({ reqId: num(0, 2 ** 53), frameId: num(0, 2 ** 53), outcome: experimentOutcome }),
    recording: isRecord({ frameId: num(0, 2 ** 53), recording: recordingValidator, frame: nullable(num(0, 1e12)) }),
  } satisfies Validators<BackgroundToContent & BackgroundToPanel>,
  [Source.Panel]: {
    hello: isRecord({ tabId: num(0, 2 ** 53) }),
    toggle: isRecord({ via }),
    setMode: isRecord({ mode }),
    pin: isRecord({ id: optId, frameId: num(0, 2 ** 53) }),
    hover: isRecord({ id: optId, frameId: num(0, 2 ** 53) }),
    outline: isRecord({ cause: optId, moved: arrayOf(num(0, 2 ** 53), 10), frameId: num(0, 2 ** 53) }),
    snapshotRequest: isRecord({ reqId: num(0, 2 ** 53), frameId: num(0, 2 ** 53) }),
    experiment: isRecord({ reqId: num(0, 2 ** 53), frameId: num(0, 2 ** 53), request: experimentRequest }),
    record: isRecord({ frameId: num(0, 2 ** 53), on: bool }),
    recent: isRecord({ frameId: num(0, 2 ** 53), frame: num(0, 1e12) }),
    tableResync: isRecord({ frameId: num(0, 2 ** 53) }),
  } satisfies Validators<PanelToBackground>,
};

type SourceMaps = {
  [Source.Page]: PageToContent;
  [Source.Content]: ContentToPage & ContentToBackground;
  [Source.Background]: BackgroundToContent & BackgroundToPanel;
  [Source.Panel]: PanelToBackground;
};

/** A parsed message from `S`: a discriminated union over its types. */
export type MessageFrom<S extends SourceName, M = SourceMaps[S]> = {
  [T in keyof M & string]: { source: S; v: typeof PROTOCOL_VERSION; type: T; payload: M[T] };
}[keyof M & string];

export { envelope } from './guard';

/**
 * The one guard. Returns the typed message, or null for anything malformed,
 * from another source, of another version or of an unknown type.
 */
export function parseMessage<S extends SourceName>(raw: unknown, source: S): MessageFrom<S> | null {
  return parseWith(raw, source, validators[source] as Record<string, Validator<unknown>>) as MessageFrom<S> | null;
}

/** Counts what a receiver dropped, by reason. */
export class DropCounter {
  count = 0;
  drop(): void {
    this.count++;
  }
}
