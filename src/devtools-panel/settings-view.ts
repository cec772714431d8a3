/**
 * The settings form: meter style, color-blind stripes, the two ramps and the
 * surface-through constants, with reset to defaults. Every edit is checked
 * with the protocol's settingsValidator (settings-model.ts) before it is
 * written; an invalid entry is explained next to the form, not written.
 */
import type { Settings } from '../protocol';
import { el, setText } from './dom';
import {
  cloneDefaults, editNumber, INFLATION_RAMP_FIELDS, MS_RAMP_FIELDS, SURFACE_FIELDS, type NumberField,
} from './settings-model';

export interface SettingsCallbacks {
  write(s: Settings): void;
}

export class SettingsView {
  readonly root: HTMLElement;
  private settings: Settings = cloneDefaults();
  private readonly inputs = new Map<NumberField, HTMLInputElement>();
  private readonly styleRadios: HTMLInputElement[] = [];
  private readonly colorBlind: HTMLInputElement;
  private readonly track: HTMLInputElement;
  private readonly libraries: HTMLInputElement;
  private readonly flashShifts: HTMLInputElement;
  private readonly error = el('p', { class: 'settings-error', id: 'settings-error', attrs: { role: 'alert' } });

  constructor(private readonly cb: SettingsCallbacks) {
    const styleSet = el('fieldset', {}, el('legend', {}, 'Meter body'));
    for (const [value, label] of [['sparkline', 'Sparkline (6 s of layout ms)'], ['bars', 'Two bars (layout ms, element count)']] as const) {
      const r = el('input', { id: `meter-${value}`, attrs: { type: 'radio', name: 'meterStyle', value } , on: { change: () => this.commit({ ...this.settings, meterStyle: value }) } });
      this.styleRadios.push(r);
      styleSet.append(el('label', { class: 'radio' }, r, ` ${label}`));
    }
    this.track = el('input', {
      id: 'performance-track', attrs: { type: 'checkbox' },
      on: { change: () => this.commit({ ...this.settings, performanceTrack: this.track.checked }) },
    });
    this.libraries = el('input', {
      id: 'set-show-libraries', attrs: { type: 'checkbox' },
      on: { change: () => this.commit({ ...this.settings, showLibraries: this.libraries.checked }) },
    });
    this.flashShifts = el('input', {
      id: 'set-flash-shifts', attrs: { type: 'checkbox' },
      on: { change: () => this.commit({ ...this.settings, flashShifts: this.flashShifts.checked }) },
    });
    this.colorBlind = el('input', {
      id: 'color-blind', attrs: { type: 'checkbox' },
      on: { change: () => this.commit({ ...this.settings, colorBlind: this.colorBlind.checked }) },
    });
    this.root = el('form', { id: 'settings', class: 'settings', attrs: { 'aria-label': 'Settings', novalidate: '' }, on: { submit: (e) => e.preventDefault() } },
      styleSet,
      el('label', { class: 'check' }, this.colorBlind, ' Color-blind-safe: stripes on orange and red'),
      el('label', { class: 'check' }, this.libraries,
        ' Library and framework components: their own meters and table rows (off: your components only; their cost stays in yours)'),
      el('label', { class: 'check' }, this.flashShifts,
        ' Layout shifts: outline the cause (orange) and what moved (violet) on the page for a moment when one happens (finds each cause at once: about 0.3 ms a shift)'),
      el('label', { class: 'check' }, this.track,
        ' Performance panel track: each frame\'s style and layout by component, and forced reflows, in a "Layout Cost" track group'),
      this.fieldset('Layout ms ramp', MS_RAMP_FIELDS, 'red above'),
      this.fieldset('Inflation ramp (rendered ÷ authored)', INFLATION_RAMP_FIELDS, 'red above'),
      this.fieldset('Surface through a parent’s meter when', SURFACE_FIELDS, 'any one is enough'),
      this.error,
      el('button', { id: 'reset-settings', attrs: { type: 'button' }, on: { click: () => this.commit(cloneDefaults()) } }, 'Reset to defaults'),
    );
  }

  private fieldset(title: string, fields: NumberField[], note: string): HTMLElement {
    const set = el('fieldset', {}, el('legend', {}, title));
    for (const f of fields) {
      const input = el('input', {
        id: `set-${f.field.replace('.', '-')}`,
        attrs: { type: 'number', min: String(f.min), max: String(f.max), step: String(f.step), inputmode: 'decimal' },
        on: { change: () => this.onNumber(f, input) },
      });
      this.inputs.set(f, input);
      set.append(el('label', { class: 'num' }, el('span', {}, f.label), input, el('span', { class: 'unit' }, f.unit)));
    }
    set.append(el('p', { class: 'dim note' }, note));
    return set;
  }

  private onNumber(f: NumberField, input: HTMLInputElement): void {
    const r = editNumber(this.settings, f, input.value);
    if (!r.ok) {
      input.setAttribute('aria-invalid', 'true');
      setText(this.error, r.error);
      return;
    }
    this.commit(r.settings);
  }

  private commit(s: Settings): void {
    for (const i of this.inputs.values()) i.removeAttribute('aria-invalid');
    setText(this.error, '');
    this.settings = s;
    this.cb.write(s);
    this.update(s, true);
  }

  /** Shows `s`; leaves the input being edited alone unless `force`. */
  update(s: Settings, force = false): void {
    this.settings = s;
    for (const r of this.styleRadios) r.checked = r.value === s.meterStyle;
    this.colorBlind.checked = s.colorBlind;
    this.track.checked = s.performanceTrack;
    this.libraries.checked = s.showLibraries;
    this.flashShifts.checked = s.flashShifts;
    for (const [f, input] of this.inputs) {
      if (!force && document.activeElement === input) continue;
      if (input.getAttribute('aria-invalid') === 'true' && !force) continue;
      input.value = String(f.toInput(s));
    }
  }
}
