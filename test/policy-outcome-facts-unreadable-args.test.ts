/**
 * Args that throw as the outcome facts read them (a getter, a Proxy's trap) read as no command: the call is
 * recorded and checked as any other, a failure too, in both engines (perf29: outcomeFacts' readers are
 * functions with their own try, not arrows made at every call; what each answers when reading throws is
 * what `guarded` answered: no change, no print, no wait, no status query, no target).
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { ENGINES, actionsOf, verdictsOf } from './helpers/verdicts.js';

/** Args whose every member read throws. */
const trapped = (): unknown => new Proxy({}, { get: () => { throw new Error('trap boom'); }, has: () => { throw new Error('has boom'); } });
/** Args whose `command` (and `file_path`) throws as it is read. */
const getter = (): unknown => ({ get command(): string { throw new Error('getter boom'); }, get file_path(): string { throw new Error('getter boom'); } });

const calls = (args: () => unknown, tool: string, outcome: Partial<ToolEvent>): ToolEvent[] => Array.from({ length: 8 }, () => ({ tool, args: args(), ...outcome }) as ToolEvent);

describe.each(ENGINES)('args that throw as the outcome facts read them (%s engine)', (engine) => {
  for (const [name, args] of [['a Proxy whose traps throw', trapped], ['a getter that throws', getter]] as const) {
    for (const tool of ['bash', 'shell_command', 'write_file', 'sleep']) {
      it(`should check ${tool} calls with ${name} and flag them repeated, with a result and with an error`, () => {
        for (const outcome of [{ result: 'ok' }, { result: '[100%] Built target app\n' }, { error: 'exit status 1' }, { result: 'On branch main\nnothing to commit' }]) {
          const actions = actionsOf(verdictsOf(calls(args, tool, outcome), { engine }));
          expect(actions).toHaveLength(8);
          expect(actions.some((a) => a !== '-')).toBe(true);
        }
      });
    }
  }
});
