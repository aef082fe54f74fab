/**
 * Cost harness (not part of the suite): chanting over the real traces' prose (`../shared/data/traces`,
 * 25,704 texts, 5.0 M characters), the detector of each session fed its texts in order, with the
 * TypeScript prose stream (the reference pipeline's) and the WebAssembly one (the WebAssembly pipeline's),
 * in alternating rounds; and, as a floor, a stream that does nothing (the detector's own line handling).
 * Then each stream alone: the first 1 MiB of that prose pushed whole.
 *
 *   node dist/bench/chanting-cost.js [rounds = 7]
 *
 * Prints each variant's milliseconds per round (median and range) and per character. Timings on a shared
 * VM vary; compare variants within one run.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { ChantingDetector, type ProseStreamFactory } from '../src/detectors/chanting.js';
import type { ObservedCall } from '../src/detectors/detector.js';
import { defaultTraceDir } from '../src/eval/trace-dir.js';
import { CHANTING_DEFAULTS } from '../src/options/detector-options.js';
import { type ProseStream, TsProseStream } from '../src/text/prose-stream.js';
import { WasmProseStream } from '../src/wasm/wasm-prose-stream.js';

/** A stream that finds nothing: what the detector costs around its stream. */
class NoStream implements ProseStream {
  pos = 0;
  readonly hitPeriod = 0;
  readonly hitAt = 0;
  readonly hitRun = 0;
  readonly said = null;
  push(_text: string, from: number, to: number): number {
    this.pos += to - from;
    return to;
  }
  charAt(): number {
    return 0;
  }
  rebase(): number {
    return 0;
  }
  save(): void {}
  load(): void {}
  reset(): void {
    this.pos = 0;
  }
  dispose(): void {}
}

const VARIANTS: readonly (readonly [string, ProseStreamFactory | undefined])[] = [
  ['TypeScript stream', undefined],
  ['WebAssembly stream', (o) => new WasmProseStream(o)],
  ['no stream (floor)', () => new NoStream()],
];

const dir = defaultTraceDir(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'));
if (dir === null) {
  console.log('skipped: ../shared/data/traces is absent');
  process.exit(0);
}
const texts: (readonly [string, string])[] = [];
for (const line of gunzipSync(readFileSync(join(dir, 'events.jsonl.gz'))).toString('utf8').split('\n')) {
  if (line.trim() === '') continue;
  const e = JSON.parse(line) as { session?: unknown; text?: unknown };
  if (typeof e.text === 'string' && typeof e.session === 'string') texts.push([e.session, e.text]);
}
const chars = texts.reduce((n, [, t]) => n + t.length, 0);

/** One round: milliseconds, and the signals found (the same for every real stream). */
function round(make: ProseStreamFactory | undefined): readonly [number, number] {
  const detectors = new Map<string, ChantingDetector>();
  const call = { index: 0, event: { tool: 'reply', text: '' } };
  let signals = 0;
  const t0 = performance.now();
  for (const [session, text] of texts) {
    let d = detectors.get(session);
    if (d === undefined) detectors.set(session, (d = new ChantingDetector(CHANTING_DEFAULTS, undefined, make)));
    call.index++;
    call.event.text = text;
    d.record(call as unknown as ObservedCall);
    if (d.check() !== null) signals++;
  }
  const ms = performance.now() - t0;
  for (const d of detectors.values()) d.dispose();
  return [ms, signals];
}

/** Nanoseconds per character of pushing `text` whole through a stream (no detector, no line handling). */
function whole(make: () => ProseStream, text: string): number {
  const s = make();
  const t0 = performance.now();
  for (let k = 0; k < text.length; ) k = s.push(text, k, text.length, 0, 2 ** 30);
  const ns = ((performance.now() - t0) * 1e6) / text.length;
  s.dispose();
  return ns;
}

const rounds = Number(process.argv[2] ?? 7);
const prose = texts.map(([, t]) => t).join('').slice(0, 1 << 20);
const streams: readonly (readonly [string, () => ProseStream])[] = [
  ['TypeScript stream', () => new TsProseStream(CHANTING_DEFAULTS)],
  ['WebAssembly stream', () => new WasmProseStream(CHANTING_DEFAULTS)],
];
const perChar = streams.map(() => [] as number[]);
const times = VARIANTS.map(() => [] as number[]);
const found = VARIANTS.map(() => 0);
for (let r = 0; r < rounds; r++) {
  VARIANTS.forEach(([, make], k) => {
    const [ms, signals] = round(make);
    (times[k] as number[]).push(ms);
    found[k] = signals;
  });
  streams.forEach(([, make], k) => (perChar[k] as number[]).push(whole(make, prose)));
}
console.log(`chanting over ${texts.length} texts (${chars} characters) of the traces, ${rounds} alternating rounds (load ${(await import('node:os')).loadavg()[0]?.toFixed(2)})`);
VARIANTS.forEach(([name], k) => {
  const v = [...(times[k] as number[])].sort((a, b) => a - b);
  const med = v[v.length >> 1] as number;
  console.log(`${name}: ${med.toFixed(1)} ms (${(v[0] as number).toFixed(1)}-${(v[v.length - 1] as number).toFixed(1)}), ${((med * 1e6) / chars).toFixed(1)} ns per character, ${found[k]} signals`);
});
console.log(`the first ${prose.length} characters of prose pushed whole (the stream alone, no line handling):`);
streams.forEach(([name], k) => {
  const v = [...(perChar[k] as number[])].sort((a, b) => a - b);
  console.log(`${name}: ${(v[v.length >> 1] as number).toFixed(1)} ns per character (${(v[0] as number).toFixed(1)}-${(v[v.length - 1] as number).toFixed(1)})`);
});
