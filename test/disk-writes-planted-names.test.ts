/**
 * What loopwatch writes, where a neighbour can plant the name first. A report written into a folder others
 * can write (`scan --output /tmp/report.txt`, `--html`, `--metrics`, `calibrate -o`) followed a symbolic
 * link planted there (to the user's `~/.bashrc`: overwritten with the report) and wrote into a file of
 * another user (who could then read the calls); a state folder named through a link of another user
 * (`--state-dir /tmp/lw` planted as a link to a folder of the user's own) was used. Now, in a folder others
 * can write, a link is not followed, a file of another user is left untouched, and a new file is 0600
 * whatever the umask; a state folder that is another user's link is refused (the hook allows the call and
 * says why, serve exits 2). In the user's own folders a link is followed as before.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lchownSync, linkSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync, chownSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NotPrivateError } from '../src/errors.js';
import { prepareStateFolder } from '../src/hooks/state-folder.js';
import { prepareStateDir } from '../src/serve/state-files.js';
import { CLI, writeJsonl } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { tempFolder } from './helpers/temp-folder.js';

const POSIX = typeof process.getuid === 'function';
const ROOT = POSIX && process.getuid?.() === 0; // only root can make a link or file of another user
const NEIGHBOUR = 54321;

/** A folder like /tmp: anyone writes, sticky. */
function sharedFolder(): string {
  const dir = join(tempFolder('planted'), 'tmp');
  mkdirSync(dir);
  chmodSync(dir, 0o1777);
  return dir;
}

const calls = Array.from({ length: 4 }, () => ({ session: 's1', tool: 'bash', args: { command: 'make test' }, result: 'FAILED' }));

describe('a report written into a folder others can write', () => {
  it.skipIf(!POSIX)('should not follow a symbolic link planted at its name: the target is left as it was', async () => {
    const shared = sharedFolder();
    const input = writeJsonl(tempFolder('planted-in'), 'runs.jsonl', calls);
    const victim = join(tempFolder('planted-home'), '.bashrc');
    writeFileSync(victim, 'export PATH=/usr/bin\n');
    for (const [flag, name] of [['--output', 'report.txt'], ['--html', 'report.html'], ['--markdown', 'report.md'], ['--metrics', 'scan.prom']] as const) {
      const planted = join(shared, name);
      symlinkSync(victim, planted); // the neighbour's link would do the same; one of this user's is made here so that the kernel's
      // own guard (fs.protected_symlinks, where it is on) does not refuse it first: the check tested is loopwatch's
      const r = await loopwatchInProcess(['scan', input, '--workers', '0', flag, planted]);
      expect(r.stderr, flag).toContain(`${planted}: `);
      expect(r.stderr, flag).toContain(`it is a symbolic link in ${shared}, a folder others can write: not followed`);
      expect(readFileSync(victim, 'utf8'), flag).toBe('export PATH=/usr/bin\n');
    }
  });

  it.skipIf(!ROOT)("should leave another user's file there untouched, and make a new file 0600 whatever the umask", async () => {
    const shared = sharedFolder();
    const input = writeJsonl(tempFolder('planted-in'), 'runs.jsonl', calls);
    const theirs = join(shared, 'report.txt');
    writeFileSync(theirs, 'the neighbour reads this\n');
    chmodSync(theirs, 0o666);
    chownSync(theirs, NEIGHBOUR, NEIGHBOUR);
    const r = await loopwatchInProcess(['scan', input, '--workers', '0', '--output', theirs]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--output ${theirs}: cannot write the file (it is a file of uid ${NEIGHBOUR} in ${shared}, a folder others can write: not written)`);
    expect(readFileSync(theirs, 'utf8')).toBe('the neighbour reads this\n');

    const mine = join(shared, 'mine.txt');
    const open = spawnSync('sh', ['-c', 'umask 000; exec "$0" "$@"', process.execPath, CLI, 'scan', input, '--workers', '0', '--output', mine], { encoding: 'utf8' });
    expect(open.status).toBe(1); // a loop warned
    expect(readFileSync(mine, 'utf8')).toContain('s1');
    expect(statSync(mine).mode & 0o777).toBe(0o600);
  });

  it.skipIf(!POSIX)('should not write through a hard link planted at its name (hostile13)', async () => {
    // where the kernel lets anyone link to any file (no fs.protected_hardlinks, macOS) a neighbour links the
    // user's ~/.bashrc into /tmp under the report's name: a file of the user's, so the owner check passed
    const shared = sharedFolder();
    const input = writeJsonl(tempFolder('planted-in'), 'runs.jsonl', calls);
    const victim = join(tempFolder('planted-home'), '.bashrc');
    writeFileSync(victim, 'export PATH=/usr/bin\n');
    for (const [flag, name] of [['--output', 'report.txt'], ['--html', 'report.html'], ['--metrics', 'scan.prom']] as const) {
      const planted = join(shared, name);
      linkSync(victim, planted);
      const names = statSync(victim).nlink; // 2, then 3, 4: the links of the flags before stay
      const r = await loopwatchInProcess(['scan', input, '--workers', '0', flag, planted]);
      expect(r.stderr, flag).toContain(`${flag} ${planted}: `);
      expect(r.stderr, flag).toContain(`it is a file with ${names} names (hard links) in ${shared}, a folder others can write: not written`);
      expect(readFileSync(victim, 'utf8'), flag).toBe('export PATH=/usr/bin\n');
    }
  });

  it.skipIf(!ROOT)('should not follow a link planted in a folder of another user, whatever its mode (hostile13)', async () => {
    // the folder's owner can write in it though its mode says no one else can: a link to a file of the
    // user's there was followed (the folder counted as the user's own)
    const theirs = join(tempFolder('planted-theirs'), 'reports');
    mkdirSync(theirs, { mode: 0o755 });
    chmodSync(theirs, 0o755);
    const input = writeJsonl(tempFolder('planted-in'), 'runs.jsonl', calls);
    const victim = join(tempFolder('planted-home'), '.bashrc');
    writeFileSync(victim, 'export PATH=/usr/bin\n');
    const planted = join(theirs, 'report.txt');
    symlinkSync(victim, planted);
    lchownSync(planted, NEIGHBOUR, NEIGHBOUR);
    chownSync(theirs, NEIGHBOUR, NEIGHBOUR);
    const r = await loopwatchInProcess(['scan', input, '--workers', '0', '--output', planted]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--output ${planted}: cannot write the file (it is a symbolic link in ${theirs}, a folder of uid ${NEIGHBOUR}: not followed)`);
    expect(readFileSync(victim, 'utf8')).toBe('export PATH=/usr/bin\n');
  });

  it.skipIf(!POSIX)("should follow a link in the user's own folder as before", async () => {
    const own = tempFolder('own-out');
    const input = writeJsonl(own, 'runs.jsonl', calls);
    const target = join(own, 'real.txt');
    writeFileSync(target, 'old\n');
    symlinkSync(target, join(own, 'link.txt'));
    await loopwatchInProcess(['scan', input, '--workers', '0', '--output', join(own, 'link.txt')]);
    expect(readFileSync(target, 'utf8')).toContain('s1');
  });
});

