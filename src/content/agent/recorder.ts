/**
 * Recording (issue 13, item 2): per measured frame, its time and style /
 * layout / forced ms, the components that carried cost (self and inclusive
 * ms), commits, mounts and unmounts, and the forced reflows' sampled stacks;
 * the names of every component it mentions. The store feeds it while it
 * records (store.ts `recorder`); not recording, nothing is kept or done.
 *
 * Bounded: at most MAX_FRAME_COMPONENTS components per frame (the costliest
 * by inclusive ms; the rest counted), and MAX_ROWS component rows in all —
 * past it the oldest frames go, counted in `droppedFrames`. 150 000 rows is
 * minutes of StressGrid (≈ 50 rows a frame at 7–15 frames a second) and
 * stays under 30 MB of JSON on its way to the panel (runtime ports carry 64).
 *
 * The schema is docs/RECORDING.md's; `toTrace` turns a recording into
 * Chrome's Trace Event Format.
 */
import type { StripBar } from '../../protocol/messages';
import { NO_VITALS, type Vitals } from '../../protocol/vitals';
import {
  RECORDING_VERSION, type ComponentInfo, type RecordedComponent, type RecordedFrame, type Recording,
} from '../../protocol/recording';

export { RECORDING_VERSION, type Recording };

export const MAX_FRAME_COMPONENTS = 200;
export const MAX_ROWS = 150_000;
const MAX_STACKS_PER_FRAME = 8;
const MAX_LIST = 10_000;

/** What the store tells the recorder, in apply order. */
export interface FrameSink {
  /** `forcedCount`: forced reflows in it (self / inclusive, like the ms). */
  self(id: number, styleMs: number, layoutMs: number, forcedMs: number, forcedCount?: number): void;
  inclusive(id: number, styleMs: number, layoutMs: number, forcedMs: number, forcedCount?: number): void;
  endFrame(frame: number, time: number, styleMs: number, layoutMs: number, forcedMs: number): void;
  mount(id: number): void;
  unmount(id: number): void;
  commits(id: number, n: number): void;
  /** A sampled forced-reflow stack (from the agent, after its frame). */
  stack(id: number, ms: number, stack: string, after?: string[]): void;
}

export class Recorder implements FrameSink {
  private frames: RecordedFrame[] = [];
  private head = 0;
  private rows = 0;
  private dropped = 0;
  private readonly startedAt = Date.now();
  private readonly selfById = new Map<number, [number, number, number]>();
  private readonly incl: RecordedComponent[] = [];
  private mounts: number[] = [];
  private unmounts: number[] = [];
  private commitList: [number, number][] = [];

  /**
   * `maxFrames`: the live strip's ring (the panel's last frames) keeps a few hundred frames; a recording keeps all
   * that fit in `maxRows`.
   */
  constructor(
    private readonly info: (id: number) => ComponentInfo | null, private readonly maxRows = MAX_ROWS,
    private readonly maxFrames = Infinity,
    /**
     * Frames that began before this (the page's performance.now()) are not recorded: the agent's batches arrive a
     * little after their frames, so without it a recording started after an interaction would open with its last
     * frames.
     */
    private readonly since = -Infinity,
  ) {}

  self(id: number, styleMs: number, layoutMs: number, forcedMs: number, _forcedCount = 0): void {
    const s = this.selfById.get(id);
    if (s) {
      s[0] += styleMs;
      s[1] += layoutMs;
      s[2] += forcedMs;
    } else this.selfById.set(id, [styleMs, layoutMs, forcedMs]);
  }

  inclusive(id: number, styleMs: number, layoutMs: number, forcedMs: number, forcedCount = 0): void {
    const s = this.selfById.get(id);
    this.incl.push({
      id, selfStyleMs: s?.[0] ?? 0, selfLayoutMs: s?.[1] ?? 0, selfForcedMs: s?.[2] ?? 0, styleMs, layoutMs, forcedMs, forcedCount,
    });
  }

  mount(id: number): void {
    if (this.mounts.length < MAX_LIST) this.mounts.push(id);
  }

  unmount(id: number): void {
    if (this.unmounts.length < MAX_LIST) this.unmounts.push(id);
  }

  commits(id: number, n: number): void {
    if (this.commitList.length < MAX_LIST) this.commitList.push([id, n]);
  }

