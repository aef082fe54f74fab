/**
 * A repeat whose every run said the work is still under way is a wait, not a loop, up to a bound (quiet10):
 * Codex's unified exec answering `Process running with session ID N` to a command and to each poll of it
 * (`write_stdin` with no input: `chars` empty or left out, as Codex's polls of a Playwright run in holdout4
 * do), the same output each time now that its chunk id and wall time are left out (codexexec). Within
 * POLL_LIMIT polls and WAIT_LIMIT_MS of `yield_time_ms` it is no evidence at all (src/policy/evidence-screen.ts
 * waitWithinBounds); past either it is weighed as any repeat (a poll paced by the tool is asked about, never
 * broken: process-poll.ts). A process that exited, polled again with the same output, is no wait.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { POLL_LIMIT, WAIT_LIMIT_MS } from '../src/policy/evidence-screen.js';
import { waitedMs } from '../src/policy/process-poll.js';
import { saysProcessRunning } from '../src/text/still-waiting.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const LOG = 'Running 40 tests using 1 worker\n'.repeat(12);
const start: ToolEvent = { tool: 'exec_command', args: { cmd: 'pnpm exec playwright test', yield_time_ms: 10_000 }, result: `Process running with session ID 33648\nOutput:\n${LOG}` };
/** A poll with no input (no `chars`), its answer the same running line and no new output. */
const poll = (ms = 1000): ToolEvent => ({ tool: 'write_stdin', args: { session_id: 33648, yield_time_ms: ms, max_output_tokens: 6000 }, result: 'Process running with session ID 33648\nOutput:\n' });
const done: ToolEvent = { tool: 'write_stdin', args: { session_id: 33648, yield_time_ms: 1000, max_output_tokens: 6000 }, result: '40 passed (3.1m)\n' };
const polls = (n: number, ms?: number): ToolEvent[] => [start, ...Array.from({ length: n }, () => poll(ms)), done];

/** The same command run to its end again and again, the same output each time: no wait. */
const exited: ToolEvent[] = Array.from({ length: 8 }, () => ({ tool: 'exec_command', args: { cmd: 'cat out/status.txt', yield_time_ms: 1000 }, result: 'build failed: 3 errors\n' }));

describe('what a wait is', () => {
  it('should read a still-running answer whatever its output\'s length, and a poll\'s wait from its args', () => {
    expect(start.result).toSatisfy((r: string) => r.length > 300);
    expect(saysProcessRunning(start.result as string)).toBe(true);
    expect(saysProcessRunning('40 passed\nProcess running with session ID 1\n')).toBe(false);
    expect(waitedMs('write_stdin', { session_id: 1, yield_time_ms: 30_000 })).toBe(30_000);
    expect(waitedMs('write_stdin', { session_id: 1 })).toBe(0);
    expect(waitedMs('shell', { yield_time_ms: 30_000 })).toBe(0);
  });
});

describe.each(ENGINES)('a wait within its bounds (%s engine)', (engine) => {
  it('should say nothing of a process polled up to POLL_LIMIT times, one- and two-phase', () => {
    expect(flaggedActions(polls(POLL_LIMIT - 1), engine)).toEqual([]);
    expect(liveActions(polls(POLL_LIMIT - 1), engine).filter((a) => a !== 'allow')).toEqual([]);
  });

  it('should weigh the polls past POLL_LIMIT, asking at most', () => {
    const actions = flaggedActions(polls(POLL_LIMIT + 12), engine);
    expect(actions.length).toBeGreaterThan(0);
    expect(actions).not.toContain('break');
  });

  it('should weigh the polls past WAIT_LIMIT_MS of waiting, however few', () => {
    const ms = 60_000;
    const within = Math.floor(WAIT_LIMIT_MS / ms) - 1;
    expect(within).toBeLessThan(POLL_LIMIT);
    expect(flaggedActions(polls(within, ms), engine)).toEqual([]);
    expect(flaggedActions(polls(within + 6, ms), engine).length).toBeGreaterThan(0);
  });

  it('should still weigh a command that ended, run again with the same output', () => {
    expect(flaggedActions(exited, engine)).toContain('break');
  });
});
