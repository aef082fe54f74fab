/**
 * A file a flag names that cannot be read (`scan --config`, `serve --nats-nkey`, `--nats-token-file`) is said
 * in words (formats/regular-file.ts readFailure through text/file-failure.ts), through the real CLI as a
 * user permissions apply to (helpers/unprivileged.ts): `cannot read the file (permission denied)` where it
 * said `(EACCES)`, exit 2.
 */
import { spawnSync } from 'node:child_process';
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

/** A home of the unprivileged user holding `unreadable`, a file of theirs they may not read (mode 0000), and an empty input. */
function home(): string {
  const dir = unprivilegedFolder('read-file-failures');
  expect(run(['/bin/sh', '-c', "printf 'x\\n' > unreadable && chmod 000 unreadable && : > in.jsonl"], dir).code).toBe(0);
  return dir;
}

describe.skipIf(!canDropPrivileges)('files named by flags that cannot be read, said in words', () => {
  it('should say scan --config that cannot be read in words', () => {
    const dir = home();
    const r = run([process.execPath, CLI, 'scan', join(dir, 'in.jsonl'), '--config', join(dir, 'unreadable')], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`loopwatch scan: --config ${join(dir, 'unreadable')}: cannot read the file (permission denied) (see loopwatch scan --help)\n`);
  });

  it('should say a NATS token file and NKey seed file that cannot be read in words', () => {
    const dir = home();
    const token = run([process.execPath, CLI, 'serve', '--nats', 'nats://127.0.0.1:1', '--nats-connect-wait', '0', '--nats-token-file', join(dir, 'unreadable')], dir);
    expect(token.code).toBe(2);
    expect(token.stderr).toBe(`loopwatch serve: --nats-token-file ${join(dir, 'unreadable')}: cannot read the file (permission denied) (see loopwatch serve --help)\n`);
    const seed = run([process.execPath, CLI, 'serve', '--nats', 'nats://127.0.0.1:1', '--nats-connect-wait', '0', '--nats-nkey', join(dir, 'unreadable')], dir);
    expect(seed.code).toBe(2);
    expect(seed.stderr).toBe(`loopwatch serve: --nats nats://127.0.0.1:1: cannot read the NKey seed file ${JSON.stringify(join(dir, 'unreadable'))} (permission denied) (see loopwatch serve --help)\n`);
  });
});
