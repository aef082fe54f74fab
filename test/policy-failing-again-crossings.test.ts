/**
 * The failing-again rule (src/policy/failing-again.ts, on with dead end, so by default) reads the words of
 * the calls before each recorded one from the host's copy (src/state/recent-words.ts), not the module's
 * rings, so a batch of one session's calls crosses into the module once, not once a call, with the
 * verdicts of the calls checked one by one, a proposal and a restored snapshot between them included.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector, type LoopDetectorOptions, type ToolEvent } from '../src/index.js';
import { sharedCore } from '../src/wasm/wasm-core.js';

const ERRORS = ["KeyError: 'name'", 'IndexError: list index out of range', 'AssertionError: assert 3 == 4', "NameError: name 'peek' is not defined", 'ZeroDivisionError: division by zero', 'StopIteration', 'OverflowError: int too large', 'LookupError: unknown encoding'];
const COMMAND = { command: 'python -m pytest tests/test_parser.py -x' };

/** Reads, then rounds of an edit of one file and the same command failing with a new traceback each time. */
function calls(reads: number, rounds: number): ToolEvent[] {
  const out: ToolEvent[] = [];
  for (let i = 0; i < reads; i++) out.push({ tool: 'Read', args: { file_path: `src/mod_${i}.py` }, result: `line ${i}` });
  for (let i = 0; i < rounds; i++) {
    out.push({ tool: 'Edit', args: { file_path: 'src/parser.py', old_string: `step_${i}()`, new_string: `step_${i + 1}()` }, result: 'The file src/parser.py has been updated successfully.' });
    out.push({ tool: 'Bash', args: COMMAND, error: `Exit code 1\nTraceback (most recent call last):\n  File "src/parser.py", line ${10 + i}, in parse\n${ERRORS[i % ERRORS.length]}` });
  }
  return out;
}

const CASES: LoopDetectorOptions['detectors'][] = [{}, { similarArgs: false, semantic: false, chanting: false }, { similarArgs: false, deadEnd: { window: 50 } }];

describe('the failing-again rule and crossings', () => {
  for (const detectors of CASES) {
    it(`should take one crossing for a batch of one session's calls, detectors ${JSON.stringify(detectors)}`, () => {
      const d = new LoopDetector({ sessionId: 's', detectors });
      const before = sharedCore().crossings;
      const verdicts = d.checkMany(calls(30, 16));
      expect(sharedCore().crossings - before).toBe(1);
      expect(verdicts.some((v) => v?.signals.some((s) => s.kind === 'failing_again'))).toBe(true);
      d.dispose();
    });

    it(`should give the verdicts of the calls checked one by one, around a proposal and a restored snapshot, detectors ${JSON.stringify(detectors)}`, () => {
      const all = calls(30, 20);
      const proposal: ToolEvent = { tool: 'Bash', args: COMMAND };
      const one = new LoopDetector({ sessionId: 's', detectors });
      const want = all.map((c, i) => {
        if (i === 44) one.propose(proposal);
        return one.check(c);
      });
      const batched = new LoopDetector({ sessionId: 's', detectors });
      const got = [...batched.checkMany(all.slice(0, 44))];
      batched.propose(proposal);
      got.push(...batched.checkMany(all.slice(44, 56)));
      const restored = new LoopDetector({ sessionId: 's', detectors });
      restored.restore(batched.snapshot());
      got.push(...restored.checkMany(all.slice(56)));
      expect(got).toEqual(want);
      expect(want.filter((v) => v?.signals.some((s) => s.kind === 'failing_again')).length).toBeGreaterThan(0);
      for (const d of [one, batched, restored]) d.dispose();
    });
  }
});
