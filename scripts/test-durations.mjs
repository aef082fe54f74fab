// Writes test/setup/durations.json (the seconds each test file over 3 s took) from a vitest json report:
//   npx vitest run --reporter=json --outputFile=/tmp/run.json; node scripts/test-durations.mjs /tmp/run.json
// test/setup/sequencer.ts starts the longest files first with it. Rounded, so small changes leave it alone.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

const [report] = process.argv.slice(2);
if (report === undefined) throw new Error('usage: node scripts/test-durations.mjs <vitest json report>');
const root = new URL('..', import.meta.url).pathname;
const rows = JSON.parse(readFileSync(report, 'utf8')).testResults
  .map((r) => [(r.name.startsWith(root) ? relative(root, r.name) : r.name.replace(/^.*?\/(test\/)/, '$1')).split('\\').join('/'), Math.round((r.endTime - r.startTime) / 1000)])
  .filter(([, s]) => s > 3)
  .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
writeFileSync(new URL('../test/setup/durations.json', import.meta.url), `${JSON.stringify(Object.fromEntries(rows), null, 1)}\n`);
console.log(`test/setup/durations.json: ${rows.length} files over 3 s`);
