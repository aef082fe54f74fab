/**
 * Codex calls that failed without a PostToolUse (src/hooks/codex-missed-outcomes.ts). Walking the real Codex
 * CLI 0.171 (`codex exec` and the interactive `codex`, a scripted model server), a patch that does not apply
 * and an MCP tool answering `isError: true` got a PreToolUse and no PostToolUse: the hook held each as a call
 * that never ran, and allowed the same broken patch four times out of four (the same failing MCP lookup
 * too), where `scan` of the rollout breaks the loop at the fourth. The outcome is in the rollout by the
 * session's next hook; the hook now reads it there. The payloads and rollout lines are written in the
 * shapes Codex 0.171 wrote.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { missedResponses } from '../src/hooks/codex-missed-outcomes.js';
import { runHook } from '../src/hooks/hook-run.js';
import { tempFolder } from './helpers/temp-folder.js';

const SESSION = '01a24b5f-3ccc-7761-96fb-3b22af0cacc3';
const TURN = '01a24b5f-3cf6-7253-a70e-533267487b95';
const PATCH = '*** Begin Patch\n*** Update File: notes.txt\n@@\n-line three\n+line 3\n*** End Patch';
const NOT_APPLIED = 'apply_patch verification failed: Failed to find expected lines in /home/me/proj/notes.txt:\nline three';
const MCP_FAILED = { content: [{ type: 'text', text: 'no such key: beta' }], isError: true };

const line = (v: unknown): string => `${JSON.stringify(v)}\n`;
const item = (payload: unknown): string => line({ timestamp: 't', type: 'response_item', payload });
const event = (payload: unknown): string => line({ timestamp: 't', type: 'event_msg', payload });
const META = line({ timestamp: 't', type: 'session_meta', payload: { id: SESSION, cli_version: '0.171.0' } });

/** One kind of call as Codex 0.171 hooks and writes it: its hook tool and input, its rollout lines. */
interface Kind {
  readonly tool: string;
  readonly input: unknown;
  /** The model's call. */
  call(id: string): string;
  /** What Codex writes when the call is done, before its PostToolUse hooks (if any) run. */
  done(id: string, failed: boolean): string;
  /** The answer the model reads, written after the PostToolUse hooks. */
  answer(id: string, failed: boolean): string;
  /** What a PostToolUse would carry. */
  response(failed: boolean): unknown;
}

const PATCH_KIND: Kind = {
  tool: 'apply_patch',
  input: { command: PATCH },
  call: (id) => item({ type: 'custom_tool_call', id: `ctc_${id}`, call_id: id, name: 'apply_patch', input: PATCH }),
  done: () => '',
  answer: (id, failed) => item({ type: 'custom_tool_call_output', call_id: id, output: failed ? NOT_APPLIED : 'Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nM notes.txt\n' }),
  response: (failed) => (failed ? NOT_APPLIED : 'Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nM notes.txt\n'),
};

const MCP_KIND: Kind = {
  tool: 'mcp__lw__lookup',
  input: { key: 'beta' },
  call: (id) => item({ type: 'function_call', id: `fc_${id}`, name: 'lookup', namespace: 'mcp__lw', arguments: '{"key":"beta"}', call_id: id }),
  done: (id, failed) =>
    event({ type: 'item_completed', thread_id: SESSION, turn_id: TURN, item: { type: 'McpToolCall', id, server: 'lw', tool: 'lookup', arguments: { key: 'beta' }, status: failed ? 'failed' : 'completed', result: failed ? MCP_FAILED : { content: [{ type: 'text', text: 'beta is 7' }] } } }),
  // the answer says nothing of the error: only the item_completed does
  answer: (id, failed) => item({ type: 'function_call_output', call_id: id, output: [{ type: 'input_text', text: 'Wall time: 0.0077 seconds\nOutput:' }, { type: 'input_text', text: failed ? 'no such key: beta' : 'beta is 7' }] }),
  response: (failed) => (failed ? MCP_FAILED : { content: [{ type: 'text', text: 'beta is 7' }] }),
};

function payload(rollout: string, kind: Kind, eventName: 'PreToolUse' | 'PostToolUse', id: string, response?: unknown): string {
  return JSON.stringify({
    session_id: SESSION, turn_id: TURN, transcript_path: rollout, cwd: '/home/me/proj', hook_event_name: eventName, model: 'gpt-5.5', permission_mode: 'bypassPermissions',
    tool_name: kind.tool, tool_input: kind.input, ...(response === undefined ? {} : { tool_response: response }), tool_use_id: id,
  });
}

