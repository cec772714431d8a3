/**
 * The truth for the bundler matrix's app (tests/fixtures/bundlers/src) wherever it is built or served (bundlers.test.ts,
 * next.test.ts): its source files say where each type is defined.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { APP_DIR } from '../../scripts/build-bundlers';
import { lc, waitFor } from './harness';

/** A port nobody listens on now (Vite is given it with `strictPort`). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** The 1-based line `export function NAME` is on in `file` (the truth for a hot-edited definition). */
export function lineOf(file: string, name: string): number {
  return fs.readFileSync(file, 'utf8').split('\n').findIndex((l) => new RegExp(`function ${name}\\b`).test(l)) + 1;
}

export interface Comp { id: number; name: string; kind?: string; source: { file: string; line: number } | null }

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
export async function located(page: Page): Promise<Comp[]> {
  await lc.enable(page);
  return waitFor(async () => {
    const comps = ((await lc.snapshot(page)) as { components: Comp[] }).components;
    const mine = comps.filter((c) => c.name in TYPES);
    return mine.length >= 7 && mine.every((c) => c.source !== null) ? comps : null;
  }, { timeout: 60_000, what: 'the app\'s components located' });
}

/**
 * Each located component against its type's definition: in the right file (`src/<file>`, however the map names its
 * folder), inside the definition's lines, a path people read, and the app's own.
 */
export function placement(comps: Comp[], framework = false, ownAlso: string[] = []): { seen: Set<string>; misses: string[]; placed: string } {
  const misses: string[] = [];
  const seen = new Set<string>();
  for (const c of comps) {
    if (!(c.name in TYPES)) {
      // In a framework's page (Next.js) its own components are there too, and must not pass for the app's.
      if (!framework || (c.kind === 'own' && !ownAlso.includes(c.name))) misses.push(`unexpected ${c.kind ?? ''} ${c.name}`);
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
  const placed = comps.filter((c) => c.name in TYPES).map((c) => `${c.name}@${c.source?.file.split('/').slice(-2).join('/')}:${c.source?.line}`).join(', ');
  return { seen, misses, placed };
}

/**
 * The Fast Refresh edits made on disk to the app's Counter.tsx, as a developer makes them (bundlers.test.ts for Vite,
 * next.test.ts for Next): a label (a re-render, the state kept), the definition moved two lines down (the source line
 * follows), a hook added (React Refresh remounts Counter: its state starts again, and it is listed once). `edit`
 * writes the file and waits for the label shown; `at` waits for one Counter at the line. `remountOnly`: the hook alone.
 */
export async function counterEdits(counterFile: string, edit: (fn: (text: string) => string, what: string, shown: string) => Promise<void>,
  at: (line: number, what: string) => Promise<unknown>, remountOnly = false): Promise<void> {
  if (!remountOnly) {
    await edit((t) => t.replace('Clicked {count} times', 'Pressed {count} times'), 'the label edit', 'Pressed 2 times');
    await at(lineOf(counterFile, 'Counter'), 'Counter still at its definition');
    await edit((t) => t.replace('export function Counter', '// moved\n// down\nexport function Counter').replace('Pressed', 'Hit'),
      'the moved definition', 'Hit 2 times');
    const moved = lineOf(counterFile, 'Counter');
    await at(moved, `Counter at its new line ${moved}`);
  }
  await edit((t) => t.replace('const [count, setCount] = useState(0);', 'const [count, setCount] = useState(0);\n  const [tone] = useState(\'calm\');')
    .replace(/(?:Clicked|Hit) \{count\} times/, 'Hit {count} times, {tone}'), 'the added hook', 'Hit 0 times, calm');
  await at(lineOf(counterFile, 'Counter'), 'one Counter after the remount');
}

/**
 * On a dev server's page of the app: two clicks on Counter, then the Fast Refresh edits of `counterEdits` made on disk
 * (only the remount while React DevTools' backend is present, `rdt`: its backend must still be fed after them), each
 * shown within `timeout` ms with no reload and `matches` holding after it.
 */
export async function clicksAndEdits(page: Page, counterFile: string, at: (line: number, what: string) => Promise<unknown>,
  opts: { rdt: boolean; timeout: number; matches: () => Promise<unknown>; label: string }): Promise<void> {
  const rdtOps = (): Promise<number> => page.evaluate(() => ((window as any).__rdtOperations as number | undefined) ?? 0);
  const ops0 = await rdtOps();
  for (let i = 0; i < 2; i++) await page.click('#count');
  await waitFor(() => page.$eval('#count', (e) => e.textContent === 'Clicked 2 times'), { what: 'two clicks' });
  const edit = async (fn: (text: string) => string, what: string, shown: string): Promise<void> => {
    const text = fn(fs.readFileSync(counterFile, 'utf8'));
    fs.writeFileSync(counterFile, text);
    const isShown = (): Promise<boolean> => page.$eval('#count', (e, t) => e.textContent === t, shown);
    // The dev server's own hot update, not ours: beside a CPU hog it was once never shown (Turbopack, 60 s, 1 run in
    // about 25: a write that came while it still compiled the previous test's restore, or before the page's update
    // socket was listening). Half the time for it, then the file written again (one more newline, a real change) and
    // the rest: a dev server that never shows the edit still fails.
    const first = await waitFor(isShown, { timeout: opts.timeout / 2, what }).then(() => true, () => false);
    if (!first) {
      console.log(`      [${opts.label}] ${what}: not shown in ${opts.timeout / 2000} s; the file written again`);
      fs.writeFileSync(counterFile, `${text}\n`);
      await waitFor(isShown, { timeout: opts.timeout / 2, what });
    }
    expect(await page.evaluate(() => (window as any).__notReloaded === true), `no reload after ${what}`).to.equal(true);
    await opts.matches();
  };
  await counterEdits(counterFile, edit, at, opts.rdt);
  if (opts.rdt) {
    const ops = await rdtOps();
    console.log(`      [${opts.label}] React DevTools operations: ${ops0} at enable, ${ops} after two clicks and the edit`);
    expect(ops).to.be.above(ops0);
  }
}
