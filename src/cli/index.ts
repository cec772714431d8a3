/** The CLI's entry (bundled to lib/cli.mjs; bin/layout-cost.mjs runs it). */
import { main } from './main';

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