const prompt = (rollout: string, text: string): string =>
  JSON.stringify({ session_id: SESSION, turn_id: TURN, transcript_path: rollout, cwd: '/home/me/proj', hook_event_name: 'UserPromptSubmit', model: 'gpt-5.5', permission_mode: 'bypassPermissions', prompt: text });

function setUp(name: string): { rollout: string; log: string; options: { agent: 'codex'; stateDir: string; log: string } } {
  const dir = tempFolder(`codex-missed-${name}`);
  const rollout = join(dir, 'rollout.jsonl');
  const log = join(dir, 'decisions.jsonl');
  writeFileSync(rollout, META);
  return { rollout, log, options: { agent: 'codex', stateDir: join(dir, 'state'), log } };
}

const decisionOf = (stdout: string): string => (stdout.includes('"permissionDecision":"deny"') ? 'deny' : stdout.includes('additionalContext') ? 'warn' : 'allow');
const logLines = (log: string): Record<string, unknown>[] => readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

/**
 * Runs `n` failing calls of `kind` through the hook as Codex 0.171 does (no PostToolUse for them), or, with
 * `postToolUse`, as if it sent one with the failure; the decisions and the decision log's lines.
 */
function walk(name: string, kind: Kind, n: number, postToolUse = false): { decisions: string[]; log: Record<string, unknown>[] } {
  const { rollout, log, options } = setUp(name);
  const decisions: string[] = [];
  for (let i = 1; i <= n; i++) {
    const id = `call_${i}`;
    appendFileSync(rollout, kind.call(id));
    const d = decisionOf(runHook(payload(rollout, kind, 'PreToolUse', id), options).stdout);
    decisions.push(d);
    if (d === 'deny') {
      appendFileSync(rollout, item({ type: 'function_call_output', call_id: id, output: 'Tool call blocked by PreToolUse hook: [loopwatch] ...' }));
      continue;
    }
    appendFileSync(rollout, kind.done(id, true));
    if (postToolUse) runHook(payload(rollout, kind, 'PostToolUse', id, kind.response(true)), options);
    appendFileSync(rollout, kind.answer(id, true));
  }
  return { decisions, log: logLines(log) };
}

