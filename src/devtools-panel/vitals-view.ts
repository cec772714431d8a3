/**
 * The panel's "Vitals" tab (issue 46, docs/VITALS.md): the page's interactions since enable, worst first, and its
 * layout shifts, newest first, each split per component. An interaction opens to its components (own style, layout
 * and forced ms over the interaction's frames, and renders); a component's name pins it. A shift names what moved
 * and the cause, in words; the cause's name pins it (outlined on the page), a moved component's name outlines it
 * while hovered, and Show outlines the cause and what moved together for a few seconds. An opened interaction's
 * frames are marked on the frame strip, and the scripts of its long frames listed. Everything shown is from the page:
 * capped and set as text.
 */
import type { Interaction, LayoutShift, Vitals } from '../protocol/vitals';
import { clear, el, nameNode, setText } from './dom';
import { capText, formatMs } from './text';

export interface VitalsCallbacks {
  pin(id: number): void;
  hover(id: number | null): void;
  /** Outline a shift's cause and what it moved on the page for a moment. */
  outline(cause: number | null, moved: number[]): void;
  /** Mark the frames measured in a window (performance.now() ms) on the frame strip, or none. */
  mark(window: { from: number; to: number } | null): void;
}

/** A script's URL without its origin and query, with its character position: "/assets/app.js:1234". */
function shortSource(source: string): string {
  const m = /^(.*):(-?\d+)$/.exec(source);
  const [url, at] = m ? [m[1], m[2]] : [source, '-1'];
  let path = url;
  try {
    const u = new URL(url);
    path = u.pathname;
  } catch {
    // Not a URL (an inline script has none): as it is.
  }
  return at === '-1' ? path : `${path}:${at}`;
}

/** web-vitals' thresholds: good up to the first, poor from the second. */
const INP_LEVELS = [200, 500];
const CLS_LEVELS = [0.1, 0.25];

function level(v: number, [good, poor]: number[]): string {
  return v <= good ? 'good' : v <= poor ? 'needs improvement' : 'poor';
}

export class VitalsView {
  readonly root: HTMLElement;
  private readonly inpEl = el('p', { class: 'vitals-figure', id: 'vitals-inp' });
  private readonly clsEl = el('p', { class: 'vitals-figure', id: 'vitals-cls' });
  private readonly interactionsEl = el('ol', { class: 'vitals-list', id: 'vitals-interactions' });
  private readonly shiftsEl = el('ol', { class: 'vitals-list', id: 'vitals-shifts' });
  private key = '';
  /** The interaction opened (its id), if any. */
  private open: number | null = null;
  private last: Vitals | null = null;

  constructor(private readonly cb: VitalsCallbacks) {
    this.root = el('div', { class: 'vitals' },
      el('h3', {}, 'Interactions'), this.inpEl, this.interactionsEl,
      el('h3', {}, 'Layout shifts'), this.clsEl, this.shiftsEl);
    this.update(null);
  }

  /** Whether the page's framework reports renders (React does; Vue and Preact do not: their column says –). */
  private rendersKnown = true;

  update(v: Vitals | null, rendersKnown = true): void {
    this.last = v;
    this.rendersKnown = rendersKnown;
    // Names too: a production build's are the source map's once placed, after the interaction or shift came.
    const key = v === null ? '' : `${v.interactions.length}|${v.shifts.length}|${v.inp?.value}|${v.cls}|${this.open}|${rendersKnown}|`
      + v.interactions.map((i) => `${i.id}:${i.duration}:${i.target?.name}:${i.components.map((c) => c.name).join('/')}`).join(',')
      + v.shifts.map((x) => `${x.cause?.name}:${x.shifted.map((c) => c.name).join('/')}`).join(',');
    if (key === this.key) return;
    this.key = key;
    setText(this.inpEl, v?.inp ? `INP since enable: ${v.inp.value} ms (${level(v.inp.value, INP_LEVELS)})`
      : 'No interaction yet: click, tap or type in the page (those over 16 ms are listed).');
    setText(this.clsEl, v?.cls !== null && v?.cls !== undefined ? `CLS since enable: ${v.cls.toFixed(3)} (${level(v.cls, CLS_LEVELS)})`
      : 'No layout shift yet (shifts right after an input are expected and not counted).');
    clear(this.interactionsEl);
    const worst = [...(v?.interactions ?? [])].sort((a, b) => b.duration - a.duration);
    for (const i of worst) this.interactionsEl.append(this.interaction(i, v?.inp?.interactionId === i.id));
    clear(this.shiftsEl);
    for (const s of [...(v?.shifts ?? [])].reverse()) this.shiftsEl.append(this.shift(s));
  }

