/**
 * Times on hostile text (not part of the suite): `node dist/bench/hostile-times.js [KB...]` prints, for each
 * shape of `hostile-text.ts` and each size (default 80 and 1024 KB), the CPU milliseconds `redactSecrets`
 * takes (median of 3 runs; CPU time, so other processes on a busy machine do not count), then the worst.
 */
import { redactSecrets } from '../src/index.js';
import { HOSTILE_SHAPES } from './hostile-text.js';

const sizes = process.argv.slice(2).map(Number);
if (sizes.length === 0) sizes.push(80, 1024);

/** Median CPU milliseconds of `runs` calls of `fn`. */
export function medianMs(fn: () => unknown, runs = 3): number {
  const t: number[] = [];
  for (let r = 0; r < runs; r++) {
    const c0 = process.cpuUsage();
    fn();
    const c = process.cpuUsage(c0);
    t.push((c.user + c.system) / 1000);
  }
  return t.sort((a, b) => a - b)[Math.floor(runs / 2)] as number;
}

console.log(`| shape | ${sizes.map((kb) => `${kb} KB`).join(' | ')} |`);
console.log(`|---|${sizes.map(() => '---:').join('|')}|`);
const worst = sizes.map(() => 0);
for (const [name, make] of Object.entries(HOSTILE_SHAPES)) {
  const cells = sizes.map((kb, i) => {
    const text = make(kb * 1024);
    const ms = medianMs(() => redactSecrets(text));
    worst[i] = Math.max(worst[i] as number, ms);
    return `${ms.toFixed(1)} ms`;
  });
  console.log(`| \`${name}\` | ${cells.join(' | ')} |`);
}
console.log(`| worst | ${worst.map((ms) => `${ms.toFixed(1)} ms`).join(' | ')} |`);
