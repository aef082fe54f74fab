/**
 * `loopwatch serve` echoes the client's session ids, tool names and paths in its JSON answers and refusals,
 * which a person reads with `curl` in a terminal. JSON.stringify escapes C0 but leaves C1's CSI (U+009B),
 * the bidirectional overrides and isolates and U+2028/9 raw: on land (d256fa3) a 404 for a session id
 * `%E2%80%AE%C2%9B31m` (U+202E, U+009B) and a verdict naming a tool `T\u009b\u202e` came back with those
 * characters raw in the body. They are now written as `\uXXXX` escapes, which a JSON reader reads back as
 * the same characters. On stderr, the note on a state folder made private and the listening line named
 * the folder (--state-dir) raw: ESC, C1 and bidirectional controls in its name reached the terminal.
 */
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServeProcess, startServe } from './helpers/serve-process.js';
import { tempFolder } from './helpers/temp-folder.js';

/** Every character a terminal acts on. */
const RAW = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const EVIL = '\x1b]0;pwned\x07\x9b31m\u202eevil\u2066\u2028x';

describe('loopwatch serve answering hostile names', () => {
  let serve: ServeProcess;
  beforeAll(async () => {
    serve = await startServe(['--port', '0', '--no-token', '--no-state']);
  }, 30_000);
  afterAll(async () => {
    serve.child.kill('SIGTERM');
    await serve.exited;
  });

  it('should write the controls of a session id in a refusal as escapes', async () => {
    const res = await fetch(`${serve.url}/v1/sessions/${encodeURIComponent(`s${EVIL}`)}/snapshot`);
    expect(res.status).toBe(404);
    const text = await res.text();
    expect(text).not.toMatch(RAW);
    expect((JSON.parse(text) as { error: { message: string } }).error.message).toContain(JSON.stringify(`s${EVIL}`));
  });

  it('should write the controls of a tool name in a verdict as escapes, read back unchanged', async () => {
    const call = { session: `v${EVIL}`, tool: `T${EVIL}`, args: { a: 1 } };
    let text = '';
    for (let i = 0; i < 12; i++) {
      const res = await fetch(`${serve.url}/v1/check`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(call) });
      expect(res.status).toBe(200);
      text = await res.text();
      expect(text).not.toMatch(RAW);
    }
    const answer = JSON.parse(text) as { verdict: { unit: { tool: string }[] } | null };
    expect(answer.verdict?.unit.map((u) => u.tool)).toContain(`T${EVIL}`);
  });
});

describe('loopwatch serve naming a hostile state folder on stderr', () => {
  it('should write the controls of the folder name as escapes, in the note and the listening line', async () => {
    const dir = join(tempFolder('serve-escapes'), `state${EVIL}`);
    mkdirSync(dir);
    chmodSync(dir, 0o755); // open to others: serve makes it private and says so, naming it
    const serve = await startServe(['--port', '0', '--no-token', '--state-dir', dir]);
    try {
      const err = serve.stderr();
      expect(err).toContain('was made private');
      expect(err).toContain(`from ${dir.slice(0, dir.indexOf('\x1b'))}\\x1b]0;pwned`);
      for (const line of err.split('\n')) expect(line).not.toMatch(RAW);
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  }, 30_000);
});
