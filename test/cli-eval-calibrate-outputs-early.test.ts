/**
 * `eval --html FILE` and `calibrate -o FILE` are opened before anything is read, as scan's outputs are
 * (src/cli/render/pending-output.ts): a path that cannot be written is a usage error naming the flag, the
 * path and why, exit 2, said before the runs or labels are looked at; the file is emptied and written only
 * when the run has ended, so a run that fails leaves an existing file as it was. Before, both were opened
 * when their run ended: after a whole replay or search, one line and exit 2. Through the real CLI.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeSyntheticRuns } from './helpers/calibrate-runs.js';
import { tempDir } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';

/** Labelled runs whose labels file is gone: any command that reads its input says "no labels". */
const unlabelled = writeSyntheticRuns(4, 2);
rmSync(join(unlabelled, 'sessions.jsonl'));
const out = tempDir();
afterAll(() => {
  rmSync(unlabelled, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
});

const commands = [
  ['eval', '--html'],
  ['calibrate', '-o'],
] as const;

describe('eval --html and calibrate -o, opened before the run', () => {
  for (const [command, flag] of commands) {
    it(`${command} ${flag}: should refuse a path that cannot be written before reading anything`, async () => {
      const missing = join(out, 'no-such-folder', 'file');
      const r = await loopwatchInProcess([command, unlabelled, flag, missing]);
      expect(r.code).toBe(2);
      // the output's error, not the input's "no labels" (which came first before: the run was tried)
      expect(r.stderr).toBe(`loopwatch ${command}: ${flag} ${missing}: cannot write the file (no such file or folder) (see loopwatch ${command} --help)\n`);
      const folder = join(out, `${command}-folder`);
      mkdirSync(folder);
      expect((await loopwatchInProcess([command, unlabelled, flag, folder])).stderr).toBe(`loopwatch ${command}: ${flag} ${folder}: cannot write the file (it is a folder) (see loopwatch ${command} --help)\n`);
    });

    it(`${command} ${flag}: should leave an existing file as it was when the run fails, and make none`, async () => {
      const kept = join(out, `${command}-kept`);
      writeFileSync(kept, 'the last good one\n');
      const r = await loopwatchInProcess([command, unlabelled, flag, kept]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('no labels');
      expect(readFileSync(kept, 'utf8')).toBe('the last good one\n');
      const fresh = join(out, `${command}-fresh`);
      expect((await loopwatchInProcess([command, unlabelled, flag, fresh])).code).toBe(2);
      expect(() => readFileSync(fresh)).toThrow(/ENOENT/);
    });
  }
});
