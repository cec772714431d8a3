/**
 * A mocha root hook plugin (`--require` in scripts/test-e2e.ts): each e2e file's wall time, from before its first
 * hook to after its last, appended to out/e2e-times.jsonl, so that the suite can print its slowest files at the end
 * (issue 62: know where the five minutes go). In parallel mode each worker runs one file at a time under a root suite
 * of its own: the file is its first suite's.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from 'mocha';
import { ROOT } from '../../scripts/chrome';

export const TIMES_FILE = path.join(ROOT, 'out', 'e2e-times.jsonl');

let started = 0;

export const mochaHooks = {
  beforeAll(this: Context): void {
    started = Date.now();
  },
  afterAll(this: Context): void {
    const root = this.test?.parent;
    const file = root?.suites.find((s) => s.file)?.file ?? root?.file;
    if (!file) return;
    const line = JSON.stringify({ file: path.relative(ROOT, file), ms: Date.now() - started });
    try {
      fs.mkdirSync(path.dirname(TIMES_FILE), { recursive: true });
      fs.appendFileSync(TIMES_FILE, `${line}\n`);
    } catch {
      // The timing is a report, never a failure.
    }
  },
};
