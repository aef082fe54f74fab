/**
 * Gzip input read as zcat reads it: concatenated members one after another, zero padding ignored, junk
 * after the last member reported once *after* every line before it (zlib's own gunzip lost them all),
 * a truncated member keeping what came before the cut, whatever the chunking of the compressed bytes.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { TrailingBytesError, gunzipMembers } from '../src/formats/gunzip-members.js';
import { collect, scratchDir } from './helpers/trace-files.js';

async function* chunks(data: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

async function gunzipAll(data: Uint8Array, size: number): Promise<{ text: string; error: unknown }> {
  const out: Uint8Array[] = [];
  try {
    for await (const c of gunzipMembers(chunks(data, size))) out.push(c);
  } catch (error) {
    return { text: Buffer.concat(out).toString(), error };
  }
  return { text: Buffer.concat(out).toString(), error: null };
}

const lines = (from: number, to: number): string => Array.from({ length: to - from }, (_, i) => `{"session": "a", "tool": "t", "args": {"i": ${from + i}}}\n`).join('');

describe('gunzip member by member', () => {
  const one = gzipSync(lines(0, 50));
  const two = gzipSync(lines(50, 60));

  it('should read concatenated members and ignore zero padding, for any chunk size', async () => {
    for (const size of [1, 3, 17, 4096, 1 << 20]) {
      expect(await gunzipAll(Buffer.concat([one, two]), size)).toEqual({ text: lines(0, 60), error: null });
      expect(await gunzipAll(Buffer.concat([one, Buffer.alloc(300)]), size)).toEqual({ text: lines(0, 50), error: null });
    }
  });

  it('should give every decoded byte before reporting junk after the last member', async () => {
    for (const size of [1, 7, 4096, 1 << 20]) {
      const r = await gunzipAll(Buffer.concat([one, Buffer.from('trailing junk\n')]), size);
      expect(r.text).toBe(lines(0, 50));
      expect(r.error).toBeInstanceOf(TrailingBytesError);
      expect((r.error as TrailingBytesError).bytes).toBe(14);
    }
  });

  it('should keep what came before a cut or a corrupt trailer', async () => {
    const big = gzipSync(lines(0, 5000));
    const cut = await gunzipAll(big.subarray(0, big.length - 40), 1 << 20);
    expect(String(cut.error)).toContain('unexpected end of file');
    expect(cut.text.length).toBeGreaterThan(lines(0, 4900).length);
    expect(lines(0, 5000).startsWith(cut.text)).toBe(true);
    const bad = Buffer.from(one);
    bad[bad.length - 1] = (bad[bad.length - 1] as number) ^ 0xff; // ISIZE
    const r = await gunzipAll(bad, 64);
    expect(r.text).toBe(lines(0, 50));
    expect(String(r.error)).toContain('incorrect length check');
  });

  it('should scan every line of a .gz with junk after it, and name the junk once', async () => {
    const { write } = scratchDir('gzip-junk');
    const path = write('runs.jsonl.gz', Buffer.concat([one, Buffer.from('junk')]));
    const items = await collect([path]);
    expect(items.filter((i) => i.kind === 'call')).toHaveLength(50);
    expect(items.filter((i) => i.kind === 'issue')).toEqual([{ kind: 'issue', code: 'read-error', file: path, line: 0, message: '4 bytes after the end of the gzip data are not gzip; ignored (every line before them was read)' }]);
  });
});
