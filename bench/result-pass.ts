/**
 * The reading of a text result alone (not part of the suite), over the traces' results in file order: the
 * module's readings one after another as processOne made them before (assembly/result-pass.ts's
 * textResultSeparate: the result's hash; the head's count, hash, cache probe and scan; blank, the shell's
 * startup lines twice, "nothing found", brief) against textResultPass (the result's and the head's hashes in
 * one loop, the startup lines looked for once), in one module, alternating which goes first, each pass timed
 * by process.cpuUsage. Both must give the same checksum of their outputs (the flags returned, the head word
 * and key written, the fingerprint) in every round. Then, with `--visits`, how many times
 * each of the results' bytes is read, and by what (counted from the readings' rules, not timed); with
 * `--parts`, what each reading costs alone over every result (CPU, medians): the hash, the head's scan with
 * no cache, "nothing found", masking.
 *
 *   node dist/bench/result-pass.js [rounds = 9] [--traces DIR] [--how head,ack,pass,answers] [--visits] [--parts]
 */
import * as A from '../src/wasm/generated/abi.js';
import { sharedInstance } from '../src/wasm/wasm-module.js';
import { traceEvents } from './real-calls.js';
import { resultVisits } from './result-visits.js';
import { cpuMicros } from './bench-stats.js';

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number;

const RP = { head: 1, ack: 2, pass: 4, answers: 8 } as const;

const args = process.argv.slice(2);
const value = (flag: string): string | undefined => {
  const i = args.indexOf(flag);
  return i < 0 ? undefined : args[i + 1];
};
const plain = args.filter((a, i) => !a.startsWith('--') && !['--traces', '--how'].includes(args[i - 1] ?? ''));
const rounds = Number(plain[0] ?? '9');
const how = (value('--how') ?? 'head,ack,pass,answers').split(',').reduce((h, w) => h | (RP[w as keyof typeof RP] ?? 0), 0);
const calls = await traceEvents(value('--traces'));
if (calls === null) {
  console.log('skipped: ../shared/data/traces is absent (--traces DIR)');
} else {
  const utf8 = new TextEncoder();
  const texts = calls.flatMap((c) => (typeof c.result === 'string' && c.error === undefined ? [utf8.encode(c.result)] : []));
  const inst = sharedInstance();
  const ex = inst.exports;
  // each text with 64 bytes after it (what a record's area leaves), then an output record
  const at = ex.reserveScratch(texts.reduce((n, t) => n + t.length + 64, 0) + A.OUT_SIZE + 64 + 2048 * 6 + 64);
  const { u8, u32 } = inst.views();
  const ptrs: number[] = [];
  let p = at;
  for (const t of texts) {
    u8.set(t, p);
    ptrs.push(p);
    p += t.length + 64;
  }
  const out = (p + 15) & ~15;
  // the output: the head word and key written, the fingerprint's low word
  const sum = (): number =>
    ((u32[(out + A.O_HEAD) >> 2] as number) + (u32[(out + A.O_HEAD_KEY_LO) >> 2] as number) * 3 + (u32[(out + A.O_HEAD_KEY_HI) >> 2] as number) * 7 + Number(ex.resultFp() & 0xffffffffn) * 11) >>> 0;
  const separate = (): number => {
    let c = 0;
    for (let i = 0; i < ptrs.length; i++) c = (c * 31 + ex.textResultSeparate(ptrs[i] as number, (texts[i] as Uint8Array).length, how, out) + sum()) >>> 0;
    return c;
  };
  const fused = (): number => {
    let c = 0;
    for (let i = 0; i < ptrs.length; i++) c = (c * 31 + ex.textResultPass(ptrs[i] as number, (texts[i] as Uint8Array).length, how, out) + sum()) >>> 0;
    return c;
  };
  separate();
  fused();
  const ta: number[] = [];
  const tb: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const spent = { a: 0, b: 0 };
    const check = { a: 0, b: 0 };
    for (const w of r % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const)) {
      const t0 = cpuMicros();
      check[w] = (w === 'a' ? separate : fused)();
      spent[w] = ((cpuMicros() - t0) * 1000) / texts.length;
    }
    if (check.a !== check.b) throw new Error(`the readings differ: checksum ${check.a} one after another, ${check.b} in one pass`);
    ta.push(spent.a);
    tb.push(spent.b);
  }
  const ratios = ta.map((x, i) => (tb[i] as number) / x);
  console.log(
    `${texts.length} result texts (how ${how}): one after another ${median(ta).toFixed(0)} ns, one pass ${median(tb).toFixed(0)} ns a text (CPU, checksums equal); ` +
      `one pass / one after another ${median(ratios).toFixed(3)} [${ratios.map((x) => x.toFixed(2)).join(' ')}]`,
  );
  if (args.includes('--visits')) console.log(resultVisits(texts));
  if (args.includes('--parts')) {
    const n = (i: number): number => (texts[i] as Uint8Array).length;
    const parts: Record<string, () => number> = {
      'the fingerprint (xxh64)': () => ptrs.reduce((c, q, i) => c ^ Number(ex.xxh64(q, n(i), 5n) & 0xffffn), 0),
      'both hashes in one loop (xxh64Pair)': () => ptrs.reduce((c, q, i) => c ^ Number(ex.xxh64Pair(q, n(i), 5n, 0n) & 0xffffn), 0),
      "the head's scan, no cache (reportScan)": () => ptrs.reduce((c, q, i) => c + ex.reportScan(q, Math.min(n(i), A.HEAD_UNITS), n(i) <= A.HEAD_ACK_UNITS ? 1 : 0), 0),
      '"nothing found" (saysNothingFound)': () => ptrs.reduce((c, q, i) => c + ex.saysNothingFound(q, n(i)), 0),
      'masking, no cache (maskBytes)': () => ptrs.reduce((c, q, i) => c + ex.maskBytes(q, n(i), 2048, out + A.OUT_SIZE), 0),
    };
    const spent = new Map<string, number[]>();
    for (let r = 0; r < rounds; r++) {
      for (const [what, f] of Object.entries(parts)) {
        const t0 = cpuMicros();
        f();
        spent.set(what, [...(spent.get(what) ?? []), ((cpuMicros() - t0) * 1000) / texts.length]);
      }
    }
    for (const [what, xs] of spent) console.log(`${what}: ${median(xs).toFixed(0)} ns a text`);
  }
}
