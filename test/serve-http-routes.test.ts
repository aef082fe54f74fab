/**
 * `loopwatch serve` routes, in process on 127.0.0.1: single calls and batches give the verdicts of one
 * LoopDetector per session (the real traces too, skipped without ../shared), ids are echoed, sessions can be
 * snapshotted, restored and ended, and unknown paths or methods are refused with the routes that exist.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionEvent, Verdict } from '../src/index.js';
import { admitCall } from '../src/serve/call-door.js';
import { ServeServer } from '../src/serve/serve-server.js';
import { fleetEvents } from '../bench/fleet.js';
import { post, request } from './helpers/http.js';
import { traceCalls, traceDir } from './helpers/traces.js';
import { json, perSession } from './helpers/verdicts.js';

let server: ServeServer;
beforeAll(async () => {
  server = await ServeServer.start({ port: 0 });
});
afterAll(async () => {
  await server.stop();
});

/** The calls through batch requests of `size`, verdicts as json() text. */
async function throughBatches(events: readonly SessionEvent[], size: number): Promise<string[]> {
  const out: string[] = [];
  for (let at = 0; at < events.length; at += size) {
    const r = await post(`${server.url}/v1/check/batch`, { calls: events.slice(at, at + size) });
    expect(r.status).toBe(200);
    for (const x of r.body.results as { verdict: unknown }[]) out.push(json(x.verdict));
  }
  return out;
}

describe('loopwatch serve routes', () => {
  it('should give one LoopDetector per session\'s verdicts through single calls, with ids echoed', async () => {
    const events = fleetEvents(40, 12);
    const want = perSession(events);
    for (let i = 0; i < events.length; i++) {
      const r = await post(`${server.url}/v1/check`, { ...events[i], session: `single-${events[i]?.session}`, id: `call-${i}` });
      expect(r.status).toBe(200);
      expect(r.body.id).toBe(`call-${i}`);
      expect(json(r.body.verdict).replaceAll('single-', '')).toBe(want[i]);
    }
    expect(want.some((v) => v !== 'null')).toBe(true);
  });

  it('should give the same verdicts through batches of 1, 100 and 1,000 calls', async () => {
    const events = fleetEvents(300, 10);
    const want = perSession(events);
    for (const size of [1, 100, 1000]) {
      const prefixed = events.map((e) => ({ ...e, session: `b${size}-${e.session}` }));
      expect((await throughBatches(prefixed, size)).map((v) => v.replaceAll(`b${size}-`, '')), `batches of ${size}`).toEqual(want);
    }
  });

  it.skipIf(traceDir === null)('should agree with a LoopDetector per session fed the calls the door lets in, on every call of the real traces', async () => {
    const events = traceCalls().map(([session, e]): SessionEvent => ({ ...e, session: `trace-${session}` }));
    const want = perSession(events.map((e) => admitCall(e).call));
    // the door (secrets redacted, long values capped) changes no kind, action or place of a verdict here:
    // only signatures and the text of the calls that held a secret
    const where = (vs: readonly string[]): string[] => vs.map((v) => (v === 'null' ? '-' : ((o) => `${o.kind}/${o.action}/${o.index}`)(JSON.parse(v) as Verdict)));
    expect(where(want)).toEqual(where(perSession(events)));
    // (seconds of work with the event loop held: the server's keep-alive timer runs after the next request
    // is written, and no longer resets it: serve-keep-alive-idle.test.ts)
    expect(await throughBatches(events, 500)).toEqual(want);
  }, 120_000);

  it('should snapshot, restore and end a session', async () => {
    const call = { session: 'snap-1', tool: 'bash', args: { command: 'make' } };
    for (let i = 0; i < 2; i++) await post(`${server.url}/v1/check`, call);
    const snap = await fetch(`${server.url}/v1/sessions/snap-1/snapshot`);
    expect(snap.status).toBe(200);
    const bytes = new Uint8Array(await snap.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 4)).toString('latin1')).toBe('LWSS');
    // a third call gets a verdict; restoring the snapshot taken after two calls gives it again
    const third = await post(`${server.url}/v1/check`, call);
    expect(third.body.verdict?.kind).toBe('exact_repeat');
    expect((await request(`${server.url}/v1/sessions/snap-copy/snapshot`, 'PUT', bytes)).status).toBe(200);
    const again = await post(`${server.url}/v1/check`, { ...call, session: 'snap-copy' });
    expect(json(again.body.verdict)).toBe(json({ ...third.body.verdict, session: 'snap-copy' }));
    expect((await request(`${server.url}/v1/sessions/snap-1`, 'DELETE')).body).toEqual({ ended: true });
    expect((await request(`${server.url}/v1/sessions/snap-1`, 'DELETE')).body).toEqual({ ended: false });
    const gone = await fetch(`${server.url}/v1/sessions/snap-1/snapshot`);
    expect(gone.status).toBe(404);
  });

  it('should take any session id, percent-encoded in paths', async () => {
    const id = 'a/b c?d#é.💥';
    await post(`${server.url}/v1/check`, { session: id, tool: 'read' });
    const snap = await fetch(`${server.url}/v1/sessions/${encodeURIComponent(id)}/snapshot`);
    expect(snap.status).toBe(200);
    expect((await request(`${server.url}/v1/sessions/${encodeURIComponent(id)}`, 'DELETE')).body).toEqual({ ended: true });
  });

  it('should refuse a snapshot that is not one with 400, changing nothing', async () => {
    const r = await request(`${server.url}/v1/sessions/junk/snapshot`, 'PUT', new Uint8Array([1, 2, 3, 4, 5]));
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('bad_snapshot');
    expect((await fetch(`${server.url}/v1/sessions/junk/snapshot`)).status).toBe(404);
  });

  it('should answer unknown paths 404 and wrong methods 405 with Allow', async () => {
    const r = await request(`${server.url}/v1/nope`, 'GET');
    expect(r.status).toBe(404);
    expect(r.body.error.message).toContain('/v1/check');
    const m = await request(`${server.url}/v1/check`, 'GET');
    expect(m.status).toBe(405);
    expect(m.headers.get('allow')).toBe('POST');
  });

  it('should report health and counts', async () => {
    const r = await request(`${server.url}/healthz`, 'GET');
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('ok');
    expect(r.body.calls).toBeGreaterThan(0);
  });
});
