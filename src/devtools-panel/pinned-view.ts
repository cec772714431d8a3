/**
 * The pinned component in full: name, key, style / layout / forced-reflow
 * ms (EMA and last frame), authored, rendered, ratio, commits, frame
 * number, a large sparkline, the owner chain (click an ancestor to pin it),
 * sampled forced-reflow stacks, "Reveal in Elements", and containment
 * experiments to try (experiment-model.ts). Updated in place twice a second,
 * so focus and open <details> survive refreshes.
 */
import type { PinnedDetail, RowSource, Settings } from '../protocol';
import { clear, el, setText } from './dom';
import { drawSparkline, sparkColorsFrom } from './sparkline-canvas';
import { rampLevel } from '../overlay/ramps';
import { capStack, capText, dirtiedLine, formatCount, formatMs, formatRatio, shownInflation } from './text';
import { CANDIDATES, cssRule, describe, ranked, type Candidate, type CandidateState, type ExperimentBook } from './experiment-model';

export interface PinnedCallbacks {
  pin(id: number | null): void;
  reveal(id: number): void;
  /** Runs a containment experiment on a component (one at a time). */
  tryCss(id: number, css: string): void;
  /** Puts text on the clipboard; resolves false when the browser refused. */
  copy(text: string): Promise<boolean>;
  /** Opens a component's source in DevTools' Sources panel. */
  openSource(source: RowSource): void;
}

type MetricKey = 'style' | 'layout' | 'forced' | 'authored' | 'rendered' | 'portaled' | 'ratio' | 'commits' | 'frame';

export class PinnedView {
  readonly root: HTMLElement;
  private readonly emptyEl: HTMLElement;
  private readonly detailEl: HTMLElement;
  private readonly nameEl = el('bdi', { class: 'name', id: 'pinned-name' });
  private readonly keyEl = el('span', { class: 'pinned-key' });
  /** Where its type is defined (issue 15): a link that opens it in Sources, and what the lookup found. */
  private readonly sourceEl = el('button', { id: 'pinned-source', class: 'link', on: { click: () => this.detail?.source && this.cb.openSource(this.detail.source) } });
  private readonly sourceNote = el('span', { class: 'pinned-source-note dim' });
  private readonly idEl = el('span', { class: 'pinned-id' });
  private readonly metrics = new Map<MetricKey, [HTMLElement, HTMLElement | null]>();
  private readonly canvas = el('canvas', { class: 'spark-large', attrs: { role: 'img', 'aria-label': 'Layout ms over the last 6 seconds' } });
  private readonly chainEl = el('ol', { class: 'chain' });
  /** "Drawn as one meter with …": the wrapper chain the overlay collapsed. */
  private readonly sharedEl = el('p', { class: 'shared-meter' });
  private readonly stacksEl = el('div', { class: 'stacks' });
  private readonly dirtiedEl = el('ul', { class: 'dirtied', attrs: { 'aria-label': 'What dirtied it' } });
  private dirtiedKey = '';
  private readonly spreadEl = el('p', { class: 'spread' });
  private readonly experimentsEl = el('ol', { class: 'experiments', attrs: { 'aria-label': 'Containment experiments' } });
  private readonly tryAllEl = el('button', { id: 'try-all', on: { click: () => this.tryAll() } }, 'Try all');
  private experimentsKey = '';
  private book: ExperimentBook | null = null;
  /** "Try all": the declarations still to run, one after another. */
  private queue: { id: number; css: string[] } | null = null;
  private chainKey = '';
  private stacksKey = '';
  private detail: PinnedDetail | null = null;

