// Sums the CPU seconds per test file that test/setup/cpu-use.ts writes with LOOPWATCH_TEST_CPU set:
//   LOOPWATCH_TEST_CPU=/tmp/cpu.jsonl npx vitest run ... && node scripts/test-cpu.mjs /tmp/cpu.jsonl [N]
// prints the total and the N largest files (default 30), one `seconds file` a line.
import { readFileSync } from 'node:fs';

const [path, top = '30'] = process.argv.slice(2);
if (path === undefined) {
  console.error('usage: node scripts/test-cpu.mjs CPU.jsonl [N]');
  process.exit(2);
}
const byFile = new Map();
for (const line of readFileSync(path, 'utf8').split('\n')) {
  if (line.trim() === '') continue;
  const { file, cpu } = JSON.parse(line);
  byFile.set(file, (byFile.get(file) ?? 0) + cpu);
}
const rows = [...byFile].sort((a, b) => b[1] - a[1]);
const total = rows.reduce((s, [, c]) => s + c, 0);
console.log(`${total.toFixed(1)} CPU-s in ${rows.length} files`);
for (const [file, cpu] of rows.slice(0, Number(top))) console.log(`${cpu.toFixed(1).padStart(7)} ${file}`);
