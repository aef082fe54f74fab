/**
 * `loopwatch serve` with a bearer token: every route but /healthz needs `Authorization: Bearer <token>`;
 * the CLI refuses a non-loopback host without --token-file, and an unusable token file, in one line.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BearerToken } from '../src/serve/bearer-token.js';
import { ServeServer } from '../src/serve/serve-server.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { tempDir } from './helpers/cli.js';
import { post, request } from './helpers/http.js';

const TOKEN = 'tok-0123456789abcdef';
let server: ServeServer;
beforeAll(async () => {
  server = await ServeServer.start({ port: 0, token: new BearerToken(TOKEN) });
});
afterAll(async () => {
  await server.stop();
});

const call = { session: 's', tool: 'read' };

describe('loopwatch serve with a bearer token', () => {
  it('should answer 401 without the token or with a wrong one, and 200 with it', async () => {
    const none = await post(`${server.url}/v1/check`, call);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(none.body.error.field).toBe('authorization');
    expect((await post(`${server.url}/v1/check`, call, { authorization: `Bearer ${TOKEN}x` })).status).toBe(401);
    expect((await post(`${server.url}/v1/check`, call, { authorization: TOKEN })).status).toBe(401);
    expect((await post(`${server.url}/v1/check`, call, { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    expect((await request(`${server.url}/v1/sessions/s`, 'DELETE')).status).toBe(401);
  });

  it('should serve /healthz without the token', async () => {
    expect((await request(`${server.url}/healthz`, 'GET')).status).toBe(200);
  });

  it('should refuse to listen beyond loopback without a token, and a token file that is unusable', async () => {
    const wide = await loopwatchInProcess(['serve', '--host', '0.0.0.0', '--port', '0']);
    expect(wide.code).toBe(2);
    expect(wide.stderr).toContain('--token-file');
    const dir = tempDir();
    writeFileSync(join(dir, 'short'), 'abc\n');
    const short = await loopwatchInProcess(['serve', '--port', '0', '--token-file', join(dir, 'short')]);
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('at least 16 characters');
    const missing = await loopwatchInProcess(['serve', '--port', '0', '--token-file', join(dir, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope: cannot read the file (no such file or folder)');
  });
});
