/**
 * Times on hostile text (not part of the suite): `node dist/bench/hostile-times.js [redact|text] [KB...]`
 * prints, for each size (default 80 and 1024 KB), the CPU milliseconds `redactSecrets` takes on each shape
 * of `hostile-text.ts` (`redact`), and what one call whose event `text` is that long costs with chanting on,
 * in each engine (`text`); both without a choice. CPU time (other processes on a busy machine do not
 * count), medians of 3 runs.
 */
import { LoopDetector, redactSecrets } from '../src/index.js';
import { HOSTILE_SHAPES } from './hostile-text.js';

const args = process.argv.slice(2);
const only = args[0] === 'redact' || args[0] === 'text' ? args.shift() : undefined;
const sizes = args.map(Number);
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

/** Prints a table: a row per named input maker, a column per size, `cost` of each input. */
function table(title: string, makers: Readonly<Record<string, (n: number) => string>>, cost: (text: string) => number): void {
  console.log(`\n${title}\n\n| shape | ${sizes.map((kb) => `${kb} KB`).join(' | ')} |`);
  console.log(`|---|${sizes.map(() => '---:').join('|')}|`);
  const worst = sizes.map(() => 0);
  for (const [name, make] of Object.entries(makers)) {
    const cells = sizes.map((kb, i) => {
      const ms = cost(make(kb * 1024));
      worst[i] = Math.max(worst[i] as number, ms);
      return `${ms.toFixed(1)} ms`;
    });
    console.log(`| \`${name}\` | ${cells.join(' | ')} |`);
  }
  console.log(`| worst | ${worst.map((ms) => `${ms.toFixed(1)} ms`).join(' | ')} |`);
}

const fill = (unit: string, n: number): string => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
/** Agent text: the shapes that cost the chanting detector most per character, and prose. */
const TEXT_SHAPES: Readonly<Record<string, (n: number) => string>> = {
  'one character (xxxx...)': (n) => fill('x', n),
  'white space': (n) => fill(' ', n),
  'a two-character chant': (n) => fill('ab', n),
  'short lines': (n) => fill('abc def ghi\n', n),
  '199-character lines': (n) => fill(`${'y'.repeat(199)}\n`, n),
  prose: (n) => fill('The agent keeps thinking about the answer. ', n),
};

if (only !== 'text') table('CPU ms to redact (redactSecrets)', HOSTILE_SHAPES, (text) => medianMs(() => redactSecrets(text)));
for (const engine of only === 'redact' ? [] : (['wasm', 'reference'] as const)) {
  table(`CPU ms of one call whose text is that long, chanting on (${engine})`, TEXT_SHAPES, (text) => {
    const d = new LoopDetector({ engine, detectors: { chanting: true } });
    let i = 0;
    return medianMs(() => d.check({ tool: 't', args: { i: i++ }, text }));
  });
}
