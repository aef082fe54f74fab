/**
 * `serve` stopping with a state folder it cannot write (the user made it read-only while it ran): the
 * sessions one problem kept from being written are said once, with a few of their ids, the folder, what
 * went wrong and what to do; exit 1. Before: one line per session, each with Node's text (`EACCES:
 * permission denied, open '.../3f2a….lwsession.….tmp'`). Run as a user permissions apply to.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from './helpers/cli.js';
import { canDropPrivileges, unprivileged, unprivilegedFolder } from './helpers/unprivileged.js';

describe.skipIf(!canDropPrivileges)('serve stopping with a state folder it cannot write', () => {
  it('should say the sessions it could not write once, with the folder and what to do', async () => {
    const home = unprivilegedFolder('serve-stop-unwritable');
    const state = join(home, 'state');
    const env = { PATH: process.env.PATH, HOME: home };
    const [cmd, ...args] = unprivileged([process.execPath, CLI, 'serve', '--port', '0', '--state-dir', state, '--no-token']);
    const child = spawn(cmd as string, args, { env, cwd: home, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const url = await new Promise<string>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 30_000);
      child.stderr.on('data', () => {
        const m = /listening on (http:\/\/[0-9.:]+)/.exec(stderr);
        if (m !== null) resolve((clearTimeout(t), m[1] as string));
      });
    });
    for (const session of ['a', 'b', 'c', 'd', 'e']) {
      const r = await fetch(`${url}/v1/check`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session, tool: 'bash', args: { command: 'ls' } }) });
      expect(r.status).toBe(200);
    }
    const [c2, ...a2] = unprivileged(['/bin/chmod', '500', state]);
    expect(spawnSync(c2 as string, a2).status).toBe(0);
    const code = await new Promise<number | null>((resolve) => {
      child.on('exit', (c) => resolve(c));
      child.kill('SIGTERM');
    });
    expect(code).toBe(1);
    const lines = stderr.split('\n').filter((l) => l.includes('could not be written'));
    expect(lines).toEqual([`loopwatch serve: 5 sessions ("a", "b", "c", and 2 more) could not be written to ${state}: permission denied; make the folder writable by you (ls -ld shows whose it is; chmod u+w when it is yours)`]);
    expect(stderr).not.toContain('EACCES');
  }, 60_000);
});
