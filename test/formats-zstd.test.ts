/**
 * Zstandard entries of Inspect AI `.eval` archives (method 93, Inspect's default since 2026) read on every
 * Node.js: fixtures made with the zstd CLI 1.5.4 and kept here as base64 (the test needs no CLI), a real
 * `.eval` layout read end to end through `loopwatch scan`, and hostile frames (a bomb, content sizes that
 * lie, a window over the cap, a dictionary, a skippable frame, truncation, a bad checksum, corrupt blocks):
 * each a clear issue naming the archive and the entry, the rest still read, never an uncaught exception.
 */
import * as zlib from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ZstdDataError, zstdFrames } from '../src/formats/zstd-frames.js';
import { ZSTD_DECODER, inflateZstd } from '../src/formats/zstd-inflate.js';
import { loopwatch } from './helpers/cli.js';
import { collect, scratchDir } from './helpers/trace-files.js';
import { type ZipSpec, buildZip } from './helpers/zip-builder.js';

const { write } = scratchDir('formats-zstd');
const b64 = (s: string) => Buffer.from(s, 'base64');

/** `zstd -19 sample.json`: one frame with its content size (806 bytes), single segment, a checksum. */
const Z1 = b64('KLUv/WQmAj0FAILLIBhwbRt4/64idGODkXRFAgiCIF6VjwAAPAHTxCjt1qPBGNTyz723xyfbvNhhTNOZPZ846lKeu60DLU+PZ1iR55tbrRqkHK+MqTqYc318sLTVOEd00+bFrDg9WJQpwDINJG0Nz3fbbk4d/5ah55e5d6nI8y7KvM5RyDPKPXu8ED2frEsBCwBlEAeFmlUMMA5TZIcFRxQNXA5YBnOrDCub6hzjCmUGLe39mA==');
/** `... | zstd -c` (a stream): no content size, a 2 MiB window, a checksum; sample z2, epoch 2. */
const Z2 = b64('KLUv/QRYXQUAssshHICnaQPAMpJIUMTGo+6WTSL+2HYEL65fVBoDKxUpHeW673XIRGo/ew6+TijaYiB3+5DSOW8nkPLEzq2IIOPc6wcfwe26poui4vXLvDKQu/16wVBTsBvQes2G+Sq9YFwWBDyaQKgBuL0VW7e8fpDR7Zh7ngjYGY1jRuRlsB9lDfB1w8HthHkSCwB3hDgDNKtgESZgtm2KgmHB8+WwMti1yjCwqc4xrlBmplxPNw==');
/** `zstd --no-check header.json`. */
const HEADER = b64('KLUv/SB/JQMAQkcWGYA5LQb8Yr1MbMnbVMRGgmQC8EeEJ7YwM0ZrqVsXV3WRoplsS90JEbKtCYBFDoGDKZHjG2VxILYTA+O7OAXbsObbUNzVjXDJbdU0RtFvVRZXN8GdjqNJLqsCAAUGFlwTCg==');
/**
 * Z2 with four bytes changed (found by the mutated-frames property below, fast-check seed 95): its block's
 * Huffman weights are FSE-compressed under a table whose states read no bits, so fzstd 0.1.1 (the decoder
 * below Node.js 22.15) decoded them forever and `loopwatch scan` of a 186-byte entry never returned.
 */
const SPIN = b64('KLUv/QRYXQUAssshHPGnaX/AMpL9UMTGo+6WTSL+2HYEL65fVBoDKxUpHeW673XIRGo/ew6+TijaYiB3+5DSOW8nkPLEzq2IIOPc6wcfcu26poui4vXLvDKQu/16wVBTsBvQes2G+Sq9YFwWBDyaQKgBuL0VW7e8fpDR7Zh7ngjYGY1jRuRlsB9lDfB1w8HthHkSCwB3hDgDNKtgESZgtm2KgmHB8+WwMti1yjCwqc4xrlBmplxPNw==');
/** `head -c 200000 /dev/zero | zstd -c`: 200,000 zeros in 27 bytes. */
const ZEROS = b64('KLUv/QRYVAAAEAAAAQD7/znAAgNqCADE6XRw');

const spec = { task: 'ctf', task_id: 'k3x', model: 'openai/gpt-5' };
const turn = (result: string) => [
  { role: 'assistant', content: 'Looking.', tool_calls: [{ id: 'a', function: 'bash', arguments: { cmd: 'ls' } }] },
  { role: 'tool', tool_call_id: 'a', content: result, error: null },
];
/** A sample that calls `ls` four times, the same result each time: a loop. */
const sample = (id: string, epoch: number, result: string) => JSON.stringify({
  id,
  epoch,
  messages: [{ role: 'user', content: 'Find the flag.' }, ...turn(result), ...turn(result), ...turn(result), ...turn(result)],
  attachments: {},
});
const headerJson = JSON.stringify({ version: 2, status: 'success', eval: spec, plan: {}, results: {}, stats: {} });
const z1 = sample('z1', 1, 'listed');
const z2 = sample('z2', 2, 'found');

