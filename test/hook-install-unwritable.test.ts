/**
 * `hook install` and `uninstall` where the settings file cannot or may not be written: whole or nothing, a
 * clear message naming the file, exit code 2.
 *
 * - a settings file the user made read-only (mode 0444): before, install renamed its edited copy over it
 *   (the folder being writable), past the user's own protection; now it is refused, untouched;
 * - a full disk (here the process's file size limit, `ulimit -f 0`: every file write fails, EFBIG): before,
 *   install left an empty `<file>.bak-<time>` behind and said "internal error ... (a bug in loopwatch)",
 *   exit 3; now nothing is left and the message names the file and what failed (a folder the user cannot
 *   write to alike: EACCES, seen as a user other than root).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI } from './helpers/cli.js';
import { hookVerbInProcess, loadHookVerbs } from './helpers/hook-in-process.js';
import { tempFolder } from './helpers/temp-folder.js';

beforeAll(loadHookVerbs, 180_000); // the modules of the commands run here, loaded outside the tests' clocks

const POSIX = process.platform !== 'win32';
const SETTINGS = '{\n  "theme": "dark",\n  "env": { "ANTHROPIC_API_KEY": "kept-as-is" }\n}\n';

/** A HOME with `~/.claude/settings.json` holding SETTINGS (mode `mode`), and its env. */
function home(mode = 0o644): { home: string; folder: string; file: string; env: NodeJS.ProcessEnv } {
  const h = join(tempFolder('hook-install-unwritable'), 'home');
  const folder = join(h, '.claude');
  mkdirSync(folder, { recursive: true });
  const file = join(folder, 'settings.json');
  writeFileSync(file, SETTINGS);
  chmodSync(file, mode);
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: h };
  delete env.CLAUDE_CONFIG_DIR;
  return { home: h, folder, file, env };
}

/** The arguments of `loopwatch hook VERB --agent claude-code`. */
const args = (verb: string): string[] => [verb, '--agent', 'claude-code', ...(verb === 'install' ? ['--agent-version', '2.1.9'] : [])];

/** `loopwatch hook VERB --agent claude-code` in HOME's env, in the test's process. */
function hook(verb: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return hookVerbInProcess(args(verb), env, env.HOME);
}

/** The same as a process with no file writable (`ulimit -f 0`: a limit of the process, so a process of its own). */
function hookOnFullDisk(verb: string, env: NodeJS.ProcessEnv): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync('/bin/sh', ['-c', 'ulimit -f 0 && exec "$@"', 'sh', process.execPath, CLI, 'hook', ...args(verb)], { env, encoding: 'utf8', cwd: env.HOME });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.skipIf(!POSIX)('hook install where the settings cannot be written', () => {
  it('should refuse a settings file the user made read-only, and leave it as it was', async () => {
    const h = home(0o444);
    for (const verb of ['install', 'uninstall']) {
      const r = await hook(verb, h.env);
      if (verb === 'uninstall') expect(r.code).toBe(0); // nothing of loopwatch's there: nothing to change
      else {
        expect(r.code).toBe(2);
        expect(r.stderr).toContain(`${h.file}: is read-only (mode 0444)`);
        expect(r.stderr).toContain('nothing was changed');
      }
    }
    expect(readFileSync(h.file, 'utf8')).toBe(SETTINGS);
    expect(statSync(h.file).mode & 0o777).toBe(0o444);
    expect(readdirSync(h.folder)).toEqual(['settings.json']);
  });

  it('should leave nothing behind on a full disk and name the file, not "a bug in loopwatch"', () => {
    const h = home();
    const r = hookOnFullDisk('install', h.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${h.file}: cannot be written (the file is too large (past the file size limit))`);
    expect(r.stderr).toContain('nothing was changed');
    expect(r.stderr).not.toMatch(/internal error|a bug in loopwatch/);
    expect(readFileSync(h.file, 'utf8')).toBe(SETTINGS);
    expect(readdirSync(h.folder)).toEqual(['settings.json']);
  });
});
