/** Small statistics for benchmark reports: no dependencies, no surprises. */

export function sorted(xs: readonly number[]): number[] {
  return xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
}

/** Linear-interpolated quantile (q in [0, 1]); NaN for an empty set. */
export function quantile(xs: readonly number[], q: number): number {
  const s = sorted(xs);
  if (s.length === 0) return NaN;
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

export const median = (xs: readonly number[]): number => quantile(xs, 0.5);

export function mean(xs: readonly number[]): number {
  const s = sorted(xs);
  return s.length === 0 ? NaN : s.reduce((a, b) => a + b, 0) / s.length;
}

export function min(xs: readonly number[]): number {
  return sorted(xs)[0] ?? NaN;
}

export function max(xs: readonly number[]): number {
  const s = sorted(xs);
  return s[s.length - 1] ?? NaN;
}

/** A figure for a table: two or three decimals, or "n/a" when it is not a number (a missing measurement). */
export const f2 = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
export const f3 = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');

/** "median [min–max]" with `digits` decimals. */
export function spread(xs: readonly number[], digits = 1, unit = ''): string {
  if (xs.length === 0) return 'n/a';
  const f = (x: number): string => x.toFixed(digits);
  return xs.length === 1 ? `${f(xs[0])}${unit}` : `${f(median(xs))}${unit} [${f(min(xs))}–${f(max(xs))}]`;
}

/**
 * A distribution-free confidence interval for the median (the sign test's): the order statistics x(k) and x(n+1−k)
 * with the largest k for which P(Binomial(n, ½) < k) ≤ (1 − conf) / 2. Fed the paired differences of two builds'
 * interleaved rounds, an interval that excludes 0 says the difference is resolved at that confidence, without
 * assuming how the machine's noise is shaped. [NaN, NaN] when n is too small for any interval at `conf` (n < 6 at
 * 95 %).
 */
export function medianCI(xs: readonly number[], conf = 0.95): [number, number] {
  const s = sorted(xs);
  const n = s.length;
  const tail = (1 - conf) / 2;
  // P(B < k) for B ~ Binomial(n, 1/2), accumulated k by k.
  let below = 0;
  let term = 0.5 ** n;
  let k = 0;
  while (k < n && below + term <= tail) {
    below += term;
    term = (term * (n - k)) / (k + 1);
    k++;
  }
  if (k === 0) return [NaN, NaN];
  return [s[k - 1], s[n - k]];
}

/** Samples of one side of a comparison, each with the round it was taken in. */
export interface RoundSamples {
  rounds: readonly number[];
  values: readonly number[];
}

/**
 * Two builds measured in the same interleaved rounds: `a − b` for each round both have (the same moment of the
 * machine), with the median of those differences, its 95 % interval (`medianCI`) and what the interval says.
 */
export function pairedByRound(a: RoundSamples, b: RoundSamples): {
  diffs: number[]; median: number; ci: [number, number]; verdict: 'faster' | 'slower' | 'not resolved' | 'too few pairs';
} {
  const other = new Map(b.rounds.map((r, i) => [r, b.values[i]]));
  const diffs = a.rounds.flatMap((r, i) => (other.has(r) ? [a.values[i] - other.get(r)!] : []));
  const ci = medianCI(diffs);
  const verdict = !Number.isFinite(ci[0]) ? 'too few pairs' : ci[0] > 0 ? 'slower' : ci[1] < 0 ? 'faster' : 'not resolved';
  return { diffs, median: median(diffs), ci, verdict };
}

/**
 * Mann–Whitney U two-sided test, normal approximation with tie correction.
 * Returns the p-value: whether two samples plausibly come from one distribution.
 */
export function mannWhitneyP(a: readonly number[], b: readonly number[]): number {
  const n1 = a.length;
  const n2 = b.length;
  if (n1 === 0 || n2 === 0) return NaN;
  const all = [...a.map((v) => ({ v, g: 0 })), ...b.map((v) => ({ v, g: 1 }))].sort((x, y) => x.v - y.v);
  const ranks = new Array<number>(all.length);
  let tieTerm = 0;
  for (let i = 0; i < all.length;) {
    let j = i;
    while (j + 1 < all.length && all[j + 1].v === all[i].v) j++;
    const r = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[k] = r;
    const t = j - i + 1;
    tieTerm += t * t * t - t;
    i = j + 1;
  }
  let r1 = 0;
  for (let i = 0; i < all.length; i++) if (all[i].g === 0) r1 += ranks[i];
  const u1 = r1 - (n1 * (n1 + 1)) / 2;
  const mu = (n1 * n2) / 2;
  const n = n1 + n2;
  const sigma = Math.sqrt((n1 * n2 / 12) * ((n + 1) - tieTerm / (n * (n - 1))));
  if (sigma === 0) return 1;
  const z = (Math.abs(u1 - mu) - 0.5) / sigma;
  return 2 * (1 - normalCdf(Math.max(0, z)));
}

function normalCdf(z: number): number {
  // Abramowitz–Stegun 7.1.26 on erf.
  const x = z / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const y = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return 0.5 * (1 + y);
}

/** Least-squares slope of y over x. */
export function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = Math.min(xs.length, ys.length);
  if (n < 2) return NaN;
  let mx = 0, my = 0;
  for (let i = 0; i < n; i++) { mx += xs[i]; my += ys[i]; }
  mx /= n; my /= n;
  let num = 0, den = 0;
  for (let i = 0; i < n; i++) { num += (xs[i] - mx) * (ys[i] - my); den += (xs[i] - mx) ** 2; }
  return den === 0 ? NaN : num / den;
}

/** Standard error of the least-squares slope of y over x. */
export function slopeStdErr(xs: readonly number[], ys: readonly number[]): number {
  const n = Math.min(xs.length, ys.length);
  if (n < 3) return NaN;
  const b = slope(xs, ys);
  let mx = 0, my = 0;
  for (let i = 0; i < n; i++) { mx += xs[i]; my += ys[i]; }
  mx /= n; my /= n;
  const a = my - b * mx;
  let sse = 0, sxx = 0;
  for (let i = 0; i < n; i++) { sse += (ys[i] - (a + b * xs[i])) ** 2; sxx += (xs[i] - mx) ** 2; }
  return sxx === 0 ? NaN : Math.sqrt(sse / (n - 2) / sxx);
}

/** A fixed-width text table. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]): string => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** The same table in Markdown. */
export function mdTable(header: string[], rows: string[][]): string {
  const esc = (c: string): string => c.replace(/\|/g, '\\|');
  return [
    `| ${header.map(esc).join(' | ')} |`,
    `|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
    ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`),
  ].join('\n');
}
