/**
 * A record kind a reader does not know is said, once per kind per input, not dropped unseen: the OpenHands
 * SDK's (a kind a later SDK adds, here a made-up `ACPPlanEvent`; its `ACPToolCallEvent` is read: formats-openhands-acp-calls.test.ts), an ATIF step
 * source past the spec's three, a chat message role the OpenAI or Anthropic reader (and mini-swe-agent's,
 * through it) does not know, a SWE-agent history role. One helper (unknown-kinds.ts) for all of them; the
 * scan counts them in its summary (text, `--json`), and a note is no skip (the exit code is unchanged).
 * Known kinds stay quiet (mini-swe-agent 2.x's `exit` message, the SDK's `InterruptEvent`).
 */
import { describe, expect, it } from 'vitest';
import { MAX_KINDS_SAID, UnknownKinds } from '../src/formats/unknown-kinds.js';
import { loopwatch } from './helpers/cli.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { write } = scratchDir('formats-unknown-kinds');
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
let n = 0;
const id = (): string => `0000${(n++).toString(16).padStart(4, '0')}-1111-4222-8333-444455556666`;
const at = '2026-11-02T09:00:00.000000';
const sdkAction = (call: string) => ({ id: id(), timestamp: at, source: 'agent', thought: [], action: { command: 'ls', kind: 'TerminalAction' }, tool_name: 'terminal', tool_call_id: call, tool_call: { id: call, name: 'terminal', arguments: '{"command": "ls"}', origin: 'completion' }, llm_response_id: `r${call}`, kind: 'ActionEvent' });
const sdkObservation = (call: string) => ({ id: id(), timestamp: at, source: 'environment', tool_name: 'terminal', tool_call_id: call, observation: { content: [{ type: 'text', text: 'a.py' }], is_error: false, exit_code: 0, kind: 'TerminalObservation' }, action_id: 'x', kind: 'ObservationEvent' });
const acp = (call: string, kind = 'ACPPlanEvent') => ({ id: id(), timestamp: at, source: 'agent', tool_call_id: call, title: 'Plan', status: 'completed', kind });

/** The notes of the items read from `files`, as file:line: message. */
const notes = async (files: string[]) => (await collect(files)).filter((i) => i.kind === 'note').map((i) => (i.kind === 'note' ? `${i.file}:${i.line}: ${i.message}` : ''));

describe('unknown record kinds are said once per kind per input', () => {
  it('should say an OpenHands SDK event kind it does not know once for its input, the calls it knows read, InterruptEvent quiet', async () => {
    const file = write('acp.jsonl', jsonl([sdkAction('c1'), sdkObservation('c1'), acp('a1'), acp('a2'), { id: id(), timestamp: at, source: 'user', kind: 'InterruptEvent' }, acp('a3')]));
    const other = write('acp-2.jsonl', jsonl([sdkAction('c1'), acp('a1')]));
    expect(await notes([file, other])).toEqual([
      `${file}:3: passed over: OpenHands SDK event kind "ACPPlanEvent", which loopwatch does not know (said once for this input); calls it may hold are not read`,
      `${other}:2: passed over: OpenHands SDK event kind "ACPPlanEvent", which loopwatch does not know (said once for this input); calls it may hold are not read`,
    ]);
    expect((await collect([file])).filter((i) => i.kind === 'call')).toHaveLength(1);
  });

  it('should say an ATIF step source, a chat role and a SWE-agent history role the readers do not know', async () => {
    const atif = write('trajectory.json', JSON.stringify({ schema_version: 'ATIF-v1.6', session_id: 's1', agent: { name: 'x' }, steps: [{ step_id: 1, source: 'user', message: 'go' }, { step_id: 2, source: 'agent', tool_calls: [{ tool_call_id: 't1', function_name: 'bash', arguments: { cmd: 'ls' } }] }, { step_id: 3, source: 'environment', message: 'tick' }, { step_id: 4, source: 'environment', message: 'tick' }] }));
    const chat = write('chat.json', JSON.stringify({ id: 'c', messages: [{ role: 'assistant', content: '', tool_calls: [{ id: 't1', type: 'function', function: { name: 'bash', arguments: '{}' } }] }, { role: 'tool', tool_call_id: 't1', content: 'ok' }, { type: 'function_call', call_id: 't2', name: 'bash', arguments: '{}' }, { role: 'exit', content: 'done' }] }));
    const claude = write('claude.json', JSON.stringify({ id: 'm', messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content: [{ type: 'tool_use', id: 'u1', name: 'Read', input: {} }] }, { role: 'reviewer', content: [{ type: 'text', text: 'ok' }] }] }));
    const swe = write('run.traj', JSON.stringify({ history: [{ role: 'system', content: 'x' }, { role: 'assistant', action: 'ls', thought: 't' }, { role: 'user', content: 'a.py' }, { role: 'critic', content: 'no' }] }));
    expect(await notes([atif, chat, claude, swe])).toEqual([
      `${atif}:1: passed over: ATIF step source "environment", which loopwatch does not know (said once for this input); calls it may hold are not read`,
      `${chat}:1: passed over: OpenAI chat message role or item type "function_call", which loopwatch does not know (said once for this input); calls it may hold are not read`,
      `${claude}:1: passed over: Anthropic message role "reviewer", which loopwatch does not know (said once for this input); calls it may hold are not read`,
      `${swe}:1: passed over: SWE-agent history message role "critic", which loopwatch does not know (said once for this input); calls it may hold are not read`,
    ]);
  });

  it('should count them in the summary and keep the exit code of a clean scan', () => {
    const file = write('count/acp.jsonl', jsonl([sdkAction('c1'), sdkObservation('c1'), acp('a1'), acp('a2', 'ACPDiffEvent')]));
    const text = loopwatch(['scan', file, '--no-progress']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('passed over: 2 record kinds the readers do not know');
    const doc = JSON.parse(loopwatch(['scan', file, '--json', '--no-progress']).stdout) as { summary: Record<string, unknown> };
    expect(doc.summary.unknownKinds).toBe(2);
    expect(doc.summary.samplesPassedOver).toBe(0);
  });

  it('should name at most MAX_KINDS_SAID kinds per input, then say the rest once', () => {
    const u = new UnknownKinds('kind');
    const said = Array.from({ length: MAX_KINDS_SAID + 5 }, (_, i) => u.note(`K${i}`, 'f', i + 1)).filter((x) => x !== null);
    expect(said).toHaveLength(MAX_KINDS_SAID + 1);
    expect(said.at(-1)?.message).toContain(`more than ${MAX_KINDS_SAID} kinds of kind`);
    expect(u.note('K0', 'f', 99)).toBeNull();
    expect(new UnknownKinds('kind').note('x'.repeat(500), 'f', 1)?.message.length).toBeLessThan(250);
  });
});
