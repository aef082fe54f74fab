/**
 * `loopwatch serve` counts a call the same way whatever route it came in by: the same calls as Codex hook
 * payloads (/v1/hooks/codex) and as /v1/propose + /v1/record move /metrics (checks, decisions, verdicts,
 * blocked) and /healthz (calls, verdicts) alike. Before, the hook routes went around the counting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServeServer } from '../src/serve/serve-server.js';
import { afterPayload, beforePayload, proposeAction } from './helpers/hook-payloads.js';
import { post, request } from './helpers/http.js';
import type { ScriptedCall } from './helpers/live-scenarios.js';

let hooks: ServeServer;
let routes: ServeServer;
beforeAll(async () => {
  [hooks, routes] = await Promise.all([ServeServer.start({ port: 0 }), ServeServer.start({ port: 0 })]);
});
afterAll(async () => {
  await Promise.all([hooks.stop(), routes.stop()]);
});

/** The loopwatch_* series of a server whose names count calls, decisions or verdicts (not HTTP or process ones). */
async function detectionSeries(server: ServeServer): Promise<string[]> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return text.split('\n').filter((l) => /^loopwatch_(checks|decisions|verdicts|blocked|call_errors)_total/.test(l));
}

const failing: ScriptedCall = { tool: 'shell', args: { command: ['bash', '-lc', 'npm test'] }, error: 'npm ERR! Test failed. See above for more details.' };

describe('loopwatch serve counts every route the same way', () => {
  it('should count five Codex hook payloads (allow, allow, warn, deny, stop) as /v1/propose and /v1/record count the same calls', async () => {
    const actions: string[] = [];
    for (let i = 0; actions.length < 5; i++) {
      const id = `call_${i}`;
      const r = await fetch(`${hooks.url}/v1/hooks/codex`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(beforePayload('codex', 'run-1', failing, id)) });
      const action = proposeAction('codex', (await r.text()).trim());
      actions.push(action);
      const same = await post(`${routes.url}/v1/propose`, { session: 'run-1', id, tool: failing.tool, args: failing.args });
      expect(same.body.action).toBe(action);
      if (action === 'deny' || action === 'stop') continue;
      await fetch(`${hooks.url}/v1/hooks/codex`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(afterPayload('codex', 'run-1', failing, id, i)) });
      await post(`${routes.url}/v1/record`, { session: 'run-1', id, tool: failing.tool, args: failing.args, error: failing.error });
    }
    expect(actions).toEqual(['allow', 'allow', 'warn', 'deny', 'stop']);

    const series = await detectionSeries(hooks);
    expect(series).toEqual(await detectionSeries(routes));
    expect(series).toContain('loopwatch_decisions_total{phase="propose",action="deny"} 1');
    expect(series).toContain('loopwatch_decisions_total{phase="propose",action="stop"} 1');
    expect(series).toContain('loopwatch_blocked_total 2');
    expect(series.some((l) => l.startsWith('loopwatch_verdicts_total{'))).toBe(true);
    const health = (await request(`${hooks.url}/healthz`, 'GET')).body;
    expect(health).toMatchObject({ calls: 8, failed: 0 });
    expect(health.verdicts).toBeGreaterThan(0);
    const counts = (h: Record<string, unknown>): unknown[] => [h.calls, h.verdicts, h.failed, h.sessions];
    expect(counts(health)).toEqual(counts((await request(`${routes.url}/healthz`, 'GET')).body));
  });
});
