/**
 * Honest states (SPEC §3, issue 5): what the panel says about the page, in
 * plain words, derived from the selected frame's Status. `notices` is pure,
 * so every state is unit-tested; `StatusView` only renders the list.
 */
import type { Status } from '../protocol';
import { el, setText } from './dom';
import { capText, formatCount } from './text';

export type NoticeLevel = 'info' | 'warn' | 'error';

export interface Notice {
  /** Stable id: the view reuses the element, tests find it by `data-notice`. */
  id: string;
  level: NoticeLevel;
  text: string;
}

export interface StatusContext {
  /** The port to the service worker is up. */
  connected: boolean;
  /** Frames other than the selected one that run React. */
  otherReactFrames: number;
  /** The bound shortcut's text, e.g. "Ctrl+Shift+L". */
  shortcut: string;
  /** Component rows in the last table update (the content script caps them), or null before one. */
  tableRows?: number | null;
  /** Layout Cost does not run on the inspected site (the site bar says so and offers it): no "waiting for the page". */
  siteOff?: boolean;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

export function notices(s: Status | null, ctx: StatusContext): Notice[] {
  const out: Notice[] = [];
  if (!ctx.connected) out.push({ id: 'reconnecting', level: 'warn', text: 'Reconnecting to the extension…' });
  if (s === null) {
    if (!ctx.siteOff) out.push({ id: 'waiting', level: 'info', text: 'Waiting for the page… (reload it if the extension was just installed)' });
    return out;
  }
  if (s.renderers === 0 && s.vue === undefined && s.preact === undefined) {
    const elsewhere = ctx.otherReactFrames > 0 ? ` — React, Vue or Preact runs in ${plural(ctx.otherReactFrames, 'other frame')}: pick one above` : '';
    out.push({ id: 'no-react', level: 'info', text: `No React, Vue or Preact on this page${elsewhere}` });
  } else if (s.mode === 'off') {
    const found = [s.renderers > 0 ? `React found (${plural(s.roots, 'root')})` : null, s.vue !== undefined ? 'Vue found' : null,
      s.preact !== undefined ? 'Preact found' : null].filter(Boolean).join(' and ');
    out.push({ id: 'react-off', level: 'info', text: `${found}, overlay off — press ${ctx.shortcut} or Enable` });
  } else if (!s.agent) {
    out.push({ id: 'agent-loading', level: 'info', text: 'Starting measurement…' });
  }
  if (s.droppedEvents > 0) out.push({ id: 'dropped', level: 'warn', text: `${plural(s.droppedEvents, 'event')} dropped (the page outran the buffer)` });
  if (s.droppedMessages > 0) out.push({ id: 'dropped-messages', level: 'warn', text: `${plural(s.droppedMessages, 'malformed message')} dropped` });
  if (s.degraded.length > 0) {
    const why = s.degraded.slice(0, 4).map((r) => capText(r, 120)).join('; ');
    out.push({ id: 'degraded', level: 'warn', text: `Measurement degraded: ${why}` });
  }
  const src = s.sources ?? null;
  if (s.minified) {
    // Measured from the names seen; what the page's source maps gave back says how far that is undone.
    const text = !src || src.types === 0 ? 'Names look minified (a production build); looking for source maps…'
      : src.mapped > 0 ? `Names look minified: ${src.mapped} of ${src.types} component types named from the page's source maps`
        : src.pending > 0 ? 'Names look minified; looking for source maps…'
          : 'Names look minified, and no source map was found for them: serve your build\'s .map files (or inline them) to see real names';
    out.push({ id: 'minified', level: 'info', text });
  }
  if (ctx.tableRows != null && ctx.tableRows < s.components) {
    out.push({ id: 'truncated', level: 'warn', text: `Table lists ${formatCount(ctx.tableRows)} of ${plural(s.components, 'component')}` });
  }
  if (s.hidden > 0) {
    out.push({ id: 'hidden', level: 'info', text: `${plural(s.hidden, 'meter')} not drawn: overlapping others or covered (the table lists every component)` });
  }
  if (s.capped) out.push({ id: 'capped', level: 'info', text: `Drawing capped at ${plural(s.drawn, 'meter')} (large tree)` });
  if (s.mode !== 'off' && s.self) out.push({ id: 'self', level: 'info', text: formatSelf(s.self.msPerFrame, s.self.mainThreadShare) });
  if (s.renderers > 0 || s.vue !== undefined || s.preact !== undefined) out.push({ id: 'timer', level: 'info', text: `Timer resolution ${formatResolution(s.timerResolutionMs)}` });
  return out;
}

/** Below this many measured frames a second (rounded), our time is not given per frame (`formatSelf`). */
const SELF_PER_FRAME_MIN_FPS = 2;

/**
 * "Layout Cost itself: 0.2 ms/frame (1.1 % of the main thread)" — our own cost, from our own timers. A quiet page
 * measures no frame, and our timers' msPerFrame is then 0 while the idle redraw and the panel feed still cost a little:
 * said as it is ("0.00 ms/frame (0.9 %)" read as a contradiction). A page that measured a frame or so in the second
 * (the demo paused, the panel just opened) divided the panel feed's time by that one frame: "70.8 ms/frame (6.8 %)"
 * read as our cost of each frame. The frames a second are the two figures' ratio (ms a second over ms a frame); below
 * SELF_PER_FRAME_MIN_FPS only the share is given, and that one frame was measured.
 */
export function formatSelf(msPerFrame: number, share: number): string {
  const pct = share * 100;
  const of = `${pct < 10 ? pct.toFixed(1) : Math.round(pct)} % of the main thread`;
  if (!(msPerFrame > 0)) return `Layout Cost itself: ${of} (no frame measured in the last second)`;
  const framesPerSecond = (share * 1000) / msPerFrame;
  if (Math.round(framesPerSecond) < SELF_PER_FRAME_MIN_FPS) return `Layout Cost itself: ${of} (one frame measured in the last second)`;
  const ms = msPerFrame < 0.1 ? msPerFrame.toFixed(2) : msPerFrame.toFixed(1);
  return `Layout Cost itself: ${ms} ms/frame (${of})`;
}

export function formatResolution(ms: number): string {
  if (!(ms > 0)) return 'unknown';
  return ms < 0.1 ? `${Math.round(ms * 1000)} µs` : `${+ms.toFixed(3)} ms`;
}

/** The strip under the toolbar: one line per notice, reused by id so screen readers announce only changes. */
export class StatusView {
  readonly root = el('div', { id: 'status', class: 'status', attrs: { role: 'status', 'aria-live': 'polite' } });
  private readonly items = new Map<string, HTMLElement>();

  update(list: readonly Notice[]): void {
    const keep = new Set(list.map((n) => n.id));
    for (const [id, node] of this.items) {
      if (!keep.has(id)) {
        node.remove();
        this.items.delete(id);
      }
    }
    let prev: HTMLElement | null = null;
    for (const n of list) {
      let node = this.items.get(n.id);
      if (!node) {
        node = el('span', { class: 'notice', attrs: { 'data-notice': n.id } });
        this.items.set(n.id, node);
      }
      node.className = `notice ${n.level}`;
      setText(node, n.text);
      // Keep DOM order equal to list order without re-inserting unchanged nodes.
      const want: ChildNode | null = prev ? prev.nextSibling : this.root.firstChild;
      if (want !== node) this.root.insertBefore(node, want);
      prev = node;
    }
  }
}
