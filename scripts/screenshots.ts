/**
 * `npm run screenshots`: the README's pictures made again from the demo, so that they show today's overlay and panel
 * (issue 45). Builds the extension and the demo, then:
 *
 *   docs/images/overlay.png      `npm start -- --headless` on StressGrid (the overlay in Components mode)
 *   docs/images/panel-light.png  the DevTools panel on StressGrid under DevTools' default theme, a component pinned
 *   docs/images/panel-dark.png   the same under the dark theme (tests/e2e/panel-theme.test.ts takes both)
 *   docs/images/vitals.png       the panel's Vitals tab on the vitals fixture, a click opened (tests/e2e/vitals.test.ts)
 *   docs/images/vitals-show.png  that page while Show outlines a shift's cause and what it moved
 *
 * Open them before committing: a picture is judged by a person.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT } from './chrome';

const IMAGES = path.join(ROOT, 'docs', 'images');
const OUT = path.join(ROOT, 'out');

function run(cmd: string, args: string[]): void {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
}

function copy(from: string, to: string): void {
  if (!fs.existsSync(from)) throw new Error(`${path.relative(ROOT, from)} was not written`);
  fs.copyFileSync(from, path.join(IMAGES, to));
  console.log(`docs/images/${to} ← ${path.relative(ROOT, from)}`);
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
run(npm, ['run', 'build']);
run(npm, ['run', 'build:fixtures']);
const shots = path.join(OUT, 'screenshots');
fs.rmSync(shots, { recursive: true, force: true });
run(npx, ['tsx', 'scripts/start.ts', '--headless', '--skip-build', `--out=${shots}`]);
copy(path.join(shots, 'screenshot.png'), 'overlay.png');
for (const f of ['panel-light.png', 'panel-dark.png']) fs.rmSync(path.join(OUT, f), { force: true });
// The pictures are for people: the test lets the sparklines fill before it shoots (in `npm test` it does not wait).
process.env.LC_PICTURES = '1';
run(npx, ['tsx', 'scripts/test-e2e.ts', 'tests/e2e/panel-theme.test.ts']);
copy(path.join(OUT, 'panel-light.png'), 'panel-light.png');
copy(path.join(OUT, 'panel-dark.png'), 'panel-dark.png');
for (const f of ['vitals.png', 'vitals-show.png']) fs.rmSync(path.join(OUT, f), { force: true });
process.env.LC_SCREENSHOT = path.join(OUT, 'vitals.png');
process.env.LC_SCREENSHOT_PAGE = path.join(OUT, 'vitals-show.png');
run(npx, ['tsx', 'scripts/test-e2e.ts', 'tests/e2e/vitals.test.ts']);
copy(path.join(OUT, 'vitals.png'), 'vitals.png');
copy(path.join(OUT, 'vitals-show.png'), 'vitals-show.png');
