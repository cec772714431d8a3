/**
 * The statistics of `layout-cost compare` (issues 47 and 65; docs/CI.md, "The verdict"): the hierarchical bootstrap
 * of a ratio over runs and their frames, Holm's step-down, and the normal quantile compare uses since issue 65; and
 * Student's t (its quantiles from the regularized incomplete beta function) with Welch's interval, the method before
 * it, kept for the unit tests and benches that measure the two against each other. Pure; unit-tested against
 * tabulated values.
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

/** The standard normal quantile (Acklam's rational approximation refined by one Halley step: ~1e-15). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) return p === 0 ? -Infinity : p === 1 ? Infinity : NaN;
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const lowTail = 0.02425;
  let x: number;
  if (p < lowTail) {
    const q = Math.sqrt(-2 * Math.log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p <= 1 - lowTail) {
    const q = p - 0.5, r = q * q;
    x = ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  } else {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  // One Halley step on the error function's residual.
  const e = 0.5 * erfc(-x / Math.SQRT2) - p;
  const u = e * Math.sqrt(2 * Math.PI) * Math.exp((x * x) / 2);
  return x - u / (1 + (x * u) / 2);
}

/** erfc(x) (Numerical Recipes' Chebyshev fit: relative error under 1.2e-7, enough for one refining step). */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806
    + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
  return x >= 0 ? r : 2 - r;
}

