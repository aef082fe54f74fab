// Sums the CPU seconds per test file that test/setup/cpu-use.ts writes with LOOPWATCH_TEST_CPU set:
//   LOOPWATCH_TEST_CPU=/tmp/cpu.jsonl npx vitest run ... && node scripts/test-cpu.mjs /tmp/cpu.jsonl [N]
// prints the totals and the N largest files (default 30) by their worker's own CPU (the file's CPU less
// the child processes it waited for), one `own all file` a line.
import { readFileSync } from 'node:fs';

const [path, top = '30'] = process.argv.slice(2);
if (path === undefined) {
  console.error('usage: node scripts/test-cpu.mjs CPU.jsonl [N]');
  process.exit(2);
}
const byFile = new Map();
for (const line of readFileSync(path, 'utf8').split('\n')) {
  if (line.trim() === '') continue;
  // lines written before `children` was recorded count as the worker's own
  const { file, cpu, children = 0 } = JSON.parse(line);
  const sum = byFile.get(file) ?? { cpu: 0, own: 0 };
  byFile.set(file, { cpu: sum.cpu + cpu, own: sum.own + cpu - children });
}
const rows = [...byFile].sort((a, b) => b[1].own - a[1].own);
const total = (key) => rows.reduce((s, [, c]) => s + c[key], 0).toFixed(1);
console.log(`${total('cpu')} CPU-s in ${rows.length} files, ${total('own')} of it the workers' own`);
for (const [file, c] of rows.slice(0, Number(top))) console.log(`${c.own.toFixed(1).padStart(7)} ${c.cpu.toFixed(1).padStart(7)} ${file}`);