/** `b` with `edit` applied to a copy. */
const edited = (b: Buffer, edit: (c: Buffer) => void): Buffer => {
  const c = Buffer.from(b);
  edit(c);
  return c;
};
/** A zstd entry whose data is `body`, said to inflate to `data`. */
const zst = (name: string, data: string | Buffer, body: Buffer, extra: Partial<ZipSpec> = {}): ZipSpec => ({ name, data, body, method: 93, ...extra });
const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ZstdDataError);
    return (e as ZstdDataError).over ? 'over' : (e as Error).message;
  }
  return 'read';
};

describe('Zstandard data', () => {
  it('should inflate the CLI\'s frames (content size or none, one frame or two) with either decoder', () => {
    expect(ZSTD_DECODER).toBe(typeof (zlib as unknown as { zstdDecompressSync?: unknown }).zstdDecompressSync === 'function' ? 'node:zlib' : 'fzstd');
    expect(inflateZstd(Z1, z1.length).toString()).toBe(z1);
    expect(inflateZstd(Z2, z2.length).toString()).toBe(z2);
    expect(inflateZstd(HEADER, 1000).toString()).toBe(headerJson);
    expect(inflateZstd(Buffer.concat([Z1, Z2]), z1.length + z2.length).toString()).toBe(z1 + z2);
    expect(inflateZstd(ZEROS, 200_000).equals(Buffer.alloc(200_000))).toBe(true);
  });

  it('should refuse hostile frames before or while decoding, bounded by the output allowed', () => {
    expect(refusal(() => inflateZstd(ZEROS, 1000))).toBe('over');
    expect(refusal(() => inflateZstd(Z1, z1.length - 1))).toBe('over');
    expect(refusal(() => inflateZstd(Buffer.concat([Z1, Z2]), z1.length + 10))).toBe('over');
    expect(refusal(() => inflateZstd(edited(Z2, (c) => { c[5] = 0xf8; }), 1000))).toBe('has a window of 2199023255552 bytes, over the limit of 134217728');
    expect(refusal(() => inflateZstd(Buffer.concat([Z2.subarray(0, 4), Buffer.from([0x05, 0x58, 0x07]), Z2.subarray(6)]), 1000))).toBe('needs dictionary 7, which is not read (Inspect writes none)');
    expect(refusal(() => inflateZstd(Buffer.concat([Buffer.from('502a4d1800000000', 'hex'), Z2]), 1000))).toBe('holds a skippable frame (metadata, not data), which is not read');
    expect(refusal(() => inflateZstd(Z2.subarray(0, Z2.length - 10), 1000))).toBe('is truncated (its block runs past the end of the data)');
    expect(refusal(() => inflateZstd(Buffer.concat([Z2, Buffer.from('junkjunk')]), 1000))).toBe('is not a Zstandard frame (magic number 0x6b6e756a)');
    expect(refusal(() => inflateZstd(Buffer.alloc(0), 1000))).toBe('is empty (no Zstandard frame)');
    expect(refusal(() => inflateZstd(edited(Z2, (c) => { c[6] = c[6]! | 0x06; }), 1000))).toBe('has a block of the reserved type (corrupt data)');
    expect(refusal(() => inflateZstd(edited(Z1, (c) => { c[5] = 0x0f; }), 1000))).toMatch(ZSTD_DECODER === 'fzstd' ? /^has a frame that says it holds 783 bytes but inflates to 806 \(corrupt data\)$/ : /^is corrupt \(.*\)$/);
    /** A frame under a 128 MiB window of `n` raw blocks of one byte each. */
    const tiny = (n: number) => Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x88]), ...Array.from({ length: n }, (_, i) => Buffer.from([i === n - 1 ? 0x09 : 0x08, 0, 0, 0x61]))]);
    expect(refusal(() => inflateZstd(tiny(8200), 1 << 20))).toBe(ZSTD_DECODER === 'fzstd' ? 'has 8200 blocks under a window of 1048576 bytes, more than fzstd (the JavaScript decoder used below Node.js 22.15) is given: fzstd copies its window at every block (Node.js 22.15 or later reads it)' : 'read');
    expect(inflateZstd(tiny(100), 1 << 20).toString()).toBe(''.padEnd(100, 'a'));
    // Huffman weights that never end are refused by the frame walk, before any decoder runs (never decoded here)
    const spinning = 'has a compressed block whose Huffman weights do not decode (corrupt data)';
    expect(refusal(() => zstdFrames(SPIN, 10))).toBe(spinning);
    expect(refusal(() => zstdFrames(SPIN, 1000))).toBe(spinning);
    // the fixtures' own trees pass the walk (Z1, Z2 and HEADER each carry FSE-compressed weights)
    expect(zstdFrames(Buffer.concat([Z1, Z2, HEADER]), 10_000)).toHaveLength(3);
    // a frame's content checksum (XXH64) is checked on either decoder (hostile7: fzstd's path passed it)
    const badSum = 'has a frame whose content checksum (XXH64) does not match what it inflates to (corrupt data)';
    expect(refusal(() => inflateZstd(edited(Z2, (c) => { c[c.length - 1] = c[c.length - 1]! ^ 1; }), 1000))).toBe(badSum);
    expect(refusal(() => inflateZstd(edited(Z1, (c) => { c[c.length - 4] = c[c.length - 4]! ^ 0x80; }), 1000))).toBe(badSum);
    // the second frame's checksum, the first frame good
    expect(refusal(() => inflateZstd(Buffer.concat([Z1, edited(Z2, (c) => { c[c.length - 2] = c[c.length - 2]! ^ 1; })]), z1.length + z2.length))).toBe(badSum);
    // without the checksum flag nothing is checked (HEADER is --no-check)
    expect(inflateZstd(HEADER, 1000).toString()).toBe(headerJson);
  });

  it('should never throw anything but a refusal, nor return more than allowed, on mutated frames', () => {
    fc.assert(fc.property(fc.constantFrom(Z1, Z2, ZEROS, HEADER), fc.array(fc.tuple(fc.nat(), fc.nat(255)), { minLength: 1, maxLength: 4 }), fc.nat(4000), (base, edits, max) => {
      const c = edited(base, (b) => { for (const [at, v] of edits) b[at % b.length] = v; });
      try {
        expect(inflateZstd(c, max).length).toBeLessThanOrEqual(max);
      } catch (e) {
        expect(e).toBeInstanceOf(ZstdDataError);
      }
    }), { numRuns: 3000 });
  });
});

