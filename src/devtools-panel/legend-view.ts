/**
 * The legend (what the meter's sparkline or bars and its colors mean, with
 * the user's current thresholds) and the keyboard shortcut: the binding
 * Chrome actually assigned (chrome.commands.getAll(), which Chromium may
 * leave empty) and how to change it at chrome://extensions/shortcuts.
 */
import type { Settings } from '../protocol';
import { el, setText } from './dom';
import { DEFAULT_SHORTCUT } from './shortcuts';

const SHORTCUTS_URL = 'chrome://extensions/shortcuts';
const LEVEL_NAMES = ['green', 'yellow', 'orange', 'red'];

export class LegendView {
  readonly root: HTMLElement;
  private readonly binding = el('kbd', { id: 'shortcut-binding' }, '…');
  private readonly bindingNote = el('span', { class: 'dim' });
  private readonly msSteps: HTMLElement[] = [];
  private readonly inflSteps: HTMLElement[] = [];

  constructor(openShortcuts: () => void) {
    const ramp = (steps: HTMLElement[]) => el('ul', { class: 'ramp' }, ...LEVEL_NAMES.map((n, i) => {
      const text = el('span', {});
      steps.push(text);
      return el('li', {}, el('span', { class: 'sw', attrs: { 'data-level': String(i), 'aria-hidden': 'true' } }), ` ${n} `, text);
    }));
    this.root = el('div', { id: 'legend', class: 'legend' },
      el('h3', {}, 'Shortcut'),
      el('p', {}, 'Cycle Off → Components → Heatmap → Inspect: ', this.binding, ' ', this.bindingNote),
      el('p', {}, `${DEFAULT_SHORTCUT} also works while the page or this panel has focus. To bind or change Chrome's shortcut, open `,
        el('button', { id: 'open-shortcuts', class: 'link', attrs: { type: 'button' }, on: { click: openShortcuts } }, SHORTCUTS_URL),
        ' (or paste it into the address bar).'),
      el('h3', {}, 'The meter'),
      el('p', {}, 'A 32 × 14 px box at the top-right of each component’s subtree, over a thin outline of the subtree.'),
      el('p', {}, el('strong', {}, 'Sparkline'), ' (default): the component’s layout ms over the last 6 s — 60 bars of 100 ms, each the '
        + 'highest value in its 100 ms; it flattens to zero when the page is quiet.'),
      el('p', {}, el('strong', {}, 'Bars'), ': top bar, layout ms from 0 to 33 ms (clamped); bottom bar, element count on a log scale '
        + 'from 1 to 10 000 — grey for the elements React authored, a colored tail for the extra elements actually rendered.'),
      el('p', {}, 'Layout ms colors:'), ramp(this.msSteps),
      el('p', {}, 'Inflation (rendered ÷ authored) colors:'), ramp(this.inflSteps),
      el('p', {}, 'With the color-blind-safe setting, orange and red also carry diagonal stripes.'),
      el('p', {}, 'A parent’s meter hides its descendants’ meters unless a descendant “surfaces through” (Settings). '
        + 'Wrappers whose meters would sit on the same corner collapse into one.'),
      el('p', {}, el('code', {}, '<page>'), ' is cost no component owns: document-level style changes and DOM outside any React root.'),
      el('p', {}, 'Numbers are exponential moving averages (α = 0.2 per frame) of the subtree’s cost; “last” is the latest frame. '
        + 'Forced reflow is style and layout that page code forced synchronously (e.g. reading offsetHeight after a write).'),
    );
  }

  setSettings(s: Settings): void {
    const steps = (els: HTMLElement[], r: readonly number[], unit: string) => {
      setText(els[0], `≤ ${r[0]}${unit}`);
      setText(els[1], `≤ ${r[1]}${unit}`);
      setText(els[2], `≤ ${r[2]}${unit}`);
      setText(els[3], `> ${r[2]}${unit}`);
    };
    steps(this.msSteps, s.msRamp, ' ms');
    steps(this.inflSteps, s.inflationRamp, '×');
  }

  setBinding(shortcut: string | null): void {
    if (shortcut === null) {
      setText(this.binding, DEFAULT_SHORTCUT);
      setText(this.bindingNote, '(could not read Chrome’s binding)');
    } else if (shortcut === '') {
      setText(this.binding, 'not bound');
      setText(this.bindingNote, `(Chrome left it unassigned; ${DEFAULT_SHORTCUT} still works on the page and in this panel)`);
    } else {
      setText(this.binding, shortcut);
      setText(this.bindingNote, '');
    }
  }
}
