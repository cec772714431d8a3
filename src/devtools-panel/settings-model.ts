/**
 * The settings form's model. Settings live in
 * chrome.storage.local[SETTINGS_STORAGE_KEY]; the content script validates
 * and applies them on change. The panel validates too, with the same
 * `settingsValidator`, so it never writes what the page side would reject.
 */
import { INVALID, settingsValidator, type Settings } from '../protocol';
import { DEFAULT_SETTINGS } from '../overlay/settings';

export interface NumberField {
  field: string;
  label: string;
  unit: string;
  /** Stored value → what the input shows (fractions show as percent). */
  toInput(s: Settings): number;
  /** Input → a copy of the settings with this field set. */
  set(s: Settings, v: number): Settings;
  min: number;
  max: number;
  step: number;
}

function rampField(ramp: 'msRamp' | 'inflationRamp', i: 0 | 1 | 2, label: string, unit: string): NumberField {
  return {
    field: `${ramp}.${i}`, label, unit, min: 0, max: 1e6, step: ramp === 'msRamp' ? 0.5 : 1,
    toInput: (s) => s[ramp][i],
    set: (s, v) => {
      const r: [number, number, number] = [...s[ramp]];
      r[i] = v;
      return { ...s, [ramp]: r };
    },
  };
}

function percentField(key: 'surfaceLayoutFraction' | 'surfaceRenderedFraction', label: string): NumberField {
  return {
    field: key, label, unit: '% of parent', min: 0, max: 100, step: 5,
    toInput: (s) => Math.round(s[key] * 1000) / 10,
    set: (s, v) => ({ ...s, [key]: v / 100 }),
  };
}

export const MS_RAMP_FIELDS: NumberField[] = [
  rampField('msRamp', 0, 'green up to', 'ms'),
  rampField('msRamp', 1, 'yellow up to', 'ms'),
  rampField('msRamp', 2, 'orange up to', 'ms'),
];
export const INFLATION_RAMP_FIELDS: NumberField[] = [
  rampField('inflationRamp', 0, 'green up to', '×'),
  rampField('inflationRamp', 1, 'yellow up to', '×'),
  rampField('inflationRamp', 2, 'orange up to', '×'),
];
export const SURFACE_FIELDS: NumberField[] = [
  percentField('surfaceLayoutFraction', 'layout ms above'),
  percentField('surfaceRenderedFraction', 'rendered count above'),
  {
    field: 'surfaceInflationFactor', label: 'inflation ratio above', unit: '× parent’s', min: 1, max: 1000, step: 0.5,
    toInput: (s) => s.surfaceInflationFactor, set: (s, v) => ({ ...s, surfaceInflationFactor: v }),
  },
];
export const NUMBER_FIELDS: NumberField[] = [...MS_RAMP_FIELDS, ...INFLATION_RAMP_FIELDS, ...SURFACE_FIELDS];

/** Whatever storage holds, as valid settings (defaults when missing or invalid). */
export function readSettings(raw: unknown): Settings {
  const s = raw === undefined ? INVALID : settingsValidator(raw);
  return s === INVALID ? cloneDefaults() : s;
}

export function cloneDefaults(): Settings {
  return { ...DEFAULT_SETTINGS, msRamp: [...DEFAULT_SETTINGS.msRamp], inflationRamp: [...DEFAULT_SETTINGS.inflationRamp] };
}

export type EditResult = { ok: true; settings: Settings } | { ok: false; error: string };

/** Applies one number input; explains what is wrong instead of writing invalid settings. */
export function editNumber(s: Settings, f: NumberField, input: string): EditResult {
  const v = Number(input);
  if (input.trim() === '' || !Number.isFinite(v)) return { ok: false, error: `${f.label}: enter a number` };
  if (v < f.min || v > f.max) return { ok: false, error: `${f.label}: between ${f.min} and ${f.max}` };
  const next = settingsValidator(f.set(s, v));
  if (next === INVALID) {
    return { ok: false, error: f.field.includes('Ramp') ? 'Ramp steps must not decrease (green ≤ yellow ≤ orange)' : `${f.label}: out of range` };
  }
  return { ok: true, settings: next };
}

export function sameSettings(a: Settings, b: Settings): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
