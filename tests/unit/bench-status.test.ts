/** The generated status table of docs/PERFORMANCE.md (bench/lib/status.ts, issue 45). */
import { expect } from 'chai';
import { statusTable, type StatusFile } from '../../bench/lib/status';

describe('the benchmarks\' status table', () => {
  const files: StatusFile[] = [
    { bench: 'a', command: 'npx tsx bench/a.ts --doc', commit: 'abc1234', date: '2026-11-27', rows: [
      { budget: 'thing A', target: '≤ 1 ms', figure: '0.5 ms', verdict: 'pass', paths: ['src/a'] },
      { budget: 'thing B', target: '≤ 1 ms', figure: '1.2 ms', verdict: 'accepted', paths: ['src/b'], note: 'at the floor' },
    ] },
    { bench: 'c', command: 'npx tsx bench/c.ts --doc', commit: 'def5678', date: '2026-11-20', rows: [
      { budget: 'thing C', target: 'flat', figure: '+1 KB', verdict: 'FAIL', paths: ['src/c'] },
    ] },
  ];

  it('one short row per budget, verdicts, accepted notes, and stale rows flagged by their paths', () => {
    const md = statusTable(files, (commit, paths) => paths[0] === 'src/c');
    const rows = md.split('\n').filter((l) => l.startsWith('| thing'));
    expect(rows).to.deep.equal([
      '| thing A | ≤ 1 ms | 0.5 ms | **pass** | abc1234 | 2026-11-27 |',
      '| thing B | ≤ 1 ms | 1.2 ms | **accepted** [1] | abc1234 | 2026-11-27 |',
      '| thing C | flat | +1 KB | **FAIL** · *stale* | def5678 | 2026-11-20 |',
    ]);
    expect(md).to.include('[1] thing B: at the floor');
    expect(md).to.include('`npx tsx bench/a.ts --doc`, `npx tsx bench/c.ts --doc`');
  });

  it('every row of the committed status files stays under 120 characters', async () => {
    const { readStatus } = await import('../../bench/lib/status');
    const md = statusTable(readStatus(), () => false);
    const long = md.split('\n').filter((l) => l.startsWith('| ') && l.length > 120);
    expect(long).to.deep.equal([]);
  });
});
