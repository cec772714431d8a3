/**
 * What only the worker, the content script's agent and the DevTools pages use: the ports' names and the
 * shortcut's mode cycle. Apart from constants.ts, which the boot scripts import: a module they take anything but an
 * inlined number from is emitted in them whole (webpack concatenates it; esbuild, our minifier, keeps unused
 * declarations inside the bundle's function), so these would be in every page load's bytes.
 */
import { MODES, type Mode } from './constants';

/** Off → Components → Heatmap → Inspect → Off. */
export function nextMode(mode: Mode): Mode {
  return MODES[(MODES.indexOf(mode) + 1) % MODES.length];
}

export const PORT_NAME_CONTENT = 'layout-cost-content';
export const PORT_NAME_PANEL = 'layout-cost-panel';
/** The devtools page's port, `layout-cost-devtools:<tabId>`: DevTools is open on that tab while it is connected. */
export const PORT_NAME_DEVTOOLS = 'layout-cost-devtools';
