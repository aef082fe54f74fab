/**
 * hostile30: a gzip stream's ratio was judged against the compressed bytes *read*, which run ahead of the
 * inflater by up to a chunk of the source (a file stream's 64 KiB, or a whole buffer): a bomb followed by
 * bytes that do not compress passed, since the bytes behind it were counted as its own. It is now judged on
 * the compressed bytes that made the output so far (formats/gunzip-members.ts: the members before, the header,
 * and what the inflater had consumed).
 */
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gunzipMembers } from '../src/formats/gunzip-members.js';
import { InflateRatioError } from '../src/formats/inflate-ratio.js';

/** The bytes gunzipped from `gz` given in one chunk (or `size` at a time), and the error that ended them. */
async function gunzipped(gz: Uint8Array, size = gz.length): Promise<{ bytes: number; error: unknown }> {
  async function* source(): AsyncGenerator<Uint8Array> {
    for (let at = 0; at < gz.length; at += size) yield gz.subarray(at, at + size);
  }
  let bytes = 0;
  try {
    for await (const c of gunzipMembers(source(), { maxRatio: 200, floorBytes: 1 << 20 })) bytes += c.length;
  } catch (error) {
    return { bytes, error };
  }
  return { bytes, error: null };
}

// 8 MiB of one byte (about 8 KB compressed), then 1 MiB that does not compress, as two members
const bomb = gzipSync(Buffer.alloc(8 << 20, 0x0a));
const noise = gzipSync(randomBytes(1 << 20));
const both = Buffer.concat([bomb, noise]);

describe('the inflate ratio judged exactly', () => {
  it('should refuse a bomb whose compressed bytes were read with what follows it', async () => {
    const r = await gunzipped(both);
    expect(r.error).toBeInstanceOf(InflateRatioError);
    const e = r.error as InflateRatioError;
    expect(e.compressed).toBeLessThanOrEqual(bomb.length);
    expect(e.inflated).toBeGreaterThan(200 * e.compressed);
    expect(r.bytes).toBeLessThan(8 << 20);
  });

  it('should judge the same whatever size the source comes in', async () => {
    for (const size of [1, 4096, 65536, 1 << 20]) {
      const r = await gunzipped(size === 1 ? both.subarray(0, 20_000) : both, size);
      expect(r.error, `chunks of ${size}`).toBeInstanceOf(InflateRatioError);
      expect((r.error as InflateRatioError).compressed).toBeLessThanOrEqual(bomb.length);
    }
  });

  it('should read through data whose ratio is under the cap, over many members', async () => {
    const part = gzipSync(Buffer.concat([randomBytes(1 << 18), Buffer.alloc(1 << 18, 0x20)]));
    const r = await gunzipped(Buffer.concat([part, part, part, part, part, part]), 65536);
    expect(r.error).toBeNull();
    expect(r.bytes).toBe(6 << 19);
  });
});
