/**
 * `npx loopwatch serve`: npm 11 ends on SIGTERM without passing it on and the `sh -c` it ran the command in
 * ends too, which left the server running orphaned. Under npm exec (`npm_command=exec`) the server now
 * stops, as at a SIGTERM, once its parent is gone; started otherwise it is left running (`nohup ... &`).
 * The parent here is the same `sh -c` npm exec uses, killed as npx leaves it.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI } from './helpers/cli.js';

/** `sh -c 'node CLI serve ...'` with `env`; resolves once the server listens, with its pid and stderr so far. */
async function serveUnderShell(env: NodeJS.ProcessEnv): Promise<{ sh: ReturnType<typeof spawn>; pid: number; err: () => string }> {
  const sh = spawn('/bin/sh', ['-c', `"${process.execPath}" "${CLI}" serve --port 0 --no-state --no-token & echo $!; wait`], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  sh.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d));
  sh.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
  for (let i = 0; i < 300 && !/listening on/.test(err); i++) await new Promise((r) => setTimeout(r, 100));
  expect(err).toMatch(/listening on/);
  return { sh, pid: Number(out.trim()), err: () => err };
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(check: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) if (check()) return true;
  return check();
}

describe.skipIf(process.platform === 'win32')('serve whose parent goes away', () => {
  it('should stop, as at a SIGTERM, when npm exec started it and its parent is gone', async () => {
    const s = await serveUnderShell({ ...process.env, npm_command: 'exec' });
    s.sh.kill('SIGKILL');
    expect(await until(() => !alive(s.pid), 10_000)).toBe(true);
    expect(s.err()).toMatch(/npx \(its parent process, pid \d+\) went away: finishing requests in flight/);
    expect(s.err()).toContain('loopwatch serve: stopped;');
  }, 40_000);

  it('should go on running when started otherwise (a shell leaving it in the background)', async () => {
    const env = { ...process.env };
    delete env.npm_command;
    const s = await serveUnderShell(env);
    s.sh.kill('SIGKILL');
    expect(await until(() => !alive(s.pid), 2_500)).toBe(false);
    process.kill(s.pid, 'SIGTERM');
    expect(await until(() => !alive(s.pid), 10_000)).toBe(true);
  }, 40_000);
});
