/**
 * What `loopwatch serve` prints on stderr of what a client sent is redacted and holds no terminal control
 * character: a session whose state cannot be written at stop is named by its id (the client's) with its
 * problem, and an id holding an API key and an ESC sequence (a window title set, ended by BEL) shows
 * neither. Before: `session "sk-ant-api03-…\u001b]0;…"` (JSON.stringify escapes C0 but not C1, and redacts
 * nothing), so the key reached the terminal and C1 controls (CSI U+009B) acted on it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stateFileName } from '../src/serve/state-files.js';
import { tempDir } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { post } from './helpers/http.js';
import { startServe } from './helpers/serve-process.js';

const KEY = 'sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
/** An id with the key, an OSC title sequence (ESC ] ... BEL), a C1 CSI and a right-to-left override. */
const SESSION = `run ${KEY} \u001b]0;pwned\u0007 \u009b2J \u202eevil`;
/** What a terminal acts on: C0 but tab and line feed, DEL, C1, the bidirectional controls. */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('loopwatch serve stderr', () => {
  it('should name a session it could not write without its secret or its control characters', async () => {
    const dir = tempDir();
    const serve = await startServe(['--port', '0', '--no-token', '--state-dir', dir]);
    let stopped = false;
    try {
      const r = await post(`${serve.url}/v1/check`, { session: SESSION, tool: 'Bash', args: { command: 'ls' } });
      expect(r.status).toBe(200);
      // a folder where the session's file goes: the rename onto it fails, so the session is not written
      const where = join(dir, stateFileName(SESSION));
      mkdirSync(where);
      writeFileSync(join(where, 'keep'), '');
      serve.child.kill('SIGTERM');
      stopped = true;
      expect(await serve.exited).toBe(1);
    } finally {
      if (!stopped) serve.child.kill('SIGTERM');
    }
    const err = serve.stderr();
    const line = err.split('\n').find((l) => l.includes('could not be written'));
    expect(line).toBeDefined();
    expect(line).toContain('run ');
    expect(line).toContain('pwned');
    expect(err).not.toContain(KEY);
    expect(err).not.toContain('AAAAAAAAAAAAAAAA');
    expect(err).not.toMatch(CONTROLS);
  }, 30_000);

  it('should escape control characters of the --nats URL in the worker\'s lines (connect retries, unreachable)', async () => {
    const r = await loopwatchInProcess(['serve', '--nats', 'nats://alice:pw-Hq4-s3cret@127.0.0.1:1/\u001b]0;pwned\u0007', '--partitions', '1', '--nats-connect-wait', '1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('connection refused');
    expect(r.stderr).toContain('pwned');
    expect(r.stderr).not.toContain('pw-Hq4-s3cret');
    expect(r.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  }, 30_000);
});
