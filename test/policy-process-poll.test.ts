/**
 * Waiting on a process the agent started is a poll, not a loop (quiet9; holdout4 ivanma9 019ce327 and
 * 019ce3fb, Codex CLI: a Playwright run started in the background, then `write_stdin` with no input (it
 * returns what the process printed within `yield_time_ms`: "Process running with session ID 3538") and a
 * look at the run's summary file, again and again until it finished: broken one-phase at #62 as a cycle,
 * warned at #311 as an exact repeat). An empty `write_stdin` is paced by the tool as `sleep 30 && gh run
 * list` is by the agent (src/policy/process-poll.ts, CallFact.PACED): such a loop is asked about, never
 * broken. A `write_stdin` that sends input is other work: its loop still breaks.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { pollsARunningProcess } from '../src/policy/process-poll.js';
import { ENGINES, flaggedActions } from './helpers/verdicts.js';

const poll = (chars: string): ToolEvent => ({ tool: 'write_stdin', args: { session_id: 3538, chars, yield_time_ms: 1000, max_output_tokens: 1200 }, result: 'Process running with session ID 3538\nRunning 40 tests using 1 worker\n' });
const summary: ToolEvent = { tool: 'exec_command', args: { cmd: 'cat test-results/summary.json', workdir: '/Users/ivan/ship' }, result: '{ "total": 40, "passed": 12, "failed": 0, "pending": 28 }\n' };

/** The run polled and its summary read, while it runs. */
const waiting: ToolEvent[] = Array.from({ length: 8 }, () => [poll(''), summary]).flat();

describe.each(ENGINES)('polling a process the agent started (%s engine)', (engine) => {
  it('should ask rather than break', () => {
    const actions = flaggedActions(waiting, engine);
    expect(actions).not.toContain('break');
    expect(actions).toContain('ask');
  });

  it('should still break input sent again and again', () => {
    expect(flaggedActions(Array.from({ length: 8 }, () => [poll('y\n'), summary]).flat(), engine)).toContain('break');
  });
});

describe('an empty write_stdin', () => {
  it('should be a poll; one with input, another tool, or other args not', () => {
    expect(pollsARunningProcess('write_stdin', { session_id: 1, chars: '' })).toBe(true);
    expect(pollsARunningProcess('write_stdin', { session_id: 1, chars: 'q' })).toBe(false);
    // no `chars` at all: Codex's default is the empty string (holdout4's polls of a Playwright run)
    expect(pollsARunningProcess('write_stdin', { session_id: 1, yield_time_ms: 1000 })).toBe(true);
    expect(pollsARunningProcess('write_stdin', { session_id: 1, chars: 'y\n' })).toBe(false);
    expect(pollsARunningProcess('exec_command', { chars: '' })).toBe(false);
    expect(pollsARunningProcess('write_stdin', null)).toBe(false);
  });
});
