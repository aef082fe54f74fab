/**
 * The same command failing again and again with a different error text each time: a moving line number, a
 * new temporary path, an attempt counter. With nothing done between two failures (back to back, or one
 * period apart in a cycle), a difference that is only numbers, paths or ids is noise: the failures compare
 * by error class. With work between them (an edit), a changed count is still progress. Both engines.
 */
import { describe, expect, it } from 'vitest';
import { ENGINES, type Engine, actionsOf, verdictsOf } from './helpers/verdicts.js';
import type { ToolEvent, Verdict } from '../src/index.js';

const verdicts = (events: readonly ToolEvent[], engine: Engine): (Verdict | null)[] => verdictsOf(events, { engine });
const actions = actionsOf;
const TMP = ['a81f', '9c2e', '77d0', 'e3b1', '0f4a', '5d5d'];

describe.each(ENGINES)('the same call failing with a moving detail (%s engine)', (engine) => {
  it('should break a command re-run back to back whose traceback names a new temporary path and line each time', () => {
    const events = TMP.map((t, i): ToolEvent => ({ tool: 'bash', args: { command: 'python run_checks.py' }, error: `Traceback (most recent call last):\n  File "/tmp/tmp${t}x/run_checks.py", line ${40 + i}, in <module>\nKeyError: 'settings'` }));
    const a = actions(verdicts(events, engine));
    expect(a[2]).toBe('warn');
    expect(a).toContain('break');
  });

  it('should break a call retried back to back whose error counts its attempts', () => {
    const events = [1, 2, 3, 4, 5].map((k): ToolEvent => ({ tool: 'deploy', args: { env: 'staging' }, error: `Deploy failed (attempt ${k}): upstream rejected the bundle` }));
    expect(actions(verdicts(events, engine))).toEqual(['-', '-', 'warn', 'break', 'break']);
  });

  it('should break a build that fails with a new log path each time, alternating with the same look at the log', () => {
    const events: ToolEvent[] = [];
    for (let i = 0; i < 4; i++) {
      events.push({ tool: 'bash', args: { command: 'npm run build' }, error: `Build failed at 10:0${i}:11, see /tmp/build-${TMP[i]}.log` });
      events.push({ tool: 'bash', args: { command: 'tail -5 build.log' }, result: 'ERR! missing script: build' });
    }
    const v = verdicts(events, engine);
    expect(v.find((x) => x !== null)?.kind).toBe('cycle');
    expect(actions(v)).toContain('break');
  });

  it('should stay silent while a command re-run back to back fails a different way each time', () => {
    const make = (error: string): ToolEvent => ({ tool: 'make', args: { target: 'all' }, error });
    const events = [make('error: missing foo.h'), make('error: undefined reference to bar()'), make("error: 'baz' was not declared in this scope"), { tool: 'make', args: { target: 'all' }, result: 'build ok' }];
    expect(actions(verdicts(events, engine))).toEqual(['-', '-', '-', '-']);
  });

  it('should not break while an edit comes before each re-run and the failure count goes down', () => {
    const events: ToolEvent[] = [];
    [5, 4, 3, 2].forEach((failed, i) => {
      events.push({ tool: 'edit', args: { path: 'src/parser.py', old: `v${i}`, new: `v${i + 1}` }, result: `edited line ${10 + i}` });
      events.push({ tool: 'bash', args: { command: 'pytest -q' }, error: `[exit 1] ${failed} failed, ${40 - failed} passed` });
    });
    expect(actions(verdicts(events, engine))).not.toContain('break');
  });
});
