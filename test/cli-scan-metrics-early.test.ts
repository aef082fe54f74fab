/**
 * `scan --metrics FILE` is opened before any input is read, as `--output` and `--html` are: a path that
 * cannot be written (a folder, a missing folder, a dangling link, a FIFO without a reader, a file of another
 * user in a folder others can write) is a usage error naming the flag, the path and why, exit 2, while the
 * scan's standard input is still open and unread. Before, the metrics file was opened once the whole scan
 * was done, so the failure was one line at the end (after hours of a large scan) and the exit was the scan's.
 *
 * Opened early, the file is emptied only when the figures are written: a scan killed before its end keeps an
 * existing file's bytes (a CI dashboard goes on reading the last good figures). A scan that fails (its report
 * could not be written) keeps it too: test/cli-scan-output-write-failure.test.ts. Through the real CLI.
 */
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI } from './helpers/cli.js';
import { tempFolder } from './helpers/temp-folder.js';

const OTHER = 12345;
const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const CALL = `${JSON.stringify({ session: 's', tool: 'Bash', args: { command: 'make' }, error: 'Exit code 2' })}\n`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `loopwatch scan - ...args` with its standard input left open (one call written, never ended): a scan that
 * reads its input waits for ever. `act` runs once the child is started, and may signal it; the child is
 * killed at `deadlineMs`.
 */
function scanOpenStdin(args: readonly string[], deadlineMs: number, act?: (child: ReturnType<typeof spawn>, stderr: () => string) => void): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'scan', '-', '--no-progress', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.on('error', () => undefined);
    child.stdin.write(CALL);
    const timer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    act?.(child, () => stderr);
  });
}

/** A folder any user may write in, sticky as `/tmp` is. */
function sharedFolder(): string {
  const dir = join(tempFolder('scan-metrics-early'), 'shared');
  mkdirSync(dir);
  chmodSync(dir, 0o1777);
  return dir;
}

describe('scan --metrics is opened before any input is read', () => {
  const dir = tempFolder('scan-metrics-early');

  const refusals: [string, () => string, string][] = [
    ['a folder', () => (mkdirSync(join(dir, 'folder.prom')), join(dir, 'folder.prom')), 'it is a folder'],
    ['a path whose folder is missing', () => join(dir, 'missing', 'm.prom'), 'no such file or folder'],
    ['a dangling link', () => (symlinkSync(join(dir, 'nowhere', 'm.prom'), join(dir, 'dangling.prom')), join(dir, 'dangling.prom')), 'no such file or folder'],
    ['a FIFO without a reader in a folder others can write', () => {
      const fifo = join(sharedFolder(), 'm.prom');
      execFileSync('mkfifo', [fifo]);
      return fifo;
    }, 'nothing reads it (a FIFO without a reader, or a device that is not there)'],
  ];
  for (const [what, make, why] of refusals) {
    it(`should refuse ${what} at once, exit 2, the input unread`, async () => {
      const path = make();
      const r = await scanOpenStdin(['--metrics', path], 30_000);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`loopwatch scan: --metrics ${path}: cannot write the file (${why}) (see loopwatch scan --help)\n`);
      expect(r.stdout).toBe('');
    }, 60_000);
  }

  it.skipIf(!asRoot)('should refuse a file of another user in a folder others can write, untouched', async () => {
    const path = join(sharedFolder(), 'm.prom');
    writeFileSync(path, 'theirs\n');
    chmodSync(path, 0o666);
    chownSync(path, OTHER, OTHER);
    const r = await scanOpenStdin(['--metrics', path], 30_000);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--metrics ${path}: cannot write the file (it is a file of uid ${OTHER} in `);
    expect(readFileSync(path, 'utf8')).toBe('theirs\n');
  }, 60_000);

  it('should keep an existing metrics file as it was when the scan is killed before its end', async () => {
    const path = join(dir, 'good.prom');
    writeFileSync(path, 'loopwatch_scan_calls 7\n');
    // the scan reads its open input: killed while it waits, the file was opened (checked) but not emptied
    const r = await scanOpenStdin(['--metrics', path], 60_000, (child) => setTimeout(() => child.kill('SIGTERM'), 1_500));
    expect(r.code).toBe(null);
    expect(readFileSync(path, 'utf8')).toBe('loopwatch_scan_calls 7\n');
  }, 90_000);

  it('should write the figures when the scan ends, at the path opened before it', async () => {
    const path = join(dir, 'end.prom');
    writeFileSync(path, 'x'.repeat(100_000));
    const ino = lstatSync(path).ino;
    const r = await scanOpenStdin(['--metrics', path, '--fail-on', 'never'], 60_000, (child) => child.stdin?.end());
    expect(r.code).toBe(0);
    const text = readFileSync(path, 'utf8');
    expect(text).toMatch(/^# HELP loopwatch_scan_sessions /);
    expect(text).toContain('loopwatch_scan_calls 1\n');
    expect(text).not.toContain('xxx');
    // a file of one's own: a whole new file renamed over it (hostile23, test/cli-scan-metrics-whole.test.ts)
    expect(lstatSync(path).ino).not.toBe(ino);
  }, 60_000);
});
