/**
 * A file that grows while `scan` reads it (a writer appending faster than the reader reads: a live log, or a
 * hostile folder's file extended on purpose) is read up to the size it had when opened (hostile9). Before,
 * the reader followed it to its end, which never came: `scan` of the folder never finished. Here the file is
 * extended by a sparse 64 MiB every 5 ms (no disk used) while `scan` runs in a child with a deadline.
 */
import { spawn } from 'node:child_process';
import { closeSync, fstatSync, ftruncateSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, writeJsonl } from './helpers/cli.js';
import { tempFolder } from './helpers/temp-folder.js';

describe('a file that grows while it is read', () => {
  it('should be read up to its size when opened, so scan finishes', async () => {
    const dir = tempFolder('growing-file');
    writeJsonl(dir, 'live.jsonl', Array.from({ length: 8 }, (_, step) => ({ session: 's', step, tool: 'bash', args: { cmd: 'ls' } })));
    const fd = openSync(join(dir, 'live.jsonl'), 'r+');
    const grow = setInterval(() => ftruncateSync(fd, fstatSync(fd).size + (64 << 20)), 5);
    try {
      const child = spawn(process.execPath, [CLI, 'scan', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
      child.stderr.resume();
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      clearTimeout(timer);
      expect(code).not.toBeNull(); // finished, not killed at the deadline
      expect(stdout).toMatch(/1 session, 8 calls/);
      expect(fstatSync(fd).size).toBeGreaterThan(1 << 30); // the file did grow past what a reader gets through
    } finally {
      clearInterval(grow);
      ftruncateSync(fd, 0);
      closeSync(fd);
    }
  }, 60_000);
});
