/**
 * Codex MCP calls read from a rollout as the Codex hook reads them (src/formats/codex-mcp.ts). Walking
 * Codex CLI 0.171 with an MCP server, the hook named a call `mcp__lw__lookup` and read the server's
 * `isError` as a failure, where `scan` of the same rollout named it `lookup` (the rollout writes the bare
 * tool in the namespace `mcp__lw`) and read its outcome as unknown (its output line, `Wall time: ...\nOutput:`
 * and the text, says nothing of the error; only the `McpToolCall` `item_completed` event does). So the same
 * four failing lookups were a loop to the hook and not to scan. The lines are written in Codex 0.171's shapes.
 */
import { appendFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TraceCall } from '../src/formats/trace-record.js';
import { missedResponses } from '../src/hooks/codex-missed-outcomes.js';
import { runHook } from '../src/hooks/hook-run.js';
import { collect, scratchDir } from './helpers/trace-files.js';
import { actionsOf, verdictsOf } from './helpers/verdicts.js';

const { dir, write } = scratchDir('formats-codex-mcp-calls');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SESSION = '01a24b5f-3ccc-7761-96fb-3b22af0cacc3';
const TURN = '01a24b5f-3cf6-7253-a70e-533267487b95';
const NO_KEY = { content: [{ type: 'text', text: 'no such key: beta' }], isError: true };
const line = (v: unknown): string => `${JSON.stringify(v)}\n`;
const item = (payload: unknown): string => line({ timestamp: 't', type: 'response_item', payload });
const event = (payload: unknown): string => line({ timestamp: 't', type: 'event_msg', payload });
const META = line({ timestamp: 't', type: 'session_meta', payload: { id: SESSION, cli_version: '0.171.0' } });

/** An MCP call of `lw` as Codex 0.171 writes it: the call, its end event (with the server's result), the output the model reads. */
function mcpCall(id: string, tool: string, args: Record<string, unknown>, result: { content: { type: string; text: string }[]; isError?: boolean }): string {
  const call = item({ type: 'function_call', id: `fc_${id}`, name: tool, namespace: 'mcp__lw', arguments: JSON.stringify(args), call_id: id });
  const done = event({ type: 'item_completed', thread_id: SESSION, turn_id: TURN, item: { type: 'McpToolCall', id, server: 'lw', tool, arguments: args, status: result.isError === true ? 'failed' : 'completed', result } });
  const output = item({ type: 'function_call_output', call_id: id, output: [{ type: 'input_text', text: 'Wall time: 0.0077 seconds\nOutput:' }, ...result.content.map((c) => ({ type: 'input_text', text: c.text }))] });
  return call + done + output;
}

const calls = async (file: string): Promise<TraceCall[]> => {
  const items = await collect([file]);
  expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
  return items.filter((i): i is TraceCall => i.kind === 'call');
};

