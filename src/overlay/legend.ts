/**
 * What the legend and the mode caption say. The legend explains the meter
 * once (SPEC §3: "legend on first enable"), in the form the user's settings
 * draw it, with swatches in the ramp colors and the ramp thresholds the user
 * actually has.
 */
import type { Mode, Settings } from '../protocol';
import { AUTHORED_COLOR, LEVEL_COLORS } from './ramps';
import type { Line, Segment } from './paint-text';

export const MODE_LABELS: Record<Mode, string> = {
  off: 'Off',
  components: 'Components',
  heatmap: 'Heatmap (top 10)',
  inspect: 'Inspect (hover, click to pin)',
};

/** "Layout Cost: Heatmap (top 10)" — shown briefly on each mode change. */
export function modeCaption(mode: Mode): string {
  return `Layout Cost: ${MODE_LABELS[mode]}`;
}

function rampLine(label: string, ramp: readonly number[], unit: string): Segment[] {
  const [a, b, c] = ramp;
  const parts: [string, string][] = [
    [`≤${a}${unit}`, LEVEL_COLORS[0]], [`≤${b}${unit}`, LEVEL_COLORS[1]], [`≤${c}${unit}`, LEVEL_COLORS[2]], [`>${c}${unit}`, LEVEL_COLORS[3]],
  ];
  const segs: Segment[] = [{ text: `${label} ` }];
  for (const [text, color] of parts) segs.push({ text: '', swatch: true, color }, { text: `${text}  ` });
  return segs;
}

/**
 * Four short lines (five with the color-blind note), so it covers little of the page while it shows: a few
 * seconds after the first enable, or until it is clicked. The DevTools panel has the full legend.
 */
export function legendLines(s: Pick<Settings, 'meterStyle' | 'msRamp' | 'inflationRamp' | 'colorBlind'>): Line[] {
  const body: Line = s.meterStyle === 'bars'
    ? [{ text: 'Top: layout ms 0–33 · bottom: elements (log) ' }, { text: '', swatch: true, color: AUTHORED_COLOR },
      { text: ' authored + rendered beyond' }]
    : [{ text: 'Layout ms, last 6 s · strip: elements (log) ' }, { text: '', swatch: true, color: AUTHORED_COLOR },
      { text: ' authored + rendered beyond' }];
  return [
    'Layout Cost · click to hide',
    body,
    rampLine('Layout', s.msRamp, ' ms'),
    rampLine('Inflation', s.inflationRamp, '×'),
    ...(s.colorBlind ? ['Orange and red are striped'] : []),
  ];
}
