/**
 * A session that only checks after the fact (SessionMode.checksOnly, LoopEngine's `checksOnly`) leaves a check
 * that passed (CLEAN) and a report of the state (STATUS) out of its recorded facts and reads them at the screen
 * of the call being checked: its verdicts are those of the default session, call by call, on both engines,
 * through check(), checkMany() and LoopEngine.checkBatch, for calls that pass, report the state, print only a
 * runner's banner or a file's content (its "FAILED" no outcome), fail, write, poll and repeat spaced by edits; and it refuses what would need the facts it leaves
 * unread (propose, record, decline, snapshot, restore). Over the real traces (skipped without them): every
 * verdict identical.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LoopEngine } from '../src/engine/loop-engine.js';
import { ChecksOnlyError, ErrorCode, SnapshotError } from '../src/errors.js';
import type { Engine } from '../src/options/options.js';
import { LoopPool } from '../src/pool/loop-pool.js';
import { LoopDetector } from '../src/session/loop-detector.js';
import type { ToolEvent } from '../src/types.js';
import { traceCalls, traceDir } from './helpers/traces.js';

const ALL = ['exactRepeat', 'frequency', 'cycle', 'semantic', 'similarArgs', 'resultRepeat', 'deadEnd', 'stateRepeat', 'chanting'];
const only = (on: readonly string[]) => ({ detectors: Object.fromEntries(ALL.map((d) => [d, on.includes(d)])) });

const ARGS = [
  { tool: 'Bash', args: { command: 'npm test' } },
  { tool: 'Bash', args: { command: 'npm run lint' } },
  { tool: 'Bash', args: { command: 'git status' } },
  { tool: 'Bash', args: { command: 'python gen.py' } },
  { tool: 'Bash', args: { command: 'cat docs/spec.md' } },
  { tool: 'Bash', args: { command: 'sed -i s/a/b/ src/a.ts' } },
  { tool: 'Bash', args: { command: 'sleep 30 && gh run list' } },
  { tool: 'Edit', args: { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' } },
  { tool: 'Edit', args: { file_path: 'src/b.ts', old_string: 'a', new_string: 'b' } },
  { tool: 'Write', args: { file_path: 'src/c.ts', content: 'x' } },
  { tool: 'Read', args: { file_path: 'src/a.ts' } },
  { tool: 'Bash', args: { command: "sed -n '1,40p' src/a.ts" } },
  { tool: 'write_stdin', args: { session_id: 7, chars: '' } },
  { tool: 'Bash', args: { command: "python3 - <<'PY'\nfrom pathlib import Path\nPath('src/d.ts').write_text('x')\nPY" } },
];
const OUTCOMES: readonly { result?: unknown; error?: string }[] = [
  { result: '' },
  { result: 'ok' },
  { result: '9 passed' },
  { result: 'Tests: 12 passed, 12 total' },
  { result: 'All checks passed!' },
  { result: '> app@0.1.0 lint\n> eslint .\n' },
  { result: 'Output: (empty)' },
  { result: 'On branch main\nnothing to commit, working tree clean' },
  { result: 'Wrote src/gen/a.ts\nWrote src/gen/b.ts' },
  { result: 'FAILED tests/test_a.py::test_x - AssertionError\n1 failed, 3 passed' },
  { result: 'error: Failed to find expected lines' },
  { result: '{"status": "in_progress"}' },
  { result: 'The file src/a.ts has been updated successfully.' },
  { result: null },
  { error: 'Exit code 1' },
  { error: 'Exit code 1\nsrc/a.ts(3,1): error TS2304: Cannot find name x' },
  { error: 'zsh:1: command not found: missingtool' },
];

/**
 * A session's calls: each the call before it again or another, with any outcome; or (`work`) a check (one
 * of five: tests, lint, a status query, a generator, a file printed; mostly with the session's usual answer) and an edit of
 * a new file taking turns: checks spaced by work, whose passing (CLEAN) or report (STATUS) the screen weighs.
 */
