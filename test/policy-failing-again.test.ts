/**
 * One action failing again and again with a new error text each time (issue 27, src/policy/failing-again.ts):
 * the same test command re-run after each edit of one file, a new traceback each time, is warned at its
 * FAILING_AGAIN-th failure in a row (and each FAILING_AGAIN more), never asked about or broken on that
 * evidence alone, one-phase and two-phase, both engines. Ordinary fixing stays silent: a few rounds, a run
 * that passed between, each run after a change of a new file (one build fixed file by file). Its warning
 * climbs no rung of the ladder, and it goes with dead_end's detector and its kind's weight.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector, type LoopDetectorOptions, type ToolEvent } from '../src/index.js';
import { CallFact, CallFacts } from '../src/policy/call-facts.js';
import { FAILING_AGAIN, FAILING_AGAIN_DETECTOR, failingAgainSignal } from '../src/policy/failing-again.js';
import { CallHistory, OutcomeFlag } from '../src/state/call-history.js';
import { ENGINES, type Engine, liveActions } from './helpers/verdicts.js';

const ERRORS = [
  "TypeError: 'NoneType' object is not iterable",
  "KeyError: 'name'",
  "AttributeError: 'Token' object has no attribute 'kind'",
  'IndexError: list index out of range',
  "ValueError: invalid literal for int() with base 10: 'x'",
  'AssertionError: assert 3 == 4',
  "NameError: name 'peek' is not defined",
  'RecursionError: maximum recursion depth exceeded',
  'ZeroDivisionError: division by zero',
  "ImportError: cannot import name 'Lexer' from 'src.lexer'",
  'StopIteration',
  'UnboundLocalError: local variable referenced before assignment',
  "TypeError: parse() missing 1 required positional argument: 'text'",
  'OverflowError: int too large to convert to float',
  'LookupError: unknown encoding: utf-9',
];
const COMMAND = { command: 'python -m pytest tests/test_parser.py -x' };
/** The test command failing with traceback `i` (a new one each time). */
const failing = (i: number): ToolEvent => ({ tool: 'Bash', args: COMMAND, error: `Exit code 1\nTraceback (most recent call last):\n  File "src/parser.py", line ${10 + i}, in parse\n${ERRORS[i % ERRORS.length]}` });
/** The same, its traceback in the result (a harness that reports no error, as OpenHands does). */
const failingInResult = (i: number): ToolEvent => ({ tool: 'Bash', args: COMMAND, result: `Traceback (most recent call last):\n  File "src/parser.py", line ${10 + i}, in parse\n${ERRORS[i % ERRORS.length]}\n[exit code 1]` });
const passing: ToolEvent = { tool: 'Bash', args: COMMAND, result: '12 passed in 0.31s' };
/** An edit of one file, another line each time. */
const edit = (i: number, file = 'src/parser.py'): ToolEvent => ({ tool: 'Edit', args: { file_path: file, old_string: `step_${i}()`, new_string: `step_${i + 1}()` }, result: `The file ${file} has been updated successfully.` });
/** `rounds` edits of src/parser.py, each followed by a run of the test command (`run(i)`). */
const fixing = (rounds: number, run: (i: number) => ToolEvent = failing, from = 0): ToolEvent[] => Array.from({ length: rounds }, (_, k) => [edit(from + k), run(from + k)]).flat();

/** Each one-phase verdict as `index:action:kind`. */
function verdicts(events: readonly ToolEvent[], engine: Engine, options: LoopDetectorOptions = {}): string[] {
  const d = new LoopDetector({ ...options, engine });
  try {
    return events.flatMap((e, i) => {
      const v = d.check(e);
      return v === null ? [] : [`${i}:${v.action}:${v.kind}`];
    });
  } finally {
    d.dispose();
  }
}

const warnedAt = (...indices: number[]): string[] => indices.map((i) => `${i}:warn:${FAILING_AGAIN_DETECTOR}`);

