/**
 * Defaults for the user's settings (SPEC §3). Thresholds are inclusive upper
 * bounds of each ramp step: green ≤ [0], yellow ≤ [1], orange ≤ [2], red above.
 */
import type { Settings } from '../protocol';

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  meterStyle: 'sparkline',
  colorBlind: false,
  msRamp: [2, 8, 16] as [number, number, number],
  inflationRamp: [3, 8, 20] as [number, number, number],
  surfaceLayoutFraction: 0.5,
  surfaceRenderedFraction: 0.5,
  surfaceInflationFactor: 2,
  performanceTrack: true,
  showLibraries: false,
  // Off by default: outlining each shift as it happens means looking for its cause at once (docs/VITALS.md, "Cost").
  flashShifts: false,
});

export const SETTINGS_STORAGE_KEY = 'settings';
