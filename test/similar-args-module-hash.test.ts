/**
 * Similar args hashes a long string's start, middle and end in the module (assembly/unit-hash.ts, eight
 * units a step) when every unit is below 128: the hashes are text/unit-hash.ts's to the bit at every
 * length around the eight-unit steps, and a long string's summary is the same bytes with the module's
 * hashing on or off, for strings of plain text, of any byte below 128, and with units the module does not
 * take (which the host hashes as before). Hashing never grows the module's memory (it runs while a batch's
 * outputs are read, through views growth would detach): a string the area made with the instance cannot
 * hold is left to the host, and the verdicts of a batch with such strings are the reference engine's.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { STRING_KEPT, setModuleHashing, summarizeArgs } from '../src/text/args-summary.js';
import { BASE_1, BASE_2, stringHash } from '../src/text/unit-hash.js';
import { moduleHashes, moduleStringHashes } from '../src/wasm/module-unit-hash.js';
import { HOST_BYTES_AREA, sharedInstance } from '../src/wasm/wasm-module.js';
import { LoopDetector } from '../src/index.js';

const runs = Number(process.env.LOOPWATCH_FC_SCALE ?? 1) * 200;

/** The summary of `args` with the module's hashing on or off, copied out. */
function summary(args: unknown, inModule: boolean): Uint8Array {
  setModuleHashing(inModule);
  try {
    return summarizeArgs(args).slice();
  } finally {
    setModuleHashing(true);
  }
}

afterEach(() => setModuleHashing(true));

describe('similar args: long strings hashed in the module', () => {
  it('should give the hashes of unit-hash.ts for every head, middle and tail length around the eight-unit steps', () => {
    let x = 7;
    const unit = (): number => {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      return (x >>> 9) % 128;
    };
    for (const k of [0, 1, 7, 8, 9, 15, 16, 17, 31, 33, STRING_KEPT]) {
      for (let middle = 0; middle <= 40; middle++) {
        const n = 2 * k + middle;
        const s = String.fromCharCode(...Array.from({ length: n }, unit));
        expect(moduleStringHashes(s, k)).toBe(true);
        const h = [...moduleHashes.hashes];
        const want = [[0, k], [k, n - k], [n - k, n]].flatMap(([from, to]) => [stringHash(s, from as number, to as number, BASE_1), stringHash(s, from as number, to as number, BASE_2)]);
        expect(h, `k ${k}, middle ${middle}`).toEqual(want);
      }
    }
  });

  it('should leave strings with a unit of 128 or more to the host', () => {
    const plain = 'a'.repeat(2000);
    expect(moduleStringHashes(`${plain}é`, STRING_KEPT)).toBe(false);
    expect(moduleStringHashes(`${plain}\u{1f600}${plain}`, STRING_KEPT)).toBe(false);
    expect(moduleStringHashes(`${plain}\ud800${plain}`, STRING_KEPT)).toBe(false);
    expect(moduleStringHashes(plain, STRING_KEPT)).toBe(true);
  });

  it('should make the same summaries of long strings with the module hashing them or not', () => {
    const words = ['the', 'file', 'src/index.ts', ' ', '\n', 'def', 'foo_bar', '12345', '{"a": 1}', '  ', '-', 'é', '\u{1f600}', '\ud800'];
    const text = fc
      .array(fc.oneof(fc.constantFrom(...words), fc.string({ unit: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)) })), { minLength: 100, maxLength: 900 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 3 }), fc.boolean(), (strings, asciiOnly) => {
        const args = { path: 'a.py', content: asciiOnly ? strings.map((s) => s.replace(/[^\x00-\x7f]/g, '?')) : strings };
        expect(Buffer.from(summary(args, true)).equals(Buffer.from(summary(args, false)))).toBe(true);
      }),
      { numRuns: runs },
    );
  });

  it('should never grow the module memory, leaving strings the area cannot hold to the host', () => {
    const inst = sharedInstance();
    const before = inst.views().u8.buffer;
    for (const n of [600, 4000, HOST_BYTES_AREA - 64, HOST_BYTES_AREA, 100_000, 300_000]) {
      const s = 'word '.repeat(Math.ceil(n / 5)).slice(0, n);
      expect(moduleStringHashes(s, STRING_KEPT), `${n} units`).toBe(n + 32 <= HOST_BYTES_AREA);
      expect(inst.views().u8.buffer, `${n} units`).toBe(before);
    }
  });

  it('should give a batch with strings of every size the reference engine\'s verdicts', () => {
    const calls = Array.from({ length: 24 }, (_, i) => ({
      tool: 'write',
      args: { path: `a${i % 3}.txt`, content: `${'line of text '.repeat(2000 * (1 + (i % 4)) ** 2)}${i % 2}` },
      result: i % 3 === 0 ? 'ok' : 'no such file',
      error: i % 3 === 0 ? undefined : 'write failed: no such file',
    }));
    const wasm = new LoopDetector({ sessionId: 's', engine: 'wasm' });
    const ref = new LoopDetector({ sessionId: 's', engine: 'reference' });
    const got = wasm.checkMany(calls);
    const want = calls.map((c) => ref.check(c));
    expect(got).toEqual(want);
  });
});
