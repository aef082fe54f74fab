/**
 * A hook on a full disk: the session's lock file can be created (an inode, no data block) but not filled.
 * Before, the hook allowed its call unchecked and left the empty lock behind: an empty lock names no holder,
 * so it is stale only by its age (LOCK_STALE_MS), and every hook of the session in the next 10 s waited
 * the full LOCK_WAIT_MS for it and gave up unchecked ("stayed locked by another hook"), the disk freed or not.
 * Now the hook removes the lock it could not fill, and the session's next call is checked at once.
 *
 * The full disk is the process's file size limit (`ulimit -f 0`): every write to a file fails (EFBIG; Node
 * ignores SIGXFSZ), as on a full disk, without needing one. Through the hook's own entry, as agents run it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionFile } from '../../src/hooks/session-file.js';
import { HOOK_MAIN } from '../helpers/cli.js';
import { UNCHECKED_REPLY, beforePayload } from '../helpers/hook-payloads.js';
import { tempFolder } from '../helpers/temp-folder.js';

const POSIX = process.platform !== 'win32';

/** One PreToolUse of session `s` through `dist/hook/hook-main.cjs`; `full` runs it with no file writable. */
function hookCall(dir: string, id: string, full: boolean): { code: number | null; stdout: string; stderr: string } {
  const payload = JSON.stringify(beforePayload('claude-code', 's', { tool: 'Bash', args: { command: 'npm test' } }, id));
  const node = [process.execPath, HOOK_MAIN, '--agent', 'claude-code', '--state-dir', dir];
  const r = full
    ? spawnSync('/bin/sh', ['-c', 'ulimit -f 0 && exec "$@"', 'sh', ...node], { input: payload, encoding: 'utf8' })
    : spawnSync(node[0]!, node.slice(1), { input: payload, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.skipIf(!POSIX)('a hook on a full disk', () => {
  it('should allow its call, say so once, and leave no lock behind', () => {
    const dir = join(tempFolder('full-disk-lock'), 'state');
    mkdirSync(dir, { mode: 0o700 });
    const r = hookCall(dir, 'a', true);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(UNCHECKED_REPLY); // allowed, the person told
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/the session's state cannot be kept in .*state \(cannot write: the file is too large \(past the file size limit\)\); raise the file size limit .*the call is allowed without a loop check/);
    expect(readdirSync(dir).filter((n) => n.endsWith('.lock'))).toEqual([]);
  });

  it('should check the session\'s next call once the disk has room again, without waiting for a lock', () => {
    const dir = join(tempFolder('full-disk-lock'), 'state');
    mkdirSync(dir, { mode: 0o700 });
    hookCall(dir, 'a', true);
    const next = hookCall(dir, 'b', false);
    expect(next.code).toBe(0);
    expect(next.stderr).not.toMatch(/stayed locked|allowed without a loop check/);
    expect(new SessionFile(dir, 'claude-code', 's').load()?.meta?.proposals).toBe(1);
  });
});
