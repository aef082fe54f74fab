/**
 * The ATIF reader (Harbor's Agent Trajectory Interchange Format): detected by its `schema_version`, calls of
 * agent steps paired with their observation results by id, the step's message said once, reasoning left
 * out; malformed steps, calls and results reported with the file and line, the rest still read; unknown
 * fields, huge and deep values.
 */
import { describe, expect, it } from 'vitest';
import { MAX_NESTING } from '../src/formats/trace-record.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { write } = scratchDir('formats-atif');

/** A trajectory with `steps`, and the root fields a writer gives. */
const doc = (steps: unknown[], extra: Record<string, unknown> = {}) => ({ schema_version: 'ATIF-v1.4', session_id: 'trial-7', agent: { name: 'openhands', version: '1.0.0' }, steps, ...extra });

const agentStep = {
  step_id: 2,
  source: 'agent',
  message: 'I will read both files.',
  reasoning_content: 'Two reads at once.',
  tool_calls: [
    { tool_call_id: 'c1', function_name: 'read_file', arguments: { path: 'a.py' } },
    { tool_call_id: 'c2', function_name: 'read_file', arguments: '{"path": "b.py"}' },
  ],
  observation: { results: [{ source_call_id: 'c2', content: 'B' }, { source_call_id: 'c1', content: 'A' }, { content: 'a note from the harness' }] },
  future_field: { anything: [1, 2, 3] },
};

