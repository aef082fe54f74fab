/**
 * Two-phase routes of `loopwatch serve` (/v1/propose before a call runs, /v1/record after, /v1/decide/batch
 * for both): the shared live scenarios get the decisions of one LoopDetector per session, one by one and
 * in batches, and bad bodies are refused naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import { ServeServer } from '../src/serve/serve-server.js';
import { post } from './helpers/http.js';
import { LEGITIMATE, STUCK } from './helpers/live-scenarios.js';

let server: ServeServer;
beforeAll(async () => {
  server = await ServeServer.start({ port: 0 });
});
afterAll(async () => {
  await server.stop();
});

const scenarios = [...LEGITIMATE, ...STUCK];

describe('loopwatch serve two-phase routes', () => {
  it('should answer /v1/propose and /v1/record as one LoopDetector per session, and batches alike', async () => {
    const batch: Record<string, unknown>[] = [];
    const want: string[] = [];
    for (const [k, s] of scenarios.entries()) {
      const session = `live-${k}`;
      const d = new LoopDetector({}, session);
      for (const [i, c] of s.calls.entries()) {
        const call = { session, id: `c${i}`, tool: c.tool, args: c.args };
        const p = await post(`${server.url}/v1/propose`, call);
        expect(p.status).toBe(200);
        const local = d.propose(call);
        expect(JSON.stringify(p.body)).toBe(JSON.stringify(local));
        batch.push({ ...call, session: `batch-${k}`, phase: 'propose' });
        want.push(JSON.stringify({ ...local, session: `batch-${k}`, ...(local.verdict === null ? {} : { verdict: { ...local.verdict, session: `batch-${k}` } }) }));
        if (local.action === 'deny' || local.action === 'stop') continue;
        const rec = { ...call, ...(c.error === undefined ? { result: c.result } : { error: c.error }) };
        const r = await post(`${server.url}/v1/record`, rec);
        const localRec = d.record(rec);
        expect(JSON.stringify(r.body)).toBe(JSON.stringify(localRec));
        batch.push({ ...rec, session: `batch-${k}`, phase: 'record' });
        want.push(JSON.stringify({ ...localRec, session: `batch-${k}`, ...(localRec.verdict === null ? {} : { verdict: { ...localRec.verdict, session: `batch-${k}` } }) }));
      }
      d.dispose();
      if (s.stuck) expect(want.some((w) => w.includes('"action":"deny"'))).toBe(true);
    }
    const got: string[] = [];
    for (let at = 0; at < batch.length; at += 50) {
      const r = await post(`${server.url}/v1/decide/batch`, { calls: batch.slice(at, at + 50) });
      expect(r.status).toBe(200);
      for (const x of r.body.results as unknown[]) got.push(JSON.stringify(x));
    }
    expect(got).toEqual(want);
  });

  it('should refuse a bad two-phase body with 400 naming the field', async () => {
    const noPhase = await post(`${server.url}/v1/decide/batch`, { calls: [{ session: 's', tool: 'a', phase: 'before' }] });
    expect(noPhase.status).toBe(400);
    expect(noPhase.body.error).toMatchObject({ code: 'bad_request', field: 'calls[0].phase' });
    const badId = await post(`${server.url}/v1/propose`, { session: 's', tool: 'a', id: 3 });
    expect(badId.status).toBe(400);
    expect(badId.body.error.field).toBe('id');
    const unknown = await post(`${server.url}/v1/record`, { session: 's', tool: 'a', phase: 'record' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.field).toBe('phase');
  });
});
