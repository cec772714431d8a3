/**
 * Source maps the way real bundlers write them (issue 44): one small app (tests/fixtures/bundlers/) built by Vite,
 * webpack 5 in three source-map modes and esbuild (scripts/build-bundlers.ts). In each build, every component type of
 * the app gets its real name and a file:line inside its own definition in the app's source, and is the app's own
 * (`kind: 'own'`). The truth is the source files themselves.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { APP_DIR, BUNDLERS } from '../../scripts/build-bundlers';
import { launch, lc, waitFor, type Harness } from './harness';

interface Comp { id: number; name: string; kind?: string; source: { file: string; line: number } | null }

/** Each type of the app: the file it is defined in (relative to the app's src/) and its definition's lines. */
export const TYPES: Record<string, string> = {
  App: 'App.tsx', Panel: 'widgets/Panel.tsx', Counter: 'widgets/Counter.tsx', Tags: 'widgets/Tags.tsx', Tag: 'widgets/Tags.tsx',
  Clock: 'widgets/Clock.tsx',
};

/** [first, last] line of a type's definition in its file: from its declaration to the line before the next one. */
export function definitionSpan(name: string): [number, number] {
  const lines = fs.readFileSync(path.join(APP_DIR, 'src', TYPES[name]), 'utf8').split('\n');
  const decl = /^(?:export )?(?:function|class|const) (\w+)/;
  const at = lines.findIndex((l) => decl.exec(l)?.[1] === name);
  if (at < 0) throw new Error(`${name} is not declared in ${TYPES[name]}`);
  const next = lines.findIndex((l, i) => i > at && decl.test(l));
  return [at + 1, next < 0 ? lines.length : next];
}

/** Every type located (a source, or a final "not found"), nothing pending. */
async function located(page: Page): Promise<Comp[]> {
  await lc.enable(page);
  return waitFor(async () => {
    const comps = ((await lc.snapshot(page)) as { components: Comp[] }).components;
    const mine = comps.filter((c) => c.name in TYPES);
    return mine.length >= 7 && mine.every((c) => c.source !== null) ? comps : null;
  }, { timeout: 60_000, what: 'the app\'s components located' });
}

describe('the bundler matrix: names and file:line from each bundler\'s source maps (e2e)', function () {
  this.timeout(180_000);
  let h: Harness;
  before(async () => {
    h = await launch();
  });
  after(async () => h?.close());

  for (const bundler of BUNDLERS) {
    it(`${bundler}: every type named, placed inside its definition, and the app's own`, async () => {
      const page = await h.newPage(`build/bundlers/${bundler}/index.html`);
      try {
        await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: `${bundler} app` });
        const comps = await located(page);
        const misses: string[] = [];
        const seen = new Set<string>();
        for (const c of comps) {
          if (!(c.name in TYPES)) {
            misses.push(`unexpected ${c.name}`);
            continue;
          }
          seen.add(c.name);
          const [from, to] = definitionSpan(c.name);
          const file = c.source?.file ?? '';
          if (file !== `src/${TYPES[c.name]}` && !file.endsWith(`/src/${TYPES[c.name]}`)) misses.push(`${c.name} in ${file}`);
          else if (c.source!.line < from || c.source!.line > to) misses.push(`${c.name} at line ${c.source!.line} (defined on ${from}–${to})`);
          if (/webpack:|\/\.\//.test(file)) misses.push(`${c.name}'s file reads ${file}`);
          if (c.kind !== 'own') misses.push(`${c.name} is ${c.kind}`);
        }
        const placed = comps.map((c) => `${c.name}@${c.source?.file.split('/').slice(-2).join('/')}:${c.source?.line}`);
        console.log(`      [bundlers] ${bundler}: ${placed.join(', ')}`);
        expect([...seen].sort(), 'every type of the app').to.deep.equal(Object.keys(TYPES).sort());
        expect(misses, misses.join('; ')).to.deep.equal([]);
        // Judged on the app's own code: minified in the production builds (names given back by the maps), not in
        // webpack's development ones.
        expect((await lc.state(page)).minified, 'minified').to.equal(!bundler.startsWith('webpack-eval'));
      } finally {
        await page.close();
      }
    });
  }
});
