/**
 * What the DevTools panel sees of this frame: a status line whenever it
 * changes and, while a panel is connected, the component table and the
 * pinned component's details a few times a second.
 */
import type { Vitals } from '../../protocol/vitals';
import type { ComponentRow, Mode, PageStatus, PinnedDetail, SelfCost, Status, StripBar, TableMessage } from '../../protocol';
import type { RollupStore } from './store';
import { RowChange, rowFingerprint, TableDiff, toMicros } from './table-diff';

const TABLE_INTERVAL_MS = 500;
/**
 * Status lines go out at most this often (trailing, latest wins), except for the user's own actions (mode, pin),
 * which show at once: a page that forges 5 000 status messages made 5 000 panel updates (issue 11).
 */
export const STATUS_INTERVAL_MS = 500;
const MAX_ROWS = 20_000;
const MAX_STACKS = 8;

/** What the overlay shows now, as the feed reports it. */
export interface OverlayView {
  pinned: number | null;
  hovered: number | null;
  drawnCount: number;
  hiddenCount: number;
  capped: boolean;
}

/** What the feed reads and where it sends: narrow getters, not the controller. */
export interface FeedSource {
  /** Read only: rows, EMAs, sparklines, the component tree. */
  readonly store: Pick<RollupStore, 'components' | 'page' | 'frames' | 'droppedEvents' | 'row' | 'ema' | 'sparkline' | 'dirtiedOf' | 'dirtied' | 'keysVersion' | 'commitsOf'>;
  readonly mode: Mode;
  readonly pageStatus: PageStatus | null;
  /** Whether the app's own names look minified, once some of its types are placed (sources.ts); null before. */
  ownNamesMinified(): boolean | null;
  send(type: 'status', payload: Status): void;
  send(type: 'table', payload: TableMessage): void;
  overlayView(): OverlayView;
  /** The components sharing one meter with `id` (collapsed chains), `[id]` when none. */
  chainOf(id: number): number[];
  droppedMessages(): number;
  selfCost(): SelfCost | null;
  /** The live strip's bars, oldest first: [frame, style, layout, forced ms]. */
  strip(): StripBar[];
  sources(): Status['sources'];
  /** Bumped whenever a row's name or source may have changed (the source book's): the next table is whole. */
  sourcesVersion(): number;
  /** Interactions and layout shifts since enable (the panel's lists). */
  vitals(): Vitals;
}

/** The page's status while the MAIN world has said nothing (yet, or ever: `degraded` says why). */
export function silentPage(degraded: string[]): PageStatus {
  return { renderers: 0, roots: 0, agent: false, minified: false, degraded, timerResolutionMs: 0.1, url: location.href.slice(0, 2048) };
}

export class PanelFeed {
  private connected = false;
  private lastTable = 0;
  private statusKey = '';
  private lastPinned: number | null = null;
  private stacks = new Map<number, { ms: number; stack: string; after?: string[] }[]>();
  private lastStatusAt = -Infinity;
  private statusTimer: ReturnType<typeof setTimeout> | null = null;
  /** What the panel has of the table: updates carry only the rows that changed (table-diff.ts). */
  private readonly diff = new TableDiff();

  constructor(private readonly src: FeedSource) {}

  /** A DevTools panel is open on this tab. */
  get isConnected(): boolean {
    return this.connected;
  }

  setConnected(connected: boolean): void {
    this.connected = connected;
    this.statusKey = '';
    this.diff.reset();
    if (connected) {
      this.statusChanged(true);
      this.sendTable();
    }
  }

  addStack(id: number, ms: number, stack: string, after?: string[]): void {
    let list = this.stacks.get(id);
    if (!list) this.stacks.set(id, (list = []));
    list.unshift(after ? { ms, stack, after } : { ms, stack });
    if (list.length > MAX_STACKS) list.length = MAX_STACKS;
    if (this.stacks.size > 1000) this.stacks.delete(this.stacks.keys().next().value as number);
  }

  status(): Status {
    const s = this.src;
    const o = s.overlayView();
    const page: PageStatus = s.pageStatus ?? silentPage([]);
    const own = s.ownNamesMinified();
    return {
      ...page, minified: own ?? page.minified, frameId: 0, mode: s.mode, pinned: o.pinned, components: s.store.components.size,
      droppedEvents: s.store.droppedEvents, droppedMessages: s.droppedMessages(), drawn: o.drawnCount, hidden: o.hiddenCount,
      capped: o.capped, hovered: o.hovered, self: s.selfCost(), sources: s.sources(), vitals: s.vitals(),
    };
  }