  constructor(private readonly cb: PinnedCallbacks, private settings: Settings) {
    const grid = el('div', { class: 'metrics', attrs: { role: 'table', 'aria-label': 'Pinned component metrics' } },
      el('div', { class: 'mrow mhead', attrs: { role: 'row' } },
        el('span', { attrs: { role: 'columnheader' } }, ''),
        el('span', { attrs: { role: 'columnheader' } }, 'EMA'),
        el('span', { attrs: { role: 'columnheader' } }, 'last frame')),
      this.metricRow('style', 'Style ms', true),
      this.metricRow('layout', 'Layout ms', true),
      this.metricRow('forced', 'Forced reflow ms', true),
    );
    const counts = el('div', { class: 'counts', attrs: { role: 'table', 'aria-label': 'Pinned component counts' } },
      this.metricRow('authored', 'Authored', false),
      this.metricRow('rendered', 'Rendered', false),
      this.metricRow('portaled', 'Portaled in', false),
      this.metricRow('ratio', 'Ratio', false),
      this.metricRow('commits', 'Commits', false),
      this.metricRow('frame', 'Frame', false),
    );
    this.emptyEl = el('p', { class: 'pinned-empty' },
      'Nothing pinned. Click a row in the table, or use Inspect mode and click a component on the page.');
    this.detailEl = el('div', { class: 'pinned-detail' },
      el('div', { class: 'pinned-head' },
        el('h2', { class: 'pinned-title' }, this.nameEl), this.keyEl, this.idEl),
      el('div', { class: 'pinned-source' }, this.sourceEl, this.sourceNote),
      el('div', { class: 'pinned-actions' },
        el('button', { id: 'reveal', on: { click: () => this.detail && this.cb.reveal(this.detail.id) } }, 'Reveal in Elements'),
        el('button', { id: 'unpin', on: { click: () => this.cb.pin(null) } }, 'Unpin')),
      el('div', { class: 'pinned-numbers' }, grid, counts),
      this.canvas,
      el('h3', {}, 'Owner chain'),
      el('nav', { attrs: { 'aria-label': 'Owner chain' } }, this.chainEl),
      this.sharedEl,
      el('h3', {}, 'What dirtied it'),
      this.dirtiedEl,
      this.spreadEl,
      el('h3', {}, 'Forced reflow stacks (sampled)'),
      this.stacksEl,
      el('div', { class: 'experiments-head' }, el('h3', {}, 'Try containment'), this.tryAllEl),
      el('p', { class: 'dim' }, 'Each declaration is applied to this component\'s top elements and measured on the live page, with and '
        + 'without, over its own next 60 frames (more when you try again after an inconclusive result); then the page is '
        + 'left as it was. Nothing runs until you click.'),
      this.experimentsEl,
    );
    this.root = el('section', { id: 'pinned', class: 'pinned', attrs: { 'aria-label': 'Pinned component' } }, this.emptyEl, this.detailEl);
    this.update(null);
  }

  private metricRow(key: MetricKey, label: string, twoValues: boolean): HTMLElement {
    const a = el('span', { class: 'mv', attrs: { role: 'cell' } });
    const b = twoValues ? el('span', { class: 'mv', attrs: { role: 'cell' } }) : null;
    this.metrics.set(key, [a, b]);
    return el('div', { class: `mrow m-${key}`, attrs: { role: 'row' } }, el('span', { class: 'ml', attrs: { role: 'rowheader' } }, label), a, b);
  }

  setSettings(s: Settings): void {
    this.settings = s;
    this.redrawSparkline();
  }

  update(d: PinnedDetail | null): void {
    this.detail = d;
    this.emptyEl.hidden = d !== null;
    this.detailEl.hidden = d === null;
    if (d === null) return;
    setText(this.nameEl, capText(d.name) || 'Anonymous');
    setText(this.keyEl, d.key === null ? '' : `key ${capText(d.key, 60)}`);
    setText(this.idEl, `#${d.id}`);
    const src = d.source ?? null;
    setText(this.sourceEl, src ? `${src.file}:${src.line}` : '');
    this.sourceEl.hidden = src === null;
    if (src) this.sourceEl.title = 'Open in DevTools\' Sources panel';
    setText(this.sourceNote, src === null ? 'Source: not found yet (looked up in the page\'s scripts)'
      : src.state === 'mapped' ? `from the source map${d.minifiedName ? `; minified name ${capText(d.minifiedName, 40)}` : ''}`
        : src.state === 'no-map' ? 'in the bundle: its script has no source map'
          : src.state === 'react-debug' ? 'from React\'s debug information: the line of its first element (its code is in no script we can read)'
            : 'in the bundle: its source map could not be used');
    // Elements other components' portals placed in its DOM are theirs: not this component's inflation.
    const ratio = shownInflation(d);
    this.set('style', formatMs(d.styleMs), formatMs(d.lastStyleMs));
    this.set('layout', formatMs(d.layoutMs), formatMs(d.lastLayoutMs), rampLevel(d.layoutMs, this.settings.msRamp));
    this.set('forced', formatMs(d.forcedMs), formatMs(d.lastForcedMs));
    this.set('authored', formatCount(d.authored));
    this.set('rendered', formatCount(d.rendered));
    this.set('portaled', formatCount(d.portaledIn));
    (this.metrics.get('portaled') as [HTMLElement, HTMLElement | null])[0].parentElement!.hidden = d.portaledIn === 0;
    this.set('ratio', formatRatio(ratio), null, ratio === null ? null : rampLevel(ratio, this.settings.inflationRamp));
    this.set('commits', formatCount(d.commits));
    this.set('frame', formatCount(d.frame));
    this.updateChain(d);
    this.updateStacks(d);
    this.updateDirtied(d);
    this.updateExperiments();
    this.redrawSparkline();
  }

