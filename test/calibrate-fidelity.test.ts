/**
 * The calibrate simulation is faithful: for the default policy and for random points of the search space,
 * each run's simulated outcome (warned, first break) equals a real replay's (eval's replayOnePhase and
 * replayTwoPhase, LoopEngines over the runs), on synthetic runs and on a sample of the real traces; the
 * held-out replay (replayFolds) equals them too; and every recorded signal of a kind whose threshold is
 * emulated has the confidence its detector's formula (signal-formulas.ts) gives, so a detector whose
 * formula changes without the table fails here.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Point, type Space, fittedOf, permissiveOptions, spaceFor, withFitted } from '../src/calibrate/candidate.js';
import { Variants, emulationOf, thresholdsOf } from '../src/calibrate/emulation.js';
import { replayFolds, runKey } from '../src/calibrate/fold-replay.js';
import { type Recording, recordSignals } from '../src/calibrate/record-signals.js';
import { seededRandom } from '../src/fingerprint/seeded-random.js';
import { KIND_FORMULAS } from '../src/calibrate/signal-formulas.js';
import { prepareRun, simulateOnePhase, simulateTwoPhase } from '../src/calibrate/simulate.js';
import { openEvalSource } from '../src/eval/eval-source.js';
import type { JudgedRun } from '../src/eval/eval-row.js';
import { type RunJudge, replayOnePhase } from '../src/eval/trace-eval.js';
import { replayTwoPhase } from '../src/eval/two-phase-eval.js';
import type { LoopDetectorOptions } from '../src/index.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import { PROMPT_LOOP_POINT, writeSyntheticRuns, writeTraceSample } from './helpers/calibrate-runs.js';
import { traceDir } from './helpers/traces.js';
import { type Turn, type TurnCall, writeTurns } from './helpers/prompted-sessions.js';

const made: string[] = [];

/** The coding-agent development set (git-ignored; absent outside the lead's machine): null when absent. */
const devset = ((d: string) => (existsSync(join(d, 'sessions.jsonl')) ? d : null))(resolve(import.meta.dirname, '..', 'devset'));

/** Every `every`-th repository folder of each agent in the devset, with the devset's labels, copied into a temporary folder. */
function writeDevsetSample(root: string, every: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'loopwatch-calibrate-devset-'));
  cpSync(join(root, 'sessions.jsonl'), join(dir, 'sessions.jsonl'));
  for (const agent of readdirSync(root, { withFileTypes: true })) {
    if (!agent.isDirectory()) continue;
    readdirSync(join(root, agent.name))
      .sort()
      .forEach((repo, i) => {
        if (i % every === 0) cpSync(join(root, agent.name, repo), join(dir, agent.name, repo), { recursive: true });
      });
  }
  return dir;
}
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** Every run judged alike (what a label says does not change a replay). */
const judged = { agent: undefined, family: 'all', exitStatus: 'submitted', loop: false };
const judge: RunJudge = () => judged;

type Outcome = readonly [boolean, number | null];

const real = (r: JudgedRun): Outcome => [r.warned, r.firstBreak];

/** Random points of `space`: some parameters moved, the rest at the start. */
function randomPoints(space: Space, count: number, seed: number): Point[] {
  const rand = seededRandom(seed);
  return Array.from({ length: count }, () => space.params.map((p, i) => (rand() < 0.5 ? Math.floor(rand() * p.values.length) : (space.start[i] as number))));
}

