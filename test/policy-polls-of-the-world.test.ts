/**
 * A poll of the world is waited on, not broken: a listing of CI runs asked for again and again at once
 * (no `sleep`, the model's own turn between) while its status fields say `in_progress`, in a report longer
 * than the short statuses read as "still waiting"; and a poll paced by a wait of its own (`Start-Sleep -s
 * 30`, then the poll: the two halves of `sleep 30 && gh run list`); a call that answered "under way" before
 * stays a poll when asked again after its run is over (the agent starts another). All are asked about at most, one- and
 * two-phase, both engines. The stuck twin still breaks: the same listing, every run over, asked for at
 * once again and again.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { onlyWaits } from '../src/text/bare-wait.js';
import { STATUS_LOOK, reportsStatusUnderWay } from '../src/text/status-field.js';
import { WAITING_LOOK, saysStillWaiting } from '../src/text/still-waiting.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

/** `gh run list --json ...` as it prints: two runs, pretty-printed, some 600 characters. */
const listing = (status: string, conclusion: string): string =>
  `Output: ${JSON.stringify(
    [
      { conclusion, databaseId: 22303420977, name: 'CI/CD — Dashboard (consolidated)', status, url: 'https://github.com/acme/dashboard/actions/runs/22303420977' },
      { conclusion: status === 'completed' ? 'success' : '', databaseId: 22303421000, name: 'Dispatch', status, url: 'https://github.com/acme/dashboard/actions/runs/22303421000' },
    ],
    null,
    2,
  )}\nProcess Group PGID: 23336`;
const POLL = { command: 'gh run list --branch dev --json status,conclusion,url,name,databaseId', description: 'Poll GitHub Actions runs for the current branch.' };
const poll = (status: string, conclusion = ''): ToolEvent => ({ tool: 'run_shell_command', args: POLL, result: listing(status, conclusion) });

/** CI polled at once ten times while in progress, then done. */
const unpaced: ToolEvent[] = [...Array.from({ length: 10 }, () => poll('in_progress')), poll('completed', 'failure')];

/** A deployment polled with a wait of its own before each look; its answer names no status. */
const WAIT: ToolEvent = { tool: 'run_shell_command', args: { command: 'Start-Sleep -s 30', description: 'Waiting for 30 seconds before polling.' }, result: 'Output: (empty)' };
const CHECK = (live: boolean): ToolEvent => ({ tool: 'run_shell_command', args: { command: 'curl -s https://deploy.example.com/api/releases/42' }, result: `{"release": 42, "live": ${live}}` });
const paced: ToolEvent[] = [...Array.from({ length: 8 }, () => [CHECK(false), WAIT]).flat(), CHECK(true)];

/** CI polled until it failed, looked at again, then started once more and polled: still a poll of the world. */
const restarted: ToolEvent[] = [
  poll('in_progress'),
  poll('in_progress'),
  poll('in_progress'),
  poll('completed', 'failure'),
  { tool: 'read_file', args: { file_path: '.github/workflows/ci.yml' }, result: 'name: CI\non: [push]' },
  poll('completed', 'failure'),
  { tool: 'run_shell_command', args: { command: 'gh workflow run ci.yml --ref dev' }, result: 'Output: Created workflow_dispatch event for ci.yml at dev' },
  poll('in_progress'),
  poll('in_progress'),
  poll('completed', 'success'),
];

/** The same listing, every run over, asked for at once again and again. */
const finished: ToolEvent[] = Array.from({ length: 8 }, () => poll('completed', 'failure'));

const blocks = (events: readonly ToolEvent[], engine: (typeof ENGINES)[number]): string[] => liveActions(events, engine, { afterBlock: 'end' }).filter((a) => a === 'deny' || a === 'stop');

describe('what a status report and a wait are', () => {
  it('should read a status field under way in a report longer than a short status', () => {
    const text = listing('in_progress', '');
    expect(text.length).toBeGreaterThan(WAITING_LOOK);
    expect(saysStillWaiting(text)).toBe(false);
    expect(reportsStatusUnderWay(text)).toBe(true);
    expect(reportsStatusUnderWay('state: running\nnode: worker-3')).toBe(true);
    expect(reportsStatusUnderWay('phase=Pending')).toBe(true);
    expect(reportsStatusUnderWay(listing('completed', 'success'))).toBe(false);
    expect(reportsStatusUnderWay('running tests... 12 passed; status: ok')).toBe(false);
    expect(reportsStatusUnderWay('{"status": "running_total", "value": 3}')).toBe(false);
    expect(reportsStatusUnderWay(`${'log line\n'.repeat(STATUS_LOOK / 9)}"status": "in_progress"`)).toBe(false);
  });

  it('should read a command that only waits', () => {
    for (const c of ['sleep 30', 'sleep 1.5m', 'Start-Sleep -s 30', 'Start-Sleep -Seconds 20', 'timeout /t 30 /nobreak > nul', 'sleep 30;']) expect(onlyWaits(c)).toBe(true);
    for (const c of ['sleep 30 && gh run list', 'sleeper 3', 'make test', 'sleep', 'watch -n 5 kubectl get pods']) expect(onlyWaits(c)).toBe(false);
  });
});

describe.each(ENGINES)('polls of the world (%s engine)', (engine) => {
  it('should ask at most, never break, while a poll at once says the work is under way', () => {
    expect(flaggedActions(unpaced, engine)).not.toContain('break');
    expect(flaggedActions(unpaced, engine)).toContain('ask');
    expect(blocks(unpaced, engine)).toEqual([]);
  });

  it('should ask at most, never break, while a wait of its own paces the poll', () => {
    expect(flaggedActions(paced, engine)).not.toContain('break');
    expect(blocks(paced, engine)).toEqual([]);
  });

  it('should take a call that answered "under way" before as a poll when its run is over and it is asked again', () => {
    expect(flaggedActions(restarted, engine)).not.toContain('break');
    expect(blocks(restarted, engine)).toEqual([]);
  });

  it('should still break the same finished listing asked for at once again and again', () => {
    expect(flaggedActions(finished, engine)).toContain('break');
    expect(liveActions(finished, engine, { afterBlock: 'end' })).toContain('deny');
  });
});