  /** The experiments' states changed (or the book is new). */
  setExperiments(book: ExperimentBook): void {
    this.book = book;
    const q = this.queue;
    if (q !== null && !book.running) {
      const next = q.css.shift();
      if (next === undefined || this.detail?.id !== q.id) this.queue = null;
      else this.cb.tryCss(q.id, next);
    }
    this.updateExperiments();
  }

  private tryAll(): void {
    const d = this.detail;
    if (d === null || this.book?.running) return;
    const css = CANDIDATES.map((c) => c.css);
    const first = css.shift() as string;
    this.queue = { id: d.id, css };
    this.cb.tryCss(d.id, first);
  }

  private updateExperiments(): void {
    const d = this.detail;
    const book = this.book;
    if (d === null || book === null) return;
    const states = CANDIDATES.map((c) => [c, book.state(d.id, c.css)] as [Candidate, CandidateState]);
    const key = `${d.id}|${book.running}|${states.map(([c, s]) => `${c.css}:${s.kind}:${s.kind === 'done' ? s.result.verdict + s.result.speedup : ''}`).join(',')}`;
    if (key === this.experimentsKey) return;
    this.experimentsKey = key;
    this.tryAllEl.disabled = book.running;
    clear(this.experimentsEl);
    for (const [c, s] of ranked(states)) this.experimentsEl.append(this.experimentRow(d.id, c, s, book.running));
  }

  private experimentRow(id: number, c: Candidate, s: CandidateState, busy: boolean): HTMLElement {
    const verdict = s.kind === 'done' ? s.result.verdict : s.kind;
    const status = s.kind === 'running' ? 'Measuring…'
      : s.kind === 'failed' ? `Could not run: ${capText(s.error, 160)}`
        : s.kind === 'done' ? describe(s.result) : c.note;
    const row = el('li', { class: `experiment v-${verdict}`, attrs: { 'data-css': c.css } },
      el('code', { class: 'decl', attrs: { title: s.kind === 'done' ? capText(s.result.css, 300) : c.css } },
        s.kind === 'done' ? capText(s.result.css, 120) : c.css),
      el('button', {
        class: 'try', attrs: { title: `Measure ${c.css} on this component` },
        on: { click: () => this.cb.tryCss(id, c.css) },
      }, s.kind === 'done' && s.result.verdict === 'inconclusive' ? 'Again, longer' : s.kind === 'done' || s.kind === 'failed' ? 'Again' : 'Try'),
      el('span', { class: 'exp-status' }, status));
    (row.querySelector('button.try') as HTMLButtonElement).disabled = busy;
    if (s.kind === 'done' && s.result.verdict === 'faster') {
      const rule = cssRule(s.result);
      const copy = el('button', { class: 'copy', attrs: { title: 'Copy this rule, with the measurement as a comment' } }, 'Copy CSS');
      const pre = el('pre', { class: 'css-rule' }, rule);
      copy.addEventListener('click', () => {
        void this.cb.copy(rule).then((ok) => setText(copy, ok ? 'Copied' : 'Select the text below'));
      });
      row.append(copy, pre);
    }
    return row;
  }

  private set(key: MetricKey, a: string, b: string | null = null, level: number | null = null): void {
    const [ea, eb] = this.metrics.get(key) as [HTMLElement, HTMLElement | null];
    setText(ea, a);
    if (eb && b !== null) setText(eb, b);
    ea.dataset.level = level === null ? '' : String(level);
  }

