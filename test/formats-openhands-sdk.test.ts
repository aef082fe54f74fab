/**
 * OpenHands 1.x (the software agent SDK) events: a conversation's `events/event-<NNNNN>-<id>.json` folder read
 * as one input in index order beside `base_state.json`, or the events as JSON Lines; `ActionEvent`s are the
 * calls, answered by `ObservationEvent`, `UserRejectObservation` and `AgentErrorEvent` of their
 * `tool_call_id`; a run stuck repeating one failing command is flagged. Before, every such file was skipped
 * as an unknown format (exit 2) and an events folder read as one session per file.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../src/formats/detect-format.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { collect, collectAll, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-openhands-sdk');
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
let n = 0;
const id = (): string => `0000${(n++).toString(16).padStart(4, '0')}-1111-4222-8333-444455556666`;
const at = '2026-11-02T09:00:00.000000';
const state = () => ({ id: id(), timestamp: at, source: 'environment', key: 'execution_status', value: 'running', kind: 'ConversationStateUpdateEvent' });
const user = (text: string) => ({ id: id(), timestamp: at, source: 'user', llm_message: { role: 'user', content: [{ type: 'text', text }] }, kind: 'MessageEvent' });
const action = (call: string, response: string, tool: string, args: Record<string, unknown>, thought = '') => ({
  id: id(), timestamp: at, source: 'agent', thought: thought === '' ? [] : [{ type: 'text', text: thought }], reasoning_content: null,
  action: { ...args, kind: tool === 'terminal' ? 'TerminalAction' : 'FileEditorAction' }, tool_name: tool, tool_call_id: call,
  tool_call: { id: call, name: tool, arguments: JSON.stringify({ ...args, security_risk: 'LOW', summary: `step ${call}` }), origin: 'completion' },
  llm_response_id: response, security_risk: 'LOW', kind: 'ActionEvent',
});
const observation = (call: string, tool: string, text: string, extra: Record<string, unknown> = {}) => ({
  id: id(), timestamp: at, source: 'environment', tool_name: tool, tool_call_id: call,
  observation: { content: [{ type: 'text', text }], is_error: false, kind: 'TerminalObservation', ...extra }, action_id: 'x', kind: 'ObservationEvent',
});

describe('OpenHands SDK events', () => {
  it('should tell an SDK event from its kind, source and id, whatever kind comes first', () => {
    expect(detectFormat(state(), 'events.jsonl')).toEqual({ format: 'openhands', decisive: true });
    expect(detectFormat({ kind: 'ActionEvent', source: 'agent' }, 'x.jsonl')).toBeNull();
  });

  it('should read the calls of JSON Lines events: args, rounds, text, outcomes from is_error, exit codes, rejections and refusals', async () => {
    const file = write('run.jsonl', jsonl([
      state(),
      user('Fix the build.'),
      action('c1', 'r1', 'terminal', { command: 'make', is_input: false }, 'Build first.'),
      action('c2', 'r1', 'file_editor', { command: 'view', path: '/w/Makefile' }),
      observation('c2', 'file_editor', 'all: main.o', { kind: 'FileEditorObservation' }),
      observation('c1', 'terminal', 'make: *** [all] Error 2', { exit_code: 2 }),
      action('c3', 'r2', 'terminal', { command: 'sleep 600', is_input: false }),
      observation('c3', 'terminal', 'still running', { exit_code: -1 }),
      action('c4', 'r3', 'terminal', { command: 'rm -rf /', is_input: false }),
      { id: id(), timestamp: at, source: 'user', tool_name: 'terminal', tool_call_id: 'c4', rejection_reason: 'User rejected the action', action_id: 'x', kind: 'UserRejectObservation' },
      { ...action('c5', 'r4', 'nope', {}), action: null, tool_call: { id: 'c5', name: 'nope', arguments: '{"a": 1}', origin: 'completion' } },
      { id: id(), timestamp: at, source: 'agent', tool_name: 'nope', tool_call_id: 'c5', error: "Tool 'nope' not found", kind: 'AgentErrorEvent' },
      { id: id(), timestamp: at, source: 'agent', tool_name: 'bad', tool_call_id: 'c6', error: 'Error validating args', kind: 'AgentErrorEvent' },
      { id: id(), timestamp: at, source: 'environment', kind: 'SomeNewerEvent', value: 1 },
    ]));
    const items = await collect([file]);
    expect(items.map((i) => (i.kind === 'call' ? [i.line, i.event.tool, i.event.args, i.event.round, i.errorInfo, i.event.result ?? null, i.event.text ?? null] : [i.kind]))).toEqual([
      [3, 'terminal', { command: 'make', is_input: false }, 0, 'known', 'make: *** [all] Error 2', 'Build first.'],
      [4, 'file_editor', { command: 'view', path: '/w/Makefile' }, 0, 'absent', 'all: main.o', null],
      [7, 'terminal', { command: 'sleep 600', is_input: false }, 1, 'unknown', 'still running', null],
      [9, 'terminal', { command: 'rm -rf /', is_input: false }, 2, 'known', 'User rejected the action', null],
      [11, 'nope', { a: 1 }, 3, 'known', "Tool 'nope' not found", null],
      [13, '_invalid_action', {}, 4, 'known', 'Error validating args', null],
      ['note'], // SomeNewerEvent: a kind the reader does not know, said (unknown-kinds.ts)
      ['end'],
    ]);
    expect(items.every((i) => i.kind !== 'call' || i.session === 'run.jsonl')).toBe(true);
    // the same events as one JSON array (an export) read the same
    const array = write('run.json', JSON.stringify(readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as unknown), null, 1));
    const calls = (list: typeof items) => list.map((i) => (i.kind === 'call' ? [i.event, i.errorInfo] : i.kind));
    expect(calls(await collect([array]))).toEqual(calls(items));
  });

  it('should read an events folder as one session in index order, its base_state.json left out, and report a result without its call', async () => {
    const events = join(dir, 'conversations', 'a1b2c3', 'events');
    mkdirSync(events, { recursive: true });
    writeFileSync(join(events, '..', 'base_state.json'), JSON.stringify({ id: 'a1b2c3', agent: { kind: 'Agent' } }));
    const list = [state(), action('c1', 'r1', 'terminal', { command: 'ls' }), observation('c1', 'terminal', 'a.py'), observation('zz', 'terminal', 'orphan')];
    // index 10 after 9: numeric order, not the names' order
    for (let i = 0; i < 10; i++) writeFileSync(join(events, `event-${String(i).padStart(5, '0')}-${(list[i] ?? state()).id}.json`), JSON.stringify(list[i] ?? state()));
    writeFileSync(join(events, `event-00010-${id()}.json`), JSON.stringify(action('c9', 'r9', 'terminal', { command: 'pwd' })));
    const items = await collectAll([join(dir, 'conversations')]);
    expect(items.map((i) => (i.kind === 'call' ? `call ${i.session} ${i.event.tool} ${i.line}` : i.kind === 'issue' ? `issue ${i.code} ${i.file.slice(events.length + 1, events.length + 12)}:${i.line}` : `${i.kind}`))).toEqual([
      'call a1b2c3 terminal 2',
      'issue unpaired-result event-00003:1',
      'call a1b2c3 terminal 11',
      'end',
      'input-end',
    ]);
  });

  it('should flag a run repeating one failing command, and exit 1 on it', async () => {
    const lines: unknown[] = [state(), user('Make the tests pass.')];
    for (let i = 0; i < 8; i++) {
      lines.push(action(`t${i}`, `r${i}`, 'terminal', { command: 'pytest -x tests/test_api.py', is_input: false }, 'Run the tests again.'));
      lines.push(observation(`t${i}`, 'terminal', 'FAILED tests/test_api.py::test_get - AssertionError: 404 != 200', { exit_code: 1 }));
    }
    const file = write('stuck.jsonl', jsonl(lines));
    const { code, stdout } = await loopwatchInProcess(['scan', file, '--jsonl']);
    expect(code).toBe(1);
    expect(stdout.trim().split('\n').map((l) => JSON.parse(l) as { session: string; action: string }).some((v) => v.session === 'stuck.jsonl' && v.action === 'break')).toBe(true);
  });
});
