/**
 * `loopwatch mcp` in front of a server whose JSON-RPC error `message` is not a string (a number, an object,
 * `{"toString": 1}`, `null`, none, an object of 5 MB). JSON-RPC wants a string there, and the MCP SDK's
 * Client refuses such an error whole. Before, the proxy added its warning only to a string message: for
 * these the third identical failing call was answered as the server wrote it, the model was never warned
 * before the fourth was refused, though the proxy's stderr said `warn`. Now the message the proxy writes
 * is a string: a line saying the server's was not one, with its JSON cut to 1,000 characters, redacted and
 * its C1 and bidirectional controls escaped, then the warning. The proxy runs as a child (the built CLI),
 * with a scripted server, as a client sees it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ODD_MESSAGE_CHARS } from '../src/mcp/call-result.js';
import { callsThrough as through, stopScriptedProxies } from './helpers/mcp-scripted-server.js';

const TOKEN = ['ghp', 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'].join('_');

/** A server answering each `tools/call` with an error whose message is the one named by its tool. */
const SERVER = `
import { createInterface } from 'node:readline';
const messages = {
  number: 42,
  object: { detail: 'gcc failed \\u001b]0;title\\u0007 \\u202e \\u009b2J ${TOKEN}' },
  odd: { toString: 1 },
  null: null,
  huge: { big: 'x'.repeat(5_000_000) },
};
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'initialize') return process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'odd', version: '1' } } }) + '\\n');
  if (m.method !== 'tools/call') return;
  const error = m.params.name === 'none' ? { code: -32000 } : { code: -32000, message: messages[m.params.name] };
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, error }) + '\\n');
});
`;

afterEach(stopScriptedProxies);

/** The answers to `times` identical calls of `tool` through the proxy in front of {@link SERVER}, and its stderr. */
const callsThrough = (tool: string, times: number): ReturnType<typeof through> => through(SERVER, 'mcp-odd-message', tool, times);


/** The message of an answer's error. */
const messageOf = (a: Record<string, unknown> | undefined): unknown => (a?.error as { message?: unknown } | undefined)?.message;

describe.skipIf(process.platform !== 'linux')('loopwatch mcp warning through an error whose message is not a string', () => {
  const cases: readonly (readonly [string, string])[] = [
    ['number', '42'],
    ['odd', '{"toString":1}'],
    ['null', 'null'],
    ['none', 'none'],
  ];
  for (const [tool, json] of cases) {
    it(`should write the message as a string carrying the warning (${tool})`, async () => {
      const { answers, stderr } = await callsThrough(tool, 4);
      expect(stderr).not.toMatch(/internal error/);
      expect(answers.slice(0, 2).map((a) => typeof messageOf(a))).toEqual(tool === 'none' ? ['undefined', 'undefined'] : [typeof JSON.parse(json), typeof JSON.parse(json)]); // as the server wrote them
      const warned = messageOf(answers[2]);
      expect(warned).toMatch(new RegExp(`^\\[loopwatch: the server's error message is not a string; as JSON: ${json.replace(/[{}]/g, '\\$&')}\\]\\n\\[loopwatch\\] You appear to be in a loop \\(exact_repeat`));
      expect(stderr).toMatch(/warn tools\/call .*exact_repeat/);
      expect(JSON.stringify(answers[3])).toMatch(/This call was blocked and did not run/);
    }, 60_000);
  }

  it('should redact the message it writes, escape what a terminal acts on, and cut it', async () => {
    const { answers } = await callsThrough('object', 3);
    const warned = messageOf(answers[2]) as string;
    expect(warned).not.toContain(TOKEN);
    expect(warned).toContain('[REDACTED]');
    expect(warned).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(warned).toContain('\\u202e');
    const huge = await callsThrough('huge', 3);
    const text = messageOf(huge.answers[2]) as string;
    expect(text.length).toBeLessThan(ODD_MESSAGE_CHARS + 400);
    expect(text).toMatch(/x…\]\n\[loopwatch\] You appear to be in a loop/);
  }, 60_000);
});
