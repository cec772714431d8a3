/**
 * The "Layout Cost" track group in Chrome's Performance panel (issue 13,
 * item 1). While the overlay is on and the setting allows, each measured
 * frame's frame-end style and layout are written as spans split by the
 * components that carried them (the costliest TRACK_COMPONENTS, the rest as
 * one "other components" span), and each forced reflow as a span named after
 * its component, with `console.timeStamp(label, start, end, track,
 * trackGroup, color)`: Chrome's extensibility API, which records into a
 * Performance-panel recording only and adds nothing to the page's
 * performance buffer (unlike `performance.measure`, whose entries React
 * 19.2's tracks grew to a gigabyte, facebook/react #34770). Without a
 * recording the call is a no-op in Chrome.
 *
 * The spans of one frame lie consecutively inside the real style (t0–t1) and
 * layout (t1–t2) windows, each as long as the component's share: a picture
 * of who carried the frame, under the frame's own UpdateLayoutTree and
 * Layout events, not a claim about the order the browser did the work in.
 */
export const TRACK_GROUP = 'Layout Cost';
export const STYLE_TRACK = 'Style (by component)';
export const LAYOUT_TRACK = 'Layout (by component)';
export const FORCED_TRACK = 'Forced reflows';
/** Spans per phase per frame, the rest folded into one. */
export const TRACK_COMPONENTS = 10;
/** Shares shorter than this are not worth a span (folded into "other components"). */
const MIN_SPAN_MS = 0.01;

type TimeStamp = (label: string, start: number, end: number, track: string, group: string, color: string) => void;

export interface FrameShare {
  id: number;
  styleMs: number;
  layoutMs: number;
}

/** One phase's spans: [label, start, end], costliest first, consecutive from `from`. Pure, so it is unit-tested. */
export function spans(shares: readonly FrameShare[], pick: (s: FrameShare) => number, from: number, to: number,
  nameOf: (id: number) => string): [string, number, number][] {
  const sorted = shares.filter((s) => pick(s) > 0).sort((a, b) => pick(b) - pick(a));
  const out: [string, number, number][] = [];
  let t = from;
  let rest = 0;
  for (let i = 0; i < sorted.length; i++) {
    const ms = pick(sorted[i]);
    if (i >= TRACK_COMPONENTS || ms < MIN_SPAN_MS) {
      rest += ms;
      continue;
    }
    const end = Math.min(to, t + ms);
    out.push([nameOf(sorted[i].id), t, end]);
    t = end;
  }
  if (rest >= MIN_SPAN_MS && t < to) out.push(['other components', t, Math.min(to, t + rest)]);
  return out;
}

export class PerfTrack {
  enabled = false;
  private readonly stamp: TimeStamp | null;
  private readonly apply: typeof Reflect.apply;
  private broken = false;

  /** `sourceOf`: the boot's captured Function.prototype.toString (a page's replacement must not run). */
  constructor(private readonly win: Window & typeof globalThis, apply: typeof Reflect.apply,
    sourceOf: (fn: unknown) => string | null = () => null) {
    this.apply = apply;
    // Kept now, and only Chrome's own (the page may have wrapped console).
    const ts = win.console?.timeStamp;
    this.stamp = typeof ts === 'function' && /\[native code\]/.test(sourceOf(ts) ?? '') ? ts as TimeStamp : null;
  }

  get available(): boolean {
    return this.stamp !== null && !this.broken;
  }

  /** One measured frame: style in [t0, t1], layout in [t1, t2], split by `shares`. */
  frame(t0: number, t1: number, t2: number, shares: readonly FrameShare[], nameOf: (id: number) => string): void {
    if (!this.enabled || !this.available) return;
    for (const [label, a, b] of spans(shares, (s) => s.styleMs, t0, t1, nameOf)) this.write(label, a, b, STYLE_TRACK, 'secondary');
    for (const [label, a, b] of spans(shares, (s) => s.layoutMs, t1, t2, nameOf)) this.write(label, a, b, LAYOUT_TRACK, 'primary');
  }

  /** One forced reflow, where and when page code caused it. */
  forced(name: string, t0: number, ms: number): void {
    if (!this.enabled || !this.available) return;
    this.write(name, t0, t0 + ms, FORCED_TRACK, 'error');
  }

  private write(label: string, start: number, end: number, track: string, color: string): void {
    try {
      this.apply(this.stamp as TimeStamp, this.win.console, [label, start, end, track, TRACK_GROUP, color]);
    } catch {
      // An engine whose console.timeStamp takes one argument only, or a console made exotic: no track, nothing thrown.
      this.broken = true;
    }
  }
}
