/**
 * The statistics of `layout-cost compare` (issue 47; docs/CI.md, "Comparing two runs"): Student's t distribution
 * (its quantiles from the regularized incomplete beta function) and Welch's interval on the difference of two means.
 * Pure; unit-tested against tabulated values.
 */

/** ln Γ(x), x > 0 (Lanczos, g = 7, nine coefficients: ~15 digits). */
function lnGamma(x: number): number {
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lnGamma(1 - x);
  const z = x - 1;
  let a = c[0];
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += c[i] / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** The continued fraction of the incomplete beta function (modified Lentz). */
function betaFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-14) break;
  }
  return h;
}

/** The regularized incomplete beta function I_x(a, b). */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(a, b, x)) / a : 1 - (front * betaFraction(b, a, 1 - x)) / b;
}

/** P(T ≤ t) for Student's t with `df` degrees of freedom (df > 0, not necessarily whole: Welch's). */
export function studentCdf(t: number, df: number): number {
  const x = df / (df + t * t);
  const tail = 0.5 * incompleteBeta(x, df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/** The t with P(T ≤ t) = p (0 < p < 1), by bisection on the CDF (monotone; 100 halvings are plenty). */
export function studentQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1) || !(df > 0)) return NaN;
  if (p === 0.5) return 0;
  let lo = -1e6, hi = 1e6;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (studentCdf(mid, df) < p) lo = mid;
    else hi = mid;
    if (hi - lo < 1e-10 * Math.max(1, Math.abs(mid))) break;
  }
  return (lo + hi) / 2;
}

function meanVar(xs: readonly number[]): { mean: number; variance: number } {
  const mean = xs.reduce((t, x) => t + x, 0) / xs.length;
  const variance = xs.length > 1 ? xs.reduce((t, x) => t + (x - mean) ** 2, 0) / (xs.length - 1) : 0;
  return { mean, variance };
}

export interface RatioInterval {
  /** Geometric mean of head over geometric mean of base. */
  ratio: number;
  /** The interval's bounds on that ratio (null: too few runs on a side to say). */
  low: number | null;
  high: number | null;
}

/**
 * head / base as a ratio of geometric means, with a two-sided interval at `confidence` from Welch's t on the logs
 * (a ratio of run times is lognormal-ish: the logs' difference is what is compared). Needs two runs on each side;
 * with fewer the interval is null. Both samples equal in every run (no spread at all) give a zero-width interval.
 */
export function ratioInterval(base: readonly number[], head: readonly number[], confidence: number): RatioInterval {
  const lb = base.map(Math.log), lh = head.map(Math.log);
  const b = meanVar(lb), h = meanVar(lh);
  const d = h.mean - b.mean;
  const ratio = Math.exp(d);
  if (base.length < 2 || head.length < 2) return { ratio, low: null, high: null };
  const vb = b.variance / base.length, vh = h.variance / head.length;
  const se = Math.sqrt(vb + vh);
  if (se === 0) return { ratio, low: ratio, high: ratio };
  // Welch–Satterthwaite degrees of freedom.
  const df = (vb + vh) ** 2 / ((vb * vb) / (base.length - 1) + (vh * vh) / (head.length - 1));
  const t = studentQuantile(1 - (1 - confidence) / 2, df);
  return { ratio, low: Math.exp(d - t * se), high: Math.exp(d + t * se) };
}
