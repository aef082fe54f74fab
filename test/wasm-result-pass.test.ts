/**
 * The module's reading of a text result in shared passes (assembly/result-pass.ts's textResultPass: the
 * result's fingerprint and its head's key in one loop, the shell's startup lines looked for once) against the
 * same readings one after another (textResultSeparate, what processOne did before): the same fingerprint, head
 * word and key, and outcome flags for any bytes and any combination of what is asked, with "nothing found"
 * phrases and startup lines at every offset around the sixteen- and thirty-two-byte steps and the caps
 * (300 bytes looked at, 1,024 for startup lines, 64 for brief, 4,096 units for the head), non-ASCII text,
 * bytes that are not UTF-8, and whatever lies past the text. And xxh64Pair against two xxh64s.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { O_HEAD, O_HEAD_KEY_HI, O_HEAD_KEY_LO, OUT_SIZE } from '../src/wasm/generated/abi.js';
import { sharedInstance } from '../src/wasm/wasm-module.js';
import { runs } from './helpers/streams.js';

const utf8 = new TextEncoder();
/** RP_HEAD, RP_ACK, RP_PASS, RP_ANSWERS (assembly/result-pass.ts). */
const HOWS = Array.from({ length: 16 }, (_, i) => i);

interface Reading {
  flags: number;
  fp: bigint;
  head: number;
  key: [number, number];
}

/** One reading of `bytes` (followed by `after`, which no reading may depend on), by the fused pass or the separate one. */
function read(bytes: Uint8Array, how: number, fused: boolean, after: Uint8Array): Reading {
  const inst = sharedInstance();
  const at = inst.exports.reserveScratch(bytes.length + 64 + OUT_SIZE + 16);
  const { u8, u32 } = inst.views();
  u8.set(bytes, at);
  u8.set(after.subarray(0, 64), at + bytes.length);
  const out = (at + bytes.length + 64 + 15) & ~15;
  u32.fill(0xdeadbeef, out >> 2, (out + OUT_SIZE) >> 2);
  const flags = fused ? inst.exports.textResultPass(at, bytes.length, how, out) : inst.exports.textResultSeparate(at, bytes.length, how, out);
  const head = u32[(out + O_HEAD) >> 2] as number;
  const key: [number, number] = head === 0 ? [0, 0] : [u32[(out + O_HEAD_KEY_LO) >> 2] as number, u32[(out + O_HEAD_KEY_HI) >> 2] as number];
  return { flags, fp: inst.exports.resultFp(), head: (how & 1) === 0 ? -1 : head, key: (how & 1) === 0 ? [0, 0] : key };
}

/** Both readings of `bytes` under `how`, in either order (the head cache then serves the second), equal. */
function same(bytes: Uint8Array, how: number, after: Uint8Array, fusedFirst: boolean): Reading {
  const a = fusedFirst ? read(bytes, how, true, after) : read(bytes, how, false, after);
  const b = fusedFirst ? read(bytes, how, false, after) : read(bytes, how, true, after);
  expect(fusedFirst ? a : b).toEqual(fusedFirst ? b : a);
  return a;
}

const PHRASES = ['no result', 'NOT FOUND', "couldn't find", 'Found Nothing', '0 rows', 'no such', '[]', 'null', '(empty)', '""'];
const NOISE = [
  '/home/u/.bashrc: line 3: nvm: command not found\n',
  'bash: line 1: /bin/ps: Operation not permitted\n',
  'Now using node v18.17.1 (npm v9.6.7)\n',
  'Identity added: /root/.ssh/id_ed25519 (me@host)\n',
  'Could not open a connection to your authentication agent.\r\n',
];
const filler = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', 'x', 'N', 'n', 'o', '0', '9', ' ', '\n', '\t', '.', '_', '"', '[', '{', ':', '/', 'é', '€', '😀', '\u0010'), maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.integer({ min: 0, max: 400 }).map((n) => ' '.repeat(n)),
  fc.integer({ min: 0, max: 1200 }).map((n) => 'word '.repeat(n >> 2)),
);
const part = fc.oneof(filler, fc.constantFrom(...PHRASES), fc.constantFrom(...NOISE), fc.constantFrom('Tests passed', 'error: failed', 'DONE', 'status: running', '[the command completed]'));
const text = fc.array(part, { maxLength: 16 }).map((ps) => ps.join(''));
/** Bytes that need not be UTF-8: continuation bytes where a character begins, characters cut at the end. */
const rawBytes = fc.uint8Array({ maxLength: 300 });
const slack = fc.uint8Array({ minLength: 64, maxLength: 64 });

