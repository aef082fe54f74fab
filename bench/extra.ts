/**
 * The benchmark's other measurements: the detection kernel alone and the bare JS-to-WebAssembly crossing,
 * memory per session, and how often the semantic sketch decides as exact Jaccard would on real traces.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultTraceDir, readSessions } from '../src/eval/trace-scan.js';
import type { LoopDetectorOptions } from '../src/options/options.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import { LoopDetector } from '../src/session/loop-detector.js';
import * as A from '../src/wasm/generated/abi.js';
import { slotLayout } from '../src/wasm/slot-layout.js';
import { sharedCore } from '../src/wasm/wasm-core.js';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { join } from 'node:path';

const CORE_ONLY = { exactRepeat: true, frequency: true, cycle: true, semantic: false, similarArgs: false, resultRepeat: false, deadEnd: false, stateRepeat: false, chanting: false } as const;

/** Tasks: the exact + frequency + cycle kernel given 32-bit keys, and a WebAssembly call that does nothing. */
export function kernelTasks(batch: number): { name: string; fn: () => void; perIteration: number }[] {
  const core = sharedCore();
  const config = core.acquire(slotLayout(resolveOptions({ detectors: CORE_ONLY })));
  const slot = core.alloc(config);
  const ex = core.instance.exports;
  const out = ex.reserveOutput(A.OUT_SIZE * 16) >>> 0;
  const lists = ex.reserveLists(1 << 16) >>> 0;
  ex.reserveScratch(ex.scratchNeeded(4096, config) >>> 0);
  // a stream of signatures as a working agent makes them: mostly new calls, one repeat of an earlier call
  // in 32 (so the window always holds some equal keys, and frequency and cycle have work to do)
  const keys = new Uint32Array(4096);
  let x = 0x9e3779b9;
  for (let i = 0; i < keys.length; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    keys[i] = i % 32 === 31 ? (keys[i - 5] as number) : x;
  }
  let k = 0;
  return [
    {
      name: 'kernel: exact + frequency + cycle, given the signature',
      fn: () => {
        for (let i = 0; i < batch; i++) {
          ex.kernel(slot, keys[k & 4095] as number, 7, k, A.OF_KNOWN, out, lists, lists + (1 << 16));
          k++;
        }
      },
      perIteration: batch,
    },
    {
      name: 'crossing only: one call into WebAssembly that does nothing',
      fn: () => {
        for (let i = 0; i < batch; i++) ex.slotCount(slot);
      },
      perIteration: batch,
    },
  ];
}

/** Bytes per session: the slot a configuration lays out, and what 10,000 sessions really took. */
export function memoryFigures(): { detectors: string; slotBytes: number; measuredBytes: number }[] {
  const configs: [string, LoopDetectorOptions][] = [
    ['exact + frequency + cycle', { detectors: CORE_ONLY }],
    ['exact + frequency + cycle + result repeat', { detectors: { ...CORE_ONLY, resultRepeat: true } }],
    ['... + semantic sketches', { detectors: { ...CORE_ONLY, resultRepeat: true, semantic: true } }],
    ['every default detector', {}],
  ];
  const out = [];
  for (const [name, o] of configs) {
    const slotBytes = slotLayout(resolveOptions(o)).slotSize;
    const memory = sharedCore().instance.memory;
    const before = memory.buffer.byteLength;
    const sessions = Array.from({ length: 10_000 }, () => new LoopDetector(o));
    const measured = (memory.buffer.byteLength - before) / sessions.length;
    for (const s of sessions) s.dispose();
    out.push({ detectors: name, slotBytes, measuredBytes: measured });
  }
  return out;
}

/** Share of trace calls on which the sketch and exact Jaccard give the same semantic decision. */
export async function sketchAgreement(): Promise<{ calls: number; agree: number; note: string } | null> {
  const dir = defaultTraceDir(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'));
  if (dir === null) return { calls: 0, agree: 0, note: 'skipped: ../shared/data/traces is absent' };
  readSessions(dir);
  const only = (method: 'sketch' | 'exact'): LoopDetectorOptions => ({
    engine: 'reference',
    detectors: { ...CORE_ONLY, exactRepeat: false, frequency: false, cycle: false, semantic: { method } },
    policy: { progress: 'ignore', minConfidence: 0, ladder: ['warn'] },
  });
  const sessions = new Map<string, [LoopDetector, LoopDetector]>();
  let calls = 0;
  let agree = 0;
  let fired = 0;
  const lines = createInterface({ input: createReadStream(join(dir, 'events.jsonl.gz')).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    const e = JSON.parse(line) as Record<string, unknown>;
    const id = String(e.session);
    let pair = sessions.get(id);
    if (pair === undefined) {
      pair = [new LoopDetector(only('sketch')), new LoopDetector(only('exact'))];
      sessions.set(id, pair);
    }
    const ev = { tool: e.tool as string, args: e.args, result: e.result, error: e.error };
    const a = pair[0].check(ev);
    const b = pair[1].check(ev);
    calls++;
    if ((a === null) === (b === null) && JSON.stringify(a?.unit) === JSON.stringify(b?.unit)) agree++;
    if (b !== null) fired++;
  }
  const pct = (100 * agree) / Math.max(1, calls);
  return {
    calls,
    agree,
    note: `${agree} of ${calls} trace calls (${pct.toFixed(2)}%) get the same semantic decision (fired or not, same similar calls) from the 16-hash sketch as from exact Jaccard; exact Jaccard fired on ${fired}.`,
  };
}
