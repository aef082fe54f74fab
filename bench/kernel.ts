/**
 * The detection kernel alone (exact + frequency + cycle given a call's keys), the bare JS-to-WebAssembly
 * crossing (the floor under every per-call figure), and what hashing one value through xxhash-wasm from
 * JavaScript would cost (why the module hashes values itself, with its own xxh64).
 */
import xxhash from 'xxhash-wasm';
import { resolveOptions } from '../src/options/resolve-options.js';
import * as A from '../src/wasm/generated/abi.js';
import { slotLayout } from '../src/wasm/slot-layout.js';
import { sharedCore } from '../src/wasm/wasm-core.js';
import { CORE } from './index-core.js';

/** Tasks: the kernel given 32-bit keys, a WebAssembly call that does nothing, xxhash-wasm on one value. */
export async function kernelTasks(batch: number): Promise<{ name: string; fn: () => void; perIteration: number }[]> {
  const { h64Raw } = await xxhash();
  const values = Array.from({ length: 64 }, (_, i) => new TextEncoder().encode(`ls -la profile${i}`.padEnd(16, ' ').slice(0, 16)));
  let sink = 0n;
  const core = sharedCore();
  const config = core.acquire(slotLayout(resolveOptions({ detectors: CORE })));
  const slot = core.alloc(config);
  const ex = core.instance.exports;
  const out = ex.reserveOutput(A.OUT_SIZE * 16) >>> 0;
  const lists = ex.reserveLists(1 << 16) >>> 0;
  ex.reserveScratch(ex.scratchNeeded(config) >>> 0);
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
    {
      name: 'xxhash-wasm h64Raw of one 16-byte value, from JavaScript',
      fn: () => {
        for (let i = 0; i < batch; i++) sink ^= h64Raw(values[i & 63] as Uint8Array, 0n);
        if (sink === 1n) console.log('');
      },
      perIteration: batch,
    },
  ];
}
