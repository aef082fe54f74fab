/**
 * A file loopwatch cannot write is said in words a person acts on, through the real entries (the hook's own
 * process, the CLI): which file or folder, what went wrong, what to do, and the hook still fails open.
 * Before, the hook printed Node's text (`EACCES: permission denied, open '.../3f….lock'`), and uninstall
 * said "internal error ... (a bug in loopwatch)", exit 3, when the settings file it would remove could not
 * be (its folder not writable). Run as a user permissions apply to (helpers/unprivileged.ts).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, HOOK_MAIN } from './helpers/cli.js';
import { UNCHECKED_REPLY } from './helpers/hook-payloads.js';
import { canDropPrivileges, unprivileged, unprivilegedFolder } from './helpers/unprivileged.js';

/** Runs `argv` as the unprivileged user with `env` and `input` on stdin. */
function run(argv: readonly string[], env: NodeJS.ProcessEnv, input = ''): { code: number | null; stdout: string; stderr: string } {
  const [cmd, ...args] = unprivileged(argv);
  const r = spawnSync(cmd as string, args, { env, input, encoding: 'utf8', cwd: env.HOME, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const PAYLOAD = JSON.stringify({ session_id: 's1', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: '/tmp', transcript_path: '/nonexistent' });

describe.skipIf(!canDropPrivileges)('file failures said in words', () => {
  it('should name the state folder, the lock it could not make and the way out, and allow the call', () => {
    const home = unprivilegedFolder('hook-file-failures');
    const state = join(home, 'state');
    const env = { PATH: process.env.PATH, HOME: home };
    // the user's own folder, made read-only by them
    expect(run(['/bin/sh', '-c', `mkdir -m 700 "${state}" && chmod 500 "${state}"`], env).code).toBe(0);
    const r = run([process.execPath, HOOK_MAIN, '--agent', 'claude-code', '--state-dir', state], env, PAYLOAD);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(UNCHECKED_REPLY);
    expect(r.stderr).toMatch(new RegExp(`the session's state cannot be kept in ${state} \\(cannot open [0-9a-f]+\\.lock: permission denied\\); make the folder writable by you \\(.*\\), or give the hook another state folder \\(--state-dir DIR in its command, or LOOPWATCH_STATE_DIR\\); the call is allowed without a loop check`));
    expect(r.stderr).not.toContain('EACCES');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('should say which settings file uninstall could not remove and what to do, not "a bug in loopwatch"', () => {
    const home = unprivilegedFolder('hook-file-failures');
    const env = { PATH: process.env.PATH, HOME: home };
    expect(run([process.execPath, CLI, 'hook', 'install', '--agent', 'claude-code', '--agent-version', '2.1.9'], env).code).toBe(0);
    const file = join(home, '.claude', 'settings.json');
    const before = readFileSync(file, 'utf8');
    expect(run(['/bin/chmod', '500', join(home, '.claude')], env).code).toBe(0);
    const r = run([process.execPath, CLI, 'hook', 'uninstall', '--agent', 'claude-code'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}: loopwatch's entries are all it holds, but it cannot be removed (permission denied): make the folder writable by you`);
    expect(r.stderr).toContain('and run uninstall again, or delete it yourself; nothing was changed');
    expect(r.stderr).not.toMatch(/internal error|a bug in loopwatch|EACCES/);
    expect(readFileSync(file, 'utf8')).toBe(before);
    chmodSync(join(home, '.claude'), 0o700);
  });

  it('should say a settings file cannot be written in words, with what to do', () => {
    const home = unprivilegedFolder('hook-file-failures');
    const env = { PATH: process.env.PATH, HOME: home };
    const folder = join(home, '.claude');
    expect(run(['/bin/sh', '-c', `mkdir -m 700 "${folder}" && printf '{}\\n' > "${folder}/settings.json" && chmod 500 "${folder}"`], env).code).toBe(0);
    const r = run([process.execPath, CLI, 'hook', 'install', '--agent', 'claude-code', '--agent-version', '2.1.9'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${join(folder, 'settings.json')}: cannot be written (permission denied); make the folder writable by you`);
    expect(r.stderr).not.toContain('EACCES');
    expect(existsSync(join(folder, 'settings.json'))).toBe(true);
    mkdirSync(folder, { recursive: true });
  });

  it('should say a decision log in a read-only folder cannot be written, in words with what to do, and allow the call', () => {
    const home = unprivilegedFolder('hook-file-failures');
    const env = { PATH: process.env.PATH, HOME: home };
    const logs = join(home, 'logs');
    expect(run(['/bin/sh', '-c', `mkdir -m 700 "${logs}" && chmod 500 "${logs}"`], env).code).toBe(0);
    const log = join(logs, 'decisions.jsonl');
    const r = run([process.execPath, HOOK_MAIN, '--agent', 'claude-code', '--state-dir', join(home, 'state'), '--log', log], env, PAYLOAD);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`the decision log ${log} cannot be written (permission denied); make the folder writable by you (ls -ld shows whose it is; chmod u+w when it is yours)`);
    expect(r.stderr).not.toContain('EACCES');
    expect(existsSync(log)).toBe(false);
  });

  it('should say of a read-only decision log that the file is to be made writable, and keep its bytes', () => {
    const home = unprivilegedFolder('hook-file-failures');
    const env = { PATH: process.env.PATH, HOME: home };
    const log = join(home, 'decisions.jsonl');
    expect(run(['/bin/sh', '-c', `printf 'old\\n' > "${log}" && chmod 400 "${log}"`], env).code).toBe(0);
    const r = run([process.execPath, HOOK_MAIN, '--agent', 'claude-code', '--state-dir', join(home, 'state'), '--log', log], env, PAYLOAD);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`the decision log ${log} cannot be written (permission denied); make the file writable by you (ls -l shows whose it is; chmod u+w when it is yours)`);
    expect(r.stderr).not.toContain('EACCES');
    expect(readFileSync(log, 'utf8')).toBe('old\n');
  });
});