/** A seeded generator of uniforms in [0, 1) (mulberry32): compare's verdict is the same every time it is run. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit hash of a string (FNV-1a): a comparison's seed from its route and component. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function gaussian(rng: () => number): number {
  let u = 0;
  while (u === 0) u = rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng());
}

/** Gamma(shape, 1) for shape ≥ 1 (Marsaglia and Tsang's squeeze). */
function gammaDraw(shape: number, rng: () => number): number {
  const d = shape - 1 / 3, c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number, v: number;
    do {
      x = gaussian(rng);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = rng();
    if (u < 1 - 0.0331 * x ** 4 || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

/** Beta(a, b) for a, b ≥ 1. */
function betaDraw(a: number, b: number, rng: () => number): number {
  const x = gammaDraw(a, rng);
  return x / (x + gammaDraw(b, rng));
}

/** One run of one side, as the bootstrap sees it. */
export interface RunSample {
  /** The run's figure as its report states it: p95 over its frames, ms. */
  figure: number;
  /** Frames in the run; with `values`, the run is resampled frame by frame (absent: its figure alone is known). */
  frames?: number;
  /** The frames' non-zero values, ascending (the run's other frames were zeros). */
  values?: readonly number[];
  /** How many non-zero values there were, when `values` is an even spread of more. */
  count?: number;
}

/**
 * A run's figure at quantile `q` over its frames (nearest rank, the frames not listed being zeros), or with `active`
 * over the frames in which the type did work (none: 0). The median of those is what compare tests (issue 65), the p95
 * of all frames what a report states.
 */
export function runQuantile(r: RunSample, q: number, active = false): number {
  const n = r.frames ?? 0;
  const v = r.values;
  if (!v || v.length === 0 || n < 1) return r.figure;
  if (!active) return frameAt(r, v, n, Math.max(1, Math.ceil(q * n)) - 1);
  const m = nonZeroOf(r, v, n);
  return frameAt(r, v, n, n - m + Math.max(1, Math.ceil(q * m)) - 1);
}

/** How many of a run's `n` frames had a value (`v` lists them, or an even spread of them). */
const nonZeroOf = (r: RunSample, v: readonly number[], n: number): number => Math.min(n, Math.max(v.length, r.count ?? v.length));

/** The value at 0-based rank `pos` of a run's `n` frames (zeros first, then `v` spread over the non-zero ones). */
function frameAt(r: RunSample, v: readonly number[], n: number, pos: number): number {
  const nonZero = nonZeroOf(r, v, n);
  const zeros = n - nonZero;
  if (pos < zeros) return 0;
  return v[Math.min(v.length - 1, Math.floor(((pos - zeros) * v.length) / nonZero))];
}

/**
 * A run's `q` quantile over a resample of its frames (with `active`, of the frames that had a value, their number
 * held): the k-th of n uniforms is Beta(k, n − k + 1), read through its values.
 */
function drawRunFigure(r: RunSample, rng: () => number, q: number, active: boolean): number {
  const n = r.frames ?? 0;
  const v = r.values;
  if (!v || v.length === 0 || n < 1) return r.figure;
  const m = active ? nonZeroOf(r, v, n) : n;
  const k = Math.max(1, Math.ceil(q * m));
  const u = k === m ? rng() ** (1 / m) : betaDraw(k, m - k + 1, rng);
  return frameAt(r, v, n, n - m + Math.min(m - 1, Math.floor(u * m)));
}

export interface BootstrapRatio {
  /** head / base as a ratio of geometric means of the runs' figures (floored). */
  ratio: number;
  /** Draws of the log ratio, ascending, centred on the observed one (null: fewer than two runs on a side). */
  draws: Float64Array | null;
  /** Two-sided p-value of "within the threshold" (ratio in [1 / threshold, threshold]). */
  p: number;
  /** One-sided p-values: of "no slower than the threshold" (ratio ≤ threshold), and of "no faster" (≥ 1 / threshold). */
  pSlower: number;
  pFaster: number;
  /** The runs' pooled standard deviation of log figures (the spread a further run would have). */
  spread: number;
}

/**
 * The hierarchical bootstrap of compare (issue 65; docs/CI.md): each draw resamples the runs of a side with
 * replacement, and the frames of each drawn run with replacement (its figure read again: the p95, or the quantile
 * `quantile` of the frames it did work in, as compare asks), floors each figure, and takes the geometric mean; the
 * log ratio of head's over base's is the draw. Runs are the unit of repetition (what a machine does between runs is
 * in their spread), frames what a run's figure is uncertain by. The whole distribution is centred on the observed
 * ratio. A bootstrap of n runs is too narrow by (n − 1) / n, but the frames' resampling adds their noise a second time
 * (a run's figure already carries it), which more than makes up for it where frames are what runs differ by: `widen`
 * (√(n / (n − 1)) about each side's centre) is off by default — on the same 20 rounds of real audits beside a hog, on
 * the p95, it gave no fewer false positives (0 of 20 either way) and flagged 10 of 21 heads at 2× the cells against
 * 13 (docs/CI.md). Runs alone (`frames: false`) called 2 of the 20 A/A rounds.
 */
export function bootstrapRatio(base: readonly RunSample[], head: readonly RunSample[],
  opts: { floor: number; threshold: number; draws: number; seed: number; frames?: boolean; widen?: boolean; quantile?: number; active?: boolean }): BootstrapRatio {
  const logOf = (x: number): number => Math.log(Math.max(opts.floor, x));
  // Each run's figure: as given (its p95), or its frames' quantile `quantile` when asked for one (`active`: of the
  // frames in which it did work).
  const q = opts.quantile ?? 0.95;
  const active = opts.active === true;
  const fig = (r: RunSample): number => (opts.quantile === undefined ? r.figure : runQuantile(r, q, active));
  const lb = base.map((r) => logOf(fig(r))), lh = head.map((r) => logOf(fig(r)));
  const b = meanVar(lb), h = meanVar(lh);
  const d = h.mean - b.mean;
  const dfs = lb.length + lh.length - 2;
  const spread = dfs > 0 ? Math.sqrt(((lb.length - 1) * b.variance + (lh.length - 1) * h.variance) / dfs) : 0;
  const ratio = Math.exp(d);
  if (base.length < 2 || head.length < 2) return { ratio, draws: null, p: 1, pSlower: 1, pFaster: 1, spread };
  const rng = seededRandom(opts.seed);
  const side = (runs: readonly RunSample[]): Float64Array => {
    const out = new Float64Array(opts.draws);
    let total = 0;
    for (let i = 0; i < opts.draws; i++) {
      let s = 0;
      for (let j = 0; j < runs.length; j++) {
        const r = runs[Math.floor(rng() * runs.length)];
        s += logOf(opts.frames === false ? fig(r) : drawRunFigure(r, rng, q, active));
      }
      out[i] = s / runs.length;
      total += out[i];
    }
    const centre = total / opts.draws, widen = opts.widen === true ? Math.sqrt(runs.length / (runs.length - 1)) : 1;
    for (let i = 0; i < opts.draws; i++) out[i] = (out[i] - centre) * widen;
    return out;
  };
  const sb = side(base), sh = side(head);
  const draws = new Float64Array(opts.draws);
  for (let i = 0; i < opts.draws; i++) draws[i] = d + sh[i] - sb[i];
  draws.sort();
  const t = Math.log(opts.threshold);
  let atMost = 0, atLeast = 0;
  for (const x of draws) {
    if (x <= t) atMost++;
    if (x >= -t) atLeast++;
  }
  const pSlower = (1 + atMost) / (1 + opts.draws), pFaster = (1 + atLeast) / (1 + opts.draws);
  const p = Math.min(1, 2 * Math.min(pSlower, pFaster));
  return { ratio, draws, p, pSlower, pFaster, spread };
}

/** The q-quantile of ascending draws (nearest rank). */
export function drawQuantile(draws: Float64Array, q: number): number {
  return draws[Math.min(draws.length - 1, Math.max(0, Math.ceil(q * draws.length) - 1))];
}

/**
 * Holm's step-down levels for p-values at family level alpha: the level each was tested at, and whether it was
 * rejected. Past the first that is not, none is, and the rest are held to the level it failed at.
 */
export function holm(ps: readonly number[], alpha: number): { level: number; rejected: boolean }[] {
  const order = ps.map((p, i) => [p, i] as const).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const out = ps.map(() => ({ level: alpha, rejected: false }));
  let stopped: number | null = null;
  order.forEach(([p, i], j) => {
    const level = stopped ?? alpha / (ps.length - j);
    if (stopped === null && p > level) stopped = level;
    out[i] = { level, rejected: stopped === null };
  });
  return out;
}
