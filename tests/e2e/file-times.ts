/**
 * A mocha root hook plugin (`--require` in scripts/test-e2e.ts): each e2e file's wall time appended to
 * out/e2e-times.jsonl, so that the suite can print its slowest files at the end (issue 62: know where the five minutes
 * go). In the parallel lane each worker runs one file at a time under a root suite of its own; in the serial lane one
 * root suite holds every file, and a file runs from the end of the last test of the one before it (whose `after`
 * hooks, a browser's close, are counted with the next) to the end of its own last test.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from 'mocha';
import { ROOT } from '../../scripts/chrome';

export const TIMES_FILE = path.join(ROOT, 'out', 'e2e-times.jsonl');
/**
 * Each failed test's file, title and error, printed again at the very end of the suite: CI keeps only the tail of a
 * run's output, and the parallel lane's failures are printed long before it.
 */
export const FAILURES_FILE = path.join(ROOT, 'out', 'e2e-failures.jsonl');

let file: string | null = null;
let start = 0;
let lastEnd = 0;

function append(to: string, row: Record<string, unknown>): void {
  try {
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.appendFileSync(to, `${JSON.stringify(row)}\n`);
  } catch {
    // A report, never a failure.
  }
}

function record(f: string, ms: number): void {
  append(TIMES_FILE, { file: path.relative(ROOT, f), ms });
}

export const mochaHooks = {
  beforeAll(): void {
    start = lastEnd = Date.now();
    file = null;
  },
  beforeEach(this: Context): void {
    const f = this.currentTest?.file ?? null;
    if (f === null || f === file) return;
    if (file !== null) {
      record(file, lastEnd - start);
      start = lastEnd;
    }
    file = f;
  },
  afterEach(this: Context): void {
    lastEnd = Date.now();
    const t = this.currentTest;
    if (t?.state === 'failed') {
      const err = (t as unknown as { err?: { stack?: string; message?: string } }).err;
      append(FAILURES_FILE, {
        file: t.file ? path.relative(ROOT, t.file) : '', title: t.fullTitle(),
        error: String(err?.stack ?? err?.message ?? 'unknown').slice(0, 1500),
      });
    }
  },
  afterAll(): void {
    if (file !== null) record(file, Date.now() - start);
    file = null;
  },
};
