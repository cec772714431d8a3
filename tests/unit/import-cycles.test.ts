/**
 * No module of src/ imports itself through others (issue 45): a type that two modules share lives with its owner.
 * Type-only imports count too: they are how a cycle starts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ROOT } from '../../scripts/chrome';

function sources(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) sources(p, out);
    else if (e.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

describe('src/ has no import cycles', () => {
  it('every module\'s imports (type-only and lazy require included) form no cycle', () => {
    const files = new Set(sources(path.join(ROOT, 'src')));
    const resolve = (from: string, spec: string): string | null => {
      if (!spec.startsWith('.')) return null;
      const base = path.resolve(path.dirname(from), spec);
      for (const c of [`${base}.ts`, path.join(base, 'index.ts')]) if (files.has(c)) return c;
      return null;
    };
    const deps = new Map<string, string[]>();
    for (const f of files) {
      const text = fs.readFileSync(f, 'utf8');
      const found: string[] = [];
      for (const m of text.matchAll(/(?:import|export)\s[^;]*?from\s+'([^']+)'|require\('([^']+)'\)/gs)) {
        const r = resolve(f, m[1] ?? m[2]);
        if (r) found.push(r);
      }
      deps.set(f, found);
    }
    // Depth-first search for a back edge; the first cycle found is the failure message.
    const state = new Map<string, 1 | 2>();
    const stack: string[] = [];
    let cycle: string[] | null = null;
    const visit = (f: string): void => {
      if (cycle) return;
      state.set(f, 1);
      stack.push(f);
      for (const d of deps.get(f) ?? []) {
        if (state.get(d) === 1) {
          cycle = [...stack.slice(stack.indexOf(d)), d].map((p) => path.relative(ROOT, p));
          return;
        }
        if (!state.has(d)) visit(d);
        if (cycle) return;
      }
      stack.pop();
      state.set(f, 2);
    };
    for (const f of files) if (!state.has(f)) visit(f);
    expect(cycle, cycle ? (cycle as string[]).join(' → ') : '').to.equal(null);
  });
});
