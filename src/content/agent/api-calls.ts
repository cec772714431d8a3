/**
 * The arguments of a `window.__LAYOUT_COST__` call, read here: the MAIN world's boot forwards them as the page gave
 * them (src/inject/boot/api.ts keeps no per-call code: it is compiled on every page load). Whatever a page passes, each
 * call gets what the README documents: an unknown mode enables components, a pin without a whole id clears the pin,
 * an experiment without a number id is answered "unknown component" by the experiment's own checks, a recording's row
 * cap outside [10, MAX_ROWS] is the default.
 */
import { MODES, type Mode } from '../../protocol/constants';
import { DEFAULT_EXPERIMENT_FRAMES } from '../../protocol/experiment-request';

const record = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null ? v as Record<string, unknown> : {});

/** `enable(mode?)`: a mode other than off, else components. */
export function enableMode(mode: unknown): Mode {
  return typeof mode === 'string' && (MODES as readonly string[]).includes(mode) && mode !== 'off' ? mode as Mode : 'components';
}

/** `pin(id)`: a whole number ≥ 0, else null (the pin is cleared). */
export function pinId(id: unknown): number | null {
  return typeof id === 'number' && Number.isInteger(id) && id >= 0 ? id : null;
}

/** `experiment(id, { css, frames })`, as the experiment's request checks it (protocol/experiment.ts, experimentRequest). */
export function experimentArgs(id: unknown, options: unknown): { id: number; css: unknown; frames: unknown } {
  const o = record(options);
  return { id: typeof id === 'number' ? id : -1, css: o.css, frames: o.frames ?? DEFAULT_EXPERIMENT_FRAMES };
}

/** `startRecording({ maxRows })`: a whole number in [10, max], else max. */
export function recordingRows(options: unknown, max: number): number {
  const n = record(options).maxRows;
  return typeof n === 'number' && Number.isInteger(n) && n >= 10 && n <= max ? n : max;
}
