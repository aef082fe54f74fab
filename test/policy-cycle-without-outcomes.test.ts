/**
 * A cycle whose calls' outcomes are never known breaks only at its 5th turn (src/policy/unknown-outcomes.ts):
 * three calls taken in turn three times, no results given (Gemini CLI's "different tool calls"), are warned,
 * not broken; the same cycle going on is broken; with results, the outcomes decide as before. Both engines.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { UNKNOWN_OUTCOME_BREAK } from '../src/policy/unknown-outcomes.js';
import { ENGINES, actionsOf, liveActions, verdictsOf } from './helpers/verdicts.js';

const turn = (result?: (k: number) => string): ((k: number) => ToolEvent[]) => (k) =>
  [
    { tool: 'testTool', args: { param: 'value1' } },
    { tool: 'testTool', args: { param: 'value2' } },
    { tool: 'anotherTool', args: { param: 'value1' } },
  ].map((e, j) => (result === undefined ? e : { ...e, result: result(3 * k + j) }));

const turns = (n: number, make: (k: number) => ToolEvent[]): ToolEvent[] => Array.from({ length: n }, (_, k) => make(k)).flat();

describe.each(ENGINES)('a cycle with no outcome known, %s engine', (engine) => {
  it('should warn, not break, three calls taken in turn three times', () => {
    const actions = actionsOf(verdictsOf(turns(3, turn()), { engine }));
    expect(actions).toContain('warn');
    expect(actions).not.toContain('break');
  });

  it('should break the cycle at its 5th turn', () => {
    expect(UNKNOWN_OUTCOME_BREAK).toBe(5);
    const actions = actionsOf(verdictsOf(turns(6, turn()), { engine }));
    const first = actions.indexOf('break');
    expect(first).toBeGreaterThanOrEqual(3 * 4);
    expect(first).toBeLessThan(3 * UNKNOWN_OUTCOME_BREAK);
  });

  it('should break it as before when every turn gets the same results', () => {
    expect(actionsOf(verdictsOf(turns(3, turn((i) => `result ${i % 3}`)), { engine })).indexOf('break')).toBe(6);
  });

  it('should never block it two-phase before its 5th turn', () => {
    expect(liveActions(turns(3, turn()), engine)).not.toContain('deny');
  });
});