/** Checks the simulation against real replays for the start and `extra` random points; returns how many runs broke. */
async function checkFidelity(dir: string, extra: number, seed: number, start: LoopDetectorOptions = {}): Promise<{ runs: number; broken: number }> {
  const source = await openEvalSource(dir);
  const space = spaceFor(start);
  const permissive = resolveOptions(permissiveOptions(start, space));
  const recording: Recording = await recordSignals(source.inputs, permissive);
  const prepared = recording.runs.map(prepareRun);
  let broken = 0;
  for (const point of [space.start, ...randomPoints(space, extra, seed)]) {
    const options = withFitted(start, fittedOf(space, point));
    const em = emulationOf(resolveOptions(options), permissive, new Variants());
    const one = new Map((await replayOnePhase(source.inputs, options, judge)).runs.map((r) => [runKey(r.file, r.session), real(r)]));
    const two = new Map((await replayTwoPhase(source.inputs, options, judge)).runs.map((r) => [runKey(r.file, r.session), real(r)]));
    const folds = new Map((await replayFolds(source.inputs, [options], () => 0)).map((r) => [runKey(r.file, r.session), r]));
    expect(one.size).toBe(prepared.length);
    for (const run of prepared) {
      const key = runKey(run.file, run.session);
      const a = simulateOnePhase(run, em);
      const b = simulateTwoPhase(run, em);
      const where = `${run.session} at ${JSON.stringify(fittedOf(space, point))}`;
      expect([a.warned, a.firstBreak], `one-phase ${where}`).toEqual(one.get(key));
      expect([b.warned, b.firstBreak], `two-phase ${where}`).toEqual(two.get(key));
      const f = folds.get(key);
      expect([f?.onePhase.warned, f?.onePhase.firstBreak], `held-out one-phase ${where}`).toEqual(one.get(key));
      expect([f?.twoPhase.warned, f?.twoPhase.firstBreak], `held-out two-phase ${where}`).toEqual(two.get(key));
      if (a.firstBreak !== null) broken++;
    }
  }
  // every recorded signal of an emulated kind has its formula's confidence at the recorded threshold
  const t = thresholdsOf(permissive);
  let checked = 0;
  for (const run of recording.runs) {
    for (const c of run.recorded) {
      for (const s of [...c.proposed, ...c.recorded]) {
        const i = KIND_FORMULAS.findIndex((f) => f.kind === s.kind && f.field !== null);
        if (i < 0) continue;
        const f = KIND_FORMULAS[i] as (typeof KIND_FORMULAS)[number];
        expect(s.confidence, `${s.kind} x${f.count(s)} at threshold ${t[i]}`).toBe(f.confidence(f.count(s), t[i] as number));
        expect(f.count(s)).toBeGreaterThanOrEqual(t[i] as number);
        checked++;
      }
    }
  }
  expect(checked).toBeGreaterThan(0);
  return { runs: prepared.length, broken };
}

