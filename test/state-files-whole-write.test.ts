/**
 * hostile28: the hooks' session state (`<hash>.lwhook`) and serve's session files (`<hash>.lwsession`)
 * were written with their own temp names (`<name>.<pid>.<8 hex>.tmp`, left for the state sweep an hour
 * later); now they go through files/replace-whole.ts as every other output does: `.<name>.<pid>.tmp`,
 * 0600, renamed over the file; a leftover of a gone process removed by the next write (serve's) or the
 * state sweep (the hooks', which do not read their folder on every call); a link or another's
 * file planted under that name never followed and never blocking the write (another name of its own then).
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempBeside } from '../src/files/replace-whole.js';
import { SessionFile } from '../src/hooks/session-file.js';
import { stateFileKind } from '../src/hooks/state-names.js';
import { sweepIfDue } from '../src/hooks/state-sweep.js';
import { listStateFiles, readStateFiles, stateFileName, writeStateFile } from '../src/serve/state-files.js';
import { tempDir } from './helpers/cli.js';

/** A pid no process has (above the kernel's pid_max of 2^22). */
const GONE_PID = 4_194_305;

/** The hooks' state file and serve's session file of a fresh folder each, with the path each writes to. */
const writers = (): { name: string; path: string; dir: string; write: () => void; bytes: () => Buffer }[] => {
  const hookDir = join(tempDir(), 'hooks');
  mkdirSync(hookDir, { mode: 0o700 });
  const session = new SessionFile(hookDir, 'claude-code', 'sess-1');
  const serveDir = join(tempDir(), 'serve');
  mkdirSync(serveDir, { mode: 0o700 });
  const servePath = join(serveDir, stateFileName('sess-1'));
  return [
    { name: 'hook state', path: session.path, dir: hookDir, write: () => session.write(new Uint8Array([1, 2, 3])), bytes: () => readFileSync(session.path) },
    { name: 'serve state', path: servePath, dir: serveDir, write: () => writeStateFile(serveDir, 'sess-1', new Uint8Array([1, 2, 3])), bytes: () => readFileSync(servePath) },
  ];
};

describe('state files written whole by the one mechanism', () => {
  it("should remove a leftover temp of a gone process: serve's at its next start's listing (hostile33; was: at the next write of its name), the hooks' at the state sweep", () => {
    for (const w of writers()) {
      const left = tempBeside(w.path, GONE_PID);
      const own = tempBeside(w.path); // a process of this pid before, gone: its name is passed by another
      writeFileSync(left, 'half a state', { mode: 0o600 });
      writeFileSync(own, 'half a state', { mode: 0o600 });
      w.write();
      expect(w.bytes().length, w.name).toBeGreaterThan(3);
      expect(statSync(w.path).mode & 0o777, w.name).toBe(0o600);
      if (w.name === 'hook state') {
        expect(readdirSync(w.dir).filter((n) => n.endsWith('.tmp')).sort(), w.name).toEqual([left, own].map((p) => p.slice(w.dir.length + 1)).sort());
        const hourAgo = Date.now() / 1000 - 7200;
        for (const p of [left, own]) utimesSync(p, hourAgo, hourAgo);
        sweepIfDue(w.dir);
      } else {
        expect(listStateFiles(w.dir).leftovers, w.name).toBe(2);
      }
      expect(readdirSync(w.dir).filter((n) => n !== '.sweep').sort(), w.name).toEqual([w.path.slice(w.dir.length + 1)]);
    }
  });

  it('should neither follow nor be blocked by a link planted under its own temp name', () => {
    for (const w of writers()) {
      const victim = join(tempDir(), 'victim');
      writeFileSync(victim, 'untouched');
      symlinkSync(victim, tempBeside(w.path));
      w.write();
      w.write();
      expect(readFileSync(victim, 'utf8'), w.name).toBe('untouched');
      expect(lstatSync(tempBeside(w.path)).isSymbolicLink(), w.name).toBe(true);
      expect(w.bytes().length, w.name).toBeGreaterThan(3);
      expect(readdirSync(w.dir).filter((n) => n.endsWith('.tmp')), w.name).toEqual([tempBeside(w.path).slice(w.dir.length + 1)]);
    }
  });

  it('should read back what it wrote', () => {
    const [hook, serve] = writers();
    hook!.write();
    serve!.write();
    const files = [...readStateFiles(serve!.dir)];
    expect(files).toHaveLength(1);
    expect('sessionId' in files[0]! && files[0].sessionId).toBe('sess-1');
    expect([...(new SessionFile(hook!.dir, 'claude-code', 'sess-1').read() ?? [])]).toEqual([1, 2, 3]);
  });

  it("should count the new temp names as the state folder's leftovers", () => {
    const hash = 'a'.repeat(32);
    expect(stateFileKind(`.${hash}.lwhook.123.tmp`)).toBe('leftover');
    expect(stateFileKind(`.${hash}.lwhook.123.0badcafe.tmp`)).toBe('leftover');
    expect(stateFileKind(`${hash}.lwhook.123.0badcafe.tmp`)).toBe('leftover');
    expect(stateFileKind(`.${hash}.lwhook.tmp`)).toBeNull();
  });
});