describe('Inspect AI .eval archives with Zstandard entries', () => {
  it('should be read end to end by loopwatch scan, a hostile entry one issue naming the archive and the entry, exit non-zero', () => {
    const file = write('logs/2026-12-05T10-00-00_ctf_k3x.eval', buildZip([
      zst('_journal/start.json', JSON.stringify({ version: 2, eval: spec, plan: {} }), Buffer.from('not zstd')),
      zst('samples/z1_epoch_1.json', z1, Z1),
      zst('samples/z2_epoch_2.json', z2, Z2),
      zst('samples/bomb_epoch_1.json', Buffer.alloc(200_000), ZEROS, { size: 1000 }),
      // in a child with a deadline (test/helpers/cli.ts): before the fix fzstd never returned here
      zst('samples/spin_epoch_1.json', z2, SPIN),
      { name: 'samples/d1_epoch_1.json', data: sample('d1', 1, 'deflated') },
      zst('header.json', headerJson, HEADER),
    ]));
    const r = loopwatch(['scan', file, '--jsonl', '--workers', '0', '--no-progress']);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect([...new Set(lines.map((l) => l.session))].sort()).toEqual(['ctf/d1#1', 'ctf/z1#1', 'ctf/z2#2']);
    expect(r.stderr).toContain('entry "samples/bomb_epoch_1.json": inflates past the 1000 bytes its directory entry says (a zip bomb?); entry skipped');
    expect(r.stderr).toContain('entry "samples/spin_epoch_1.json": its Zstandard (method 93) data has a compressed block whose Huffman weights do not decode (corrupt data); entry skipped');
    expect(r.code).not.toBe(0);
  });

  it('should refuse each hostile entry with its own issue and read the rest', async () => {
    const file = write('hostile-zstd.eval', buildZip([
      zst('header.json', headerJson, HEADER),
      zst('samples/window_epoch_1.json', z2, edited(Z2, (c) => { c[5] = 0xf8; })),
      zst('samples/liar_epoch_1.json', z1, edited(Z1, (c) => { c[6] = 0xff; })),
      zst('samples/cut_epoch_1.json', z2, Z2.subarray(0, 40)),
      // the content is whole (the CRC-32 matches), its frame's checksum is not
      zst('samples/sum_epoch_1.json', z2, edited(Z2, (c) => { c[c.length - 1] = c[c.length - 1]! ^ 1; })),
      zst('samples/ok_epoch_1.json', z1, Z1),
    ]));
    const items = await collect([file]);
    expect(new Set(items.filter((i) => i.kind === 'call').map((i) => i.kind === 'call' && i.session))).toEqual(new Set(['ctf/z1#1']));
    const at = (name: string, why: string) => ['read-error', file, `entry "samples/${name}_epoch_1.json": ${why}; entry skipped`];
    expect(items.filter((i) => i.kind === 'issue').map((i) => i.kind === 'issue' && [i.code, i.file, i.message])).toEqual([
      at('window', 'its Zstandard (method 93) data has a window of 2199023255552 bytes, over the limit of 134217728'),
      at('liar', 'inflates past the 806 bytes its directory entry says (a zip bomb?)'),
      at('cut', 'its Zstandard (method 93) data is truncated (its block runs past the end of the data)'),
      at('sum', 'its Zstandard (method 93) data has a frame whose content checksum (XXH64) does not match what it inflates to (corrupt data)'),
    ]);
  });
});