describe.each(ENGINES)('one call failing again and again, a new error each time (%s engine)', (engine) => {
  it(`should warn at the ${FAILING_AGAIN}th failure in a row of the same command after edits of one file`, () => {
    // the runs are the odd calls: the FAILING_AGAIN-th is call 2 * FAILING_AGAIN - 1
    expect(verdicts(fixing(FAILING_AGAIN), engine)).toEqual(warnedAt(2 * FAILING_AGAIN - 1));
    expect(liveActions(fixing(FAILING_AGAIN), engine, { labelled: true })).toEqual([`R${2 * FAILING_AGAIN - 1}:warn`]);
  });

  it('should read a failure reported in the result as a failure', () => {
    expect(verdicts(fixing(FAILING_AGAIN, failingInResult), engine)).toEqual(warnedAt(2 * FAILING_AGAIN - 1));
  });

  it('should never ask or break on this evidence alone, however long the failures go on, and warn again only each FAILING_AGAIN failures', () => {
    const long = fixing(2 * FAILING_AGAIN + 1);
    expect(verdicts(long, engine)).toEqual(warnedAt(2 * FAILING_AGAIN - 1, 4 * FAILING_AGAIN - 1));
    expect(liveActions(long, engine)).toEqual(['warn', 'warn']);
    // a ladder that breaks at once breaks other loops, not this one
    expect(verdicts(long, engine, { policy: { ladder: ['break'] } })).toEqual(warnedAt(2 * FAILING_AGAIN - 1, 4 * FAILING_AGAIN - 1));
  });

  it('should not warn a few rounds of ordinary fixing', () => {
    expect(verdicts(fixing(FAILING_AGAIN - 1), engine)).toEqual([]);
    expect(liveActions(fixing(FAILING_AGAIN - 1), engine)).toEqual([]);
  });

  it('should not warn when the command passed between the failures', () => {
    const half = FAILING_AGAIN - 2;
    const events = [...fixing(half), edit(99), passing, ...fixing(half, failing, half)];
    expect(verdicts(events, engine)).toEqual([]);
    expect(liveActions(events, engine)).toEqual([]);
  });

  it('should not warn when each run follows a change of a new file (one build fixed file by file)', () => {
    const spread = Array.from({ length: FAILING_AGAIN + 1 }, (_, i) => [edit(i, `src/mod${i}.py`), failing(i)]).flat();
    expect(verdicts(spread, engine)).toEqual([]);
    expect(liveActions(spread, engine)).toEqual([]);
  });

  it('should leave the same error each time to the detectors of repeated outcomes (the rule asks a new outcome each time)', () => {
    // the rule read directly: the same call failing FAILING_AGAIN times, its outcomes as given
    const at = (outcomes: readonly number[]): boolean => {
      const h = new CallHistory(64);
      const facts = new CallFacts(64);
      for (const o of outcomes) {
        const i = h.advance();
        h.sig[h.slot(i)] = 7;
        h.outcome[h.slot(i)] = o;
        h.flags[h.slot(i)] = OutcomeFlag.KNOWN | OutcomeFlag.ERROR;
        facts.note(i, CallFact.FAILED, undefined);
      }
      return failingAgainSignal(h, facts, outcomes.length - 1, { preview: () => 'pytest' }) !== null;
    };
    const each = Array.from({ length: FAILING_AGAIN }, (_, i) => 100 + i);
    expect(at(each)).toBe(true);
    expect(at(each.map(() => 100))).toBe(false);
    expect(at([...each.slice(0, -1), 100])).toBe(false);
  });

  it('should climb no rung of the ladder: a loop after its warning is met as it would be alone', () => {
    // every verdict one rung (the failures have edits between: half a rung by default), so a rung climbed before shows
    const oneRung = { policy: { noProgressStep: 1, interleavedStep: 1 } };
    const loop: ToolEvent[] = Array.from({ length: 6 }, () => ({ tool: 'Read', args: { file_path: 'README.md' }, result: '# parser\nA small parser.' }));
    const alone = verdicts(loop, engine, oneRung).map((v) => v.split(':').slice(1).join(':'));
    const before = fixing(FAILING_AGAIN);
    const after = verdicts([...before, ...loop], engine, oneRung);
    expect(after[0]).toBe(warnedAt(2 * FAILING_AGAIN - 1)[0]);
    expect(after.slice(1).map((v) => v.split(':').slice(1).join(':'))).toEqual(alone);
    expect(alone.slice(0, 3)).toEqual(['warn:exact_repeat', 'warn:exact_repeat', 'break:exact_repeat']);
  });

  it('should add nothing to the verdicts of other signals of the same call', () => {
    // the failures with only reads between: other detectors speak at the FAILING_AGAIN-th failure too
    const readsBetween = Array.from({ length: FAILING_AGAIN + 1 }, (_, i) => [failing(i), { tool: 'Read', args: { file_path: `src/mod${i}.py` }, result: `x = ${i}` }]).flat();
    const full = (options: LoopDetectorOptions): string[] => {
      const d = new LoopDetector({ ...options, engine });
      try {
        return readsBetween.flatMap((e, i) => {
          const v = d.check(e);
          return v === null ? [] : [`${i}:${v.action}:${v.kind}:${v.confidence.toFixed(3)}:${v.signals.length}`];
        });
      } finally {
        d.dispose();
      }
    };
    const without = full({ policy: { kindWeights: { [FAILING_AGAIN_DETECTOR]: 0 } } });
    expect(without.some((v) => v.startsWith(`${2 * FAILING_AGAIN - 2}:`))).toBe(true);
    expect(full({})).toEqual(without);
  });

  it('should leave the two-phase state alone: a block is forgotten after the cooldown, its warning counted as a quiet record', () => {
    const readme: ToolEvent = { tool: 'Read', args: { file_path: 'README.md' }, result: '# parser' };
    const page = (i: number): ToolEvent => ({ tool: 'Read', args: { file_path: `docs/p${i}.md` }, result: `page ${i}` });
    // six failures, a read repeated until blocked (call 15), the 7th failure (warned), 8 new reads, the read again
    const events = [...fixing(FAILING_AGAIN - 1), readme, readme, readme, readme, edit(FAILING_AGAIN - 1), failing(FAILING_AGAIN - 1), ...Array.from({ length: 8 }, (_, i) => page(i)), readme];
    const last = events.length - 1;
    const actions = liveActions(events, engine, { labelled: true });
    expect(actions).toContain('P15:deny');
    expect(actions).toContain(`R${2 * FAILING_AGAIN + 3}:warn`);
    // 10 quiet records since the block (policy.cooldown): the block and its strike are forgotten, no stop
    expect(actions.filter((a) => a.startsWith(`P${last}:`))).toEqual([`P${last}:warn`]);
  });

  it("should go with dead_end's detector and with its kind's weight", () => {
    expect(verdicts(fixing(FAILING_AGAIN), engine, { detectors: { deadEnd: false } })).toEqual([]);
    expect(verdicts(fixing(FAILING_AGAIN), engine, { policy: { kindWeights: { [FAILING_AGAIN_DETECTOR]: 0 } } })).toEqual([]);
  });
});