describe('ATIF format', () => {
  it('should read agent steps\' calls in order, pair results by id, say the message once and leave reasoning out', async () => {
    // each call's step is its step's step_id (newuser18: it was the call's position, 0, 1, 2, so a verdict
    // "at step 2" named the user's step 2 of the file, not the call)
    const file = write('job/trial-7/agent/trajectory.json', JSON.stringify(doc([
      { step_id: 1, source: 'user', message: 'Read a.py and b.py.' },
      agentStep,
      { step_id: 3, source: 'agent', message: '', tool_calls: [{ tool_call_id: 'c3', function_name: 'bash', arguments: {} }] },
      { step_id: 4, source: 'system', message: 'context reset', observation: { results: [{ source_call_id: 'c3', content: 'late result' }] } },
      { step_id: 5, source: 'agent', message: 'Done.' },
    ]), null, 2));
    const session = 'trial-7';
    expect(await collect([file])).toEqual([
      { kind: 'call', session, event: { tool: 'read_file', args: { path: 'a.py' }, result: 'A', text: 'I will read both files.', step: 2, round: 0 }, errorInfo: 'unknown', file, line: 1 },
      { kind: 'call', session, event: { tool: 'read_file', args: { path: 'b.py' }, result: 'B', step: 2, round: 0 }, errorInfo: 'unknown', file, line: 1 },
      { kind: 'call', session, event: { tool: 'bash', args: {}, result: 'late result', step: 3, round: 1 }, errorInfo: 'unknown', file, line: 1 },
      { kind: 'end', session, file },
    ]);
  });

  it('should report malformed steps, calls and results by file and line, and read the rest', async () => {
    const file = write('broken.json', JSON.stringify(doc([
      'not a step',
      { step_id: 2, source: 'agent', message: 'x', tool_calls: [{ tool_call_id: 'k', arguments: {} }, 7, { tool_call_id: 'ok', function_name: 'ls', arguments: {} }] },
      { step_id: 3, source: 'agent', message: 'y', tool_calls: { not: 'an array' } },
      { step_id: 4, source: 'user', message: 'z', tool_calls: [] },
      { step_id: 5, source: 'agent', message: '', observation: { results: [{ source_call_id: 42, content: 'n' }, null, { source_call_id: 'nobody', content: 'n' }, { source_call_id: 'ok', content: 'listed' }] } },
      { step_id: 6, source: 'agent', message: '', observation: 'not an object' },
    ])));
    const items = await collect([file]);
    expect(items.filter((i) => i.kind === 'issue').map((i) => [i.kind === 'issue' && i.code, i.kind === 'issue' && i.file, i.kind === 'issue' && i.line, i.kind === 'issue' && i.message])).toEqual([
      ['bad-record', file, 1, 'steps[0]: expected an object, received "not a step" (string); skipped'],
      ['bad-record', file, 1, 'steps[1] (step_id 2): tool call 0 has no "function_name" (received undefined); skipped'],
      ['bad-record', file, 1, 'steps[1] (step_id 2): tool call 1 has no "function_name" (received 7 (number)); skipped'],
      ['bad-record', file, 1, 'steps[2] (step_id 3): "tool_calls" must be an array, received an object; skipped'],
      ['bad-record', file, 1, 'steps[3] (step_id 4): "tool_calls" of a step whose source is "user" (string), not "agent"; skipped'],
      ['bad-record', file, 1, 'steps[4] (step_id 5): observation result 0: "source_call_id" must be a string, received 42 (number); skipped'],
      ['bad-record', file, 1, 'steps[4] (step_id 5): observation result 1: expected an object, received null; skipped'],
      ['unpaired-result', file, 1, 'result for call id "nobody" has no call in session "trial-7"; skipped'],
      ['bad-record', file, 1, 'steps[5] (step_id 6): "observation" must be an object with a "results" array, received "not an object" (string); skipped'],
    ]);
    expect(items.filter((i) => i.kind === 'call').map((i) => i.kind === 'call' && i.event)).toEqual([{ tool: 'ls', args: {}, result: 'listed', text: 'x', step: 2, round: 0 }]);
  });

  it('should read each trajectory of a JSON Lines file, and name one without session_id by its place', async () => {
    const file = write('two.jsonl', `${JSON.stringify(doc([agentStep]))}\n${JSON.stringify(doc([agentStep], { session_id: undefined }))}\n${JSON.stringify(doc([], { session_id: 5 }))}\n`);
    const items = await collect([file]);
    expect(items.filter((i) => i.kind === 'end').map((i) => i.kind === 'end' && i.session)).toEqual(['trial-7', `${file}:2`]);
    expect(items.filter((i) => i.kind === 'issue')).toEqual([{ kind: 'issue', code: 'bad-record', file, line: 3, message: '"session_id" must be a non-empty string, received 5 (number)' }]);
  });

  it('should not take a steps array without an ATIF schema_version for a trajectory, unless forced', async () => {
    const file = write('plain.json', JSON.stringify({ steps: [agentStep] }));
    const detected = await collect([file]);
    expect(detected.map((i) => i.kind === 'issue' && i.code)).toEqual(['unknown-format']);
    const forced = await collect([file], { format: 'atif' });
    expect(forced.filter((i) => i.kind === 'call')).toHaveLength(2);
    const other = write('other.json', JSON.stringify({ messages: [] }));
    expect(await collect([other], { format: 'atif' })).toEqual([{ kind: 'issue', code: 'bad-record', file: other, line: 1, message: 'expected an ATIF trajectory (an object with a "steps" array), received an object without one' }]);
  });

  it('should read huge results, and skip a trajectory nested too deep with one issue naming the file', async () => {
    const big = 'x'.repeat(2_000_000);
    const huge = write('huge.json', JSON.stringify(doc([{ ...agentStep, observation: { results: [{ source_call_id: 'c1', content: big }] } }])));
    const calls = (await collect([huge])).filter((i) => i.kind === 'call');
    expect(calls.map((c) => c.kind === 'call' && (c.event.result as string | undefined)?.length)).toEqual([big.length, undefined]);
    let deep: unknown = 1;
    for (let i = 0; i < MAX_NESTING + 10; i++) deep = [deep];
    const tooDeep = write('deep.json', JSON.stringify(doc([{ ...agentStep, tool_calls: [{ tool_call_id: 'd', function_name: 'f', arguments: { deep } }] }])));
    const items = await collect([tooDeep]);
    expect(items.map((i) => [i.kind, i.kind === 'issue' && i.code, i.kind === 'issue' && i.file])).toEqual([['issue', 'invalid-json', tooDeep]]);
  });

  it('should read a failure a writer marks outside the spec (Harbor\'s extra.tool_result_is_error, or is_error on the result), and an unmarked result as unknown', async () => {
    const call = (id: string) => ({ tool_call_id: id, function_name: 'Bash', arguments: { command: `run ${id}` } });
    const file = write('harbor/trial/agent/trajectory.json', JSON.stringify(doc([{
      step_id: 1,
      source: 'agent',
      tool_calls: ['h1', 'h2', 'h3', 'o1', 'o2', 'u'].map(call),
      observation: {
        results: [
          { source_call_id: 'h1', content: 'Exit code 1\n[error] tool reported failure', extra: { tool_result_metadata: { is_error: true }, tool_result_is_error: true } },
          { source_call_id: 'h2', content: 'ok', extra: { tool_result_is_error: false } },
          { source_call_id: 'h3', content: null, extra: { tool_result_metadata: { is_error: true, raw_tool_result: {} } } },
          { source_call_id: 'o1', content: 'boom', is_error: true },
          { source_call_id: 'o2', content: 'fine', is_error: false },
          { source_call_id: 'u', content: 'who knows', extra: { tool_result_is_error: 'yes' } },
        ],
      },
    }], { schema_version: 'ATIF-v1.7' })));
    const items = await collect([file]);
    expect(items.map((i) => i.kind === 'call' && [i.event.args, i.errorInfo, i.event.error])).toEqual([
      [{ command: 'run h1' }, 'known', 'Exit code 1\n[error] tool reported failure'],
      [{ command: 'run h2' }, 'absent', undefined],
      [{ command: 'run h3' }, 'known', true],
      [{ command: 'run o1' }, 'known', 'boom'],
      [{ command: 'run o2' }, 'absent', undefined],
      [{ command: 'run u' }, 'unknown', undefined],
      false,
    ]);
  });

  it('should give a result without source_call_id to its own step\'s unanswered calls, the last result to the last call (Harbor\'s terminus-2 writes the terminal output once per step so)', async () => {
    const keys = (id: string, keystrokes: string) => ({ tool_call_id: id, function_name: 'bash_command', arguments: { keystrokes, duration: 0.1 } });
    const screen = (text: string) => ({ results: [{ content: `New Terminal Output:\n\nroot@box:/app# ${text}\n` }] });
    const file = write('jobs/2026-12-06__10-00-00/fix-build__x7/agent/trajectory.json', JSON.stringify(doc([
      { step_id: 1, source: 'user', message: 'Build the project.' },
      { step_id: 2, source: 'agent', message: 'Analysis: nothing built yet.\nPlan: run make.', tool_calls: [keys('call_0_1', 'make\n')], observation: screen('make: *** No targets.') },
      // two commands and the completion mark share one screen: it answers the last call
      { step_id: 3, source: 'agent', message: 'Plan: configure, build, done.', tool_calls: [keys('call_1_1', './configure\n'), keys('call_1_2', 'make\n'), { tool_call_id: 'call_1_task_complete', function_name: 'mark_task_complete', arguments: {} }], observation: screen('make: *** No targets.') },
      // a reply the harness could not parse: no call, its note passed over
      { step_id: 4, source: 'agent', message: 'I think we are done', observation: { results: [{ content: 'Previous response had parsing errors:\nERROR: Missing required fields' }] } },
      // a context handoff: a system step whose result refers to a subagent trajectory, no call
      { step_id: 5, source: 'system', message: 'Performed context summarization.', observation: { results: [{ subagent_trajectory_ref: [{ session_id: 'fix-build__x7-summarization-1', trajectory_path: 'trajectory.summarization-1.json' }] }] } },
      // one result by id, one without: the one without answers the call the first left open
      { step_id: 6, source: 'agent', message: 'Two at once.', tool_calls: [keys('call_2_1', 'ls\n'), keys('call_2_2', 'pwd\n')], observation: { results: [{ source_call_id: 'call_2_2', content: '/app' }, { content: 'a.c b.c' }] } },
    ], { session_id: 'fix-build__x7', schema_version: 'ATIF-v1.5' })));
    const items = await collect([file]);
    expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
    expect(items.map((i) => i.kind === 'call' && [i.event.tool, i.event.result, i.errorInfo])).toEqual([
      ['bash_command', 'New Terminal Output:\n\nroot@box:/app# make: *** No targets.\n', 'unknown'],
      ['bash_command', undefined, 'unknown'],
      ['bash_command', undefined, 'unknown'],
      ['mark_task_complete', 'New Terminal Output:\n\nroot@box:/app# make: *** No targets.\n', 'unknown'],
      ['bash_command', 'a.c b.c', 'unknown'],
      ['bash_command', '/app', 'unknown'],
      false,
    ]);
  });
});
