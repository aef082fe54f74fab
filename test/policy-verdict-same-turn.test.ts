/**
 * A call made in the same model turn as the call the latest verdict was given on was decided before the
 * model could read that verdict (quiet6; a real Claude Code subagent of holdout, broken in both replays
 * once eval compared Bash calls as the hook does, without their `description`): `git log --oneline` and
 * `git status` sent together, failing "not a git repository" three turns running; the third turn's
 * `git log` was warned about and its `git status`, sent in the same message, broken. The model answered
 * the warning the next turn (it read `.git/HEAD` instead). So a verdict on a call of the latest verdict's
 * turn is a warning at most; the break waits for a later turn, which the same pair sent again still gets.
 * Both engines, one- and two-phase.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { ToolEvent } from '../src/index.js';
import { ENGINES, type Engine, actionsOf, verdictsOf } from './helpers/verdicts.js';

/** A two-phase replay (each call proposed with its round, then recorded unless blocked): the actions other than allow. */
function liveActions(events: readonly ToolEvent[], engine: Engine): string[] {
  const d = new LoopDetector({ engine });
  const out: string[] = [];
  try {
    for (const [i, e] of events.entries()) {
      const p = d.propose({ tool: e.tool, args: e.args, id: `c${i}`, ...(e.round === undefined ? {} : { round: e.round }) });
      if (p.action !== 'allow') out.push(p.action);
      if (p.action === 'deny' || p.action === 'stop') continue;
      const r = d.record({ ...e, id: `c${i}` });
      if (r.action !== 'allow') out.push(r.action);
    }
  } finally {
    d.dispose();
  }
  return out;
}

const NOT_A_REPO = 'Exit code 128\nfatal: not a git repository (or any of the parent directories): .git';
/** `git log --oneline` and `git status` in one message (round `r`), both failing. */
const pair = (r: number): ToolEvent[] => [
  { tool: 'Bash', args: { command: 'git log --oneline' }, error: NOT_A_REPO, round: r },
  { tool: 'Bash', args: { command: 'git status' }, error: NOT_A_REPO, round: r },
];
const ls = (r: number): ToolEvent => ({ tool: 'Bash', args: { command: 'ls -la /home/u/app/.claude/' }, result: 'settings.local.json', round: r });

/** The pair three turns running, then other work. */
const threeTurns: ToolEvent[] = [...pair(1), ...pair(2), ...pair(3), ls(4)];
/** The pair turn after turn. */
const turnAfterTurn: ToolEvent[] = [1, 2, 3, 4, 5, 6].flatMap(pair);

describe.each(ENGINES)('a verdict the model could not read yet (%s engine)', (engine) => {
  it('should warn about the pair\'s third turn, not break the call sent beside the warned one', () => {
    const actions = actionsOf(verdictsOf(threeTurns, { engine }));
    expect(actions).toContain('warn');
    expect(actions).not.toContain('break');
  });

  it('should not block the call sent beside the warned one, two-phase', () => {
    expect(liveActions(threeTurns, engine)).not.toContain('deny');
  });

  it('should still break the pair sent again in a later turn', () => {
    expect(actionsOf(verdictsOf(turnAfterTurn, { engine }))).toContain('break');
    expect(liveActions(turnAfterTurn, engine)).toContain('deny');
  });
});
