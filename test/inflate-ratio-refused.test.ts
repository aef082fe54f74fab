/**
 * hostile28: a decompression bomb cost time in proportion to its output (memory was bounded): a 3.6 MB
 * gzip of 1 GiB of lines was read through (40-47 s). Every decompressing reader now applies the one rule of
 * formats/inflate-ratio.ts: past 64 MiB inflated, more than 200 inflated bytes per compressed byte read is
 * refused with the figures, the file named, the rest of the scan read, exit 2.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gunzipMembers } from '../src/formats/gunzip-members.js';
import { INFLATE_RATIO_FLOOR_BYTES, InflateRatioError, MAX_INFLATE_RATIO, MAX_INFLATE_RATIO_ENV, inflateRatioCap } from '../src/formats/inflate-ratio.js';
import { readLabelFileBytes } from '../src/formats/label-file-bytes.js';
import { CLI, tempDir } from './helpers/cli.js';

/** `bytes` given a chunk of at most 64 KiB at a time, as a file stream would. */
async function* chunks(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += 65536) yield bytes.subarray(at, at + 65536);
}

/** The bytes gunzipped from `gz` under `limits`, and the error that ended them (null: none). */
async function gunzipped(gz: Uint8Array, limits: { maxRatio?: number; floorBytes?: number }): Promise<{ bytes: number; error: unknown }> {
  let bytes = 0;
  try {
    for await (const c of gunzipMembers(chunks(gz), limits)) bytes += c.length;
  } catch (error) {
    return { bytes, error };
  }
  return { bytes, error: null };
}

const call = `${JSON.stringify({ session: 's', tool: 'Bash', args: { command: 'ls' } })}\n`;
/** Lines that compress as real traces do (a counter and a hash in each: about 5x). */
const plain = Array.from({ length: 40000 }, (_, i) => JSON.stringify({ session: `s${i % 7}`, tool: 'Read', args: { path: `/src/f${(i * 2654435761) % 99991}.ts`, n: i } })).join('\n');

describe('a decompression bomb', () => {
  it('should refuse gzip data past the ratio, with the figures, after the bytes before it', async () => {
    const gz = gzipSync(Buffer.alloc(4 << 20, 0x0a));
    const r = await gunzipped(gz, { floorBytes: 1 << 20 });
    expect(r.error).toBeInstanceOf(InflateRatioError);
    const e = r.error as InflateRatioError;
    expect(e.inflated).toBeGreaterThan(MAX_INFLATE_RATIO * e.compressed);
    expect(e.message).toContain(`inflates ${e.compressed} bytes to ${e.inflated} (so far), a ratio over 200:1`);
    expect(e.message).toContain(`${MAX_INFLATE_RATIO_ENV}=0`);
    expect(r.bytes).toBeGreaterThanOrEqual(1 << 20);
    expect(r.bytes).toBeLessThan(4 << 20);
  });

  it('should judge concatenated members together', async () => {
    const member = gzipSync(Buffer.alloc(1 << 20, 0x0a));
    const r = await gunzipped(Buffer.concat([member, member, member]), { floorBytes: (2 << 20) + 1 });
    expect(r.error).toBeInstanceOf(InflateRatioError);
  });

  it('should read data of a real ratio through, and a bomb with no cap', async () => {
    const real = gzipSync(plain);
    expect((await gunzipped(real, { floorBytes: 1024 })).error).toBeNull();
    const bomb = gzipSync(Buffer.alloc(4 << 20, 0x0a));
    expect(await gunzipped(bomb, { floorBytes: 1 << 20, maxRatio: Infinity })).toEqual({ bytes: 4 << 20, error: null });
  });

  it('should take the ratio from the environment, 0 for none', () => {
    expect(inflateRatioCap({ [MAX_INFLATE_RATIO_ENV]: '50' })).toBe(50);
    expect(inflateRatioCap({ [MAX_INFLATE_RATIO_ENV]: '0' })).toBe(Infinity);
    expect(inflateRatioCap({ [MAX_INFLATE_RATIO_ENV]: 'x' })).toBe(MAX_INFLATE_RATIO);
    expect(inflateRatioCap({})).toBe(MAX_INFLATE_RATIO);
  });

  it('should refuse a gzip labels file past the ratio', () => {
    const dir = tempDir();
    const path = join(dir, 'labels.jsonl.gz');
    writeFileSync(path, gzipSync(Buffer.alloc(INFLATE_RATIO_FLOOR_BYTES + (1 << 20), 0x0a)));
    expect(() => readLabelFileBytes(path)).toThrow(InflateRatioError);
  });

  it('should name the file through the CLI, read the rest, and exit 2', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'in'));
    const bomb = Buffer.concat([Buffer.from(call), Buffer.alloc(INFLATE_RATIO_FLOOR_BYTES + (8 << 20), 0x0a)]);
    writeFileSync(join(dir, 'in', 'a-bomb.jsonl.gz'), gzipSync(bomb, { level: 9 }));
    writeFileSync(join(dir, 'in', 'b-plain.jsonl'), call.replace('"s"', '"t"'));
    const r = spawnSync(process.execPath, [CLI, 'scan', join(dir, 'in'), '--no-progress', '--workers', '0'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/a-bomb\.jsonl\.gz:\d+: skipped \(read-error\): input could not be read past this line: inflates \d+ bytes to \d+ \(so far\), a ratio over 200:1/);
    expect(r.stdout).toContain('loopwatch scan: 2 sessions, 2 calls');
  });
});
