/**
 * The content stamp of a cached fixture build (scripts/build-bundlers.ts, build-vue.ts, build-preact.ts): a build is
 * kept while the stamp of what it was made from (the lockfile, the build script, the sources) is the one it wrote.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './chrome';

/** Every file under a folder, sorted (the stamp's order). */
export function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : [p];
  }).sort();
}

/** sha256 over package-lock.json and the given files, each with its path from the repository's root. */
export function contentStamp(files: readonly string[]): string {
  const h = crypto.createHash('sha256');
  for (const f of [path.join(ROOT, 'package-lock.json'), ...files]) {
    h.update(path.relative(ROOT, f));
    h.update(fs.readFileSync(f));
  }
  return h.digest('hex');
}
