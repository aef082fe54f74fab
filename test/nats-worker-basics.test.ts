/**
 * A NATS worker against a real nats-server (127.0.0.1, JetStream in a temp folder): calls published to a
 * session's subject come back as its verdicts, on the reply subject and in the verdicts stream; a batch
 * message is checked in order; a bad message gets an error result; `end` drops the session.
 */
import { describe, expect, it } from 'vitest';
import { sessionFromToken, sessionToken } from '../src/serve/nats/subjects.js';
import { natsFixture } from './helpers/nats-fixture.js';
import { natsServerBinary } from './helpers/nats-server.js';

describe('session tokens', () => {
  it('should keep safe ids and escape the rest, reversibly', () => {
    expect(sessionToken('run-1_A')).toBe('run-1_A');
    expect(sessionToken('run.1/x')).toBe('run=2E1=2Fx');
    for (const id of ['a b', 'é💥', '=', '*>.', 'x'.repeat(300)]) expect(sessionFromToken(sessionToken(id))).toBe(id);
    expect(sessionFromToken('a=2e')).toBeNull();
    expect(sessionFromToken('a.b')).toBeNull();
  });
});

describe.skipIf(natsServerBinary === null)('a NATS worker on a real server', () => {
  const f = natsFixture(4, { flushMs: undefined });

  it('should own every partition alone', () => {
    expect(f.worker.partitions()).toEqual([0, 1, 2, 3]);
  });

  it('should answer calls on the reply subject, in order, batch or not', async () => {
    const call = { tool: 'bash', args: { command: 'pytest' } };
    const a = await f.caller.check('s.1', [{ ...call, id: 'c1' }]);
    expect(a.results).toEqual([{ id: 'c1', verdict: null }]);
    const b = await f.caller.check('s.1', [{ ...call, id: 'c2' }, { ...call, id: 'c3' }]);
    expect(b.results.map((r) => ('verdict' in r ? (r.verdict?.kind ?? null) : 'error'))).toEqual([null, 'exact_repeat']);
  });

  it('should answer a bad message with an error naming the field', async () => {
    const a = await f.caller.check('s.2', [{ tool: 5 as unknown as string, id: 'x' }]);
    expect(a.results[0]).toMatchObject({ error: { code: 'ERR_LOOPWATCH_INVALID_EVENT', field: 'tool' } });
  });

  it('should report a session whose stored state cannot be read, on stderr-facing events and on NATS, and go on empty', async () => {
    const { Kvm } = await import('@nats-io/kv');
    const { connect } = await import('@nats-io/transport-node');
    const nc = await connect({ servers: f.server.url });
    const heard: string[] = [];
    const sub = nc.subscribe('loopwatch.events.session-lost.>', { callback: (_e, m) => void heard.push(m.string()) });
    await nc.flush();
    await (await new Kvm(nc).open('loopwatch-sessions')).put('s.broken', new Uint8Array([9, 9, 9]));
    const a = await f.caller.check('broken', [{ tool: 'read', id: 'b1' }]);
    expect(a.results).toEqual([{ id: 'b1', verdict: null }]);
    for (let i = 0; i < 40 && heard.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    sub.unsubscribe();
    await nc.close();
    expect(JSON.parse(heard[0] ?? '{}')).toMatchObject({ session: 'broken', problem: expect.stringContaining('cannot be read') });
    expect(f.worker.stats.sessionsLost).toBe(1);
  });

  it('should drop a session on end, in order after its calls', async () => {
    const call = { tool: 'read', args: { path: 'a' } };
    await f.caller.check('s.3', [call, call]);
    await f.caller.end('s.3');
    const a = await f.caller.check('s.3', [call]);
    expect(a.results).toEqual([{ verdict: null }]);
  });
});
