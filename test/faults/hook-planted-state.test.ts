/**
 * A state file the user's own hook did not write decides nothing. The planted state here is a real
 * loopwatch state of a session whose next `npm test` is stopped: written private to the user it does stop
 * the first call (the first case: what makes the checks necessary). Owned by another user, writable by its
 * group or by others, or reached through a symbolic link, it is not read: it is set aside, the session
 * starts again and the call is decided on the fresh state, one line on stderr saying why. A state folder of
 * another user, or one others can write holding other files, is not used at all (the call is allowed
 * unchecked); the user's own folder holding only loopwatch's files is made private (0700).
 */
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LoopDetector } from '../../src/index.js';
import { SessionFile } from '../../src/hooks/session-file.js';
import { emptyMeta } from '../../src/hooks/session-meta.js';
import { UNCHECKED_REPLY, afterPayload, beforePayload, hook, proposeAction } from '../helpers/hook-payloads.js';
import type { ScriptedCall } from '../helpers/live-scenarios.js';

const ROOT = process.getuid?.() === 0;
const POSIX = process.platform !== 'win32';
const NOBODY = 65534;
const TEST: ScriptedCall = { tool: 'Bash', args: { command: 'npm test' }, error: 'FAIL test/a.test.ts' };

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function newDir(mode = 0o700): string {
  const d = mkdtempSync(join(tmpdir(), 'loopwatch-planted-'));
  dirs.push(d);
  chmodSync(d, mode);
  return d;
}

/** The state of session `s` just before a proposal of `npm test` is answered `stop`. */
function stoppingState(): Uint8Array {
  const d = new LoopDetector({}, 's');
  try {
    for (let i = 0; i < 40; i++) {
      const before = d.snapshot();
      const p = d.propose({ tool: 'Bash', args: TEST.args, id: `t${i}` });
      if (p.action === 'stop') return before;
      if (p.action !== 'deny') d.record({ tool: 'Bash', args: TEST.args, id: `t${i}`, error: TEST.error });
    }
  } finally {
    d.dispose();
  }
  throw new Error('no stop within 40 calls');
}

/** Plants the stopping state as session `s`'s state file in `dir`. */
function plant(dir: string): SessionFile {
  const f = new SessionFile(dir, 'claude-code', 's');
  f.write(stoppingState(), emptyMeta(Date.now()));
  return f;
}

async function firstCall(dir: string, extra: readonly string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return hook(['--agent', 'claude-code', '--state-dir', dir, ...extra], beforePayload('claude-code', 's', TEST, 'first'));
}

function checksOf(f: SessionFile): number {
  const d = new LoopDetector({}, 's');
  d.restore(f.read() as Uint8Array);
  const n = d.stats().checks;
  d.dispose();
  return n;
}

