/**
 * A report that cannot be written whole (a full disk: `/dev/full` answers every write with ENOSPC) is said,
 * naming the flag and file, exit 2, and the scan's `--metrics` file is then left as it was (an existing
 * file's bytes kept, a file made for the scan removed): the figures of a scan whose report was lost are not
 * published. Before, `--output` on a full disk exited 0 with the report lost without a word (the stream's
 * error was never looked at), `--html` and standard output were internal errors ("a bug in loopwatch",
 * exit 3), and the metrics were written over the good ones. Through the real CLI.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, loopwatch, tempDir, writeJsonl } from './helpers/cli.js';

const FULL = '/dev/full';

describe.skipIf(!existsSync(FULL))('scan says a report it could not write, exit 2', () => {
  const dir = tempDir();
  const input = writeJsonl(dir, 'calls.jsonl', [1, 2, 3].map(() => ({ session: 's', tool: 'Bash', args: { command: 'make' }, error: 'Exit code 2' })));

  for (const flag of ['--output', '--html']) {
    it(`should say ${flag} could not be written and keep the metrics file as it was`, () => {
      const good = join(dir, `good${flag}.prom`);
      writeFileSync(good, 'loopwatch_scan_calls 7\n');
      const made = join(dir, `made${flag}.prom`);
      for (const metrics of [good, made]) {
        const r = loopwatch(['scan', input, flag, FULL, '--metrics', metrics, '--no-progress', '--fail-on', 'never']);
        expect(r.code).toBe(2);
        expect(r.stderr).toContain(`loopwatch scan: ${flag} ${FULL}: the report could not be written whole (ENOSPC); exit code 2\n`);
        expect(r.stderr).not.toContain('metrics written');
        expect(r.stderr).not.toContain('internal error');
      }
      expect(readFileSync(good, 'utf8')).toBe('loopwatch_scan_calls 7\n');
      expect(existsSync(made)).toBe(false);
    }, 60_000);
  }

  it('should say standard output could not be written, not an internal error', () => {
    const fd = openSync(FULL, 'w');
    try {
      const r = spawnSync(process.execPath, [CLI, 'scan', input, '--no-progress', '--fail-on', 'never'], { stdio: ['ignore', fd, 'pipe'], encoding: 'utf8', timeout: 60_000 });
      expect(r.status).toBe(2);
      expect(r.stderr).toBe('loopwatch scan: standard output could not be written (ENOSPC); the output is lost, exit code 2\n');
    } finally {
      closeSync(fd);
    }
  }, 60_000);
});
