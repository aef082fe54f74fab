/**
 * A FIFO named as an input (`scan <(zcat runs.gz)`), swapped for a link to a device after the folder walk
 * looked at it (src/formats/named-fifo.ts). Before, the path was opened by its name with no look at what
 * was opened (`createReadStream(path)`): a link to `/dev/zero` renamed over it was read for ever. The swap
 * is made at the seam the opener gives between its look and its open, not raced.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { linkSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { namedFifoStream } from '../src/formats/named-fifo.js';
import { NotAFileError } from '../src/formats/regular-file.js';
import { tempFolder } from './helpers/temp-folder.js';

const LINUX = process.platform === 'linux';
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

/**
 * A FIFO with a writer of one line, and `swap`, which renames a link to /dev/zero over it. The writer opens
 * the FIFO by a second name of its own: a slow shell that opened `runs` after the swap would write into
 * /dev/zero and leave the FIFO without a writer (seen on a loaded CI machine: the read waited for ever).
 */
function fifoAndDevice(): { path: string; swap: () => void } {
  const dir = tempFolder('fifo-swap');
  const path = join(dir, 'runs');
  execFileSync('mkfifo', [path]);
  const writerEnd = join(dir, 'writer-end');
  linkSync(path, writerEnd);
  children.push(spawn('sh', ['-c', `printf 'one line\\n' > '${writerEnd}'`], { stdio: 'ignore' }));
  const link = join(dir, 'zero');
  symlinkSync('/dev/zero', link);
  return { path, swap: () => renameSync(link, path) };
}

/** All the bytes of `stream`, or its error; gives up past 1 MB (a device read for ever). */
async function readAll(stream: NodeJS.ReadableStream): Promise<string | Error> {
  const parts: Buffer[] = [];
  let n = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      parts.push(chunk);
      n += chunk.length;
      if (n > 1 << 20) return new Error('read past 1 MB');
    }
  } catch (e) {
    return e as Error;
  }
  return Buffer.concat(parts).toString('utf8');
}

describe('a FIFO named as an input, swapped for a device after it was looked at', () => {
  it.skipIf(!LINUX)('should read the FIFO looked at, through its handle (Linux)', async () => {
    const { path, swap } = fifoAndDevice();
    expect(await readAll(namedFifoStream(path, { checked: swap }))).toBe('one line\n');
  });

  it('should refuse the device where there are no handles: looked at on its descriptor, not read', async () => {
    const { path, swap } = fifoAndDevice();
    const got = await readAll(namedFifoStream(path, { checked: swap, handles: false }));
    expect(got).toBeInstanceOf(NotAFileError);
    expect((got as Error).message).toContain('a device');
  });

  it.skipIf(!LINUX)('should refuse a path that is no FIFO when looked at', async () => {
    const { path, swap } = fifoAndDevice();
    swap();
    const got = await readAll(namedFifoStream(path));
    expect(got).toBeInstanceOf(NotAFileError);
  });
});
