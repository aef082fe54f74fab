/**
 * `loopwatch serve`'s hook routes (/v1/hooks/claude-code, /codex, /gemini): each agent's payloads get the
 * replies `loopwatch hook` gives (the same codecs), with the sessions in the server's memory; the shared
 * scenarios decide as the library does; an unreadable payload is answered empty (the agent goes on) with
 * the reason in a header.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import { ServeServer } from '../src/serve/serve-server.js';
import { AGENTS, afterPayload, beforePayload, proposeAction } from './helpers/hook-payloads.js';
import { LEGITIMATE, STUCK } from './helpers/live-scenarios.js';

let server: ServeServer;
beforeAll(async () => {
  server = await ServeServer.start({ port: 0 });
});
afterAll(async () => {
  await server.stop();
});

async function hookPost(agent: string, payload: unknown): Promise<{ status: number; body: string; unchecked: string | null }> {
  const res = await fetch(`${server.url}/v1/hooks/${agent}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof payload === 'string' ? payload : JSON.stringify(payload) });
  return { status: res.status, body: await res.text(), unchecked: res.headers.get('loopwatch-unchecked') };
}

describe('loopwatch serve hook routes', () => {
  for (const agent of AGENTS) {
    it(`should decide ${agent}'s payloads as the library does: stuck scenarios denied, legitimate ones never`, async () => {
      for (const [k, s] of [...STUCK, ...LEGITIMATE].entries()) {
        const session = `${agent}-${k}`;
        const local = new LoopDetector({}, session);
        const got: string[] = [];
        const want: string[] = [];
        for (const [i, c] of s.calls.entries()) {
          const id = `toolu_${i}`;
          const r = await hookPost(agent, beforePayload(agent, session, c, id));
          expect(r.status).toBe(200);
          expect(r.unchecked).toBeNull();
          const action = proposeAction(agent, r.body.trim());
          // Gemini's payloads have no call id: calls are paired by their order, as the library pairs them by tool
          const d = local.propose({ tool: c.tool, args: c.args, ...(agent === 'gemini' ? {} : { id }) });
          got.push(action);
          want.push(d.action);
          if (d.action === 'deny' || d.action === 'stop') continue;
          expect((await hookPost(agent, afterPayload(agent, session, c, id, i))).status).toBe(200);
          local.record({ tool: c.tool, args: c.args, ...(agent === 'gemini' ? {} : { id }), ...(c.error === undefined ? { result: c.result } : { error: c.error }) });
        }
        local.dispose();
        // what the agent reads from the reply is the library's decision, but a warning that would repeat the one
        // the route last said is not said again (src/hooks/said-once.ts, as `loopwatch hook`): the same blocks at
        // the same calls, the same first warning, no warning of its own
        const blocks = (a: readonly string[]): string[] => a.map((x, i) => (x === 'deny' || x === 'stop' ? `${i}:${x}` : '')).filter((x) => x !== '');
        expect(blocks(got)).toEqual(blocks(want));
        expect(got.find((a) => a !== 'allow')).toEqual(want.find((a) => a !== 'allow'));
        got.forEach((a, i) => expect([want[i], 'allow']).toContain(a));
        if (s.stuck) expect(got.some((a) => a === 'deny')).toBe(true);
        else expect(got.filter((a) => a === 'deny' || a === 'stop')).toEqual([]);
      }
    });
  }

  it("should leave a payload whose session id holds a lone surrogate unchecked, as serve's door refuses it", async () => {
    // in UTF-8 `a\ud800` and `a\ufffd` are one id: they would share a state file (serve-session-id-unicode)
    for (const agent of AGENTS) {
      const call = { tool: 'bash', args: { command: 'ls' }, result: 'a.txt' };
      const r = await hookPost(agent, beforePayload(agent, 'a\ud800', call, 'toolu_lone'));
      expect(r.status).toBe(200);
      expect(r.body).toBe('');
      expect(r.unchecked).toMatch(/well-formed Unicode/);
      const fine = await hookPost(agent, beforePayload(agent, 'a\ufffd', call, 'toolu_fine'));
      expect(fine.unchecked).toBeNull();
    }
  });

  it('should answer an unreadable payload with an empty body and the reason in a header, and refuse an unknown agent', async () => {
    const bad = await hookPost('claude-code', '{"hook_event_name": "PreToolUse", "session_id": "s", "tool_name": "sk-proj-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"');
    expect(bad.status).toBe(200);
    expect(bad.body).toBe('');
    expect(bad.unchecked).toMatch(/could not be read as Claude Code's/);
    expect(bad.unchecked).not.toContain('ABCDEFGHIJKLMNOP');
    const other = await hookPost('claude-code', { hook_event_name: 'BeforeTool', session_id: 's', tool_name: 'run_shell_command', tool_input: {} });
    expect(other.body).toBe('');
    expect(other.unchecked).toMatch(/Gemini CLI event/);
    expect((await hookPost('cursor', {})).status).toBe(404);
    expect((await hookPost('gemini', { hook_event_name: 'Notification', session_id: 's' })).body).toBe('');
  });
});
