/**
 * The `Loopwatch-Reply` header names where a worker sends a message's answer as well: the caller's inbox.
 * The worker's connection may use JetStream and the buckets, so a client that may only publish calls
 * could name a subject of the server's APIs or of the service itself, and the worker would publish there
 * for it: `$KV.loopwatch-sessions.s.<id>` overwrote another session's stored state (it would start again
 * empty after a move), `loopwatch.verdicts.<id>` put an answer in another session's verdicts. (A JetStream
 * API request such as `$JS.API.STREAM.DELETE.<stream>` did nothing on nats-server 2.10, which ignores API
 * requests without a reply subject: checked here all the same.) A reply subject under `$` or `loopwatch.` (or not a subject one
 * can publish to) is not used, counted in `repliesRefused`, and the answer still goes to the verdicts
 * subject; an inbox (`_INBOX.…`, or a prefix of the client's own) is answered as before.
 */
import { describe, expect, it } from 'vitest';
import { headers } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { REPLY_HEADER, VERDICTS_STREAM, inputSubject } from '../src/serve/nats/subjects.js';
import { natsFixture } from './helpers/nats-fixture.js';
import { natsServerBinary } from './helpers/nats-server.js';

const CALL = { tool: 'bash', args: { command: 'pytest' } };

describe.skipIf(natsServerBinary === null)('a reply subject a caller names', () => {
  const f = natsFixture(2);

  /** Publishes one call of `session` naming `reply`, then waits until the worker has answered a later call of it. */
  async function callNaming(session: string, reply: string): Promise<void> {
    const h = headers();
    h.set(REPLY_HEADER, reply);
    f.nc.publish(inputSubject(session), JSON.stringify({ ...CALL, id: `attack-${reply}` }), { headers: h });
    await f.nc.flush();
    await f.caller.check(session, [{ ...CALL, id: `after-${reply}` }]);
    await new Promise((r) => setTimeout(r, 200)); // what the worker published meanwhile has reached the server
  }

  it('should not publish to the JetStream API for a caller', async () => {
    const jsm = await jetstreamManager(f.nc);
    expect((await jsm.streams.info(VERDICTS_STREAM)).config.name).toBe(VERDICTS_STREAM);
    await callNaming('attacker-1', `$JS.API.STREAM.DELETE.${VERDICTS_STREAM}`);
    await expect(jsm.streams.info(VERDICTS_STREAM)).resolves.toMatchObject({ config: { name: VERDICTS_STREAM } });
  }, 30_000);

  it("should not write another session's stored state for a caller", async () => {
    await f.caller.check('victim', [{ ...CALL, id: 'v1' }]);
    const kv = await new Kvm(f.nc).open('loopwatch-sessions');
    for (let i = 0; i < 40 && (await kv.get('s.victim')) === null; i++) await new Promise((r) => setTimeout(r, 50));
    const before = (await kv.get('s.victim'))?.revision;
    expect(before).toBeGreaterThan(0);
    await callNaming('attacker-2', '$KV.loopwatch-sessions.s.victim');
    expect((await kv.get('s.victim'))?.revision).toBe(before);
  }, 30_000);

  it("should not publish into the service's own subjects for a caller", async () => {
    const heard: string[] = [];
    const sub = f.nc.subscribe('loopwatch.verdicts.victim2', { callback: (_e, m) => void heard.push(m.string()) });
    await f.nc.flush();
    await callNaming('attacker-3', 'loopwatch.verdicts.victim2');
    sub.unsubscribe();
    expect(heard).toEqual([]);
  }, 30_000);

  it.each(['_INBOX.x.y', 'my_inbox.caller-1.7'])('should answer on an inbox %s, and count the refused ones', async (inbox) => {
    const heard: string[] = [];
    const sub = f.nc.subscribe(inbox, { callback: (_e, m) => void heard.push(m.string()) });
    await f.nc.flush();
    await callNaming(`caller-${inbox}`, inbox);
    sub.unsubscribe();
    expect(heard.map((t) => JSON.parse(t) as { results: unknown[] }).map((a) => a.results)).toEqual([[{ id: `attack-${inbox}`, verdict: null }]]);
    expect(f.worker.stats.repliesRefused).toBe(3);
  }, 30_000);
});
