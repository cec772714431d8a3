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

export function legendLines(s: Pick<Settings, 'meterStyle' | 'msRamp' | 'inflationRamp' | 'colorBlind'>): Line[] {
  const body: Line[] = s.meterStyle === 'bars'
    ? [
      'Top bar: layout ms of the subtree, 0 → 33 ms',
      [{ text: 'Bottom bar: elements, log 1 → 10 000: ' }, { text: '', swatch: true, color: AUTHORED_COLOR },
        { text: ' authored, then colored = rendered beyond authored' }],
    ]
    : [
      'Meter: the subtree’s layout ms over the last 6 s (max per 100 ms, log scale 0 → 33 ms)',
      [{ text: 'Strip under it: elements, log 1 → 10 000: ' }, { text: '', swatch: true, color: AUTHORED_COLOR },
        { text: ' authored, then colored = rendered beyond authored' }],
    ];
  return [
    'Layout Cost — legend',
    ...body,
    rampLine('Layout ms:', s.msRamp, ' ms'),
    rampLine('Inflation (rendered ÷ authored):', s.inflationRamp, '×'),
    ...(s.colorBlind ? ['Orange and red are striped (color-blind setting)'] : []),
    'Ctrl+Shift+L: Components → Heatmap → Inspect → Off   ·   Esc hides this legend',
  ];
}