describe('Codex MCP calls in a rollout', () => {
  it('should name a call in an mcp__ namespace as the hook does, and judge it by its item_completed result', async () => {
    const file = write('rollout-2026-12-06T12-41-02-mcp.jsonl', META + mcpCall('call_1', 'lookup', { key: 'beta' }, NO_KEY) + mcpCall('call_2', 'save_note', { text: 'alpha is 42' }, { content: [{ type: 'text', text: 'saved (1 notes)' }] }));
    const [failed, saved] = await calls(file);
    expect([failed?.event.tool, failed?.errorInfo, failed?.event.error]).toEqual(['mcp__lw__lookup', 'known', JSON.stringify(NO_KEY)]);
    expect([saved?.event.tool, saved?.errorInfo, saved?.event.result]).toEqual(['mcp__lw__save_note', 'absent', { content: [{ type: 'text', text: 'saved (1 notes)' }] }]);
  });

  it("should keep a namespace's own separator (Codex 0.12x: mcp__serena__), and leave other namespaces and bare names as they were", async () => {
    const file = write('rollout-2026-04-23T09-46-23-ns.jsonl', META + [
      item({ type: 'function_call', name: 'read_memory', namespace: 'mcp__serena__', arguments: '{"memory_name":"overview"}', call_id: 'c1' }),
      item({ type: 'function_call_output', call_id: 'c1', output: 'the overview' }),
      item({ type: 'function_call', name: 'open', namespace: 'browser', arguments: '{}', call_id: 'c2' }),
      item({ type: 'function_call_output', call_id: 'c2', output: 'opened' }),
      item({ type: 'function_call', name: 'mcp__omx_state__state_write', arguments: '{}', call_id: 'c3' }),
      item({ type: 'function_call_output', call_id: 'c3', output: 'written' }),
    ].join(''));
    expect((await calls(file)).map((c) => [c.event.tool, c.errorInfo])).toEqual([['mcp__serena__read_memory', 'unknown'], ['open', 'unknown'], ['mcp__omx_state__state_write', 'unknown']]);
  });

  it("should judge an older Codex's call by its mcp_tool_call_end (result Ok or Err), as the hook's missed-outcome reader does", async () => {
    // codex-rs protocol McpToolCallEndEvent {call_id, invocation, duration, result: Result<CallToolResult, String>}, serde's {"Ok"}/{"Err"}
    const end = (id: string, result: unknown): string => event({ type: 'mcp_tool_call_end', call_id: id, invocation: { server: 'lw', tool: 'lookup', arguments: { key: 'beta' } }, duration: { secs: 0, nanos: 1618650 }, result });
    const call = (id: string): string => item({ type: 'function_call', name: 'mcp__lw__lookup', arguments: '{"key":"beta"}', call_id: id });
    const output = (id: string, text: string): string => item({ type: 'function_call_output', call_id: id, output: text });
    const file = write('rollout-2025-09-10T08-00-00-end.jsonl', META + [
      call('c1'), end('c1', { Ok: NO_KEY }), output('c1', 'no such key: beta'),
      call('c2'), end('c2', { Err: 'tool call failed for `lw/lookup`: timed out' }), output('c2', 'err: tool call failed for `lw/lookup`: timed out'),
      call('c3'), end('c3', { Ok: { content: [{ type: 'text', text: 'beta is 7' }] } }), output('c3', 'beta is 7'),
    ].join(''));
    const read = await calls(file);
    const TIMED_OUT = { content: [{ type: 'text', text: 'tool call failed for `lw/lookup`: timed out' }], isError: true };
    expect(read.map((c) => [c.event.tool, c.errorInfo, c.event.error ?? c.event.result])).toEqual([
      ['mcp__lw__lookup', 'known', JSON.stringify(NO_KEY)],
      ['mcp__lw__lookup', 'known', JSON.stringify(TIMED_OUT)],
      ['mcp__lw__lookup', 'absent', { content: [{ type: 'text', text: 'beta is 7' }] }],
    ]);
    const waiting = ['c1', 'c2', 'c3'].map((id) => ({ id, tool: 'mcp__lw__lookup', args: { key: 'beta' } }));
    expect(missedResponses({ transcript_path: file }, waiting).map((m) => m.response)).toEqual([NO_KEY, TIMED_OUT, { content: [{ type: 'text', text: 'beta is 7' }] }]);
  });

  it("should read a 0.171 McpToolCall that never reached its tool (an error, no result) as a failure", async () => {
    const id = 'call_5';
    const file = write('rollout-2026-12-06T12-41-04-error.jsonl', META +
      item({ type: 'function_call', id: `fc_${id}`, name: 'lookup', namespace: 'mcp__lw', arguments: '{"key":"beta"}', call_id: id }) +
      event({ type: 'item_completed', thread_id: SESSION, turn_id: TURN, item: { type: 'McpToolCall', id, server: 'lw', tool: 'lookup', arguments: { key: 'beta' }, status: 'failed', result: null, error: { message: 'server lw is not running' } } }) +
      item({ type: 'function_call_output', call_id: id, output: 'server lw is not running' }));
    const [c] = await calls(file);
    expect([c?.event.tool, c?.errorInfo, c?.event.error]).toEqual(['mcp__lw__lookup', 'known', JSON.stringify({ content: [{ type: 'text', text: 'server lw is not running' }], isError: true })]);
  });

  it('should read an output without its item_completed as before', async () => {
    const file = write('rollout-2026-12-06T12-41-03-noevent.jsonl', META + item({ type: 'function_call', name: 'lookup', namespace: 'mcp__lw', arguments: '{"key":"beta"}', call_id: 'c1' }) + item({ type: 'function_call_output', call_id: 'c1', output: [{ type: 'input_text', text: 'Wall time: 0.0077 seconds\nOutput:' }, { type: 'input_text', text: 'no such key: beta' }] }));
    const [c] = await calls(file);
    expect([c?.event.tool, c?.errorInfo]).toEqual(['mcp__lw__lookup', 'unknown']);
  });

  it('should break a loop of the same failing lookup where the hook does: warned at the third, denied at the fourth', async () => {
    const hookDir = join(dir, 'hook');
    const rollout = join(dir, 'rollout-2026-12-06T12-52-57-hook.jsonl');
    writeFileSync(rollout, META);
    const options = { agent: 'codex' as const, stateDir: join(hookDir, 'state') };
    const hook: string[] = [];
    for (let i = 1; i <= 4; i++) {
      const id = `call_${i}`;
      const p = { session_id: SESSION, turn_id: TURN, transcript_path: rollout, cwd: '/home/me/proj', hook_event_name: 'PreToolUse', model: 'gpt-5.5', permission_mode: 'bypassPermissions', tool_name: 'mcp__lw__lookup', tool_input: { key: 'beta' }, tool_use_id: id };
      appendFileSync(rollout, item({ type: 'function_call', id: `fc_${id}`, name: 'lookup', namespace: 'mcp__lw', arguments: '{"key":"beta"}', call_id: id }));
      const out = runHook(JSON.stringify(p), options).stdout;
      hook.push(out.includes('"permissionDecision":"deny"') ? 'deny' : out.includes('additionalContext') ? 'warn' : 'allow');
      if (hook.at(-1) === 'deny') {
        appendFileSync(rollout, item({ type: 'function_call_output', call_id: id, output: 'Tool call blocked by PreToolUse hook: [loopwatch] ... Tool: mcp__lw__lookup' }));
        continue;
      }
      // Codex 0.171 sends no PostToolUse for an isError: the call's end and output are all there is
      appendFileSync(rollout, mcpCall(id, 'lookup', { key: 'beta' }, NO_KEY).split('\n').slice(1).join('\n'));
    }
    expect(hook).toEqual(['allow', 'allow', 'warn', 'deny']);
    // scan of the rollout: the three calls that ran are one tool's, each a known failure, and looping at the third as the hook found
    const read = await calls(rollout);
    expect(read.slice(0, 3).map((c) => [c.event.tool, c.errorInfo])).toEqual(Array.from({ length: 3 }, () => ['mcp__lw__lookup', 'known']));
    expect(actionsOf(verdictsOf(read.map((c) => c.event)))).toEqual(['-', '-', 'warn', 'break']);
  });
});
