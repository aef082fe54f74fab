/**
 * An input compressed in a way loopwatch does not read (Zstandard `.zst`, xz `.xz`), given by its path or
 * met in a folder, is one issue naming the file, the compression and how to decompress it, and the exit code
 * says data was skipped; before, a `.jsonl.zst` given by path was read as lines that are not UTF-8 (an
 * issue per line, none saying why) and one in a folder was passed over without a word.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-compressed-input');

/** `text` (under 256 bytes) as one Zstandard frame of one raw block, as `zstd --no-compress-literals` may store short input. */
function zstdFrame(text: string): Buffer {
  const body = Buffer.from(text);
  const block = (body.length << 3) | 1; // last block, raw, its size
  return Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x20, body.length, block & 0xff, (block >> 8) & 0xff, (block >> 16) & 0xff]), body]);
}

const line = JSON.stringify({ session: 'run-1', step: 0, tool: 'bash', args: { command: 'make' }, result: 'ok' });

describe('inputs compressed in a way loopwatch does not read', () => {
  it('should skip a Zstandard file with one issue saying so, not an issue per line', async () => {
    const file = write('runs/run-1.jsonl.zst', zstdFrame(`${line}\n${line}\n`));
    expect(await collect([file])).toEqual([
      { kind: 'issue', code: 'read-error', file, line: 0, message: 'Zstandard-compressed, which loopwatch does not read (gzip it is): decompress it first (zstd -dc FILE | loopwatch scan -); input skipped' },
    ]);
  });

  it('should skip an xz file with one issue saying so', async () => {
    const file = write('runs/run-2.jsonl.xz', Buffer.concat([Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0x00, 0x04]), Buffer.alloc(64, 0x91)]));
    const items = await collect([file]);
    expect(items.map((i) => i.kind === 'issue' && [i.code, i.file, i.message])).toEqual([['read-error', file, 'xz-compressed, which loopwatch does not read (gzip it is): decompress it first (xz -dc FILE | loopwatch scan -); input skipped']]);
  });

  it('should name a .jsonl.zst met in a folder walk, beside a .jsonl.gz that is read', async () => {
    const zst = write('folder/a.jsonl.zst', zstdFrame(`${line}\n`));
    const gz = write('folder/b.jsonl.gz', gzipSync(`${line}\n`));
    const items = await collect([`${dir}/folder`]);
    expect(items.map((i) => [i.kind, i.file])).toEqual([
      ['issue', zst],
      ['call', gz],
    ]);
  });
});
