/**
 * A result that reports its own failure (`{"success": false, "message": ...}`, as many tools and MCP
 * servers answer instead of raising an error) is a failure as an error is: the same call failing that way
 * again, with new work done between each try (the agent asks its teammates to shut down before it deletes
 * the team again), is weighed as a failure recurring between new work, half a rung a verdict, and not
 * broken. The stuck twin still breaks: the same call failing that way back to back. Both engines, one- and
 * two-phase.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { callFailed } from '../src/policy/failed-call.js';
import { reportsUnsuccessful } from '../src/text/unsuccessful-result.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const STILL_ACTIVE = JSON.stringify({ success: false, message: 'Cannot clean up team with 1 active member(s): fix-engineer. Use requestShutdown to terminate teammates first.', team_name: 'diagnosis' });
const deleteTeam: ToolEvent = { tool: 'TeamDelete', args: {}, result: STILL_ACTIVE };
const ask = (to: string, why: string): ToolEvent => ({ tool: 'SendMessage', args: { to, message: `{"type": "shutdown_request", "reason": "${why}"}` }, result: JSON.stringify({ success: true, message: `Message sent to ${to}'s inbox` }) });
const read = (file: string): ToolEvent => ({ tool: 'Read', args: { file_path: file }, result: `1 """${file}"""\n2 import torch` });

/** Delete the team, ask the teammates to stop, work on, try again: four times, new work each time. */
const waitingOnTeammates: ToolEvent[] = [
  ask('analyst', 'All tasks complete'),
  ask('builder', 'All tasks complete'),
  deleteTeam,
  ask('fix-engineer', 'Team shutting down'),
  deleteTeam,
  ...['model.py', 'train.py', 'loss.py', 'config.yaml', 'patch.py', 'eq.py'].map(read),
  deleteTeam,
  ask('analyst', 'Reassigning to new team'),
  ask('builder', 'Reassigning to new team'),
  ask('fix-engineer', 'Reassigning to new team'),
  deleteTeam,
  ask('fix-engineer', 'Team being deleted, must terminate now'),
  { tool: 'TaskCreate', args: { subject: 'Replace the gain readout' }, result: 'Task #5 created successfully' },
  { tool: 'TaskCreate', args: { subject: 'Add a separate gain loss' }, result: 'Task #6 created successfully' },
  deleteTeam,
];

const backToBack: ToolEvent[] = Array.from({ length: 6 }, () => deleteTeam);

describe('what reports a failure as data', () => {
  it('should read a top-level success or ok that is false, and nothing else', () => {
    expect(reportsUnsuccessful(STILL_ACTIVE)).toBe(true);
    expect(reportsUnsuccessful(' {"ok": false, "error": "locked"}')).toBe(true);
    expect(reportsUnsuccessful({ success: false })).toBe(true);
    expect(reportsUnsuccessful('{"success": true, "note": "false alarm"}')).toBe(false);
    expect(reportsUnsuccessful('{"items": [{"ok": false}, {"ok": true}]}')).toBe(false);
    expect(reportsUnsuccessful('success: false')).toBe(false);
    expect(reportsUnsuccessful(`{"success": false, "log": "${'x'.repeat(3000)}"}`)).toBe(false);
    expect(callFailed(deleteTeam)).toBe(true);
    expect(callFailed({ tool: 'Bash', args: {}, error: 'Exit code 1' })).toBe(true);
    expect(callFailed({ tool: 'Bash', args: {}, result: '{"success": true}' })).toBe(false);
  });
});

describe.each(ENGINES)('results that report their own failure (%s engine)', (engine) => {
  it('should not break a call failing as data again after new work each time', () => {
    expect(flaggedActions(waitingOnTeammates, engine)).not.toContain('break');
    expect(liveActions(waitingOnTeammates, engine, { afterBlock: 'end' }).filter((a) => a === 'deny' || a === 'stop')).toEqual([]);
  });

  it('should still break the same call failing as data back to back', () => {
    expect(flaggedActions(backToBack, engine)).toContain('break');
    expect(liveActions(backToBack, engine, { afterBlock: 'end' })).toContain('deny');
  });
});
