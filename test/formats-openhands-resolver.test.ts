/**
 * The OpenHands resolver's `output.jsonl`: one line per issue, keyed by `issue` (`owner/repo#number` names
 * the session), its `history` either the events as `event_to_dict` writes them or, in older outputs,
 * flattened (no id, source, cause, args or extras: each observation answers the action before it). Both are
 * detected and read, with args, thoughts, results and exit codes.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { TraceCall } from '../src/formats/trace-record.js';
import { openHandsEvents } from './helpers/format-fixtures.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-openhands-resolver');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const issue = (number: number) => ({ owner: 'acme', repo: 'viewer', number, title: 'Add a license', body: 'We can license this repo under MIT.' });
const line = (number: number, history: unknown[]) => ({ issue: issue(number), issue_type: 'issue', instruction: 'Please fix the following issue...', base_commit: 'abc123', git_patch: 'diff --git a/LICENSE b/LICENSE', history, metrics: { accumulated_cost: 0.07 }, success: true, success_explanation: 'Added.', error: null });

/** A flattened history as older resolver outputs hold it. */
const flattened = [
  { content: 'Please fix the following issue...', images_urls: null, wait_for_response: false, action: 'message', security_risk: null },
  { command: 'touch LICENSE', thought: 'Create the license file.', keep_prompt: true, action: 'run', is_confirmed: 'confirmed', security_risk: null },
  { content: '\r\nroot@bcd3959393a1:/workspace # ', command_id: -1, command: 'touch LICENSE', exit_code: 0, observation: 'run' },
  { code: "open('LICENSE', 'w').write('MIT')", thought: 'Write the text.', action: 'run_ipython', is_confirmed: 'confirmed', security_risk: null, kernel_init_code: 'from agentskills import *' },
  { agent_state: 'running', observation: 'agent_state_changed', content: '' },
  { content: '3\n[Jupyter current working directory: /workspace]', code: "open('LICENSE', 'w').write('MIT')", observation: 'run_ipython' },
  { command: 'npm test', thought: 'Check nothing broke.', keep_prompt: true, action: 'run', is_confirmed: 'confirmed', security_risk: null },
  { content: '1 failing', command_id: -1, command: 'npm test', exit_code: 1, observation: 'run' },
  { outputs: {}, thought: 'Done.', action: 'finish' },
];

describe('OpenHands resolver output', () => {
  it('should read an older output line (flattened history, no ids): each observation the result of the action before it', async () => {
    const file = write('output.jsonl', jsonl([line(5, flattened)]));
    const items = await collect([file]);
    expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
    expect(items.filter((i) => i.kind !== 'call')).toEqual([{ kind: 'end', session: 'acme/viewer#5', file }]);
    expect(items.filter((i): i is TraceCall => i.kind === 'call').map((c) => [c.session, c.event, c.errorInfo])).toEqual([
      ['acme/viewer#5', { tool: 'run', args: { command: 'touch LICENSE', keep_prompt: true, is_confirmed: 'confirmed', security_risk: null }, result: '\r\nroot@bcd3959393a1:/workspace # ', text: 'Create the license file.', round: 0 }, 'absent'],
      ['acme/viewer#5', { tool: 'run_ipython', args: { code: "open('LICENSE', 'w').write('MIT')", is_confirmed: 'confirmed', security_risk: null, kernel_init_code: 'from agentskills import *' }, result: '3\n[Jupyter current working directory: /workspace]', text: 'Write the text.', round: 1 }, 'absent'],
      ['acme/viewer#5', { tool: 'run', args: { command: 'npm test', keep_prompt: true, is_confirmed: 'confirmed', security_risk: null }, result: '1 failing', error: '1 failing', text: 'Check nothing broke.', round: 2 }, 'known'],
      ['acme/viewer#5', { tool: 'finish', args: { outputs: {} }, text: 'Done.', round: 3 }, 'unknown'],
    ]);
  });

  it('should read a current output line (events with ids and causes) named by its issue, beside an older one', async () => {
    const history = openHandsEvents((i) => ({ tool: 'bash', args: { command: `ls ${i}` }, result: 'x' }), false);
    const file = write('output-mixed.jsonl', jsonl([line(7, history), line(8, flattened)]));
    const items = await collect([file]);
    expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
    const calls = items.filter((i): i is TraceCall => i.kind === 'call');
    expect(calls.filter((c) => c.session === 'acme/viewer#7')).toHaveLength(8);
    expect(calls.filter((c) => c.session === 'acme/viewer#7').every((c) => c.errorInfo === 'absent' && c.event.result === 'x')).toBe(true);
    expect(calls.filter((c) => c.session === 'acme/viewer#8').map((c) => c.event.tool)).toEqual(['run', 'run_ipython', 'run', 'finish']);
  });
});
