/**
 * An output file scan cannot write (`--output`, `--html`, `--markdown=FILE`, `--metrics`) is said in words a
 * person acts on (text/file-failure.ts), through the real CLI as a user permissions apply to
 * (helpers/unprivileged.ts): the file, what went wrong, what to do, exit 2, the input unread and nothing
 * left behind. Before, it said `cannot write the file (EACCES)`.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from './helpers/cli.js';
import { canDropPrivileges, unprivileged, unprivilegedFolder } from './helpers/unprivileged.js';

/** Runs `argv` as the unprivileged user in `home`. */
function run(argv: readonly string[], home: string): { code: number | null; stdout: string; stderr: string } {
  const [cmd, ...args] = unprivileged(argv);
  const r = spawnSync(cmd as string, args, { env: { PATH: process.env.PATH, HOME: home }, encoding: 'utf8', cwd: home, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const CALL = JSON.stringify({ session: 's', tool: 'Bash', args: { command: 'make' }, error: 'Exit code 2' });

/** A home of the unprivileged user with a session to scan (`in.jsonl`), a folder of theirs they made read-only (`ro`) and a file of theirs they made read-only (`ro.prom`). */
function home(): string {
  const dir = unprivilegedFolder('output-file-failures');
  const made = run(['/bin/sh', '-c', `printf '%s\\n' '${CALL}' > in.jsonl && mkdir -m 700 ro && chmod 500 ro && printf 'old\\n' > ro.prom && chmod 400 ro.prom`], dir);
  expect(made.code).toBe(0);
  return dir;
}

describe.skipIf(!canDropPrivileges)('scan output files that cannot be written, said in words', () => {
  for (const flag of ['--output', '--html', '--markdown', '--metrics']) {
    it(`should say ${flag} in a folder of one's own made read-only: the file, permission denied, the folder to make writable`, () => {
      const dir = home();
      const path = join(dir, 'ro', 'out');
      const r = run([process.execPath, CLI, 'scan', join(dir, 'in.jsonl'), flag === '--markdown' ? `--markdown=${path}` : flag, ...(flag === '--markdown' ? [] : [path])], dir);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`loopwatch scan: ${flag} ${path}: cannot write the file (permission denied); make the folder writable by you (ls -ld shows whose it is; chmod u+w when it is yours) (see loopwatch scan --help)\n`);
      expect(readdirSync(join(dir, 'ro'))).toEqual([]);
    });
  }

  it('should say of an existing read-only file that the file is to be made writable, and keep its bytes', () => {
    const dir = home();
    const path = join(dir, 'ro.prom');
    const r = run([process.execPath, CLI, 'scan', join(dir, 'in.jsonl'), '--metrics', path], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`loopwatch scan: --metrics ${path}: cannot write the file (permission denied); make the file writable by you (ls -l shows whose it is; chmod u+w when it is yours) (see loopwatch scan --help)\n`);
    expect(r.stderr).not.toContain('EACCES');
    expect(readFileSync(path, 'utf8')).toBe('old\n');
  });
});
