/**
 * The top bar: enable toggle, mode switch (`<select id="mode">`, which the
 * foundation e2e drives), frame picker (only when React runs in more than
 * one frame), the filter (name, `kind:`, `file:`), the Libraries toggle and the JSON export.
 */
import { MODES, type Mode, type OnMode } from '../protocol';
import { clear, el, setText } from './dom';
import { frameLabel, pickerFrames, type PanelModel } from './model';

export interface ToolbarCallbacks {
  setMode(mode: Mode): void;
  selectFrame(id: number): void;
  filter(text: string): void;
  /** Show (true) or hide the library and framework components' rows and meters (the showLibraries setting). */
  showLibraries(on: boolean): void;
  exportSnapshot(): void;
}

const MODE_LABELS: Record<Mode, string> = { off: 'Off', components: 'Components', heatmap: 'Heatmap', inspect: 'Inspect' };

export class ToolbarView {
  readonly root: HTMLElement;
  private readonly toggle: HTMLButtonElement;
  private readonly mode: HTMLSelectElement;
  private readonly frame: HTMLSelectElement;
  private readonly frameWrap: HTMLElement;
  private readonly filterInput: HTMLInputElement;
  private readonly libraries: HTMLInputElement;
  private readonly exportBtn: HTMLButtonElement;
  private frameKey = '';
  /** The mode the enable toggle turns back on. */
  private lastOn: OnMode = 'components';

  constructor(private readonly cb: ToolbarCallbacks) {
    this.toggle = el('button', {
      id: 'enable', class: 'toggle', attrs: { 'aria-pressed': 'false', title: 'Turn the overlay on or off' },
      on: { click: () => this.cb.setMode(this.toggle.getAttribute('aria-pressed') === 'true' ? 'off' : this.lastOn) },
    }, el('span', { class: 'knob', attrs: { 'aria-hidden': 'true' } }), el('span', { class: 'toggle-label' }, 'Overlay off'));
    this.mode = el('select', { id: 'mode', attrs: { 'aria-label': 'Overlay mode' }, on: { change: () => this.cb.setMode(this.mode.value as Mode) } });
    for (const m of MODES) this.mode.append(new Option(MODE_LABELS[m], m));
    this.frame = el('select', { id: 'frame', attrs: { 'aria-label': 'Frame' }, on: { change: () => this.cb.selectFrame(Number(this.frame.value)) } });
    this.frameWrap = el('label', { class: 'frame-picker' }, 'Frame ', this.frame);
    this.filterInput = el('input', {
      id: 'filter', attrs: {
        type: 'search', placeholder: 'Filter: name, kind:, file:', spellcheck: 'false',
        'aria-label': 'Filter components by name, kind (kind:own, kind:library, kind:framework) or source file (file:)',
        title: 'A name, kind:own|library|framework, file:<part of the path> — remembered for this site',
      },
      on: { input: () => this.cb.filter(this.filterInput.value) },
    });
    this.libraries = el('input', {
      id: 'show-libraries', attrs: { type: 'checkbox' },
      on: { change: () => this.cb.showLibraries(this.libraries.checked) },
    });
    this.exportBtn = el('button', {
      id: 'export', attrs: { title: 'Download the current snapshot as JSON (same schema as __LAYOUT_COST__.snapshot())' },
      on: { click: () => this.cb.exportSnapshot() },
    }, 'Export JSON');
    this.root = el('header', { class: 'toolbar', attrs: { role: 'toolbar', 'aria-label': 'Layout Cost controls' } },
      this.toggle, el('label', { class: 'mode-picker' }, 'Mode ', this.mode), this.frameWrap, this.filterInput,
      el('label', { class: 'libraries', attrs: { title: 'Also list and draw components from node_modules and the framework (React, Next.js, Vite). Hidden, their cost stays in the figures of your components above them.' } },
        this.libraries, ' Libraries'),
      this.exportBtn);
  }

  /** The filter box's text, as restored for a site (the input's own events are the user's). */
  setFilterText(text: string): void {
    if (this.filterInput.value !== text) this.filterInput.value = text;
  }

  setLibraries(on: boolean): void {
    this.libraries.checked = on;
  }

  focusFilter(): void {
    this.filterInput.focus();
    this.filterInput.select();
  }

  update(model: PanelModel): void {
    const on = model.mode !== 'off';
    if (on) this.lastOn = model.mode as OnMode;
    this.toggle.setAttribute('aria-pressed', String(on));
    setText(this.toggle.lastChild as Node, on ? 'Overlay on' : 'Overlay off');
    if (this.mode.value !== model.mode && document.activeElement !== this.mode) this.mode.value = model.mode;
    this.exportBtn.disabled = model.status === null;
    const ids = pickerFrames(model.frames);
    // One entry (the top frame, with or without React) needs no picker.
    this.frameWrap.hidden = ids.length < 2;
    const key = ids.map((id) => `${id}:${frameLabel(id, model.frames.get(id)!)}`).join('|');
    if (key !== this.frameKey) {
      this.frameKey = key;
      clear(this.frame);
      for (const id of ids) this.frame.append(new Option(frameLabel(id, model.frames.get(id)!), String(id)));
    }
    if (model.frameId !== null && this.frame.value !== String(model.frameId)) this.frame.value = String(model.frameId);
  }
}