const session = fc
  .record({
    work: fc.boolean(),
    usual: fc.nat(OUTCOMES.length - 1),
    steps: fc.array(fc.record({ again: fc.boolean(), call: fc.nat(ARGS.length - 1), outcome: fc.nat(OUTCOMES.length - 1), round: fc.option(fc.nat(2), { nil: undefined }) }), { minLength: 1, maxLength: 80 }),
  })
  .map(({ work, usual, steps }) => {
    const out: ToolEvent[] = [];
    let last = 0;
    let round = 0;
    for (const [k, s] of steps.entries()) {
      if (!s.again) last = work ? s.call % 5 : s.call;
      if (s.round !== undefined) round += s.round;
      const edit = work && k % 2 === 1;
      const c = edit ? { tool: 'Edit', args: { file_path: `src/f${k}.ts`, old_string: 'a', new_string: 'b' } } : (ARGS[last] as (typeof ARGS)[number]);
      // (at work, a check mostly answers as it did: a detector reads answers that change as progress already)
      const outcome = edit ? 1 : work && s.outcome % 4 !== 0 ? usual : s.outcome;
      out.push({ tool: c.tool, args: c.args, ...(OUTCOMES[outcome] as object), ...(s.round === undefined ? {} : { round }) } as ToolEvent);
    }
    return out;
  });

const SETS: readonly (readonly string[] | null)[] = [null, ['exactRepeat', 'frequency'], ['exactRepeat', 'deadEnd'], ['stateRepeat', 'resultRepeat'], ['semantic', 'similarArgs']];
const optionsOf = (set: readonly string[] | null, engine: Engine) => ({ ...(set === null ? {} : only(set)), engine });
const text = (x: unknown): string => JSON.stringify(x);

