/**
 * A transcript swapped for a FIFO between the look at it and its opening (src/hooks/transcript-open.ts).
 * Before, the path was looked at (stat), then opened by its name: a FIFO renamed over it in between was
 * opened (without blocking, then refused on the descriptor), which lets a writer blocked in open() go on:
 * it learns when a hook runs. On Linux the file looked at is now opened through its O_PATH handle, so the
 * FIFO is never opened and the file looked at is the one read. The swap is made at the seam the opener
 * gives between its look and its open, not raced.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, readFileSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openTranscript } from '../src/hooks/transcript-open.js';
import { tempFolder } from './helpers/temp-folder.js';

const LINUX = process.platform === 'linux';
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A transcript, and a FIFO whose writer is blocked in open() (a child's shell); `swap` renames the FIFO over the transcript. */
async function transcriptAndFifo(): Promise<{ path: string; swap: () => void; writer: ChildProcess }> {
  const dir = tempFolder('transcript-swap');
  const path = join(dir, 's.jsonl');
  writeFileSync(path, '{"type":"user"}\n');
  const fifo = join(dir, 'fifo');
  execFileSync('mkfifo', [fifo]);
  const writer = spawn('sh', ['-c', `echo hello > '${fifo}'`], { stdio: 'ignore' });
  children.push(writer);
  await inOpen(writer); // the writer is in open(), waiting for a reader
  expect(writer.exitCode).toBeNull();
  return { path, swap: () => renameSync(fifo, path), writer };
}

/**
 * Waits until `writer` is blocked in the FIFO's open() (Linux: its wchan says so; up to 20 s on a loaded
 * machine), else 200 ms where there is no /proc: a shell not yet in open() when the FIFO was opened and shut
 * would block after it, and read as a writer that never went on.
 */
async function inOpen(writer: ChildProcess): Promise<void> {
  const wchan = `/proc/${writer.pid}/wchan`;
  if (!existsSync(wchan)) return sleep(200);
  for (let i = 0; i < 400 && writer.exitCode === null; i++) {
    if (readFileSync(wchan, 'utf8').includes('partner')) return;
    await sleep(50);
  }
}

/** Whether `writer` got past its open() within 1 s (its FIFO was opened for reading). */
async function wentOn(writer: ChildProcess): Promise<boolean> {
  for (let i = 0; i < 20 && writer.exitCode === null && writer.signalCode === null; i++) await sleep(50);
  return writer.exitCode !== null || writer.signalCode !== null;
}

describe('a transcript swapped for a FIFO after it was looked at', () => {
  it.skipIf(!LINUX)('should open nothing but the file looked at, through its handle (Linux)', async () => {
    const { path, swap, writer } = await transcriptAndFifo();
    const fd = openTranscript(path, 'agent', { checked: swap });
    expect(fd).not.toBeNull();
    const buf = Buffer.alloc(64);
    const n = readSync(fd as number, buf, 0, 64, 0);
    closeSync(fd as number);
    expect(buf.toString('utf8', 0, n)).toBe('{"type":"user"}\n'); // the file looked at, unlinked meanwhile
    expect(await wentOn(writer)).toBe(false); // the FIFO now at the path was never opened
  });

  it.skipIf(!LINUX)('should open no FIFO for a served payload either (the file looked at, left without a name, is not read)', async () => {
    const { path, swap, writer } = await transcriptAndFifo();
    expect(openTranscript(path, 'served', { checked: swap })).toBeNull(); // a served file must have exactly one name
    expect(await wentOn(writer)).toBe(false);
  });

  it('should read nothing from the FIFO where there are no handles (macOS): opened without blocking, refused on its descriptor', async () => {
    const { path, swap, writer } = await transcriptAndFifo();
    expect(openTranscript(path, 'agent', { checked: swap, handles: false })).toBeNull();
    expect(await wentOn(writer)).toBe(true); // what the handle prevents: the writer learns the hook ran
  });
});