describe('a planted state file', () => {
  it('should stop the call when it is private to the user (what makes the checks necessary)', async () => {
    const dir = newDir();
    plant(dir);
    const r = await firstCall(dir);
    expect(proposeAction('claude-code', r.stdout)).toBe('stop');
  }, 60_000);

  it.skipIf(!POSIX).each([
    ['owned by another user', (f: SessionFile) => (ROOT ? chownSync(f.path, NOBODY, NOBODY) : undefined), /it is owned by uid 65534, not by this user \(uid \d+\)/, !ROOT],
    ['writable by others', (f: SessionFile) => chmodSync(f.path, 0o666), /others than its owner can write to it \(mode 0666\)/, false],
    ['writable by its group', (f: SessionFile) => chmodSync(f.path, 0o620), /others than its owner can write to it \(mode 0620\)/, false],
    [
      'a symbolic link',
      (f: SessionFile) => {
        renameSync(f.path, `${f.path}.elsewhere`);
        symlinkSync(`${f.path}.elsewhere`, f.path);
      },
      /it is a symbolic link/,
      false,
    ],
  ])('should not be read when %s: set aside, the session starts again, one line says why', async (_name, spoil, why, skip) => {
    if (skip) return;
    const dir = newDir();
    const f = plant(dir);
    spoil(f);
    const r = await firstCall(dir);
    expect([r.code, r.stdout]).toEqual([0, '']);
    expect(r.stderr.split('\n')).toHaveLength(2);
    expect(r.stderr).toMatch(/^loopwatch hook: the state file of session "s" is not the user's own hook's \(.*\.lwhook: /);
    expect(r.stderr).toMatch(why);
    expect(r.stderr).toMatch(/it was not read; it was set aside and the session starts again\n$/);
    expect(existsSync(f.path.replace(/\.lwhook$/, '.bad'))).toBe(true);
    expect(statSync(f.path).uid).toBe(process.getuid?.());
    expect(statSync(f.path).mode & 0o777).toBe(0o600);
    expect(await hook(['--state-dir', dir], afterPayload('claude-code', 's', TEST, 'first'))).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(checksOf(f)).toBe(1);
  }, 60_000);
});

describe('a state file whose notes are not loopwatch\'s', () => {
  it('should be set aside and the session start again, never decided on', async () => {
    const dir = newDir();
    const f = plant(dir);
    const bytes = readFileSync(f.path);
    const at = bytes.indexOf('{"started"');
    writeFileSync(f.path, Buffer.concat([bytes.subarray(0, at), Buffer.from(bytes.subarray(at).toString('latin1').replace('"started":1', '"started":-'), 'latin1')]));
    const r = await firstCall(dir);
    expect([r.code, r.stdout]).toEqual([0, '']);
    expect(r.stderr).toMatch(/^loopwatch hook: the state of session "s" could not be read \(the state file's notes are not loopwatch's\); it was set aside and the session starts again\n$/);
  }, 60_000);
});

describe('a state folder that is not private', () => {
  it.skipIf(!ROOT)('should not be used when another user owns it: the call is allowed unchecked (denied with --fail-closed)', async () => {
    const dir = newDir();
    plant(dir);
    chownSync(dir, NOBODY, NOBODY);
    const r = await firstCall(dir);
    expect([r.code, r.stdout]).toEqual([0, expect.stringMatching(UNCHECKED_REPLY)]);
    expect(r.stderr).toMatch(/^loopwatch hook: Claude Code: the state folder .*: it is owned by uid 65534, not by this user \(uid 0\); the call is allowed without a loop check\n$/);
    const closed = await firstCall(dir, ['--fail-closed']);
    expect(proposeAction('claude-code', closed.stdout)).toBe('deny');
    expect(readdirSync(dir).sort()).toEqual([new SessionFile(dir, 'claude-code', 's').path.slice(dir.length + 1)]);
  }, 60_000);

  it.skipIf(!POSIX)('should not be used when others can write to it and it holds other files, and be left as it is', async () => {
    const dir = newDir(0o777);
    plant(dir);
    writeFileSync(join(dir, 'notes.txt'), 'a shared folder');
    const r = await firstCall(dir);
    expect([r.code, r.stdout]).toEqual([0, expect.stringMatching(UNCHECKED_REPLY)]);
    expect(r.stderr).toMatch(/the state folder .*: others than its owner can write to it \(mode 0777\), and it holds files that are not loopwatch's \(such as "notes.txt"\), so it was left as it is; the call is allowed without a loop check\n$/);
    expect(statSync(dir).mode & 0o777).toBe(0o777);
  }, 60_000);

  it.skipIf(!POSIX)('should be made private (0700) when it is the user\'s and holds only loopwatch\'s files, said once', async () => {
    const dir = newDir(0o777);
    const sub = join(dir, 'hooks');
    mkdirSync(sub, { mode: 0o700 });
    chmodSync(sub, 0o775);
    writeFileSync(join(sub, '.sweep'), '');
    const r = await firstCall(sub);
    expect([r.code, r.stdout]).toEqual([0, '']);
    expect(r.stderr).toBe(`loopwatch hook: the state folder ${sub} was open to others (mode 0775); it was made private (0700)\n`);
    expect(statSync(sub).mode & 0o777).toBe(0o700);
    expect(await hook(['--state-dir', sub], afterPayload('claude-code', 's', TEST, 'first'))).toEqual({ code: 0, stdout: '', stderr: '' });
  }, 60_000);

  it.skipIf(!POSIX)('should be used as it is when only readable by others and holding other files (a project)', async () => {
    const dir = newDir(0o755);
    writeFileSync(join(dir, 'Cargo.toml'), '[package]');
    expect(await firstCall(dir)).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(statSync(dir).mode & 0o777).toBe(0o755);
  }, 60_000);
});