describe('calibrate: simulation against real replays', () => {
  it('should give every synthetic run the outcomes a real replay gives, for the default and random points', async () => {
    const dir = writeSyntheticRuns(45);
    made.push(dir);
    const r = await checkFidelity(dir, 6, 11);
    expect(r.runs).toBe(45);
    // the points tried broke some runs (the check is not vacuous)
    expect(r.broken).toBeGreaterThan(10);
  }, 120_000);

  it('should keep no signal of a call the allow option lets repeat, as a session does', async () => {
    const dir = writeSyntheticRuns(27);
    made.push(dir);
    // the failing make and the re-run pytest are checks meant to repeat: never warned for repeating
    const r = await checkFidelity(dir, 3, 13, { allow: [{ tool: 'bash' }, { tool: 'search', command: 'never' }] });
    expect(r.runs).toBe(27);
    expect(r.broken).toBeGreaterThan(5);
  }, 120_000);

  it('should give runs with prompts (fresh starts) the outcomes a real replay gives', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loopwatch-calibrate-prompts-'));
    made.push(dir);
    const failing: TurnCall = { command: 'npm test', result: 'FAIL src/api.test.ts\n  x returns 200\nTests: 1 failed', failing: true };
    const read: TurnCall = { command: 'cat src/api.ts', result: 'export const api = 1;', failing: false };
    const other = (i: number): TurnCall => ({ command: `cat src/part${i}.ts`, result: `export const p${i} = ${i};`, failing: false });
    // the same work asked for again; a loop within one prompt; a loop going on across prompts (its calls
    // run RETURNS times since the prompt count again); prompts between short repeats
    const shapes: Turn[][] = [
      Array.from({ length: 8 }, (_, i) => ({ prompt: `step ${i}`, calls: [failing, read] })),
      [{ prompt: 'a', calls: [failing, read, other(1)] }, { prompt: 'b', calls: Array.from({ length: 8 }, () => failing) }],
      Array.from({ length: 4 }, (_, i) => ({ prompt: `again ${i}`, calls: [failing, failing, failing, other(i)] })),
      Array.from({ length: 6 }, (_, i) => ({ prompt: `p ${i}`, calls: [read, other(i % 2), failing, read, other(i % 2)] })),
    ];
    const labels: string[] = [];
    for (const [k, turns] of shapes.entries()) {
      for (const format of ['claude-code', 'codex', 'gemini'] as const) {
        writeTurns(dir, format, `prompted-${k}-${format}`, turns);
        labels.push(JSON.stringify({ session: `prompted-${k}-${format}`, exit_status: 'submitted' }));
      }
    }
    writeFileSync(join(dir, 'sessions.jsonl'), `${labels.join('\n')}\n`);
    const r = await checkFidelity(dir, 6, 17);
    expect(r.runs).toBe(12);
    expect(r.broken).toBeGreaterThan(3);
  }, 120_000);

  it("should break a read looped on across a prompt where a real replay breaks it, the scan's calls batched (devset 98743092's shape)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loopwatch-calibrate-prompt-loop-'));
    made.push(dir);
    const cat = (f: string): TurnCall => ({ command: `cat ${f}`, result: `line 1\nline 2 of ${f}`, failing: false });
    const grep = (q: string): TurnCall => ({ command: `grep -rn ${q} src`, result: `no matches for ${q}`, failing: false });
    // a file read among other work, a prompt, then read again and again with a few searches between: the
    // replay's batch holds the later reads when a read's verdict is built (its rings wrapped over the runs
    // since the prompt), and its signals about the loop begun before the prompt were dropped there alone
    const turns: Turn[] = [
      { prompt: 'fix the prompts', calls: [cat('a.py'), grep('x'), cat('p.py'), grep('y'), cat('p.py'), cat('b.py'), cat('p.py'), grep('z')] },
      { prompt: 'it still fails', calls: [cat('p.py'), cat('p.py'), grep('w'), ...Array.from({ length: 40 }, (_, i) => (i % 3 === 2 ? grep(`q${i}`) : cat('p.py')))] },
    ];
    const labels: string[] = [];
    for (const format of ['claude-code', 'codex', 'gemini'] as const) {
      writeTurns(dir, format, `prompt-loop-${format}`, turns);
      labels.push(JSON.stringify({ session: `prompt-loop-${format}`, exit_status: 'submitted' }));
    }
    writeFileSync(join(dir, 'sessions.jsonl'), `${labels.join('\n')}\n`);
    const r = await checkFidelity(dir, 4, 19, PROMPT_LOOP_POINT);
    expect(r.runs).toBe(3);
    expect(r.broken).toBeGreaterThan(0);
  }, 120_000);

  it.skipIf(traceDir === null)('should give a sample of the real traces the outcomes a real replay gives', async () => {
    const dir = writeTraceSample(9, 4);
    if (dir === null) return; // the traces are absent
    made.push(dir);
    const r = await checkFidelity(dir, 3, 5);
    expect(r.runs).toBeGreaterThan(100);
    expect(r.broken).toBeGreaterThan(5);
  }, 300_000);

  it.skipIf(devset === null)("should give a sample of the devset's Claude Code, Codex and Gemini CLI sessions the outcomes a real replay gives", async () => {
    const dir = writeDevsetSample(devset as string, 4);
    made.push(dir);
    const r = await checkFidelity(dir, 2, 7);
    expect(r.runs).toBeGreaterThan(30);
  }, 300_000);
});
