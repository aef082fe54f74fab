/**
 * A/B of the module's "nothing found" reading (assembly/nothing.ts's saysNothingFound) on real results (not
 * part of the suite): every result text of the traces (its first 8,192 characters, as UTF-8) written once
 * into each build's thread module, then read by A and by B in turn, alternating which goes first, each pass
 * timed by process.cpuUsage. Both builds must give the same number of "nothing found" answers in each round.
 * What semantic, similar args and result repeat pay for it on every text result (the engine asks it only where
 * one of them reads it).
 *
 *   node dist/bench/ab-nothing-found.js DIST_A DIST_B [rounds = 9] [--traces DIR]
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { sharedInstance as SharedInstance } from '../src/wasm/wasm-module.js';
import { traceEvents } from './real-calls.js';
import { cpuMicros } from './bench-stats.js';

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number;

/** A pass over every text by `dist`'s module: the number of texts it says found nothing. */
async function reader(dist: string, texts: readonly Uint8Array[]): Promise<() => number> {
  const { sharedInstance } = (await import(pathToFileURL(resolve(dist, 'src', 'wasm', 'wasm-module.js')).href)) as { sharedInstance: typeof SharedInstance };
  const inst = sharedInstance();
  // each text with 64 bytes after it (what a record's area leaves)
  const at = inst.exports.reserveScratch(texts.reduce((n, t) => n + t.length + 64, 0));
  const u8 = inst.views().u8;
  const ptrs: number[] = [];
  for (let p = at, i = 0; i < texts.length; p += (texts[i] as Uint8Array).length + 64, i++) {
    u8.set(texts[i] as Uint8Array, p);
    ptrs.push(p);
  }
  const says = inst.exports.saysNothingFound;
  return () => {
    let yes = 0;
    for (let i = 0; i < ptrs.length; i++) yes += says(ptrs[i] as number, (texts[i] as Uint8Array).length);
    return yes;
  };
}

const args = process.argv.slice(2);
const at = args.indexOf('--traces');
const plain = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--traces');
const [distA, distB, rounds = '9'] = plain;
if (distA === undefined || distB === undefined) throw new Error('usage: ab-nothing-found.js DIST_A DIST_B [rounds] [--traces DIR]');
const calls = await traceEvents(at < 0 ? undefined : args[at + 1]);
if (calls === null) {
  console.log('skipped: ../shared/data/traces is absent (--traces DIR)');
} else {
  const utf8 = new TextEncoder();
  const texts = calls.flatMap((c) => (typeof c.result === 'string' ? [utf8.encode(c.result.slice(0, 8192))] : []));
  const a = await reader(distA, texts);
  const b = await reader(distB, texts);
  a();
  b();
  const ta: number[] = [];
  const tb: number[] = [];
  for (let r = 0; r < Number(rounds); r++) {
    const spent = { a: 0, b: 0 };
    const yes = { a: 0, b: 0 };
    for (const w of r % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const)) {
      const t0 = cpuMicros();
      yes[w] = (w === 'a' ? a : b)();
      spent[w] = ((cpuMicros() - t0) * 1000) / texts.length;
    }
    if (yes.a !== yes.b) throw new Error(`the builds differ: A says nothing found ${yes.a} times, B ${yes.b}`);
    ta.push(spent.a);
    tb.push(spent.b);
  }
  const ratios = ta.map((x, i) => (tb[i] as number) / x);
  console.log(
    `${texts.length} result texts: A ${median(ta).toFixed(0)} ns, B ${median(tb).toFixed(0)} ns a text (CPU); B/A ${median(ratios).toFixed(3)} [${ratios.map((x) => x.toFixed(2)).join(' ')}]`,
  );
}