describe('a text result read in shared passes = its readings one after another', () => {
  it('should give the same fingerprint, head and flags for any text and anything asked', () => {
    fc.assert(
      fc.property(text, fc.constantFrom(...HOWS), slack, fc.boolean(), (t, how, after, first) => {
        same(utf8.encode(t), how, after, first);
      }),
      { numRuns: runs(3000) },
    );
  });

  it('should give the same for bytes that are not UTF-8', () => {
    fc.assert(
      fc.property(rawBytes, fc.constantFrom(...HOWS), slack, fc.boolean(), (b, how, after, first) => {
        same(b, how, after, first);
      }),
      { numRuns: runs(2000) },
    );
  });

  it('should agree with phrases and startup lines at every offset, around the steps and the caps', () => {
    const after = new Uint8Array(64).fill(0x20);
    let nothing = 0;
    let empty = 0;
    let headless = 0;
    for (const p of ['no result', 'NOT FOUND', '0 rows', 'null', '']) {
      for (const noise of ['', NOISE[0] as string, (NOISE[2] as string) + (NOISE[3] as string)]) {
        for (const lead of [0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 250, 280, 299, 300, 301, 1000, 1023, 1024, 1025]) {
          for (const fill of [' ', 'x', '\n']) {
            for (const tail of ['', ' ', 'é', ' and more after it']) {
              const bytes = utf8.encode(`${noise}${fill.repeat(lead)}${p}${tail}`);
              const r = same(bytes, 15, after, lead % 2 === 0);
              same(bytes, 8, after, lead % 2 === 1);
              if ((r.flags & 16) !== 0) nothing++;
              if ((r.flags & 8) !== 0) empty++;
            }
          }
        }
      }
    }
    // heads cut at 4,096 units: the whole result, one unit more, a 4-byte character across the cut
    for (const n of [4094, 4095, 4096, 4097, 5000]) {
      for (const ch of ['a', 'é', '😀']) {
        const bytes = utf8.encode(`${'b'.repeat(n - 1)}${ch}${ch}`);
        const r = same(bytes, 15, after, n % 2 === 0);
        if (r.head === 0) headless++;
        same(bytes, 5, after, n % 2 === 1);
      }
    }
    expect(nothing).toBeGreaterThan(0);
    expect(empty).toBeGreaterThan(0);
    expect(headless).toBeGreaterThan(0);
  });

  it('should hash with both seeds in one pass as xxh64 does with each', () => {
    const inst = sharedInstance();
    const check = (b: Uint8Array, a: bigint, s: bigint): void => {
      const at = inst.exports.reserveScratch(b.length + 16);
      inst.views().u8.set(b, at);
      expect(inst.exports.xxh64Pair(at, b.length, a, s)).toBe(inst.exports.xxh64(at, b.length, a));
      expect(inst.exports.xxh64PairSecond()).toBe(inst.exports.xxh64(at, b.length, s));
    };
    for (let n = 0; n <= 100; n++) check(Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 0xff), 5n, 0n);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.bigUint64Array({ minLength: 2, maxLength: 2 }), (b, [a, s]) => check(b, a as bigint, s as bigint)),
      { numRuns: runs(500) },
    );
  });
});
