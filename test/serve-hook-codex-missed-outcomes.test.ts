/**
 * `loopwatch serve`'s Codex hook route reads the outcomes Codex never sends, as `loopwatch hook` does
 * (src/hooks/missed-records.ts, one function for both). Codex 0.171 sends no PostToolUse for a patch that
 * does not apply nor for an MCP tool's `isError`: the hook reads their outcome from the rollout at the
 * session's next hook, and denies the fourth identical broken patch; the same payloads posted to
 * `/v1/hooks/codex` were allowed four times out of four. The payloads and rollout lines are written in the
 * shapes Codex 0.171 wrote.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHook } from '../src/hooks/hook-run.js';
import { ServeServer } from '../src/serve/serve-server.js';
import { tempFolder } from './helpers/temp-folder.js';

const TURN = '01a24b69-536b-7091-9576-a02ff1ab3ebb';
const PATCH = '*** Begin Patch\n*** Update File: notes.txt\n@@\n-line three\n+line 3\n*** End Patch';
const NOT_APPLIED = 'apply_patch verification failed: Failed to find expected lines in /home/me/proj/notes.txt:\nline three';
const MCP_FAILED = { content: [{ type: 'text', text: 'no such key: beta' }], isError: true };
const line = (v: unknown): string => `${JSON.stringify(v)}\n`;
const item = (payload: unknown): string => line({ timestamp: 't', type: 'response_item', payload });

/** One failing kind of call: its hook tool and input, its rollout lines once it ran (Codex 0.171's shapes). */
interface Kind {
  readonly tool: string;
  readonly input: unknown;
  call(id: string): string;
  failed(id: string, session: string): string;
}

const PATCH_KIND: Kind = {
  tool: 'apply_patch',
  input: { command: PATCH },
  call: (id) => item({ type: 'custom_tool_call', id: `ctc_${id}`, call_id: id, name: 'apply_patch', input: PATCH }),
  failed: (id) => item({ type: 'custom_tool_call_output', call_id: id, output: NOT_APPLIED }),
};

const MCP_KIND: Kind = {
  tool: 'mcp__lw__lookup',
  input: { key: 'beta' },
  call: (id) => item({ type: 'function_call', id: `fc_${id}`, name: 'lookup', namespace: 'mcp__lw', arguments: '{"key":"beta"}', call_id: id }),
  failed: (id, session) =>
    line({ timestamp: 't', type: 'event_msg', payload: { type: 'item_completed', thread_id: session, turn_id: TURN, item: { type: 'McpToolCall', id, server: 'lw', tool: 'lookup', arguments: { key: 'beta' }, status: 'failed', result: MCP_FAILED } } }) +
    item({ type: 'function_call_output', call_id: id, output: [{ type: 'input_text', text: 'Wall time: 0.0077 seconds\nOutput:' }, { type: 'input_text', text: 'no such key: beta' }] }),
};

let server: ServeServer;
beforeAll(async () => {
  server = await ServeServer.start({ port: 0 });
});
afterAll(async () => {
  await server.stop();
});

const decisionOf = (out: string): string => (out.includes('"permissionDecision":"deny"') ? 'deny' : out.includes('additionalContext') ? 'warn' : 'allow');
let sessions = 0;

/**
 * Runs `n` failing calls of `kind` as Codex 0.171 does (a PreToolUse each, no PostToolUse), through `send`,
 * the rollout named `rolloutName`; the decisions.
 */
async function walk(kind: Kind, n: number, send: (payload: string) => Promise<string>, rolloutName = 'rollout-2026-12-06T12-52-03-s.jsonl'): Promise<string[]> {
  const session = `missed-${++sessions}`;
  const rollout = join(tempFolder('serve-codex-missed'), rolloutName);
  writeFileSync(rollout, line({ timestamp: 't', type: 'session_meta', payload: { id: session, cli_version: '0.171.0' } }));
  const decisions: string[] = [];
  for (let i = 1; i <= n; i++) {
    const id = `call_${i}`;
    appendFileSync(rollout, kind.call(id));
    const payload = { session_id: session, turn_id: TURN, transcript_path: rollout, cwd: '/home/me/proj', hook_event_name: 'PreToolUse', model: 'gpt-5.5', permission_mode: 'bypassPermissions', tool_name: kind.tool, tool_input: kind.input, tool_use_id: id };
    const d = decisionOf(await send(JSON.stringify(payload)));
    decisions.push(d);
    appendFileSync(rollout, d === 'deny' ? item({ type: 'function_call_output', call_id: id, output: 'Tool call blocked by PreToolUse hook: [loopwatch] ...' }) : kind.failed(id, session));
  }
  return decisions;
}

async function served(payload: string): Promise<string> {
  const res = await fetch(`${server.url}/v1/hooks/codex`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload });
  expect(res.headers.get('loopwatch-unchecked')).toBeNull();
  return res.text();
}

describe("serve's Codex hook route and the calls that failed without a PostToolUse", () => {
  it.each([PATCH_KIND, MCP_KIND])('should warn at the third failing $tool and deny the fourth, as `loopwatch hook` does', async (kind) => {
    const state = tempFolder('serve-codex-missed-hook');
    const hooked = await walk(kind, 4, async (p) => runHook(p, { agent: 'codex', stateDir: state }).stdout);
    expect(hooked).toEqual(['allow', 'allow', 'warn', 'deny']);
    expect(await walk(kind, 4, served)).toEqual(hooked);
  });

  it('should read no rollout not named .jsonl: the calls stay waiting, as before', async () => {
    expect(await walk(PATCH_KIND, 4, served, 'rollout.log')).toEqual(['allow', 'allow', 'allow', 'allow']);
  });

  it("should write serve's decision log (serve --log) as the hook's: the calls that failed without a PostToolUse among its lines", async () => {
    const dir = tempFolder('serve-codex-missed-log');
    const hookLog = join(dir, 'hook.jsonl');
    const serveLog = join(dir, 'serve.jsonl');
    const logged = await ServeServer.start({ port: 0, hookLog: serveLog });
    try {
      const viaServe = async (payload: string): Promise<string> => {
        const res = await fetch(`${logged.url}/v1/hooks/codex`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload });
        expect([res.headers.get('loopwatch-unchecked'), res.headers.get('loopwatch-log-error')]).toEqual([null, null]);
        return res.text();
      };
      const state = tempFolder('serve-codex-missed-log-hook');
      sessions = 100; // the same session names on both sides
      const hooked = await walk(MCP_KIND, 4, async (p) => runHook(p, { agent: 'codex', stateDir: state, log: hookLog }).stdout);
      sessions = 100;
      expect(await walk(MCP_KIND, 4, viaServe)).toEqual(hooked);
    } finally {
      await logged.stop();
    }
    const lines = (file: string): unknown[] => readFileSync(file, 'utf8').trim().split('\n').map((l) => ({ ...(JSON.parse(l) as Record<string, unknown>), time: '-', transcript_path: '-' }));
    const serveLines = lines(serveLog);
    expect(serveLines).toEqual(lines(hookLog));
    // the three failed lookups, recorded from the rollout, beside the four proposals
    expect(serveLines.map((l) => (l as Record<string, unknown>).hook_event_name)).toEqual(['PreToolUse', 'PostToolUseFailure', 'PreToolUse', 'PostToolUseFailure', 'PreToolUse', 'PostToolUseFailure', 'PreToolUse']);
  });
});
