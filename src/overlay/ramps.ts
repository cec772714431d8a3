/**
 * Color ramps (SPEC §3): a value falls into green, yellow, orange or red by
 * three inclusive upper bounds — layout ms green ≤ 2, yellow ≤ 8, orange ≤ 16,
 * red above; inflation green ≤ 3×, yellow ≤ 8×, orange ≤ 20×, red above.
 * The thresholds come from Settings so the user can retune them.
 */

export type Ramp = readonly [number, number, number];

export const enum Level {
  Green = 0,
  Yellow = 1,
  Orange = 2,
  Red = 3,
}

/** Opaque fills, chosen to stay distinguishable on the dark meter box and in screenshots. */
export const LEVEL_COLORS: readonly string[] = [
  'rgb(64,192,87)', // green
  'rgb(250,204,21)', // yellow
  'rgb(249,115,22)', // orange
  'rgb(239,68,68)', // red
];
/** The same colors as [r, g, b] for tests and pixel read-back. */
export const LEVEL_RGB: readonly (readonly [number, number, number])[] = [
  [64, 192, 87], [250, 204, 21], [249, 115, 22], [239, 68, 68],
];
/** The authored part of the element-count bar: "what you wrote". */
export const AUTHORED_COLOR = 'rgb(150,150,150)';
export const AUTHORED_RGB: readonly [number, number, number] = [150, 150, 150];

/** Ramp step of `value`: each threshold is the inclusive top of its step; NaN counts as green. */
export function rampLevel(value: number, ramp: Ramp): Level {
  if (!(value > ramp[0])) return Level.Green;
  if (value <= ramp[1]) return Level.Yellow;
  if (value <= ramp[2]) return Level.Orange;
  return Level.Red;
}

export function rampColor(value: number, ramp: Ramp): string {
  return LEVEL_COLORS[rampLevel(value, ramp)];
}

/**
 * Rendered ÷ authored. A component that authored nothing but owns rendered
 * DOM (built imperatively) divides by 1, so its whole count reads as inflation.
 */
export function inflationRatio(rendered: number, authored: number): number {
  const r = rendered > 0 ? rendered : 0;
  return r / Math.max(authored, 1);
}

/** The elements a component's own subtree put in its DOM: rendered less what other components portaled in. */
export function ownRendered(n: { rendered: number; portaledIn?: number }): number {
  return Math.max(0, n.rendered - (n.portaledIn ?? 0));
}

/** A component's inflation: its own rendered elements ÷ authored (portaled-in elements are nobody's inflation). */
export function nodeInflation(n: { authored: number; rendered: number; portaledIn?: number }): number {
  return inflationRatio(ownRendered(n), n.authored);
}

/** Orange and red get the color-blind stripes. */
export function isStriped(level: Level): boolean {
  return level >= Level.Orange;
}