describe('a state folder named through a link of another user', () => {
  it.skipIf(!ROOT)('should be refused by the hooks and by serve, and nothing written where it points', async () => {
    const shared = sharedFolder();
    const mine = join(tempFolder('planted-own'), 'ssh');
    mkdirSync(mine, { mode: 0o700 });
    writeFileSync(join(mine, 'id_rsa'), 'key\n');
    const planted = join(shared, 'lw');
    symlinkSync(mine, planted);
    lchownSync(planted, NEIGHBOUR, NEIGHBOUR);
    expect(() => prepareStateFolder(planted)).toThrow(NotPrivateError);
    expect(() => prepareStateFolder(planted)).toThrow(`it is a symbolic link of uid ${NEIGHBOUR}, not of this user (uid 0): not followed`);
    expect(() => prepareStateDir(planted)).toThrow(NotPrivateError);
    const hook = spawnSync(process.execPath, [CLI, 'hook', '--agent', 'claude-code', '--state-dir', planted], {
      input: JSON.stringify({ session_id: 'planted', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't1', cwd: shared }),
      encoding: 'utf8',
    });
    expect(hook.status).toBe(0); // fails open: the call runs
    expect(hook.stderr).toContain('symbolic link of uid');
    const serve = await loopwatchInProcess(['serve', '--port', '0', '--no-token', '--state-dir', planted]);
    expect(serve.code).toBe(2);
    expect(serve.stderr).toContain(`the state folder ${planted}: it is a symbolic link of uid ${NEIGHBOUR}`);
    expect(readdirSync(mine)).toEqual(['id_rsa']);
    // a link of the user's own is theirs: used
    const ownLink = join(tempFolder('planted-ownlink'), 'state');
    symlinkSync(mine, ownLink);
    expect(() => prepareStateFolder(ownLink)).not.toThrow();
    expect(existsSync(mine)).toBe(true);
  });
});
