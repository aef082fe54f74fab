/**
 * `scan --metrics FILE` as a collector reads it (node_exporter's textfile collector reads `*.prom` on its own
 * schedule, and asks for a file written elsewhere and renamed into place): a scan killed by SIGINT, SIGTERM or
 * SIGHUP leaves no file it made (before: an empty one stayed), an existing file keeps its bytes, and the end's
 * write of a file of one's own is a rename of a whole new file over it (before: emptied and written in place,
 * so a reader could see part of it). Through the real CLI, spawned and killed.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from './helpers/cli.js';
import { tempFolder } from './helpers/temp-folder.js';

const CALL = `${JSON.stringify({ session: 's', tool: 'Bash', args: { command: 'make' }, error: 'Exit code 2' })}\n`;

/** `loopwatch scan - ...args`, its standard input left open with one call, then `signal` once it has read it. */
function scanKilled(args: readonly string[], signal: NodeJS.Signals | null): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'scan', '-', '--no-progress', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.stdin.on('error', () => undefined);
    child.stdin.write(CALL);
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    // the file is opened before the input is read: give the child time to get there
    setTimeout(() => (signal === null ? child.stdin.end() : child.kill(signal)), 1500);
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      resolve({ code, signal: sig });
    });
  });
}

describe('scan --metrics facing a signal and a reader', () => {
  it('should still finish the calls read and write the figures on a Ctrl-C', { timeout: 60_000 }, async () => {
    const dir = tempFolder('scan-metrics-whole');
    const file = join(dir, 'loopwatch.prom');
    const r = await scanKilled(['--metrics', file], 'SIGINT');
    expect(r.code).toBe(130);
    expect(readFileSync(file, 'utf8')).toMatch(/^# (HELP|TYPE) loopwatch_/m);
  });

  it('should leave no file it made when killed by SIGTERM or SIGHUP, and end by the signal', { timeout: 120_000 }, async () => {
    for (const sig of ['SIGTERM', 'SIGHUP'] as const) {
      const dir = tempFolder('scan-metrics-whole');
      const file = join(dir, 'loopwatch.prom');
      const r = await scanKilled(['--metrics', file], sig);
      expect(r.signal, sig).toBe(sig);
      expect(existsSync(file), sig).toBe(false);
      expect(readdirSync(dir), sig).toEqual([]);
    }
  });

  it('should keep an existing file bytes when killed', { timeout: 60_000 }, async () => {
    const dir = tempFolder('scan-metrics-whole');
    const file = join(dir, 'loopwatch.prom');
    writeFileSync(file, 'last good figures\n');
    const r = await scanKilled(['--metrics', file], 'SIGTERM');
    expect(r.signal).toBe('SIGTERM');
    expect(readFileSync(file, 'utf8')).toBe('last good figures\n');
  });

  it('should write its figures as a new file renamed over the old, with the old mode', { timeout: 60_000 }, async () => {
    const dir = tempFolder('scan-metrics-whole');
    const file = join(dir, 'loopwatch.prom');
    writeFileSync(file, 'last good figures\n');
    chmodSync(file, 0o640);
    const before = statSync(file);
    const r = await scanKilled(['--metrics', file], null);
    expect(r.code).toBe(0);
    const after = statSync(file);
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^# (HELP|TYPE) loopwatch_/m);
    // a new file took the name (a reader holding the old one read it whole), with the old one's mode
    expect(after.ino).not.toBe(before.ino);
    expect(after.mode & 0o777).toBe(0o640);
    expect(readdirSync(dir)).toEqual(['loopwatch.prom']);
  });
});
