/**
 * A failure that keeps coming back between new work (a malformed turn the harness rejects every few calls
 * while the agent reads, writes and runs new things) is weighed as a dead end's failures are: half a rung
 * a verdict, so it is warned about but not broken for a while; the same failure with nothing new between
 * (back to back, or alternating with the same look at a log) still breaks soon, and a real call failing
 * again and again breaks when it goes on long enough. A turn the harness rejected (nothing ran) is never
 * broken, however long it recurs: the harness corrects it (policy-rejected-turns.test.ts). Both engines.
 */
import { describe, expect, it } from 'vitest';
import { ENGINES, type Engine, actionsOf, verdictsOf } from './helpers/verdicts.js';
import type { ToolEvent } from '../src/index.js';

const actions = (events: readonly ToolEvent[], engine: Engine): string[] => actionsOf(verdictsOf(events, { engine }));

const rejected: ToolEvent = { tool: 'malformed_turn', args: { blocks: 2 }, error: 'Please give exactly one action per turn, found 2.' };
/** A real call failing the same way each time it comes back (a lint run that never passes). */
const lint: ToolEvent = { tool: 'bash', args: { command: 'make lint' }, error: 'make: *** [lint] Error 1' };

/** New work: files read, a script written and run, each with its own answer (seven calls). */
function work(k: number): ToolEvent[] {
  const out: ToolEvent[] = [];
  for (let f = 0; f < 5; f++) out.push({ tool: 'cat', args: { command: `cat src/module_${k}_${f}.py` }, result: `def handler_${k}_${f}(request):\n    return respond(${k}, ${f})\n` });
  out.push({ tool: 'write', args: { path: `check_${k}.py`, content: `assert handler_${k}_0(None)` }, result: `wrote check_${k}.py (31 bytes)` });
  out.push({ tool: 'python', args: { command: `python check_${k}.py` }, result: `checked ${k}: ${k * 3} cases pass` });
  return out;
}

describe.each(ENGINES)('a failure recurring between new work (%s engine)', (engine) => {
  it('should warn but not break while new work comes between each recurrence', () => {
    const events: ToolEvent[] = [];
    for (let k = 0; k < 6; k++) events.push(rejected, ...work(k));
    const a = actions(events, engine);
    expect(a).toContain('warn');
    expect(a).not.toContain('break');
  });

  it('should still break when it recurs with nothing new between', () => {
    const log: ToolEvent = { tool: 'cat', args: { command: 'cat run.log' }, result: 'ERROR: the last turn was rejected' };
    const events: ToolEvent[] = [];
    for (let k = 0; k < 6; k++) events.push(rejected, log);
    expect(actions(events, engine)).toContain('break');
  });

  it('should break when it goes on long enough, even with new work between', () => {
    const events: ToolEvent[] = [];
    for (let k = 0; k < 14; k++) events.push(lint, ...work(k));
    expect(actions(events, engine)).toContain('break');
  });

  it('should warn, never break, a turn the harness rejected, however long it recurs', () => {
    const events: ToolEvent[] = [];
    for (let k = 0; k < 14; k++) events.push(rejected, ...work(k));
    const a = actions(events, engine);
    expect(a).toContain('warn');
    expect(a).not.toContain('break');
  });
});
