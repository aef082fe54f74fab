/**
 * A project's `.loopwatch.json` is judged on the descriptor it is read through (src/hooks/project-allowlist.ts):
 * its owner (the user or root) and its mode (no other user may write it), as its type and size already were.
 * Before, the owner was checked on the path's `stat` only and the mode not at all: another user's file renamed
 * over the path after that look was read and its rules used, and a file anyone may write was used as it was.
 * The swap is made at the seam the reader gives between its look at the path and its open, not raced.
 */
import { chmodSync, chownSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accept } from '../src/hooks/accepted-allowlists.js';
import { acceptedPath, allowlistFileProblem, projectAllowlist } from '../src/hooks/project-allowlist.js';
import { tempFolder } from './helpers/temp-folder.js';

const ROOT = process.getuid?.() === 0; // chown to another user needs root
const RULES = { allow: [{ tool: 'Bash', command: '^make$' }] };

/** A git project holding an accepted `.loopwatch.json` of RULES, with its own state and accepted folders. */
function acceptedProject(): { cwd: string; file: string; stateDir: string; env: NodeJS.ProcessEnv } {
  const root = tempFolder('allow-owner');
  const cwd = join(root, 'project');
  mkdirSync(join(cwd, '.git'), { recursive: true });
  const file = join(cwd, '.loopwatch.json');
  writeFileSync(file, JSON.stringify(RULES));
  chmodSync(file, 0o644);
  const env = { ...process.env, XDG_STATE_HOME: join(root, 'xdg') };
  accept(acceptedPath(file), readFileSync(file, 'utf8'), env);
  return { cwd, file, stateDir: join(root, 'state'), env };
}

describe("a project's .loopwatch.json judged on its descriptor", () => {
  it('should use an accepted file of the user, mode 0644 (the case below differs only in what is read)', () => {
    const { cwd, file, stateDir, env } = acceptedProject();
    expect(projectAllowlist(cwd, stateDir, env)).toEqual({ rules: RULES.allow, path: file, notice: `loopwatch: ${file} is in use: 1 rule lets calls repeat without a warning` });
  });

  it.skipIf(!ROOT)("should not use another user's file renamed over it after the look at the path", () => {
    const { cwd, file, stateDir, env } = acceptedProject();
    const planted = join(cwd, 'planted.json');
    writeFileSync(planted, JSON.stringify(RULES)); // the very text accepted: only its owner differs
    chmodSync(planted, 0o644);
    chownSync(planted, 4242, 4242);
    const got = projectAllowlist(cwd, stateDir, env, { checked: () => renameSync(planted, file) });
    expect(got.rules).toEqual([]);
    expect(got.notice).toBe(`loopwatch: ${file} is not used (it is owned by uid 4242, not by you); calls are checked without its allowlist`);
  });

  it('should not use a file any user may write (mode o+w), even accepted, and say why', () => {
    const { cwd, file, stateDir, env } = acceptedProject();
    chmodSync(file, 0o666);
    const got = projectAllowlist(cwd, stateDir, env);
    expect(got.rules).toEqual([]);
    expect(got.notice).toBe(`loopwatch: ${file} is not used (any user may write to it (mode o+w)); calls are checked without its allowlist`);
    expect(projectAllowlist(cwd, stateDir, env)).toEqual({ rules: [], path: file }); // told once per version
  });

  it('should not use an accepted file made writable by others after the look at the path', () => {
    const { cwd, file, stateDir, env } = acceptedProject();
    const got = projectAllowlist(cwd, stateDir, env, { checked: () => chmodSync(file, 0o646) });
    expect(got.rules).toEqual([]);
    expect(got.notice).toMatch(/is not used \(any user may write to it/);
  });

  it("should name each problem of a file's look", () => {
    const file = { isFile: () => true, size: 10, uid: process.getuid?.() ?? 0, mode: 0o100644 };
    expect(allowlistFileProblem(file)).toBeUndefined();
    expect(allowlistFileProblem({ ...file, mode: 0o100664 })).toBeUndefined(); // a group of the user's own (umask 002)
    expect(allowlistFileProblem({ ...file, mode: 0o100666 })).toBe('any user may write to it (mode o+w)');
    expect(allowlistFileProblem({ ...file, uid: 0 })).toBeUndefined();
    expect(allowlistFileProblem({ ...file, isFile: () => false })).toBe('it is not a regular file');
    expect(allowlistFileProblem({ ...file, size: 64 * 1024 + 1 })).toBe(`it is ${64 * 1024 + 1} bytes, more than ${64 * 1024}`);
  });
});
