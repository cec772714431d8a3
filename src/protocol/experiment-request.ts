/**
 * An experiment request as it reaches the page (protocol/experiment.ts has
 * the rest). Its own module: the document_start script validates it and must
 * not pull in the result's validators.
 */
import { INVALID, isRecord, num, str, type Validator } from './validate';

export interface ExperimentRequest {
  id: number;
  css: string;
  frames: number;
}

/** Why an experiment cannot run: the answer of each part that may be asked while the overlay is off. */
export const EXPERIMENT_OVERLAY_OFF = 'the overlay is off: enable it (Ctrl+Shift+L) to run experiments';

/** Frames measured when the caller does not say (both conditions together). */
export const DEFAULT_EXPERIMENT_FRAMES = 60;
export const MIN_EXPERIMENT_FRAMES = 12;
export const MAX_EXPERIMENT_FRAMES = 600;
export const MAX_CSS_LENGTH = 300;

/**
 * A declaration list the experiment may apply: `prop: value` pairs only. No
 * braces, at-rules, comments or markup: it goes inside one rule whose
 * selector we generate, and must not be able to close it and add rules of
 * its own. Returns the trimmed text, or null.
 */
export function safeDeclarations(css: unknown): string | null {
  if (typeof css !== 'string') return null;
  const t = css.trim();
  if (t.length === 0 || t.length > MAX_CSS_LENGTH) return null;
  if (/[{}@<>\\]|\/\*/.test(t)) return null;
  // Every part must look like a declaration.
  const parts = t.split(';').map((p) => p.trim()).filter((p) => p.length > 0);
  if (parts.length === 0 || !parts.every((p) => /^-?[a-z][a-z-]*\s*:\s*[^:]+$/i.test(p))) return null;
  return t;
}

export interface ExperimentRequest {
  id: number;
  css: string;
  frames: number;
}

export const experimentRequest: Validator<ExperimentRequest> = (v) => {
  const o = isRecord({ id: num(0, 2 ** 31), css: str(MAX_CSS_LENGTH), frames: num(MIN_EXPERIMENT_FRAMES, MAX_EXPERIMENT_FRAMES) })(v);
  if (o === INVALID) return INVALID;
  const css = safeDeclarations(o.css);
  return css === null ? INVALID : { id: o.id, css, frames: Math.round(o.frames) };
};
