/** `npm run bench:status`: the status table of docs/PERFORMANCE.md, generated from bench/status/*.json (lib/status.ts). */
import { writeStatusTable } from './lib/status';

writeStatusTable();
console.log('docs/PERFORMANCE.md: status table written from bench/status/*.json');
