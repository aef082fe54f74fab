/**
 * `loopwatch scan` that reads no call and fails (a missing file, an empty folder, empty standard input when
 * no path is given) prints only why on stderr and exits 2: no empty summary on stdout before the error. With
 * `--allow-empty` the (empty) summary is the answer and is printed; a scan with calls prints its summary.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { writeEvents } from './helpers/format-fixtures.js';

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loopwatch scan that reads nothing', () => {
  it('should print only the error for a missing file, exit 2', async () => {
    const run = await loopwatchInProcess(['scan', join(dir, 'no-such-file.jsonl')]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('skipped (missing-input)');
  });

  it('should print only the error for no path and empty standard input, and for an empty folder', async () => {
    const none = await loopwatchInProcess(['scan'], '');
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toContain('no tool calls found');
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const folder = await loopwatchInProcess(['scan', empty]);
    expect([folder.code, folder.stdout]).toEqual([2, '']);
  });

  it('should print the summary when an empty scan is accepted (--allow-empty) or calls were read', async () => {
    const accepted = await loopwatchInProcess(['scan', '--allow-empty'], '');
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toContain('0 sessions, 0 calls');
    const read = await loopwatchInProcess(['scan', writeEvents(dir), join(dir, 'no-such-file.jsonl')]);
    expect(read.code).toBe(2);
    expect(read.stdout).toContain('2 sessions');
  });
});
