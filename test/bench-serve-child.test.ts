/**
 * The serve benchmarks against serve's default token (s19): serve now answers 401 without a token and
 * writes "listening on URL (bearer token required);", so `npm run bench -- --scope serve` and
 * `node dist/bench/serve-sessions-rss.js` waited for a start line they no longer matched, for ever. They
 * now give serve a token file of their own (`bench/serve-child.ts`) and send it; the user's state folder
 * is not touched. Runs the built script as its doc comment says, with HOME in a temporary folder.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startServeChild } from '../bench/serve-child.js';
import { tempFolder } from './helpers/temp-folder.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'dist/src/bin/loopwatch.js');

describe('the serve benchmarks with a token', () => {
  it('should run serve-sessions-rss.js to its end without touching the user\'s state folder', () => {
    const home = tempFolder('bench-serve-home');
    const run = spawnSync(process.execPath, [join(ROOT, 'dist/bench/serve-sessions-rss.js'), '4000'], { env: { ...process.env, HOME: home, XDG_STATE_HOME: '' }, encoding: 'utf8', timeout: 60_000 });
    expect(run.error).toBeUndefined();
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^\s+0 sessions opened: RSS/m);
    expect(existsSync(join(home, '.local'))).toBe(false);
  }, 90_000);

  it('should start serve with a token it sends, which serve requires', async () => {
    const serve = await startServeChild(CLI);
    try {
      const call = JSON.stringify({ session: 's', tool: 'bash', args: { command: 'ls' } });
      const post = (headers: Record<string, string>): Promise<Response> => fetch(`${serve.url}/v1/check`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: call });
      expect((await post({})).status).toBe(401);
      const ok = await post({ authorization: serve.authorization });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ verdict: null });
    } finally {
      serve.stop();
    }
  }, 30_000);
});
