/**
 * Every `tools/call` is checked whatever its JSON-RPC id (hostile10). JSON-RPC allows string, number and
 * null ids; a client may send an object, an array, `true` or `1e400` (Infinity once parsed). Before, a call
 * with any id but a string or a finite number passed unchecked (forwarded as it came, never proposed nor
 * recorded), and number ids past 2^53 were kept by their double: 9007199254740993 and 9007199254740992 in
 * flight together were one entry, so the first call's answer was recorded as the second call's outcome and
 * the second's answer paired with nothing (src/mcp/id-table.ts).
 */
import { describe, expect, it } from 'vitest';
import { LiveGuard } from '../src/index.js';
import type { LiveCall, LiveDecision } from '../src/index.js';
import { inMemoryProxy } from './helpers/mcp-in-memory.js';

/** A guard that allows every call and notes what it is given. */
function noting() {
  const proposed: LiveCall[] = [];
  const recorded: LiveCall[] = [];
  const allow = (phase: 'propose' | 'record'): LiveDecision => ({ session: 's', phase, action: 'allow', verdict: null }) as LiveDecision;
  const guard = {
    propose: (_s: string, c: LiveCall) => (proposed.push(c), allow('propose')),
    record: (_s: string, c: LiveCall) => (recorded.push(c), allow('record')),
    decline: () => undefined,
  } as unknown as LiveGuard;
  return { guard, proposed, recorded };
}

/** A guard that refuses every call of tool `build` (its check fails, and it fails closed). */
const refusesBuild = (): LiveGuard => new LiveGuard({ tools: { build: { identity: (): never => { throw new Error('identity bug'); } } }, failClosed: true, onInternalError: () => undefined });

const lines = (bs: Buffer[]): string[] => Buffer.concat(bs.splice(0)).toString('utf8').split('\n').filter((l) => l !== '');
const callText = (id: string, tool = 'build'): string => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${tool}","arguments":{"target":"ext"}}}`;
const answerText = (id: string, text: string): string => `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"${text}"}]}}`;

/** Ids JSON-RPC does not allow or a double does not hold, each with the text the proxy writes it back as. */
const ODD_IDS: readonly (readonly [string, string])[] = [
  ['{"a":1}', '{"a":1}'],
  ['{ "b" : [ 1 , "x" ] }', '{"b":[1,"x"]}'],
  ['[1,2]', '[1,2]'],
  ['null', 'null'],
  ['true', 'true'],
  ['1e400', '1e400'],
  ['-1.50', '-1.50'],
];

describe('the MCP proxy and JSON-RPC ids of any kind', () => {
  for (const [id, back] of ODD_IDS) {
    it(`should check a tools/call whose id is ${id} and answer its refusal with that id`, async () => {
      const { clientIn, toClient, toServer, failures, settle } = inMemoryProxy(refusesBuild());
      clientIn.write(`${callText(id)}\n`);
      await settle();
      expect(lines(toServer)).toEqual([]);
      const client = lines(toClient);
      expect(client).toHaveLength(1);
      expect(client[0]?.startsWith(`{"jsonrpc":"2.0","id":${back},"result":{"content":[{"type":"text","text":"[loopwatch] The loop check failed`)).toBe(true);
      expect(failures).toEqual([]);
    });

    it(`should record the answer to a call whose id is ${id}`, async () => {
      const { guard, proposed, recorded } = noting();
      const { gate, clientIn, serverIn, toClient, toServer, settle } = inMemoryProxy(guard);
      clientIn.write(`${callText(id)}\n`);
      await settle();
      expect(lines(toServer)).toEqual([callText(id)]);
      expect(proposed).toHaveLength(1);
      expect(gate.inFlightCount).toBe(1);
      serverIn.write(`${answerText(back, 'built')}\n`);
      await settle();
      expect(lines(toClient)).toEqual([answerText(back, 'built')]);
      expect(recorded.map((c) => [c.tool, c.result])).toEqual([['build', 'built']]);
      expect(gate.inFlightCount).toBe(0);
    });
  }

  it('should forget a call whose id is an object when the client cancels it', async () => {
    const { guard } = noting();
    const { gate, clientIn, settle } = inMemoryProxy(guard);
    clientIn.write(`${callText('{"a":[1]}')}\n`);
    await settle();
    expect(gate.inFlightCount).toBe(1);
    clientIn.write('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{ "a" : [1] }}}\n');
    await settle();
    expect(gate.inFlightCount).toBe(0);
  });

  it('should keep apart two calls whose ids past 2^53 a double rounds to the same number', async () => {
    const { guard, recorded } = noting();
    const { gate, clientIn, serverIn, toClient, settle } = inMemoryProxy(guard);
    clientIn.write(`${callText('9007199254740993', 'first')}\n${callText('9007199254740992', 'second')}\n`);
    await settle();
    expect(gate.inFlightCount).toBe(2);
    serverIn.write(`${answerText('9007199254740993', 'one')}\n${answerText('9007199254740992', 'two')}\n`);
    await settle();
    expect(recorded.map((c) => [c.tool, c.id, c.result])).toEqual([
      ['first', '9007199254740993', 'one'],
      ['second', '9007199254740992', 'two'],
    ]);
    expect(lines(toClient)).toHaveLength(2);
    expect(gate.inFlightCount).toBe(0);
  });

  it('should pair an answer whose id past 2^53 the server rounded, when one call in flight has that double', async () => {
    const { guard, recorded } = noting();
    const { gate, clientIn, serverIn, settle } = inMemoryProxy(guard);
    clientIn.write(`${callText('9007199254740993', 'first')}\n${callText('7', 'other')}\n`);
    await settle();
    serverIn.write(`${answerText('9007199254740992', 'one')}\n`);
    await settle();
    expect(recorded.map((c) => [c.tool, c.result])).toEqual([['first', 'one']]);
    expect(gate.inFlightCount).toBe(1);
  });
});
