/**
 * hostile35: a record larger than the module's input area was begun again each time the area doubled (256
 * KiB, 512 KiB, ... until it fit), each beginning listing and walking the args' objects again: one
 * `LoopDetector.check` of `{a: <object of 2^20 keys>, b: <3.9 MiB string>}` took 4.0-4.5 s of CPU where
 * the object alone took 2.1-2.2 s. A chunk's first record is now walked whole even past the area's end, its
 * size counted (encode-value.ts `counting`), and the area grows once to that size: the record is written
 * twice at most, its objects listed once more than a call that fits.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { Detector, ObservedCall, ToolEvent } from '../src/index.js';
import { RecordWriter } from '../src/wasm/record-writer.js';

/** Counts RecordWriter#write calls while `f` runs. */
function writesDuring(f: () => void): number {
  const proto = RecordWriter.prototype as unknown as { write: (...a: unknown[]) => number };
  const write = proto.write;
  let n = 0;
  proto.write = function (this: unknown, ...a: unknown[]) {
    n++;
    return write.apply(this, a);
  };
  try {
    f();
  } finally {
    proto.write = write;
  }
  return n;
}

/** A custom detector that notes every call's signature. */
function signatureSpy(seen: string[]): Detector {
  return { name: 'spy', record: (c: ObservedCall) => void seen.push(`${c.index}:${c.signature}`), check: () => null, reset: () => undefined };
}

describe('a record larger than the input area', () => {
  it('should be written twice at most, its objects listed once more than when it fits', () => {
    // an object past the member cap (one marker in the record, but its keys listed for their count) whose
    // listings are counted, and a string that makes the record pass 256 KiB, 512 KiB, 1 MiB and 2 MiB
    const o: Record<string, number> = {};
    for (let i = 0; i < 20_000; i++) o['k' + i] = i;
    let listings = 0;
    const wide = new Proxy(o, {
      ownKeys(t) {
        listings++;
        return Reflect.ownKeys(t);
      },
    });
    const d = new LoopDetector({ engine: 'wasm' });
    try {
      d.check({ tool: 'warm', args: { q: 1 } });
      const big = 'x'.repeat(2 << 20);
      const writes = writesDuring(() => d.check({ tool: 't', args: { a: wide, b: big } }));
      const listedLarge = listings;
      // land: 5 writes (the record begun at 256 KiB, 512 KiB, 1 MiB, 2 MiB and 4 MiB)
      expect(writes).toBeLessThanOrEqual(2);
      // the same object in a call that fits the area now grown: the other walks of a call list it as often
      listings = 0;
      expect(writesDuring(() => d.check({ tool: 't', args: { a: wide } }))).toBe(1);
      expect(listedLarge - listings).toBeLessThanOrEqual(1);
    } finally {
      d.dispose();
    }
  });

  it('should give the reference walk\'s signatures and verdicts for records counted past the area\'s end', () => {
    // each call larger than the last, so that each passes the area grown for the one before; strings of
    // 1-, 2-, 3- and 4-byte UTF-8 and lone surrogates (counted as U+FFFD's 3 bytes), nested and wide objects,
    // results of objects (masked) and of text
    const o: Record<string, number> = {};
    for (let i = 0; i < 17_000; i++) o['k' + i] = i;
    const piece = (n: number, k: number): string => ['ab', 'é', '€', '😀', '\ud800x', 'x\udc00'][k % 6]!.repeat(n);
    const events: ToolEvent[] = [];
    for (let k = 0; k < 6; k++) {
      const n = (150_000 << k) / 4;
      const args = { path: `/tmp/f${k % 2}`, text: piece(n, k), nested: { list: [piece(n >> 2, k + 1), 1.5, null, true, { deep: piece(n >> 3, k + 2) }], wide: o } };
      events.push({ tool: 'Edit', args, result: k % 2 === 0 ? { out: piece(n >> 1, k + 3), code: 0 } : piece(n, k + 4) });
      events.push({ tool: 'Edit', args, error: k % 3 === 0 ? `failed: ${piece(64, k)}` : undefined });
    }
    const refSeen: string[] = [];
    const wasmSeen: string[] = [];
    const ref = new LoopDetector({ engine: 'reference', custom: [signatureSpy(refSeen)] });
    const wasm = new LoopDetector({ engine: 'wasm', custom: [signatureSpy(wasmSeen)] });
    try {
      for (const e of events) expect(JSON.stringify(wasm.check(e))).toBe(JSON.stringify(ref.check(e)));
      expect(wasmSeen).toEqual(refSeen);
      expect(wasm.stats()).toEqual(ref.stats());
    } finally {
      wasm.dispose();
    }
  });
});
