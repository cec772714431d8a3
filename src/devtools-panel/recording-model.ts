/**
 * A recording as the panel shows it (issue 13): the table for one recorded
 * frame, or for the whole recording (per component: mean inclusive ms over
 * the recorded frames, the worst frame as "Last"), and the frame strip's
 * bars. Pure, so it is unit-tested.
 */
import type { ComponentRow, TableUpdate } from '../protocol';
import type { Recording } from '../protocol/recording';

/** The frame id the recording's table pretends to come from (never a real frame's). */
export const RECORDING_FRAME_ID = 2 ** 52;

function baseRow(r: Recording, id: number): ComponentRow {
  const info = r.components[String(id)];
  return {
    id, name: id === 0 ? '<page>' : info?.name ?? 'Anonymous', parentId: info?.parentId ?? null, depth: info?.depth ?? 0,
    key: info?.key ?? null, styleMs: 0, layoutMs: 0, forcedMs: 0, lastFrameMs: 0, authored: 0, rendered: 0, portaledIn: 0, commits: 0,
  };
}

/** The table of one frame (`index` into frames), or of the whole recording when `index` is null. */
export function recordingTable(r: Recording, index: number | null): TableUpdate {
  const rows = new Map<number, ComponentRow>();
  const frames = index === null ? r.frames : r.frames.slice(index, index + 1);
  const n = Math.max(1, frames.length);
  let pageStyle = 0, pageLayout = 0, pageForced = 0;
  for (const f of frames) {
    for (const c of f.components) {
      if (c.id === 0) {
        pageStyle += c.styleMs / n;
        pageLayout += c.layoutMs / n;
        pageForced += c.forcedMs / n;
        continue;
      }
      const row = rows.get(c.id) ?? baseRow(r, c.id);
      row.styleMs += c.styleMs / n;
      row.layoutMs += c.layoutMs / n;
      row.forcedMs += c.forcedMs / n;
      row.lastFrameMs = Math.max(row.lastFrameMs, c.styleMs + c.layoutMs + c.forcedMs);
      rows.set(c.id, row);
    }
    for (const [id, k] of f.commits) {
      const row = rows.get(id);
      if (row) row.commits += k;
    }
  }
  return {
    frameId: RECORDING_FRAME_ID, frames: frames.length, rows: [...rows.values()],
    page: { styleMs: pageStyle, layoutMs: pageLayout, forcedMs: pageForced }, pinned: null, strip: [], counts: false,
  };
}

/** One bar per frame: [style, layout, forced] ms. */
export function stripBars(r: Recording): [number, number, number][] {
  return r.frames.map((f) => [f.styleMs, f.layoutMs, f.forcedMs]);
}

/** "142 frames over 9.8 s, 12 dropped (the oldest)". */
export function recordingSummary(r: Recording): string {
  const f = r.frames;
  const span = f.length > 1 ? (f[f.length - 1].time - f[0].time) / 1000 : 0;
  const dropped = r.droppedFrames > 0 ? `, ${r.droppedFrames} older frames dropped to stay under the cap` : '';
  return `${f.length} frame${f.length === 1 ? '' : 's'} over ${span.toFixed(1)} s${dropped} (ms only: element counts are not recorded;`
    + ' "Last" is the worst frame)';
}

/** Bars are at most 8 px wide, narrower when there are more than fit: the strip draws and picks with the same width. */
export function barWidth(bars: number, width: number): number {
  return Math.min(8, width / Math.max(1, bars));
}
