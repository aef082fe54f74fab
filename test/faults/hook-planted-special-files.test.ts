/**
 * Files planted in the hooks' state folder under a session's names by a process that runs as the user (a
 * command the agent ran, a script of the project): whatever they are, every hook of the session answers
 * within seconds and the session goes on being checked.
 *
 * - a FIFO as the session's lock: before, readFileSync waited for a writer forever (every hook of the
 *   session hung until the agent's hook timeout); now a lock that is not a regular file is broken at once;
 * - a FIFO as the session's count of calls (`.calls`): before, the O_WRONLY open waited for a reader;
 * - a state file over 2 GiB (sparse: it takes no disk): before, it could not be read nor set aside, and
 *   every call of the session was allowed unchecked for good; now a state file larger than loopwatch writes
 *   (MAX_PRIVATE_FILE_BYTES) is set aside unread, and a smaller huge one is no longer read whole (2 GB of
 *   memory for a 1.9 GB file).
 */
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, ftruncateSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_PRIVATE_FILE_BYTES } from '../../src/hooks/private-path.js';
import { SessionFile } from '../../src/hooks/session-file.js';
import { CLI, type CliRun } from '../helpers/cli.js';
import { beforePayload, proposeAction } from '../helpers/hook-payloads.js';
import { tempFolder } from '../helpers/temp-folder.js';

const POSIX = process.platform !== 'win32';
/** A hook that takes longer than this is hung (one takes well under a second). */
const HUNG_MS = 15_000;

/** One hook call, killed after HUNG_MS (code null then). */
function hookCall(dir: string, session: string, id: string): Promise<CliRun & { ms: number }> {
  const payload = beforePayload('claude-code', session, { tool: 'Bash', args: { command: 'npm test' } }, id);
  const start = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'hook', '--agent', 'claude-code', '--state-dir', dir], { stdio: ['pipe', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), HUNG_MS);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - start });
    });
    child.stdin.end(JSON.stringify(payload));
  });
}

function stateFolder(): string {
  const dir = join(tempFolder('planted-special'), 'state');
  mkdirSync(dir, { mode: 0o700 });
  return dir;
}

function checks(file: SessionFile): number {
  return file.load()?.meta?.proposals ?? 0;
}

describe.skipIf(!POSIX)('files planted under a session\'s names in the state folder', () => {
  it.each(['lock', 'calls'] as const)('should answer every call when the session\'s %s is a FIFO', async (kind) => {
    const dir = stateFolder();
    const file = new SessionFile(dir, 'claude-code', 's');
    execFileSync('mkfifo', [kind === 'lock' ? file.lockPath : file.callsPath]);
    for (const id of ['a', 'b']) {
      const r = await hookCall(dir, 's', id);
      expect(r.code, `hook ${id} hung (killed after ${HUNG_MS} ms)`).toBe(0);
      expect(proposeAction('claude-code', r.stdout)).toBe('allow');
      expect(r.stderr).not.toMatch(/allowed without a loop check/);
    }
    expect(checks(file)).toBe(2); // both calls checked and kept in the session's state
  }, 60_000);

  it('should set aside a state file larger than loopwatch writes, unread, and check the session again', async () => {
    const dir = stateFolder();
    const file = new SessionFile(dir, 'claude-code', 's');
    const fd = openSync(file.path, 'w', 0o600);
    ftruncateSync(fd, 3 * 1024 ** 3); // sparse: no disk taken; over 2 GiB, which Node cannot read whole
    closeSync(fd);
    const first = await hookCall(dir, 's', 'a');
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/is not the user's own hook's \(.*: it is 3221225472 bytes, more than loopwatch writes there \(67108864\)\); it was not read; it was set aside/);
    expect(existsSync(file.path.replace(/\.lwhook$/, '.bad'))).toBe(true);
    const second = await hookCall(dir, 's', 'b');
    expect(second.stderr).toBe('');
    expect(checks(file)).toBe(2);
    expect(statSync(file.path).size).toBeLessThan(MAX_PRIVATE_FILE_BYTES);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  }, 60_000);
});
