/**
 * Tries compare's bootstrap variants (each run's median frame or its p95, frames resampled or not, widened or not) on the report sets kept by
 * `bench/ci-compare.ts --keep DIR`: the same audits, each variant's false positives and power (docs/CI.md).
 *
 *   npx tsx bench/compare-variants.ts DIR
 */
import fs from 'node:fs';
import path from 'node:path';
import { compareSets, type CompareOptions } from '../src/cli/compare';
import { sideOf } from '../src/cli/multi';

const dir = process.argv[2];
const rounds = fs.readdirSync(dir).filter((d) => /^a-\d+$/.test(d)).map((d) => Number(d.slice(2))).sort((a, b) => a - b);
const variants: [string, CompareOptions][] = [
  ['median, frames (compare)', {}], ['median, frames, two-sided', { twoSided: true }], ['median, runs', { frames: false }],
  ['median, runs, two-sided', { frames: false, twoSided: true }], ['median, runs+widen', { frames: false, widen: true }],
  ['p95, frames', { quantile: 0.95 }], ['p95, frames, two-sided', { quantile: 0.95, twoSided: true }],
];
for (const [name, opts] of variants) {
  let fp = 0, aa = 0;
  const seen: [number, boolean][] = [];
  const power = new Map<string, [number, number]>();
  for (const r of rounds) {
    const a = sideOf(path.join(dir, `a-${r}`));
    const c = compareSets(a, sideOf(path.join(dir, `b-${r}`)), 1.2, opts);
    aa++;
    if ([...c.regressions, ...c.improvements].some((x) => x.significant)) fp++;
    for (const x of fs.readdirSync(dir).filter((d) => new RegExp(`^x[0-9.]+-${r}$`).test(d))) {
      const f = x.slice(1, x.lastIndexOf('-'));
      const h = compareSets(a, sideOf(path.join(dir, x)), 1.2, opts);
      const rows = h.regressions.filter((y) => y.component === 'Heavy');
      const routes = new Set([...h.regressions, ...h.improvements].map((y) => y.route).filter((y) => y.startsWith('heavy')));
      for (const y of rows) seen.push([y.ratio, y.significant]);
      const p = power.get(f) ?? [0, 0];
      p[0] += rows.filter((y) => y.significant).length;
      p[1] += 3;
      power.set(f, p);
      void routes;
    }
  }
  const band = (lo: number, hi: number): string => {
    const b = seen.filter(([r]) => r >= lo && r < hi);
    return `measured ×${lo}–${hi}: ${b.filter(([, s]) => s).length}/${b.length}`;
  };
  console.log(`${name.padEnd(26)} A/A rounds flagged ${fp}/${aa}; ${[...power].map(([f, [k, n]]) => `×${f} cells ${k}/${n}`).join(', ')}; ${band(1.5, 2)}, ${band(2, 2.5)}, ${band(2.5, 99)}`);
}
