/**
 * `loopwatch mcp` in front of a server whose answers hold objects that JSON gives a `toString` that is not a
 * function (`{"toString": 1}`): an error's `code`, a `resource_link`'s `uri`, a resource's `uri`. Before,
 * reading the outcome called `String` on them, which throws (`Cannot convert object to primitive value`): the
 * proxy spent its one internal-error line on it, recorded no outcome, and the call's warning never reached
 * the model. So a server could silence loopwatch for its tools and hide any later internal error. The proxy
 * runs as a child (the built CLI), with a scripted server, as a client sees it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { callsThrough as through, stopScriptedProxies } from './helpers/mcp-scripted-server.js';

/** A server answering each `tools/call` with the answer named by its tool (`error-code`, `link-uri`, `resource-uri`). */
const SERVER = `
import { createInterface } from 'node:readline';
const odd = { toString: 1 };
const answers = {
  'error-code': (id) => ({ jsonrpc: '2.0', id, error: { code: odd, message: 'build failed: gcc exit 1' } }),
  'link-uri': (id) => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'resource_link', uri: odd, name: 'log' }], isError: true } }),
  'resource-uri': (id) => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'resource', resource: { uri: odd, blob: 'AAAA' } }], isError: true } }),
};
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'initialize') return process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'odd', version: '1' } } }) + '\\n');
  if (m.method === 'tools/call') process.stdout.write(JSON.stringify(answers[m.params.name](m.id)) + '\\n');
});
`;

afterEach(stopScriptedProxies);

/** The answers to `times` identical calls of `tool` through the proxy in front of {@link SERVER}, and its stderr. */
const callsThrough = (tool: string, times: number): ReturnType<typeof through> => through(SERVER, 'mcp-odd', tool, times);

/** The loopwatch warnings and refusals an answer carries (a result's text items, an error's message). */
function told(answer: Record<string, unknown>): string[] {
  const result = answer.result as { content?: { type: string; text?: string }[] } | undefined;
  const texts = result?.content?.map((c) => c.text ?? '') ?? [(answer.error as { message: string }).message];
  return texts.filter((t) => t.includes('[loopwatch]'));
}

describe.skipIf(process.platform !== 'linux')('loopwatch mcp reading answers whose values JSON makes unprintable', () => {
  for (const tool of ['error-code', 'link-uri', 'resource-uri']) {
    it(`should record the outcome and warn as for any failing call (${tool})`, async () => {
      const { answers, stderr } = await callsThrough(tool, 4);
      expect(stderr).not.toMatch(/internal error/);
      expect(answers.map((a) => told(a).length)).toEqual([0, 0, 1, 1]); // warned with its third answer, the fourth refused
      expect(stderr).toMatch(/warn tools\/call .*exact_repeat/);
      expect(told(answers[3] as Record<string, unknown>)[0]).toMatch(/This call was blocked and did not run/);
    }, 60_000);
  }
});
