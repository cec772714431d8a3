/**
 * What the panel knows, independent of the DOM: the tab's mode, each
 * frame's latest status and table (the router fills in frameId), which
 * frame is shown, and the worker connection. Views read it; `index.ts`
 * feeds it from the port. Exposed as `globalThis.__panelState` for tests.
 *
 * Frame picking lives here too: React may run in several frames of the
 * inspected tab (status and table carry the router-filled frameId); the
 * panel shows one at a time, without fighting the user's choice.
 */
import { ROW_VALUES, type ComponentRow, type Mode, type Status, type TableMessage, type TableUpdate } from '../protocol';
import { capText } from './text';

export class PanelModel {
  mode: Mode = 'off';
  connected = false;
  readonly frames = new Map<number, Status>();
  readonly tables = new Map<number, TableUpdate>();
  /** Each frame's rows by id, in the content script's order, and the last update applied to them (TableMessage). */
  private readonly series = new Map<number, { seq: number; rows: Map<number, ComponentRow> }>();
  /** Frames asked for a whole table since their last one (asked once, not at every update that cannot apply). */
  private readonly resyncAsked = new Set<number>();
  frameId: number | null = null;
  userChoseFrame = false;
  /** Bumped on every change of status or frames; the table has its own `tableVersion`. */
  version = 0;
  tableVersion = 0;
  /** Connections to the worker so far: more than one means the port was lost and re-established. */
  connections = 0;
  /** Table rebuilds so far (tests check the refresh rate stays at a few per second). */
  tableRenders = 0;

  /** The selected frame's status (foundation e2e reads `.status`). */
  get status(): Status | null {
    return this.frameId === null ? null : this.frames.get(this.frameId) ?? null;
  }

  get table(): TableUpdate | null {
    return this.frameId === null ? null : this.tables.get(this.frameId) ?? null;
  }

  /** The pinned component of the shown frame, as the last table update described it. */
  get pinnedId(): number | null {
    return this.status?.pinned ?? null;
  }

  setMode(mode: Mode): void {
    this.mode = mode;
    this.version++;
  }

  setConnected(c: boolean): void {
    if (c && !this.connected) this.connections++;
    this.connected = c;
    this.version++;
  }

  onStatus(s: Status): void {
    this.frames.set(s.frameId, s);
    this.reselect();
    this.version++;
  }

  /**
   * Applies a frame's table update: a whole table replaces the rows, any other changes the rows of the one before it.
   * Returns true when an update could not be applied (one was missed, or there is no table to change) and a whole
   * table should be asked for (once until it comes).
   */
  onTable(t: TableMessage): boolean {
    const { seq, whole, removed, values, ...update } = t;
    let s = this.series.get(t.frameId);
    if (whole) {
      this.series.set(t.frameId, (s = { seq, rows: new Map() }));
      this.resyncAsked.delete(t.frameId);
    } else if (s === undefined || seq !== s.seq + 1) {
      if (this.resyncAsked.has(t.frameId)) return false;
      this.resyncAsked.add(t.frameId);
      return true;
    } else {
      s.seq = seq;
      for (const id of removed) s.rows.delete(id);
    }
    for (const r of t.rows) s.rows.set(r.id, r);
    for (let i = 0, v = values; i + ROW_VALUES <= v.length; i += ROW_VALUES) {
      const r = s.rows.get(v[i]);
      if (!r) continue;
      s.rows.set(r.id, {
        ...r, styleMs: v[i + 1], layoutMs: v[i + 2], forcedMs: v[i + 3], lastFrameMs: v[i + 4], authored: v[i + 5],
        rendered: v[i + 6], portaledIn: v[i + 7], commits: v[i + 8],
      });
    }
    this.tables.set(t.frameId, { ...update, rows: [...s.rows.values()] });
    if (t.frameId === this.frameId) this.tableVersion++;
    return false;
  }

  /** A frame's content script went away (navigation, reload, frame removed). */
  onContentGone(frameId: number): void {
    this.frames.delete(frameId);
    this.tables.delete(frameId);
    this.series.delete(frameId);
    this.resyncAsked.delete(frameId);
    this.reselect();
    this.version++;
    this.tableVersion++;
  }

  selectFrame(id: number): void {
    if (!this.frames.has(id)) return;
    this.frameId = id;
    this.userChoseFrame = true;
    this.version++;
    this.tableVersion++;
  }

  private reselect(): void {
    const next = chooseFrame(this.frames, this.frameId, this.userChoseFrame);
    if (next !== this.frameId) {
      this.frameId = next;
      if (next === null || !this.frames.has(next)) this.userChoseFrame = false;
      this.tableVersion++;
    }
  }

  /** Frames other than the shown one that run React, Vue or Preact. */
  otherReactFrames(): number {
    let n = 0;
    for (const [id, s] of this.frames) if (id !== this.frameId && hasFramework(s)) n++;
    return n;
  }
}

/** Whether the frame runs a framework Layout Cost measures (React; Vue and Preact: issues 63 and 64). */
export function hasFramework(s: Status): boolean {
  return s.renderers > 0 || s.vue !== undefined || s.preact !== undefined;
}

export const TOP_FRAME_ID = 0;

/**
 * Keeps the user's choice while that frame lives; otherwise prefers the top
 * frame when it runs React, then the first frame that does, then the top.
 */
export function chooseFrame(frames: ReadonlyMap<number, Status>, current: number | null, userChosen: boolean): number | null {
  if (current !== null && userChosen && frames.has(current)) return current;
  const top = frames.get(TOP_FRAME_ID);
  if (top && hasFramework(top)) return TOP_FRAME_ID;
  const ids = [...frames.keys()].sort((a, b) => a - b);
  for (const id of ids) if (hasFramework(frames.get(id) as Status)) return id;
  if (current !== null && frames.has(current)) return current;
  return frames.has(TOP_FRAME_ID) ? TOP_FRAME_ID : ids[0] ?? null;
}

/** Frames listed in the picker: the top frame and every frame that runs React, Vue or Preact. */
export function pickerFrames(frames: ReadonlyMap<number, Status>): number[] {
  return [...frames.entries()]
    .filter(([id, s]) => id === TOP_FRAME_ID || hasFramework(s))
    .map(([id]) => id)
    .sort((a, b) => a - b);
}

/** "top — host/path (3 roots)"; the URL is page-supplied, so capped. */
export function frameLabel(id: number, s: Status): string {
  let where = s.url;
  try {
    const u = new URL(s.url);
    if (u.host) where = u.host + u.pathname;
  } catch {
    // about:blank, srcdoc and the like: show the raw (capped) string.
  }
  const react = s.renderers > 0 ? `${s.roots} root${s.roots === 1 ? '' : 's'}`
    : s.vue !== undefined ? (s.vue.apps > 0 ? `Vue, ${s.vue.apps} app${s.vue.apps === 1 ? '' : 's'}` : 'Vue')
      : s.preact !== undefined ? 'Preact' : 'no React';
  return capText(`${id === TOP_FRAME_ID ? 'top' : `frame ${id}`} — ${where} (${react})`, 80);
}
