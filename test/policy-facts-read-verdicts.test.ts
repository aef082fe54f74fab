/**
 * The facts a session leaves unread (src/policy/facts-read.ts) are facts none of its verdicts reads: a
 * session with exact repeat, cycle or chanting alone gives the very verdicts the same session gives with
 * every fact read (a custom detector that never fires makes a session read them all), call by call, through
 * check(), checkMany() and the two-phase propose()/record(), on both engines, for calls that repeat, fail
 * in every way the facts tell apart, write, poll and wait.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Detector } from '../src/detectors/detector.js';
import { LoopDetector } from '../src/session/loop-detector.js';
import type { Engine } from '../src/options/options.js';
import type { ToolEvent } from '../src/types.js';

const ALL = ['exactRepeat', 'frequency', 'cycle', 'semantic', 'similarArgs', 'resultRepeat', 'deadEnd', 'stateRepeat', 'chanting'];
const only = (on: readonly string[]) => Object.fromEntries(ALL.map((d) => [d, on.includes(d)]));
/** Never fires; its presence makes the session read every fact. */
const silent = (): Detector => ({ name: 'silent', record: () => undefined, check: () => null, reset: () => undefined });

const ARGS = [
  { tool: 'Bash', args: { command: 'sed -i s/a/b/ src/a.ts' } },
  { tool: 'Bash', args: { command: 'echo hi > out.txt' } },
  { tool: 'Bash', args: { command: 'npm test' } },
  { tool: 'Bash', args: { command: 'sleep 30 && gh run list' } },
  { tool: 'Bash', args: { command: 'sleep 30' } },
  { tool: 'Bash', args: { command: 'missingtool --version' } },
  { tool: 'Edit', args: { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' } },
  { tool: 'Edit', args: { file_path: 'src/b.ts', old_string: 'a', new_string: 'b' } },
  { tool: 'Read', args: { file_path: 'src/a.ts' } },
];
const OUTCOMES: readonly { result?: unknown; error?: string }[] = [
  { result: '' },
  { result: 'ok' },
  { result: '9 passed' },
  { result: 'error: Failed to find expected lines' },
  { result: '{"status": "in_progress"}' },
  { result: 'still running, waiting for the job' },
  { result: 'The file src/a.ts has been updated successfully.' },
  { result: null },
  { error: 'Exit code 1' },
  { error: 'Exit code 2\nsomething else broke' },
  { error: 'zsh:1: command not found: missingtool' },
  { error: 'permission denied: login required' },
  { error: 'rate limit exceeded' },
  { error: "The user doesn't want to proceed with this tool use." },
  { error: 'Your last output was not formatted correctly' },
  { error: 'Error: must NOT have more than 16 characters' },
  { error: 'Traceback (most recent call last):\nValueError: x' },
];

/** A session's calls: each the call before it again (a loop in the making) or another, with any outcome. */
const session = fc.array(
  fc.record({ again: fc.boolean(), call: fc.nat(ARGS.length - 1), outcome: fc.nat(OUTCOMES.length - 1), round: fc.option(fc.nat(3), { nil: undefined }) }),
  { minLength: 1, maxLength: 60 },
).map((steps) => {
  const out: ToolEvent[] = [];
  let last = 0;
  let round = 0;
  for (const s of steps) {
    if (!s.again) last = s.call;
    if (s.round !== undefined) round += s.round;
    const c = ARGS[last] as (typeof ARGS)[number];
    out.push({ tool: c.tool, args: c.args, ...(OUTCOMES[s.outcome] as object), ...(s.round === undefined ? {} : { round }) } as ToolEvent);
  }
  return out;
});

const SETS = [['exactRepeat'], ['cycle'], ['chanting'], ['exactRepeat', 'cycle', 'chanting']];
const ENGINES: readonly Engine[] = ['wasm', 'reference'];

/** Both sessions: the one reading only what its detectors read, and the one reading every fact. */
function pair(set: readonly string[], engine: Engine): [LoopDetector, LoopDetector] {
  return [new LoopDetector({ detectors: only(set), engine }), new LoopDetector({ detectors: only(set), engine, custom: [silent()] })];
}

const text = (x: unknown): string => JSON.stringify(x);

describe('verdicts with only the facts a session reads', () => {
  for (const engine of ENGINES) {
    it(`should be those of every fact read, through check() and checkMany() (${engine})`, () => {
      fc.assert(
        fc.property(session, fc.constantFrom(...SETS), (events, set) => {
          const [lazy, whole] = pair(set, engine);
          for (const e of events) expect(text(lazy.check(e))).toBe(text(whole.check(e)));
          const [lazyMany, wholeMany] = pair(set, engine);
          expect(text(lazyMany.checkMany(events))).toBe(text(wholeMany.checkMany(events)));
          for (const d of [lazy, whole, lazyMany, wholeMany]) d.dispose();
        }),
        { numRuns: 150 },
      );
    });

    it(`should be those of every fact read, through propose() and record() (${engine})`, () => {
      fc.assert(
        fc.property(session, fc.constantFrom(...SETS), (events, set) => {
          const [lazy, whole] = pair(set, engine);
          for (const [k, e] of events.entries()) {
            const proposal = { tool: e.tool, args: e.args, id: `c${k}` };
            const a = lazy.propose(proposal);
            expect(text(a)).toBe(text(whole.propose(proposal)));
            // a blocked call does not run
            if (a.action === 'deny' || a.action === 'stop') continue;
            expect(text(lazy.record({ ...e, id: `c${k}` }))).toBe(text(whole.record({ ...e, id: `c${k}` })));
          }
          lazy.dispose();
          whole.dispose();
        }),
        { numRuns: 150 },
      );
    });
  }

  it('should break, ask and warn on such sessions (the comparison reaches the policy\'s every rung)', () => {
    const actions = new Set<string>();
    fc.assert(
      fc.property(session, (events) => {
        const d = new LoopDetector({ detectors: only(['exactRepeat']) });
        for (const e of events) {
          const v = d.check(e);
          if (v !== null) actions.add(v.action);
        }
        d.dispose();
      }),
      { numRuns: 200, seed: 29 },
    );
    expect([...actions].sort()).toEqual(expect.arrayContaining(['ask', 'break', 'warn']));
  });
});