  private interaction(i: Interaction, isInp: boolean): HTMLElement {
    const first = i.components[0];
    const opened = this.open === i.id;
    const head = el('button', {
      class: 'vitals-row', attrs: { type: 'button', 'aria-expanded': String(opened), 'data-id': String(i.id) },
      on: { click: () => {
        this.open = opened ? null : i.id;
        // Its frames: those whose measurement began from a frame before its input (a frame begins before the input it
        // handles) to its paint (with Event Timing's 8 ms rounding).
        this.cb.mark(opened ? null : { from: i.start - 17, to: i.start + i.duration + 8 });
        this.key = '';
        this.update(this.last);
      } },
    },
    el('strong', {}, `${i.duration} ms`), ` ${i.type === 'keyboard' ? 'key' : 'pointer'} on `,
    i.target ? nameNode(capText(i.target.name)) : el('span', { class: 'dim' }, 'a node no component owns'),
    isInp ? el('span', { class: 'vitals-inp-tag' }, ' INP') : null,
    el('span', { class: 'dim' }, ` — input ${formatMs(i.inputDelay)} · handlers ${formatMs(i.processing)} · paint ${formatMs(i.presentationDelay)} ms; `
      + `layout ${formatMs(i.layoutMs)} + forced ${formatMs(i.forcedMs)} ms`),
    first ? el('span', {}, ', most by ', nameNode(capText(first.name)), ` (${formatMs(first.layoutMs + first.forcedMs)} ms)`) : null);
    const li = el('li', { class: 'vitals-item' }, head);
    if (opened) {
      const rows = i.components.map((c) => el('tr', {},
        el('td', {}, el('button', { class: 'chain-link', attrs: { type: 'button', title: 'Pin it' }, on: { click: () => this.cb.pin(c.id) } }, capText(c.name))),
        el('td', {}, formatMs(c.styleMs)), el('td', {}, formatMs(c.layoutMs)), el('td', {}, formatMs(c.forcedMs)), el('td', {}, this.rendersKnown ? String(c.renders) : '–')));
      li.append(el('table', { class: 'vitals-components' },
        el('thead', {}, el('tr', {}, el('th', {}, 'Component'), el('th', {}, 'Style ms'), el('th', {}, 'Layout ms'), el('th', {}, 'Forced ms'),
          el('th', this.rendersKnown ? {} : { attrs: { title: 'Vue and Preact report no renders: only what changed in the DOM is known' } }, 'Renders'))),
        el('tbody', {}, ...rows)));
      const scripts = i.scripts ?? [];
      if (scripts.length > 0) {
        li.append(el('p', { class: 'dim' }, 'Scripts in its long frames (Long Animation Frames):'), el('ul', { class: 'vitals-scripts' },
          ...scripts.map((x) => el('li', {}, el('code', {}, capText(x.invoker || 'a script')), x.fn ? ` ${capText(x.fn)}` : '',
            el('span', { class: 'dim' }, ` ${capText(shortSource(x.source), 120)}`),
            `: ${formatMs(x.durationMs)} ms${x.forcedMs > 0 ? `, of which ${formatMs(x.forcedMs)} ms forced style and layout` : ''}`))));
      }
    }
    return li;
  }

  private shift(s: LayoutShift): HTMLElement {
    const moved = s.shifted.map((c, k) => el('span', {}, k > 0 ? ', ' : '', el('button', {
      class: 'chain-link', attrs: { type: 'button', title: 'Outlined on the page while hovered' },
      on: { mouseenter: () => this.cb.hover(c.id), mouseleave: () => this.cb.hover(null), focus: () => this.cb.hover(c.id), blur: () => this.cb.hover(null) },
    }, capText(c.name))));
    const show = s.cause !== null || s.shifted.length > 0
      ? el('button', {
        class: 'vitals-show', attrs: { type: 'button', title: 'Outline the cause (orange) and what moved (violet) on the page for a few seconds' },
        on: { click: () => this.cb.outline(s.cause?.id ?? null, s.shifted.map((c) => c.id)) },
      }, 'Show')
      : null;
    return el('li', { class: 'vitals-item vitals-shift' },
      show, show ? ' ' : null,
      el('strong', {}, s.value.toFixed(4)), ' ',
      s.shifted.length > 0 ? el('span', {}, ...moved, ' moved') : el('span', { class: 'dim' }, 'nodes no component owns moved'),
      s.cause
        ? el('span', {}, ' — ', el('button', {
          class: 'chain-link vitals-cause', attrs: { type: 'button', title: 'Pin it (outlined on the page)' }, on: { click: () => this.cb.pin(s.cause!.id) },
        }, capText(s.cause.name)), ` ${capText(s.cause.reason, 300)}`)
        : el('span', { class: 'dim' }, ' — cause not found (nothing of React\'s or page code changed above it)'));
  }
}
