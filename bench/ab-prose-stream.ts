/**
 * A/B of chanting's per-character kernel (assembly/chant.ts's chantPush) on real prose (not part of the
 * suite): the text of every call of the traces that has one, joined in file order and cut at `--units` UTF-16
 * units (default 1 Mi), pushed whole through one WasmProseStream of each build with the default chanting
 * options, A and B in turn, alternating which goes first, each pass timed by process.cpuUsage. Both builds
 * must stop on the same hits (a push stops after each one). Faster to read than a whole detector's A/B
 * (`ab-real-calls.js A B 9 chanting`): no line split, structure filter or session around the kernel; the
 * text is not filtered as the detector filters it (code and tables included), so its followed periods and
 * walks are more than the detector's.
 *
 *   node dist/bench/ab-prose-stream.js DIST_A DIST_B [rounds = 9] [--traces DIR] [--units N]
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ChantingOptions } from '../src/options/detector-options.js';
import type { WasmProseStream as Stream } from '../src/wasm/wasm-prose-stream.js';
import { traceEvents } from './real-calls.js';
import { cpuMicros } from './bench-stats.js';

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number;

/** A pass of `prose` through a fresh stream of `dist`'s build: the hits it stopped on. */
async function passer(dist: string, prose: string): Promise<() => number> {
  const url = (p: string): string => pathToFileURL(resolve(dist, 'src', p)).href;
  const { WasmProseStream } = (await import(url('wasm/wasm-prose-stream.js'))) as { WasmProseStream: typeof Stream };
  const { CHANTING_DEFAULTS } = (await import(url('options/detector-options.js'))) as { CHANTING_DEFAULTS: ChantingOptions };
  return () => {
    const s = new WasmProseStream(CHANTING_DEFAULTS);
    let hits = 0;
    for (let k = 0; k < prose.length; ) {
      k = s.push(prose, k, prose.length, 0, 2 ** 30);
      if (s.hitPeriod > 0 || s.said !== null) hits++;
    }
    s.dispose();
    return hits;
  };
}

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args[i + 1];
};
const plain = args.filter((a, i) => !a.startsWith('--') && !(args[i - 1] ?? '').startsWith('--'));
const [distA, distB, roundsArg = '9'] = plain;
if (distA === undefined || distB === undefined) throw new Error('usage: ab-prose-stream.js DIST_A DIST_B [rounds] [--traces DIR] [--units N]');
const calls = await traceEvents(flag('--traces'));
if (calls === null) {
  console.log('skipped: ../shared/data/traces is absent (--traces DIR)');
} else {
  const texts: string[] = [];
  for (const c of calls) if (typeof c.text === 'string') texts.push(c.text);
  const prose = texts.join('').slice(0, Number(flag('--units') ?? 2 ** 20));
  const a = await passer(distA, prose);
  const b = await passer(distB, prose);
  // not counted: the JIT's first compiles (and the hits compared)
  const hits = a();
  if (b() !== hits) throw new Error('the builds stop on different hits');
  const ta: number[] = [];
  const tb: number[] = [];
  for (let r = 0; r < Number(roundsArg); r++) {
    for (const w of r % 2 === 0 ? [a, b] : [b, a]) {
      const t0 = cpuMicros();
      const h = w();
      const ns = ((cpuMicros() - t0) * 1000) / prose.length;
      if (h !== hits) throw new Error(`a pass stopped on ${h} hits, not ${hits}`);
      (w === a ? ta : tb).push(ns);
    }
  }
  const ratios = ta.map((x, i) => (tb[i] as number) / x);
  console.log(
    `${prose.length} units, ${hits} hits: A ${median(ta).toFixed(2)} ns a unit, B ${median(tb).toFixed(2)} ns (CPU); ` +
      `B/A ${median(ratios).toFixed(3)} [${ratios.map((x) => x.toFixed(2)).join(' ')}]`,
  );
}
