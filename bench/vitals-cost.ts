/**
 * The interactions and shifts watch's own cost (issue 46: ≤ 0.05 ms per interaction and per shift, timed directly).
 * tests/fixtures/vitals-r19.html, cross-origin isolated (5 µs timers): the overlay on, a few interactions to warm up,
 * then `--clicks` clicks on FilterBar's button and `--keys` keys typed in SearchBox, at a human pace; the agent's
 * own timer of that work (`internals().vitalsMs`, `vitalsEntries`: interactions and shifts handed over) before and
 * after. Exit 1 when the mean is over the budget.
 *
 *   npx tsx bench/vitals-cost.ts [--clicks 30] [--keys 20] [--doc] [--no-build]
 */
import { commandLine, enableOverlay, launchBrowser, lc, machineNote, numArg, parseArgs, prepareBuild, sleep, startServer } from './lib/env';
import { recordStatus } from './lib/status';

const args = parseArgs();
const CLICKS = numArg(args, 'clicks', 30);
const KEYS = numArg(args, 'keys', 20);
const BUDGET_MS = 0.05;

async function main(): Promise<void> {
  const dist = prepareBuild(args);
  const server = await startServer();
  const b = await launchBrowser({ dist });
  let ms = 0, items = 0, worst = 0;
  try {
    const page = await b.newPage();
    await page.goto(`${server.origin}/vitals-r19.html?coi=1`, { waitUntil: 'load' });
    await enableOverlay(page, 8);
    for (let i = 0; i < 3; i++) {
      await page.click('#filter');
      await sleep(200);
    }
    await sleep(500);
    const before = await lc.internals(page);
    for (let i = 0; i < CLICKS; i++) {
      await page.click('#filter');
      await sleep(150);
    }
    await page.focus('#search');
    await page.keyboard.type('x'.repeat(KEYS), { delay: 120 });
    await sleep(800);
    const after = await lc.internals(page);
    ms = (after.vitalsMs as number) - (before.vitalsMs as number);
    items = (after.vitalsEntries as number) - (before.vitalsEntries as number);
    worst = after.vitalsMaxMs as number;
  } finally {
    await b.close();
    await server.close();
  }
  const per = items > 0 ? ms / items : NaN;
  console.log(`\n${items} interactions handed over (${CLICKS} clicks, ${KEYS} keys): ${ms.toFixed(2)} ms of our own work, `
    + `${per.toFixed(3)} ms per interaction (budget ${BUDGET_MS}); the most one hand-over took per item: ${worst.toFixed(3)} ms`);
  console.log(`${commandLine('bench/vitals-cost.ts')}, ${machineNote()}`);
  const ok = Number.isFinite(per) && per <= BUDGET_MS;
  if (args.has('doc')) {
    recordStatus('vitals-cost', commandLine('bench/vitals-cost.ts'), [{
      budget: 'interactions watch, own work per interaction', target: `≤ ${BUDGET_MS} ms`, figure: `${per.toFixed(3)} ms`,
      verdict: ok ? 'pass' : 'FAIL', paths: ['src/inject/agent/vitals', 'src/protocol/vitals.ts'],
    }]);
  }
  process.exitCode = ok ? 0 : 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
