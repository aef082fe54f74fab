/**
 * Session state in the key-value bucket of a real nats-server: stored values round-trip (and bytes that are
 * not one are refused, saying why); a write that meets another writer keeps whichever state goes further in
 * the stream, so a stored state never goes back.
 */
import { Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionStore, decodeStored, encodeStored } from '../src/serve/nats/session-store.js';
import { type NatsServer, natsServerBinary, startNatsServer } from './helpers/nats-server.js';

const state = (lastSeq: number, byte: number) => ({ lastSeq, calls: lastSeq, ended: false, snapshot: new Uint8Array([byte, byte, byte]) });

describe('stored sessions', () => {
  it('should round-trip, and refuse bytes that are not one', () => {
    const s = { lastSeq: 2 ** 40 + 3, calls: 7, ended: true, snapshot: new Uint8Array([1, 2, 3]) };
    const back = decodeStored(encodeStored(s));
    expect({ ...back, snapshot: [...back.snapshot] }).toEqual({ ...s, snapshot: [1, 2, 3] });
    expect(() => decodeStored(new Uint8Array(5))).toThrow(/at least 20 bytes/);
    expect(() => decodeStored(new Uint8Array(30))).toThrow(/bad magic/);
  });
});

describe.skipIf(natsServerBinary === null)('the session store on a real server', () => {
  let server: NatsServer;
  let nc: NatsConnection;
  let store: SessionStore;
  beforeAll(async () => {
    server = await startNatsServer();
    nc = await connect({ servers: server.url });
    store = new SessionStore(await new Kvm(nc).create('loopwatch-sessions', { history: 1 }));
  }, 30_000);
  afterAll(async () => {
    await nc?.close();
    await server?.stop();
  });

  it('should write, read back, and write again at the revision read', async () => {
    expect(await store.load('a')).toEqual({ stored: null, revision: 0 });
    const first = await store.save('a', 0, state(5, 1));
    const loaded = await store.load('a');
    expect(loaded.revision).toBe(first.revision);
    expect(loaded.stored?.lastSeq).toBe(5);
    const second = await store.save('a', loaded.revision, state(9, 2));
    expect(second).toEqual({ revision: expect.any(Number), lastSeq: 9 });
  });

  it('should keep another writer\'s state when it goes further, and write over one that does not', async () => {
    const r0 = (await store.save('b', 0, state(10, 1))).revision;
    // another writer (a stalled former owner) got further
    await store.save('b', r0, state(20, 2));
    const kept = await store.save('b', r0, state(15, 3));
    expect(kept.lastSeq).toBe(20);
    expect((await store.load('b')).stored?.snapshot[0]).toBe(2);
    // another writer that is behind: written over
    const r1 = (await store.load('b')).revision;
    await store.save('b', r1, state(21, 4));
    const over = await store.save('b', r1, state(30, 5));
    expect(over.lastSeq).toBe(30);
    expect((await store.load('b')).stored?.snapshot[0]).toBe(5);
  });

  it('should say what is wrong with a value that is not a stored session', async () => {
    const kv = await new Kvm(nc).open('loopwatch-sessions');
    await kv.put('s.c', new Uint8Array([1, 2, 3]));
    const loaded = await store.load('c');
    expect(loaded.stored).toBeNull();
    expect(loaded.problem).toMatch(/at least 20 bytes/);
  });
});