describe('a session that only checks after the fact', () => {
  it('should give the default session\'s verdicts, call by call, on both engines (check, checkMany)', () => {
    fc.assert(
      fc.property(session, fc.constantFrom(...SETS), (events, set) => {
        const reference = new LoopDetector(optionsOf(set, 'reference'));
        const sessions = [
          new LoopDetector(optionsOf(set, 'wasm')),
          new LoopDetector(optionsOf(set, 'wasm'), undefined, { checksOnly: true }),
          new LoopDetector(optionsOf(set, 'reference'), undefined, { checksOnly: true }),
        ];
        for (const e of events) {
          const want = text(reference.check(e));
          for (const d of sessions) expect(text(d.check(e))).toBe(want);
        }
        const many = new LoopDetector(optionsOf(set, 'wasm'), undefined, { checksOnly: true });
        const whole = new LoopDetector(optionsOf(set, 'wasm'));
        expect(text(many.checkMany(events))).toBe(text(whole.checkMany(events)));
        for (const d of [reference, ...sessions, many, whole]) d.dispose();
      }),
      { numRuns: 200 },
    );
  });

  it('should give the default engine\'s verdicts through LoopEngine.checkBatch, sessions interleaved', () => {
    fc.assert(
      fc.property(fc.array(session, { minLength: 1, maxLength: 4 }), fc.constantFrom(...SETS), (streams, set) => {
        const calls = streams.flatMap((s, k) => s.map((event, i) => ({ at: i * streams.length + k, call: { ...event, session: `s${k}` } }))).sort((a, b) => a.at - b.at).map((c) => c.call);
        const lazy = new LoopEngine({ ...(set === null ? {} : only(set)), checksOnly: true });
        const eager = new LoopEngine(set === null ? {} : only(set));
        for (let i = 0; i < calls.length; i += 7) {
          const batch = calls.slice(i, i + 7);
          const got = lazy.checkBatch(batch);
          expect(got.some((v) => v instanceof Error)).toBe(false);
          expect(text(got)).toBe(text(eager.checkBatch(batch)));
        }
        lazy.close();
        eager.close();
      }),
      { numRuns: 100 },
    );
  });

  it('should reach verdicts a check that passed turns to progress (the comparison weighs CLEAN)', () => {
    const d = new LoopDetector({ detectors: only(['frequency']).detectors }, undefined, { checksOnly: true });
    const changing: string[] = [];
    for (let k = 0; k < 12; k++) {
      d.check({ tool: 'Edit', args: { file_path: `src/f${k}.ts`, old_string: 'a', new_string: 'b' }, result: 'ok' });
      const v = d.check({ tool: 'Bash', args: { command: 'npm test' }, result: '9 passed' });
      if (v !== null) changing.push(v.kind);
    }
    // each run of the check passed after a new edit: progress, so never a verdict past the warning it would give
    const eager = new LoopDetector({ detectors: only(['frequency']).detectors });
    const want: string[] = [];
    for (let k = 0; k < 12; k++) {
      eager.check({ tool: 'Edit', args: { file_path: `src/f${k}.ts`, old_string: 'a', new_string: 'b' }, result: 'ok' });
      const v = eager.check({ tool: 'Bash', args: { command: 'npm test' }, result: '9 passed' });
      if (v !== null) want.push(v.kind);
    }
    expect(changing).toEqual(want);
    d.dispose();
    eager.dispose();
  });

  it('should refuse propose, record, decline, snapshot and restore', () => {
    const d = new LoopDetector({}, 's', { checksOnly: true });
    const call = { tool: 'Bash', args: { command: 'ls' }, id: 'c1' };
    expect(() => d.propose(call)).toThrow(/checks only after the fact/);
    expect(() => d.record({ ...call, result: 'a' })).toThrow(/checks only after the fact/);
    expect(() => d.decline(call)).toThrow(/checks only after the fact/);
    for (const refused of [() => d.propose(call), () => d.record({ ...call, result: 'a' }), () => d.decline(call), () => d.didNotRun(call)]) {
      expect(refused).toThrow(ChecksOnlyError);
    }
    expect(() => d.snapshot()).toThrow(SnapshotError);
    const bytes = new LoopDetector({}).snapshot();
    expect(() => d.restore(bytes)).toThrow(SnapshotError);
    expect(d.check({ tool: 'Bash', args: { command: 'ls' }, result: 'a' })).toBeNull();
    const engine = new LoopEngine({ checksOnly: true });
    expect(() => engine.propose('s', call)).toThrow(/checks only after the fact/);
    expect(() => engine.restore('t', bytes)).toThrow(SnapshotError);
    engine.checkBatch([{ session: 's', tool: 'Bash', args: { command: 'ls' }, result: 'a' }]);
    expect(() => engine.snapshot('s')).toThrow(SnapshotError);
    engine.close();
    expect(() => new LoopEngine({ checksOnly: 'yes' as unknown as boolean })).toThrow(/checksOnly/);
    expect(() => new LoopPool({ workers: 1, checksOnly: true, snapshotEvery: 10 })).toThrow(/snapshotEvery/);
    d.dispose();
  });

  it('should refuse propose, record and decline through a pool with the ChecksOnlyError class and code', async () => {
    for (const inlineShard of [false, true]) {
      const pool = new LoopPool({ workers: 1, inlineShard, checksOnly: true, snapshotEvery: 0 });
      try {
        await pool.check('s', { tool: 'Bash', args: { command: 'ls' }, result: 'a' });
        const call = { tool: 'Bash', args: { command: 'ls' }, id: 'c1' };
        for (const refused of [() => pool.propose('s', call), () => pool.record('s', { ...call, result: 'a' }), () => pool.decline('s', call)]) {
          const e = await refused().then(() => null, (err: unknown) => err);
          // before: a plain Error (name 'Error', no code) across the worker boundary
          expect(e, `inlineShard ${inlineShard}`).toBeInstanceOf(ChecksOnlyError);
          expect((e as ChecksOnlyError).code).toBe(ErrorCode.CHECKS_ONLY);
        }
      } finally {
        await pool.close();
      }
    }
  });
});

describe.skipIf(traceDir === null)('a session that only checks after the fact, over the real traces', () => {
  it('should give every verdict the default engine gives', () => {
    const calls = traceCalls().map(([session, event]) => ({ ...event, session }));
    for (const set of [null, ['exactRepeat', 'frequency']] as const) {
      const lazy = new LoopEngine({ ...(set === null ? {} : only(set)), checksOnly: true });
      const eager = new LoopEngine(set === null ? {} : only(set));
      let verdicts = 0;
      for (let i = 0; i < calls.length; i += 64) {
        const batch = calls.slice(i, i + 64);
        const a = lazy.checkBatch(batch);
        const b = eager.checkBatch(batch);
        expect(a.some((v) => v instanceof Error)).toBe(false);
        expect(text(a)).toBe(text(b));
        verdicts += a.filter((v) => v !== null).length;
      }
      expect(verdicts).toBeGreaterThan(0);
      lazy.close();
      eager.close();
    }
  }, 120_000);
});