  private updateChain(d: PinnedDetail): void {
    this.updateShared(d);
    const key = `${d.id}|${d.name}|${d.chain.map((c) => `${c.id}:${c.name}`).join(',')}`;
    if (key === this.chainKey) return;
    this.chainKey = key;
    clear(this.chainEl);
    // The chain arrives parent-first; show it root-first, ending at the pinned component.
    for (const a of [...d.chain].reverse()) {
      const label = capText(a.name, 60) || 'Anonymous';
      this.chainEl.append(el('li', {}, el('button', {
        class: 'chain-link', attrs: { 'data-id': String(a.id), title: `Pin ${label} (#${a.id})` },
        on: { click: () => this.cb.pin(a.id) },
      }, el('bdi', {}, label))));
    }
    this.chainEl.append(el('li', { class: 'chain-self', attrs: { 'aria-current': 'true' } }, el('bdi', {}, capText(d.name, 60) || 'Anonymous')));
  }

  private sharedKey = '';
  private updateShared(d: PinnedDetail): void {
    const key = d.sharedMeter.map((c) => `${c.id}:${c.name}`).join(',');
    if (key === this.sharedKey) return;
    this.sharedKey = key;
    clear(this.sharedEl);
    if (d.sharedMeter.length > 1) {
      this.sharedEl.append('Drawn as one meter on the page (same box): ');
      d.sharedMeter.forEach((c, i) => {
        if (i > 0) this.sharedEl.append(' → ');
        this.sharedEl.append(el('bdi', {}, capText(c.name, 60) || 'Anonymous'));
      });
    }
  }

  private updateDirtied(d: PinnedDetail): void {
    const spread = d.boundary !== null
      ? `Its top elements are a layout boundary already (${capText(d.boundary, 120)}): its layout stays inside.`
      : d.alone.frames === 0
        ? 'Not a layout boundary: its layout can spread to the page. No frame yet in which only it changed.'
        : `Not a layout boundary: in the ${formatCount(d.alone.frames)} frames in which only it changed, the page laid out `
          + `${formatMs(d.alone.layoutMs)} ms per frame (its own subtree and whatever its change spread to). Try containment below.`;
    setText(this.spreadEl, spread);
    const key = `${d.id}|${d.dirtiedBy.map((x) => `${x.kind}:${x.name}:${x.on}:${x.source}:${x.perFrame.toFixed(1)}:${x.last}`).join(',')}`;
    if (key === this.dirtiedKey) return;
    this.dirtiedKey = key;
    clear(this.dirtiedEl);
    if (d.dirtiedBy.length === 0) {
      this.dirtiedEl.append(el('li', { class: 'dim' }, 'No DOM change in its subtree lately.'));
      return;
    }
    for (const x of d.dirtiedBy) {
      const line = dirtiedLine(x);
      this.dirtiedEl.append(el('li', { class: `dirtied-${x.source}` }, `${line.count} `, el('code', {}, line.what), line.rest));
    }
  }

  private updateStacks(d: PinnedDetail): void {
    const key = `${d.id}|${d.stacks.map((s) => `${s.ms}:${s.stack.length}`).join(',')}`;
    if (key === this.stacksKey) return;
    this.stacksKey = key;
    const open = new Set([...this.stacksEl.querySelectorAll('details')].map((x, i) => (x.open ? i : -1)));
    clear(this.stacksEl);
    if (d.stacks.length === 0) {
      this.stacksEl.append(el('p', { class: 'dim' }, 'No forced reflow caught for this component.'));
      return;
    }
    d.stacks.forEach((s, i) => {
      const first = capText(s.stack.split('\n').find((l) => /\S/.test(l) && !/^Error/.test(l)) ?? '', 80);
      // Whose writes the reflow laid out: the reader pays (docs/TIMING.md §3), the writers are named.
      const after = s.after && s.after.length > 0 ? el('span', { class: 'writers' }, ` after writes by ${capText(s.after.join(', '), 120)}`) : '';
      const det = el('details', {},
        el('summary', {}, `${formatMs(s.ms)} ms `, el('span', { class: 'dim' }, first), after),
        el('pre', { class: 'stack' }, capStack(s.stack)));
      det.open = open.has(i);
      this.stacksEl.append(det);
    });
  }

  redrawSparkline(): void {
    if (!this.detail || this.detailEl.hidden) return;
    drawSparkline(this.canvas, this.detail.sparkline, this.settings.msRamp, sparkColorsFrom(this.root, this.settings.colorBlind));
  }
}