  /** The status may have changed; `urgent` for the user's own actions (mode, pin), which skip the rate limit. */
  statusChanged(urgent = false): void {
    if (!this.connected) return;
    const now = performance.now();
    if (!urgent && now - this.lastStatusAt < STATUS_INTERVAL_MS) {
      this.statusTimer ??= setTimeout(() => {
        this.statusTimer = null;
        this.statusChanged();
      }, STATUS_INTERVAL_MS - (now - this.lastStatusAt));
      return;
    }
    const st = this.status();
    const key = JSON.stringify(st);
    if (key === this.statusKey) return;
    this.statusKey = key;
    this.lastStatusAt = now;
    this.src.send('status', st);
    // A new pin should show its details now, not at the next 500 ms table tick.
    if (st.pinned !== this.lastPinned) {
      this.lastPinned = st.pinned;
      this.sendTable();
    }
  }

  tick(): void {
    if (!this.connected) return;
    this.statusChanged();
    if (performance.now() - this.lastTable >= TABLE_INTERVAL_MS) this.sendTable();
  }

  /** The panel missed an update (or has none to apply one to): the next table is whole, and goes now. */
  resync(): void {
    this.diff.reset();
    if (this.connected) this.sendTable();
  }

  /** Rows the panel holds, as this side counts them (tests). */
  get rowsSent(): number {
    return this.diff.size;
  }

  private sendTable(): void {
    this.lastTable = performance.now();
    const { store } = this.src;
    const { pinned } = this.src.overlayView();
    const diff = this.diff;
    // Keys that came over since (the agent holds them until a panel shows them: store.ts `keysVersion`) change rows
    // as names and sources do: both counters only grow, so their sum moves when either does.
    diff.begin(this.src.sourcesVersion() + store.keysVersion);
    const rows: ComponentRow[] = [];
    const values: number[] = [];
    let visited = 0;
    for (const c of store.components.values()) {
      if (visited === MAX_ROWS) break;
      visited++;
      const e = store.ema(c);
      const how = diff.changed(c.id, rowFingerprint(e.styleMs, e.layoutMs, e.forcedMs, e.lastFrameMs, c.authored, c.rendered,
        c.portaledIn, store.commitsOf(c.id), c.typeId));
      if (how === RowChange.New) rows.push(store.row(c));
      else if (how === RowChange.Changed) {
        // ROW_VALUE_FIELDS, in order.
        values.push(c.id, toMicros(e.styleMs), toMicros(e.layoutMs), toMicros(e.forcedMs), toMicros(e.lastFrameMs), c.authored,
          c.rendered, c.portaledIn, store.commitsOf(c.id));
      }
    }
    const pe = store.ema(store.page);
    const update: TableMessage = {
      frameId: 0,
      frames: store.frames.count,
      rows,
      page: { styleMs: pe.styleMs, layoutMs: pe.layoutMs, forcedMs: pe.forcedMs },
      pinned: pinned === null ? null : this.pinnedDetail(pinned),
      strip: this.src.strip(),
      seq: diff.seq,
      whole: diff.whole,
      removed: diff.removed(visited, (id) => store.components.has(id)),
      values,
    };
    this.src.send('table', update);
  }

  private pinnedDetail(id: number): PinnedDetail | null {
    const { store } = this.src;
    const c = store.components.get(id);
    if (!c) return null;
    const chain: { id: number; name: string }[] = [];
    let p = c.parentId === null ? undefined : store.components.get(c.parentId);
    while (p && chain.length < 256) {
      chain.push({ id: p.id, name: p.name });
      p = p.parentId === null ? undefined : store.components.get(p.parentId);
    }
    const collapsed = this.src.chainOf(id);
    const sharedMeter = collapsed.length > 1
      ? collapsed.map((x) => ({ id: x, name: store.components.get(x)?.name ?? 'Anonymous' }))
      : [];
    return {
      ...store.row(c), lastStyleMs: c.cost?.lastStyleMs ?? 0, lastLayoutMs: c.cost?.lastLayoutMs ?? 0,
      lastForcedMs: c.cost?.lastForcedMs ?? 0, frame: c.cost?.lastFrame ?? 0, sparkline: store.sparkline(c), chain,
      stacks: (this.stacks.get(id) ?? []).slice(0, MAX_STACKS), sharedMeter, dirtiedBy: store.dirtiedOf(id),
      boundary: store.dirtied.id === id ? store.dirtied.boundary : null,
      alone: store.dirtied.id === id ? { ...store.dirtied.alone } : { frames: 0, layoutMs: 0 },
    };
  }
}