  /** A sampled forced-reflow stack: goes with the last frame recorded (or the next, if none yet). */
  stack(id: number, ms: number, stack: string, after?: string[]): void {
    const f = this.frames.length > this.head ? this.frames[this.frames.length - 1] : null;
    if (f && f.stacks.length < MAX_STACKS_PER_FRAME) f.stacks.push(after ? { id, ms, stack, after } : { id, ms, stack });
  }

  endFrame(frame: number, time: number, styleMs: number, layoutMs: number, forcedMs: number): void {
    if (time < this.since) {
      this.incl.length = 0;
      this.selfById.clear();
      this.mounts = [];
      this.unmounts = [];
      this.commitList = [];
      return;
    }
    const all = this.incl.sort((a, b) => (b.styleMs + b.layoutMs + b.forcedMs) - (a.styleMs + a.layoutMs + a.forcedMs));
    const components = all.slice(0, MAX_FRAME_COMPONENTS);
    this.frames.push({
      frame, time, styleMs, layoutMs, forcedMs, components, componentsLeftOut: all.length - components.length,
      mounts: this.mounts, unmounts: this.unmounts, commits: this.commitList, stacks: [],
    });
    this.rows += components.length + 1;
    this.incl.length = 0;
    this.selfById.clear();
    this.mounts = [];
    this.unmounts = [];
    this.commitList = [];
    while ((this.rows > this.maxRows || this.frames.length - this.head > this.maxFrames) && this.head < this.frames.length) {
      this.rows -= this.frames[this.head].components.length + 1;
      this.head++;
      this.dropped++;
    }
    // Compact now and then, not on every drop.
    if (this.head > 1024 && this.head * 2 > this.frames.length) {
      this.frames = this.frames.slice(this.head);
      this.head = 0;
    }
  }

  /** The last `n` frames as the strip draws them: [frame, style, layout, forced ms, time]. */
  bars(n: number): StripBar[] {
    const out: StripBar[] = [];
    for (let i = Math.max(this.head, this.frames.length - n); i < this.frames.length; i++) {
      const f = this.frames[i];
      out.push([f.frame, f.styleMs, f.layoutMs, f.forcedMs, f.time]);
    }
    return out;
  }

  /**
   * The recording so far (a copy of the frame list; the frames themselves are not touched again), with the names
   * of the components its kept frames mention (dropped frames' components are not looked up).
   */
  /**
   * The recording so far. `vitals`: the interactions and shifts since enable; those that began while it recorded go in
   * (issue 46).
   */
  finish(url: string, dirtied: Recording['dirtied'] = null, vitals: Vitals = NO_VITALS): Recording {
    const frames = this.frames.slice(this.head);
    const from = this.startedAt - performance.timeOrigin;
    const components: Record<string, ComponentInfo> = {};
    const add = (id: number): void => {
      if (id <= 0 || components[String(id)] !== undefined) return;
      const i = this.info(id);
      if (i) components[String(id)] = i;
    };
    for (const f of frames) {
      for (const c of f.components) add(c.id);
      for (const id of f.mounts) add(id);
      for (const [id] of f.commits) add(id);
      for (const s of f.stacks) add(s.id);
    }
    if (dirtied) add(dirtied.id);
    return {
      kind: 'layout-cost-recording', version: RECORDING_VERSION, url, startedAt: this.startedAt, stoppedAt: Date.now(),
      timeOrigin: performance.timeOrigin, frames, components, droppedFrames: this.dropped,
      limits: { maxRows: this.maxRows, maxFrameComponents: MAX_FRAME_COMPONENTS }, dirtied,
      interactions: vitals.interactions.filter((i) => i.start >= from), shifts: vitals.shifts.filter((x) => x.time >= from),
    };
  }
}

/** Both sinks get every call (the user's recording and the panel's live strip); null when neither is there. */
export function tee(a: Recorder | null, b: Recorder | null): FrameSink | null {
  if (a === null || b === null) return a ?? b;
  return {
    self: (id, s, l, f, n) => { a.self(id, s, l, f, n); b.self(id, s, l, f, n); },
    inclusive: (id, s, l, f, n) => { a.inclusive(id, s, l, f, n); b.inclusive(id, s, l, f, n); },
    endFrame: (frame, t, s, l, f) => { a.endFrame(frame, t, s, l, f); b.endFrame(frame, t, s, l, f); },
    mount: (id) => { a.mount(id); b.mount(id); },
    unmount: (id) => { a.unmount(id); b.unmount(id); },
    commits: (id, n) => { a.commits(id, n); b.commits(id, n); },
    stack: (id, ms, stack) => { a.stack(id, ms, stack); b.stack(id, ms, stack); },
  };
}

