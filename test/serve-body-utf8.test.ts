/**
 * `loopwatch serve` reads a body only as UTF-8 (src/serve/utf8-body.ts), through the real process. Before,
 * an invalid byte became U+FFFD without a word: session ids differing only in invalid bytes (`a<FF>`,
 * `a<FE>`) were one session (the calls of one counted for the other's verdict), and a body sent as Latin-1
 * (`charset=iso-8859-1`, not looked at) lost its accented letters. A UTF-8 byte order mark, which a parser
 * may ignore (RFC 8259), was a `bad_json` naming an invisible character.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCallMessage } from '../src/serve/nats/call-message.js';
import { CLI } from './helpers/cli.js';
import { startServe, type ServeProcess } from './helpers/serve-process.js';

let serve: ServeProcess;
beforeAll(async () => {
  serve = await startServe(['--port', '0', '--no-token', '--no-state'], CLI);
});
afterAll(() => {
  serve.child.kill('SIGKILL');
});

/** Posts `body` to /v1/check; its status and JSON answer. */
async function check(body: Buffer, type = 'application/json'): Promise<{ status: number; json: { verdict?: unknown; error?: { code: string; message: string } } }> {
  const res = await fetch(`${serve.url}/v1/check`, { method: 'POST', headers: { 'content-type': type }, body });
  return { status: res.status, json: (await res.json()) as never };
}

/** A failing `npm test` of the session whose id is `a` followed by `byte`. */
const failing = (byte: number): Buffer =>
  Buffer.concat([Buffer.from('{"session":"a'), Buffer.from([byte]), Buffer.from('","tool":"Bash","args":{"command":"npm test"},"error":"Exit code 1\\nFAIL"}')]);

describe('serve reads bodies as UTF-8 only', () => {
  it('should refuse a body with a byte that is not UTF-8, naming it, so no two ids become one', async () => {
    for (const byte of [0xff, 0xfe]) {
      const { status, json } = await check(failing(byte));
      expect(status).toBe(400);
      expect(json.error?.code).toBe('bad_json');
      expect(json.error?.message).toContain('not UTF-8 (byte 13 ');
    }
  });

  it('should refuse a Latin-1 body with a letter past ASCII (its charset lie), and take its ASCII twin', async () => {
    const latin1 = Buffer.from('{"session":"caf\xe9","tool":"Bash","args":{"command":"ls"}}', 'latin1');
    expect((await check(latin1, 'application/json; charset=iso-8859-1')).status).toBe(400);
    expect((await check(Buffer.from('{"session":"cafe","tool":"Bash","args":{"command":"ls"}}'), 'application/json; charset=iso-8859-1')).status).toBe(200);
  });

  it('should read UTF-8 as it is, and pass over a byte order mark', async () => {
    const emoji = Buffer.from('{"session":"caf\u00e9 \ud83d\ude00","tool":"Bash","args":{"command":"ls \u00fc"}}', 'utf8');
    expect(await check(emoji)).toEqual({ status: 200, json: { verdict: null } });
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"session":"bom","tool":"Bash"}')]);
    expect(await check(bom)).toEqual({ status: 200, json: { verdict: null } });
  });
});

describe('serve --nats reads messages through the same door', () => {
  it('should refuse a message body with a byte that is not UTF-8 as an invalid call, naming it', () => {
    const m = readCallMessage('a', new Uint8Array(failing(0xff)), undefined);
    expect(m.kind).toBe('invalid');
    expect(m.kind === 'invalid' ? m.error.message : '').toContain('the message body is not UTF-8 (byte 13 ');
    expect(readCallMessage('a', new Uint8Array(Buffer.from('{"tool":"Bash"}')), undefined).kind).toBe('calls');
  });
});
