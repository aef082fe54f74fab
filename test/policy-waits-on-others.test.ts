/**
 * A loop that waits on someone other than the agent is asked about, not broken: a call failing "Not
 * authorized" until the person grants access (only a person can unblock it), a poll the agent paces
 * (`sleep 30 && gh run list` until CI finishes: how long to wait for the world is the person's call), and a
 * poll asked at once whose answer says the work is under way (the model's own turn paces it; what ends it
 * is the world finishing). The stuck twins still break: the same call failing on a wall of its own (a file
 * it may not write), and a status check hammered at once whose answer says nothing is under way. Both
 * engines, one- and two-phase.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { ENGINES, type Engine, actionsOf, verdictsOf, liveActions } from './helpers/verdicts.js';

const NOT_AUTHORIZED = "Error calling tool 'get_tasks': Error querying OmniFocus tasks: 316:318: execution error: Not authorized to send Apple events to OmniFocus. (-1743)";
const getTasks: ToolEvent = { tool: 'mcp__omnifocus__get_tasks', args: { inbox_only: true }, error: NOT_AUTHORIZED };
/** The person has not granted access yet: the call fails the same way, again and again. */
const unauthorized: ToolEvent[] = Array.from({ length: 8 }, () => getTasks);

const RUNS = (status: string, conclusion: string): string => JSON.stringify([{ conclusion, databaseId: 22597919399, name: 'CI/CD', status, url: 'https://github.com/o/r/actions/runs/22597919399' }]);
const POLL = 'sleep 30 && gh run list --branch main --json status,conclusion,name,databaseId,url --limit 3';
/** CI polled every 30 s: still in progress eight times, then done. */
const pacedPoll: ToolEvent[] = [
  ...Array.from({ length: 8 }, (): ToolEvent => ({ tool: 'Bash', args: { command: POLL }, result: RUNS('in_progress', '') })),
  { tool: 'Bash', args: { command: POLL }, result: RUNS('completed', 'success') },
];
/** The same write failing on a file the agent may not write. */
const denied: ToolEvent[] = Array.from({ length: 8 }, () => ({ tool: 'Bash', args: { command: 'cp build/app /usr/local/bin/app' }, error: 'Exit code 1\ncp: /usr/local/bin/app: Permission denied' }));
/** The same status asked for at once, again and again, the same answer: still in progress. */
const hammered: ToolEvent[] = Array.from({ length: 8 }, () => ({ tool: 'Bash', args: { command: 'gh run list --branch main --limit 3' }, result: RUNS('in_progress', '') }));
/** The same status asked for at once, again and again, the same answer: the run is over. */
const hammeredDone: ToolEvent[] = Array.from({ length: 8 }, () => ({ tool: 'Bash', args: { command: 'gh run list --branch main --limit 3' }, result: RUNS('completed', 'failure') }));

const actions = (events: readonly ToolEvent[], engine: Engine): string[] => actionsOf(verdictsOf(events, { engine })).filter((a) => a !== '-');

describe.each(ENGINES)('loops that wait on others (%s engine)', (engine) => {
  it('should ask, not break, while a call fails for want of a person', () => {
    const one = actions(unauthorized, engine);
    expect(one).toContain('ask');
    expect(one).not.toContain('break');
    const two = liveActions(unauthorized, engine, { afterBlock: 'end' });
    expect(two).toContain('ask');
    expect(two.filter((a) => a === 'deny' || a === 'stop')).toEqual([]);
  });

  it('should ask, not break, while the agent paces its polling', () => {
    expect(actions(pacedPoll, engine)).not.toContain('break');
    expect(liveActions(pacedPoll, engine, { afterBlock: 'end' }).filter((a) => a === 'deny' || a === 'stop')).toEqual([]);
  });

  it('should still break the same call failing on a wall of its own', () => {
    expect(actions(denied, engine)).toContain('break');
    expect(liveActions(denied, engine, { afterBlock: 'end' })).toContain('deny');
  });

  it('should ask, not break, an unpaced poll whose answer says the work is under way', () => {
    expect(actions(hammered, engine)).toContain('ask');
    expect(actions(hammered, engine)).not.toContain('break');
    expect(liveActions(hammered, engine, { afterBlock: 'end' }).filter((a) => a === 'deny' || a === 'stop')).toEqual([]);
  });

  it('should still break a status check hammered at once whose answer says nothing is under way', () => {
    expect(actions(hammeredDone, engine)).toContain('break');
    expect(liveActions(hammeredDone, engine, { afterBlock: 'end' })).toContain('deny');
  });
});
