/**
 * `loopwatch calibrate` replays the failing-again rule (src/policy/failing-again.ts) as a session applies
 * it: the recording adds its signal where LoopDetector adds it, and the simulation leaves its warning out
 * of the two-phase state as LoopDetector.record does, so each run's simulated outcome (warned, first break)
 * equals a real replay's, one-phase and two-phase, without the real traces.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fittedOf, permissiveOptions, spaceFor, withFitted } from '../src/calibrate/candidate.js';
import { Variants, emulationOf } from '../src/calibrate/emulation.js';
import { runKey } from '../src/calibrate/fold-replay.js';
import { recordSignals } from '../src/calibrate/record-signals.js';
import { prepareRun, simulateOnePhase, simulateTwoPhase } from '../src/calibrate/simulate.js';
import { openEvalSource } from '../src/eval/eval-source.js';
import type { RunJudge } from '../src/eval/trace-eval.js';
import { replayOnePhase } from '../src/eval/trace-eval.js';
import { replayTwoPhase } from '../src/eval/two-phase-eval.js';
import { FAILING_AGAIN } from '../src/policy/failing-again.js';
import { resolveOptions } from '../src/options/resolve-options.js';

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

type Line = Record<string, unknown>;

const edit = (i: number, file = 'src/parser.py'): Line => ({ tool: 'edit', args: { path: file, old: `step_${i}()`, new: `step_${i + 1}()` }, result: `The file ${file} has been updated successfully.` });
const failing = (i: number): Line => ({ tool: 'bash', args: { command: 'pytest -x tests/test_parser.py' }, error: `Exit code 1\nE   AssertionError: case ${i} expected ${i * 7} got ${i * 7 + 1}` });
const fixing = (rounds: number, file?: (i: number) => string): Line[] => Array.from({ length: rounds }, (_, i) => [edit(i, file?.(i)), failing(i)]).flat();
const reads = (n: number): Line[] => Array.from({ length: n }, () => ({ tool: 'read', args: { path: 'README.md' }, result: '# parser' }));

/** Runs where the rule warns, warns twice, comes before another loop, and stays silent. */
const RUNS: Record<string, Line[]> = {
  warned: fixing(FAILING_AGAIN),
  twice: fixing(2 * FAILING_AGAIN + 1),
  'then-a-loop': [...fixing(FAILING_AGAIN), ...reads(6)],
  'then-a-wall': [...fixing(FAILING_AGAIN), ...Array.from({ length: 6 }, (_, i) => ({ tool: 'find', args: { name: `cfg${i}` }, error: `Could not find [cfg${i}]` }))],
  spread: fixing(FAILING_AGAIN + 1, (i) => `src/m${i}.py`),
  short: fixing(FAILING_AGAIN - 1),
};

function writeRuns(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loopwatch-failing-again-'));
  made.push(dir);
  const lines = Object.entries(RUNS).flatMap(([session, calls]) => calls.map((c, step) => JSON.stringify({ session, step, ...c })));
  writeFileSync(join(dir, 'events.jsonl'), `${lines.join('\n')}\n`);
  writeFileSync(join(dir, 'sessions.jsonl'), `${Object.keys(RUNS).map((session) => JSON.stringify({ session, exit_status: 'submitted' })).join('\n')}\n`);
  return dir;
}

const judge: RunJudge = () => ({ agent: undefined, family: 'all', exitStatus: 'submitted', loop: false });

describe('calibrate: the failing-again rule replayed', () => {
  it('should give each run the outcome a real replay gives, one-phase and two-phase', async () => {
    const source = await openEvalSource(writeRuns());
    const space = spaceFor({});
    const permissive = resolveOptions(permissiveOptions({}, space));
    const prepared = (await recordSignals(source.inputs, permissive)).runs.map(prepareRun);
    const options = withFitted({}, fittedOf(space, space.start));
    const em = emulationOf(resolveOptions(options), permissive, new Variants());
    const one = new Map((await replayOnePhase(source.inputs, options, judge)).runs.map((r) => [runKey(r.file, r.session), [r.warned, r.firstBreak]]));
    const two = new Map((await replayTwoPhase(source.inputs, options, judge)).runs.map((r) => [runKey(r.file, r.session), [r.warned, r.firstBreak]]));
    expect(prepared.length).toBe(Object.keys(RUNS).length);
    for (const run of prepared) {
      const key = runKey(run.file, run.session);
      const a = simulateOnePhase(run, em);
      const b = simulateTwoPhase(run, em);
      expect([a.warned, a.firstBreak], `one-phase ${run.session}`).toEqual(one.get(key));
      expect([b.warned, b.firstBreak], `two-phase ${run.session}`).toEqual(two.get(key));
    }
    // not vacuous: the rule warns the runs it should, and only those
    const warned = (session: string): unknown => one.get(runKey(source.inputs[0] as string, session))?.[0];
    expect(['warned', 'twice', 'spread', 'short'].map(warned)).toEqual([true, true, false, false]);
  }, 120_000);
});