export interface TraceEventOut {
  name: string;
  cat?: string;
  ph: 'X' | 'M' | 'i';
  ts?: number;
  dur?: number;
  pid: number;
  tid: number;
  s?: 't' | 'p' | 'g';
  args?: Record<string, unknown>;
}

const PID = 1;
const TID_FRAMES = 1;
const TID_COMPONENTS = 2;
const TID_VITALS = 3;

/**
 * Chrome's Trace Event Format: per frame one "Frame" event, and one complete event per component per frame, named
 * after the component, `cat` "layout-cost", laid end to end inside the frame's own window as long as the
 * component's self style + layout + forced ms (so a frame's component events add up to the frame). Timestamps are
 * the page's performance.now() in µs (docs/RECORDING.md: lining it up with a Chrome trace of the same run).
 */
export function toTrace(r: Recording): { traceEvents: TraceEventOut[]; displayTimeUnit: 'ms'; metadata: Record<string, unknown> } {
  const name = (id: number): string => (id === 0 ? '<page>' : r.components[String(id)]?.name ?? 'Anonymous');
  const ev: TraceEventOut[] = [
    { name: 'process_name', ph: 'M', pid: PID, tid: 0, args: { name: 'Layout Cost' } },
    { name: 'thread_name', ph: 'M', pid: PID, tid: TID_FRAMES, args: { name: 'Frames (style + layout + forced)' } },
    { name: 'thread_name', ph: 'M', pid: PID, tid: TID_COMPONENTS, args: { name: 'Components (self ms)' } },
    { name: 'thread_name', ph: 'M', pid: PID, tid: TID_VITALS, args: { name: 'Interactions and layout shifts' } },
  ];
  const us = (ms: number): number => Math.round(ms * 1000);
  for (const f of r.frames) {
    const total = f.styleMs + f.layoutMs + f.forcedMs;
    ev.push({
      name: `Frame ${f.frame}`, cat: 'layout-cost,frame', ph: 'X', ts: us(f.time), dur: us(total), pid: PID, tid: TID_FRAMES,
      args: { frame: f.frame, styleMs: f.styleMs, layoutMs: f.layoutMs, forcedMs: f.forcedMs },
    });
    let t = f.time;
    for (const c of f.components) {
      const self = c.selfStyleMs + c.selfLayoutMs + c.selfForcedMs;
      if (self <= 0) continue;
      ev.push({
        name: name(c.id), cat: 'layout-cost', ph: 'X', ts: us(t), dur: us(self), pid: PID, tid: TID_COMPONENTS,
        args: {
          id: c.id, styleMs: c.selfStyleMs, layoutMs: c.selfLayoutMs, forcedMs: c.selfForcedMs,
          inclusive: { styleMs: c.styleMs, layoutMs: c.layoutMs, forcedMs: c.forcedMs }, frame: f.frame,
        },
      });
      t += self;
    }
  }
  // Interactions (input to next paint) and layout shifts (an instant each), split per component in their args.
  for (const i of r.interactions ?? []) {
    ev.push({
      name: `${i.type === 'keyboard' ? 'Key' : 'Pointer'} on ${i.target?.name ?? 'a node no component owns'}`, cat: 'layout-cost,interaction',
      ph: 'X', ts: us(i.start), dur: us(i.duration), pid: PID, tid: TID_VITALS,
      args: {
        interactionId: i.id, inputDelay: i.inputDelay, processing: i.processing, presentationDelay: i.presentationDelay,
        styleMs: i.styleMs, layoutMs: i.layoutMs, forcedMs: i.forcedMs, components: i.components.slice(0, 5),
      },
    });
  }
  for (const s of r.shifts ?? []) {
    ev.push({
      name: `Layout shift ${s.value.toFixed(4)}`, cat: 'layout-cost,shift', ph: 'i', s: 't', ts: us(s.time), pid: PID, tid: TID_VITALS,
      args: { value: s.value, shifted: s.shifted, cause: s.cause },
    });
  }
  return {
    traceEvents: ev, displayTimeUnit: 'ms',
    metadata: {
      'layout-cost': { version: r.version, url: r.url, timeOrigin: r.timeOrigin, clock: 'the page\'s performance.now(), µs', droppedFrames: r.droppedFrames },
    },
  };
}
