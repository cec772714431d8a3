/**
 * A small accessible tab strip (WAI-ARIA tabs pattern): Left/Right/Home/End
 * move between tabs, the selected tab alone is in the tab order.
 */
import { el } from './dom';

export interface TabSpec {
  id: string;
  label: string;
  panel: HTMLElement;
}

export class Tabs {
  readonly root: HTMLElement;
  private readonly buttons: HTMLButtonElement[] = [];
  private readonly panels: HTMLElement[] = [];
  selected = 0;

  constructor(specs: TabSpec[], private readonly onChange: (id: string) => void = () => undefined) {
    const list = el('div', { class: 'tablist', attrs: { role: 'tablist' } });
    specs.forEach((s, i) => {
      const b = el('button', {
        id: `tab-${s.id}`, class: 'tab', attrs: { role: 'tab', 'aria-controls': `tabpanel-${s.id}`, type: 'button' },
        on: { click: () => this.select(i), keydown: (e) => this.onKey(e) },
      }, s.label);
      const p = el('div', { id: `tabpanel-${s.id}`, class: 'tabpanel', attrs: { role: 'tabpanel', 'aria-labelledby': `tab-${s.id}` } }, s.panel);
      this.buttons.push(b);
      this.panels.push(p);
      list.append(b);
    });
    this.root = el('aside', { class: 'side' }, list, ...this.panels);
    this.select(0, false);
  }

  select(i: number, focus = true): void {
    this.selected = i;
    this.buttons.forEach((b, j) => {
      b.setAttribute('aria-selected', String(i === j));
      b.tabIndex = i === j ? 0 : -1;
      this.panels[j].hidden = i !== j;
    });
    if (focus) this.buttons[i].focus();
    this.onChange(this.buttons[i].id.slice(4));
  }

  selectId(id: string): void {
    const i = this.buttons.findIndex((b) => b.id === `tab-${id}`);
    if (i >= 0) this.select(i, false);
  }

  private onKey(e: KeyboardEvent): void {
    const n = this.buttons.length;
    const map: Record<string, number> = { ArrowRight: (this.selected + 1) % n, ArrowLeft: (this.selected - 1 + n) % n, Home: 0, End: n - 1 };
    if (!(e.key in map)) return;
    e.preventDefault();
    this.select(map[e.key]);
  }
}
