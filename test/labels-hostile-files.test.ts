/**
 * A labels file is untrusted input (a downloaded data set's `sessions.jsonl`). One loopwatch finds by itself
 * beside the traces that is a FIFO or a link to `/dev/zero` is not read: `scan`, `explain`, `eval` and
 * `calibrate` finish at once (before: each waited forever, and eval held 6.5 GB reading `/dev/zero`). eval's
 * and calibrate's whole-file read stops at MAX_LABEL_FILE_BYTES read or unpacked (before: a 5 MB gzip of
 * 5 GB held 4.3 GB), and names at most MAX_LABEL_ISSUES bad lines, counting the rest.
 */
import { execFileSync, spawn } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MAX_LABEL_ISSUES, readLabels } from '../src/eval/labels.js';
import { readLabelFileBytes } from '../src/formats/label-file-bytes.js';
import { CLI, writeJsonl } from './helpers/cli.js';
import { tempFolder } from './helpers/temp-folder.js';

/** Runs the CLI, killed after `ms`; code null when it had to be killed. */
function run(args: readonly string[], ms: number): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

/** A folder of one looping run whose `sessions.jsonl` is what `plant` puts there. */
function folder(plant: (path: string) => void): string {
  const dir = tempFolder('labels-hostile');
  writeJsonl(dir, 'run.jsonl', Array.from({ length: 8 }, (_, step) => ({ session: 's', step, tool: 'bash', args: { cmd: 'ls' } })));
  plant(join(dir, 'sessions.jsonl'));
  return dir;
}

const PLANTS: Record<string, (path: string) => void> = {
  'a FIFO': (path) => execFileSync('mkfifo', [path]),
  'a link to /dev/zero': (path) => symlinkSync('/dev/zero', path),
};

describe('a labels file beside the traces that is not a regular file', () => {
  for (const [what, plant] of Object.entries(PLANTS)) {
    it(`should not be read when it is ${what}: every command finishes`, async () => {
      const dir = folder(plant);
      const [scan, explain, evaluated, calibrated] = await Promise.all([
        run(['scan', dir, '--workers', '0', '--no-progress'], 20_000),
        run(['explain', 's', dir], 20_000),
        run(['eval', dir, '--workers', '0'], 20_000),
        run(['calibrate', dir], 20_000),
      ]);
      expect(scan.code, scan.stderr).toBe(2); // the file named as not read, the run scanned
      expect(scan.stderr).toContain('sessions.jsonl: skipped (not-a-file)');
      expect(explain.code, explain.stderr).toBe(2);
      expect(explain.stderr).toContain('sessions.jsonl: skipped (not-a-file)');
      for (const r of [evaluated, calibrated]) {
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toContain('is not a regular file');
      }
    }, 60_000);
  }
});

describe('eval and calibrate reading a labels file whole', () => {
  it('should stop at the limit read or unpacked, and say so', () => {
    const dir = tempFolder('labels-hostile');
    const plain = join(dir, 'plain.jsonl');
    const packed = join(dir, 'packed.jsonl.gz');
    const label = '{"session":"s","exit_status":"submitted"}\n';
    writeFileSync(plain, label.repeat(50_000)); // 2.1 MB
    writeFileSync(packed, gzipSync(label.repeat(50_000))); // a few KB, 2.1 MB unpacked
    expect(() => readLabelFileBytes(plain, 1 << 20)).toThrow(/over the limit/);
    expect(() => readLabelFileBytes(packed, 1 << 20)).toThrow(/unpacks to over the limit/);
    expect(readLabelFileBytes(packed, 4 << 20).length).toBe(label.length * 50_000);
  });

  it('should name the first bad lines and count the others in one issue', () => {
    const dir = tempFolder('labels-hostile');
    const file = join(dir, 'sessions.jsonl');
    writeFileSync(file, `{"session":"a","exit_status":"submitted"}\n${'x\n'.repeat(MAX_LABEL_ISSUES + 500)}`);
    const book = readLabels(file);
    expect(book.labels.size).toBe(1);
    expect(book.issues.length).toBe(MAX_LABEL_ISSUES + 1);
    expect(book.issues.at(-1)?.message).toBe('500 more lines could not be used as labels (not named)');
  });
});