describe('a Codex call that failed without a PostToolUse', () => {
  it('should warn about a patch that does not apply, proposed a third time, and deny the fourth', () => {
    const { decisions, log } = walk('patch', PATCH_KIND, 4);
    expect(decisions).toEqual(['allow', 'allow', 'warn', 'deny']);
    const failures = log.filter((l) => l.hook_event_name === 'PostToolUseFailure');
    expect(failures.map((l) => l.tool_use_id)).toEqual(['call_1', 'call_2', 'call_3']);
    for (const l of failures) expect(l.error).toBe(NOT_APPLIED);
  });

  it('should do the same for an MCP tool that answers isError, its failure read from item_completed', () => {
    const { decisions, log } = walk('mcp', MCP_KIND, 4);
    expect(decisions).toEqual(['allow', 'allow', 'warn', 'deny']);
    const failures = log.filter((l) => l.hook_event_name === 'PostToolUseFailure');
    expect(failures).toHaveLength(3);
    for (const l of failures) {
      expect(l.tool_name).toBe('mcp__lw__lookup');
      expect(JSON.parse(l.error as string)).toEqual(MCP_FAILED);
    }
  });

  it('should decide as when Codex sends the failure as PostToolUse', () => {
    for (const kind of [PATCH_KIND, MCP_KIND]) {
      const missed = walk(`same-${kind.tool}`, kind, 6);
      const sent = walk(`sent-${kind.tool}`, kind, 6, true);
      expect(missed.decisions).toEqual(sent.decisions);
      const outcomes = (l: Record<string, unknown>[]): unknown[] => l.filter((x) => x.hook_event_name !== 'PreToolUse').map((x) => [x.tool_use_id, x.error, x.tool_response]);
      expect(outcomes(missed.log)).toEqual(outcomes(sent.log));
    }
  });

  it('should record a call at most once: not while its PostToolUse may still come, once when it came', () => {
    const { rollout, log, options } = setUp('once');
    // call_1 is done (item_completed written) and its PostToolUse not run yet when a call beside it is proposed
    appendFileSync(rollout, MCP_KIND.call('call_1') + MCP_KIND.call('call_2'));
    runHook(payload(rollout, MCP_KIND, 'PreToolUse', 'call_1'), options);
    appendFileSync(rollout, MCP_KIND.done('call_1', false));
    runHook(payload(rollout, MCP_KIND, 'PreToolUse', 'call_2'), options);
    expect(logLines(log).filter((l) => l.hook_event_name !== 'PreToolUse')).toEqual([]);
    runHook(payload(rollout, MCP_KIND, 'PostToolUse', 'call_1', MCP_KIND.response(false)), options);
    appendFileSync(rollout, MCP_KIND.answer('call_1', false) + MCP_KIND.done('call_2', false));
    runHook(payload(rollout, MCP_KIND, 'PostToolUse', 'call_2', MCP_KIND.response(false)), options);
    appendFileSync(rollout, MCP_KIND.answer('call_2', false));
    runHook(prompt(rollout, 'now save it'), options);
    const records = logLines(log).filter((l) => l.hook_event_name !== 'PreToolUse');
    expect(records.map((l) => l.tool_use_id)).toEqual(['call_1', 'call_2']);
  });

  it("should record the turn's last failed call when the person's next prompt comes", () => {
    const { rollout, log, options } = setUp('prompt');
    appendFileSync(rollout, PATCH_KIND.call('call_1'));
    runHook(payload(rollout, PATCH_KIND, 'PreToolUse', 'call_1'), options);
    appendFileSync(rollout, PATCH_KIND.answer('call_1', true) + item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'The patch does not apply.' }] }));
    runHook(prompt(rollout, 'read the file first'), options);
    const records = logLines(log).filter((l) => l.hook_event_name !== 'PreToolUse');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ hook_event_name: 'PostToolUseFailure', tool_use_id: 'call_1', error: NOT_APPLIED });
  });

  it('should leave a patch the person rejected as not run, never denied for repeating', () => {
    const { rollout, log, options } = setUp('rejected');
    const decisions: string[] = [];
    for (let i = 1; i <= 5; i++) {
      const id = `call_${i}`;
      appendFileSync(rollout, PATCH_KIND.call(id));
      decisions.push(decisionOf(runHook(payload(rollout, PATCH_KIND, 'PreToolUse', id), options).stdout));
      appendFileSync(rollout, item({ type: 'custom_tool_call_output', call_id: id, output: 'patch rejected by user' }));
    }
    expect(decisions).toEqual(['allow', 'allow', 'allow', 'allow', 'allow']);
    expect(logLines(log).filter((l) => l.hook_event_name !== 'PreToolUse')).toEqual([]);
  });
});

describe('missedResponses', () => {
  const dir = tempFolder('codex-missed-responses');
  const rollout = join(dir, 'r.jsonl');
  writeFileSync(rollout, META + PATCH_KIND.call('call_a') + PATCH_KIND.answer('call_a', true) + MCP_KIND.call('call_b') + MCP_KIND.done('call_b', true) + MCP_KIND.answer('call_b', true) + MCP_KIND.call('call_c') + MCP_KIND.done('call_c', true));
  const waiting = [
    { id: 'call_a', tool: 'apply_patch', args: { command: PATCH } },
    { id: 'call_b', tool: 'mcp__lw__lookup', args: { key: 'beta' } },
    { id: 'call_c', tool: 'mcp__lw__lookup', args: { key: 'beta' } },
    { id: 'call_z', tool: 'apply_patch', args: { command: PATCH } },
  ];

  it("should give each answered call's response, as PostToolUse would carry it, in the waiting calls' order", () => {
    expect(missedResponses({ transcript_path: rollout }, waiting)).toEqual([
      { call: waiting[0], response: NOT_APPLIED },
      { call: waiting[1], response: MCP_FAILED },
    ]);
  });

  it('should give nothing for a rollout not named .jsonl, missing, relative, or no call waiting', () => {
    const named = join(dir, 'r.log');
    writeFileSync(named, readFileSync(rollout));
    expect(missedResponses({ transcript_path: named }, waiting)).toEqual([]);
    expect(missedResponses({ transcript_path: join(dir, 'missing.jsonl') }, waiting)).toEqual([]);
    expect(missedResponses({ transcript_path: 'r.jsonl' }, waiting)).toEqual([]);
    expect(missedResponses({ transcript_path: rollout }, [])).toEqual([]);
  });
});
