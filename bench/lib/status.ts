/**
 * The budgets' dashboard (issue 45): each bench that judges a budget records its latest figures in
 * `bench/status/<bench>.json` when run with `--doc`, and the status table at the top of docs/PERFORMANCE.md is generated
 * from those files (`npm run bench -- --doc`, or `npm run bench:status` for the table alone). One row per budget: the
 * budget, its target, the latest figure, the verdict, the commit and date it was measured at. Each row names the source
 * paths it measures; a row measured before the last change to those paths is marked stale (git decides).
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { PERF_DOC } from './doc';
import { ROOT } from './env';

export const STATUS_DIR = path.join(ROOT, 'bench', 'status');

export type StatusVerdict = 'pass' | 'accepted' | 'FAIL' | 'skipped' | 'info';

export interface StatusRow {
  /** What is budgeted, short ("overlay on, StressGrid 10 %"). */
  budget: string;
  /** The target ("≤ 3 % of the main thread"); "—" where nothing is budgeted. */
  target: string;
  /** The latest figure, short ("2.97 % [0.56–3.09]"). */
  figure: string;
  verdict: StatusVerdict;
  /** Source paths (files or folders, from the repository's root) whose change makes this figure stale. */
  paths: string[];
  /** Why an "accepted" budget is accepted, and where it is argued (one short phrase). */
  note?: string;
}

export interface StatusFile {
  bench: string;
  /** The command that produced the figures. */
  command: string;
  /** The commit measured (short hash); "+" marks a working tree with changes. */
  commit: string;
  date: string;
  rows: StatusRow[];
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

/** The commit being measured: HEAD, with "+" when `src/` has changes not committed. */
export function measuredCommit(): string {
  const head = git(['rev-parse', '--short=7', 'HEAD']) || 'unknown';
  return git(['status', '--porcelain', '--', 'src']) === '' ? head : `${head}+`;
}

/** Writes the bench's rows (called by a bench run with `--doc`). */
export function recordStatus(bench: string, command: string, rows: StatusRow[], date = new Date().toISOString().slice(0, 10)): void {
  fs.mkdirSync(STATUS_DIR, { recursive: true });
  const file: StatusFile = { bench, command, commit: measuredCommit(), date, rows };
  fs.writeFileSync(path.join(STATUS_DIR, `${bench}.json`), `${JSON.stringify(file, null, 2)}\n`);
}

/** The table's order: the main thread first, then load, memory, drawing, the numbers' truth; others after, by name. */
const ORDER = [
  'overhead', 'always-on', 'inject-size', 'commit-hook', 'commit-proportional', 'memory', 'canvas-flush', 'accuracy',
  'attribution', 'own-js', 'containment', 'firefox-timing', 'idle',
];

export function readStatus(): StatusFile[] {
  if (!fs.existsSync(STATUS_DIR)) return [];
  const rank = (b: string): number => (ORDER.includes(b) ? ORDER.indexOf(b) : ORDER.length);
  return fs.readdirSync(STATUS_DIR).filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(fs.readFileSync(path.join(STATUS_DIR, f), 'utf8')) as StatusFile)
    .sort((a, b) => rank(a.bench) - rank(b.bench) || a.bench.localeCompare(b.bench));
}

/**
 * Whether `paths` changed after `commit`: the last commit touching them is not the measured one or an ancestor of it.
 * A measurement of a dirty tree ("abc1234+") is stale once anything is committed to those paths after abc1234.
 */
export function isStale(commit: string, paths: string[]): boolean {
  const base = commit.replace(/\+$/, '');
  if (paths.length === 0) return false;
  const last = git(['log', '-1', '--format=%H', '--', ...paths]);
  if (last === '' || git(['rev-parse', '--verify', '--quiet', `${base}^{commit}`]) === '') return false;
  try {
    execFileSync('git', ['merge-base', '--is-ancestor', last, base], { cwd: ROOT, stdio: 'ignore' });
    return false;
  } catch {
    return true;
  }
}

const VERDICT_TEXT: Record<StatusVerdict, string> = {
  pass: '**pass**', accepted: '**accepted**', FAIL: '**FAIL**', skipped: 'skipped', info: '—',
};

/** The generated status table (Markdown), rows in file order. */
export function statusTable(files = readStatus(), stale = isStale): string {
  const lines = [
    '| budget | target | latest | verdict | at | date |',
    '|---|---|---|---|---|---|',
  ];
  const notes: string[] = [];
  for (const f of files) {
    for (const r of f.rows) {
      const old = stale(f.commit, r.paths);
      let verdict = VERDICT_TEXT[r.verdict];
      if (r.note) {
        notes.push(`${r.budget}: ${r.note}`);
        verdict += ` [${notes.length}]`;
      }
      if (old) verdict += ' · *stale*';
      lines.push(`| ${r.budget} | ${r.target} | ${r.figure} | ${verdict} | ${f.commit} | ${f.date} |`);
    }
  }
  const commands = files.map((f) => `\`${f.command}\``).join(', ');
  return [
    ...lines,
    '',
    ...notes.map((n, i) => `[${i + 1}] ${n}`),
    ...(notes.length > 0 ? [''] : []),
    '*stale*: a source path the row measures changed after the commit it was measured at (each row\'s paths are in',
    `\`bench/status/*.json\`). Produced by ${commands}.`,
  ].join('\n');
}

const START = '<!-- status -->';
const END = '<!-- /status -->';

/** Rewrites the generated part of the status section of docs/PERFORMANCE.md. */
export function writeStatusTable(): void {
  const doc = fs.readFileSync(PERF_DOC, 'utf8');
  const i = doc.indexOf(START);
  const j = doc.indexOf(END);
  if (i < 0 || j < i) throw new Error(`docs/PERFORMANCE.md has no ${START} … ${END} section`);
  const body = `${START}\n## Status\n\nGenerated by \`npm run bench:status\` from \`bench/status/*.json\` (each bench writes its rows when run with\n\`--doc\`; \`npm run bench -- --doc\` runs them all and then this). Do not edit by hand.\n\n${statusTable()}\n${END}`;
  fs.writeFileSync(PERF_DOC, doc.slice(0, i) + body + doc.slice(j + END.length));
}
