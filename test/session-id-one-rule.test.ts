/**
 * newuser30: one rule for what names a session (src/engine/session-id.ts): a non-empty string, at every door.
 * `serve` and the trace readers refused `''`, LoopEngine, LiveGuard and LoopPool took it (newuser29), so runs
 * whose name was an unset variable shared one session. Now the engine refuses it as serve does (LiveGuard
 * allows the call and says so once, as for any call it cannot read). And a single call's HTTP body with a
 * `phase` (the NATS shape) is pointed to the route that takes one.
 */
import { describe, expect, it } from 'vitest';
import { InvalidEventError, LiveGuard, LoopEngine } from '../src/index.js';
import { PHASE_IN_BODY, readCall } from '../src/serve/call-schema.js';
import { SESSION_ID_RULE } from '../src/engine/session-id.js';
import { thrown } from './helpers/thrown.js';

const call = { tool: 'bash', args: { command: 'ls' } };

describe("the empty session id ''", () => {
  it('should be refused by serve and by LoopEngine alike, naming the rule', () => {
    expect(thrown(() => readCall('', { session: '', ...call }))).toBeInstanceOf(InvalidEventError);
    const engine = new LoopEngine();
    for (const f of [() => engine.check('', call), () => engine.propose('', call), () => engine.record('', { ...call, result: 'a' })]) {
      const e = thrown(f);
      expect(e).toBeInstanceOf(InvalidEventError);
      expect((e as Error).message).toBe(`sessionId ${SESSION_ID_RULE}, received "" (string)`);
    }
    const [c] = engine.checkBatch([{ session: '', ...call }]);
    expect((c as Error).message).toBe(`events[0].session ${SESSION_ID_RULE}, received "" (string)`);
    const [d] = engine.decideBatch([{ session: '', phase: 'propose', ...call }]);
    expect((d as Error).message).toBe(`calls[0].session ${SESSION_ID_RULE}, received "" (string)`);
    expect(engine.stats().live).toBe(0);
    engine.close();
  });

  it('should make LiveGuard allow the call and say so once, never throw', () => {
    const errors: Error[] = [];
    const g = new LiveGuard({ onInternalError: (e) => void errors.push(e) });
    expect(g.propose('', call)).toMatchObject({ action: 'allow', failedOpen: true });
    expect(g.propose('', call)).toMatchObject({ action: 'allow', failedOpen: true });
    expect(errors.map((e) => e.message)).toEqual([`sessionId ${SESSION_ID_RULE}, received "" (string)`]);
    g.close();
  });
});

describe('a single call with a phase over HTTP', () => {
  it('should be refused with the route that takes calls with a phase', () => {
    const e = thrown(() => readCall('', { phase: 'propose', session: 's', ...call }));
    expect(e).toBeInstanceOf(InvalidEventError);
    expect((e as InvalidEventError).field).toBe('phase');
    expect((e as Error).message).toBe(PHASE_IN_BODY);
    expect(PHASE_IN_BODY).toContain('POST /v1/decide/batch');
    // a batch's calls and a NATS message's calls still take one
    expect(readCall('calls[0]', { session: 's', ...call }).tool).toBe('bash');
  });
});
