/**
 * compare's bootstrap on synthetic runs (issue 65; docs/CI.md, "How many runs"): a run's level is lognormal about the
 * component's (spread `between`: what a machine drifts by between runs), its frames lognormal about the run's
 * (`within`); its figure is their p95. Per case, 30 rounds of six unchanged components (a round with any significant
 * change is a false positive), and one made 3× and 2× slower among them (power). No browser; a few seconds.
 *
 *   N=3 npx tsx bench/compare-synthetic.ts     (N: runs a side)
 */
import { bootstrapRatio, holm, seededRandom, type RunSample } from '../src/cli/stats';

const N = Number(process.env.N ?? 3);
const ROUNDS = 30;

function runs(rng: () => number, ms: number, n: number, frames: number, between: number, within: number): RunSample[] {
  const g = (): number => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  return Array.from({ length: n }, () => {
    const level = Math.log(ms) + between * g();
    const values = Array.from({ length: frames }, () => Math.exp(level + within * g())).sort((a, b) => a - b);
    return { figure: values[Math.ceil(0.95 * frames) - 1], frames, values };
  });
}

const cases: [number, number, number][] = [[0.3, 0.1, 60], [0.25, 0.05, 60], [0.2, 0.2, 12], [0.1, 0.4, 12]];
for (const [between, within, frames] of cases) {
  const rng = seededRandom(5);
  let fp = 0, p3 = 0, p2 = 0;
  const opts = (seed: number): { floor: number; threshold: number; draws: number; seed: number } => ({ floor: 0.1, threshold: 1.2, draws: 2000, seed });
  for (let r = 0; r < ROUNDS; r++) {
    const ps = [1, 2, 3, 4, 5, 6].map((ms, i) => bootstrapRatio(runs(rng, ms, N, frames, between, within), runs(rng, ms, N, frames, between, within), opts(r * 10 + i)).p);
    if (holm(ps, 0.05).some((x) => x.rejected)) fp++;
    const t3 = bootstrapRatio(runs(rng, 3, N, frames, between, within), runs(rng, 9, N, frames, between, within), opts(r));
    if (holm([t3.p, ...ps.slice(1)], 0.05)[0].rejected) p3++;
    const t2 = bootstrapRatio(runs(rng, 3, N, frames, between, within), runs(rng, 6, N, frames, between, within), opts(r + 99));
    if (holm([t2.p, ...ps.slice(1)], 0.05)[0].rejected) p2++;
  }
  console.log(`${N} runs a side; runs drift ${between}, frames ${within} (log sd), ${frames} frames: A/A rounds flagged ${fp}/${ROUNDS}, 3× ${p3}/${ROUNDS}, 2× ${p2}/${ROUNDS}`);
}
