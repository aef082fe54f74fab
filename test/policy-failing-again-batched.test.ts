/**
 * The failing-again rule (src/policy/failing-again.ts) reads the rings of the calls before each recorded
 * one. In a batch, a session's later calls that cross into the module with it would already be in those
 * rings, so a session whose detectors do not otherwise read its rings must still cross one call at a time
 * when the rule is on (dead end on): checkBatch gives the verdicts check() gives, call by call, whatever
 * the detectors, and whatever shares the batch.
 */
import { describe, expect, it } from 'vitest';
import { LoopEngine, type LoopDetectorOptions, type SessionEvent } from '../src/index.js';

const ERRORS = ["KeyError: 'name'", 'IndexError: list index out of range', 'AssertionError: assert 3 == 4', "NameError: name 'peek' is not defined", 'ZeroDivisionError: division by zero', 'StopIteration', 'OverflowError: int too large', 'LookupError: unknown encoding'];
const COMMAND = { command: 'python -m pytest tests/test_parser.py -x' };

/** Session `s`'s stream: reads, then 14 rounds of an edit of one file and the same command failing with a new traceback. */
function stream(s: string): SessionEvent[] {
  const out: SessionEvent[] = [];
  for (let i = 0; i < 30; i++) out.push({ session: s, tool: 'Read', args: { file_path: `src/mod_${i}.py` }, result: `line ${i}` });
  for (let i = 0; i < 14; i++) {
    out.push({ session: s, tool: 'Edit', args: { file_path: 'src/parser.py', old_string: `step_${i}()`, new_string: `step_${i + 1}()` }, result: 'The file src/parser.py has been updated successfully.' });
    out.push({ session: s, tool: 'Bash', args: COMMAND, error: `Exit code 1\nTraceback (most recent call last):\n  File "src/parser.py", line ${10 + i}, in parse\n${ERRORS[i % ERRORS.length]}` });
  }
  return out;
}

const show = (v: unknown): string => (v instanceof Error ? `error: ${v.message}` : JSON.stringify(v));

describe('the failing-again rule in a batch', () => {
  for (const detectors of [{}, { similarArgs: false }, { similarArgs: false, semantic: false, chanting: false }] as LoopDetectorOptions['detectors'][]) {
    it(`gives check()'s verdicts in one checkBatch, detectors ${JSON.stringify(detectors)}`, () => {
      // two sessions interleaved, so the batch holds many calls of each
      const a = stream('a');
      const b = stream('b');
      const events = a.flatMap((e, i) => [e, b[i] as SessionEvent]);
      const one = new LoopEngine({ detectors });
      const want = events.map(({ session, ...e }) => show(one.check(session, e)));
      one.close();
      const batched = new LoopEngine({ detectors });
      const got = batched.checkBatch(events).map(show);
      batched.close();
      expect(want.some((v) => v.includes('"failing_again"'))).toBe(true);
      expect(got).toEqual(want);
    });
  }
});
