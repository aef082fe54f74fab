/**
 * The calibrate simulation screens signals as a session does: runs whose verdicts the evidence screen
 * changes (a poll the agent paces, which climbs the ladder half a rung at a time, then another loop; a call failing for want of a person, one command failing with a new
 * error each time, a check re-run after each new edit, edits answered by an acknowledgement, searches that
 * found nothing) get, simulated, the outcomes a real replay gives (eval's replayOnePhase and
 * replayTwoPhase), for the default point and random points of the search space.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fittedOf, permissiveOptions, spaceFor, withFitted } from '../src/calibrate/candidate.js';
import { Variants, emulationOf } from '../src/calibrate/emulation.js';
import { runKey } from '../src/calibrate/fold-replay.js';
import { recordSignals } from '../src/calibrate/record-signals.js';
import { seededRandom } from '../src/fingerprint/seeded-random.js';
import { prepareRun, simulateOnePhase, simulateTwoPhase } from '../src/calibrate/simulate.js';
import type { RunJudge } from '../src/eval/trace-eval.js';
import { replayOnePhase } from '../src/eval/trace-eval.js';
import { replayTwoPhase } from '../src/eval/two-phase-eval.js';
import { resolveOptions } from '../src/options/resolve-options.js';

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

type Line = Record<string, unknown>;

const ERRORS = ["TypeError: Cannot read properties of undefined (reading 'map')", 'ReferenceError: fetchUser is not defined', 'SyntaxError: Unexpected token }', "Error: Cannot find module './config'", 'RangeError: Maximum call stack size exceeded', 'TypeError: db.query is not a function', 'AssertionError: expected 200, got 500'];
const edit = (v: number, i: number): Line => ({ tool: 'Edit', args: { file_path: `src/m${v}_${i}.ts`, old_string: `= ${i};`, new_string: `= ${i + 1};` }, result: `The file src/m${v}_${i}.ts has been updated successfully.` });

/** The runs, by shape: each one the evidence screen reads. */
const SHAPES: ((v: number) => Line[])[] = [
  // a poll the agent paces, the same answer each time (waiting: climbs half a rung; asked, not broken)
  (v) => Array.from({ length: 12 }, () => ({ tool: 'Bash', args: { command: `sleep 30 && gh run list --limit ${v}` }, result: 'CI  main  push  1234  2m10s' })),
  // a paced poll, then a command failing the same way again and again (the poll climbed half rungs)
  (v) => [
    ...Array.from({ length: 5 }, () => ({ tool: 'Bash', args: { command: `sleep 20 && gh run view ${v}` }, result: 'CI  main  push  1234  2m10s' })),
    ...Array.from({ length: 5 }, () => ({ tool: 'Bash', args: { command: `make build${v}` }, error: 'make: *** [build] Error 2' })),
  ],
  // the same call failing for want of a person
  (v) => Array.from({ length: 9 }, () => ({ tool: 'Bash', args: { command: `gh api repos/acme/app${v}` }, error: 'Exit code 1\nHTTP 401: Not authorized (https://api.github.com)' })),
  // one command failing again and again with a new error each time, nothing changed between
  (v) => ERRORS.map((e) => ({ tool: 'Bash', args: { command: `npm start -- --port ${v}` }, error: `Exit code 1\n${e}` })),
  // a check re-run after each edit of another file, passing
  (v) => Array.from({ length: 8 }, (_, i) => [edit(v, i), { tool: 'Bash', args: { command: `npm test -- ${v}` }, result: '' }]).flat(),
  // edits of one file answered by an acknowledgement
  (v) => Array.from({ length: 9 }, (_, i) => ({ tool: 'Edit', args: { file_path: `src/app${v}.ts`, old_string: `const r${i} = ${i};`, new_string: `const r${i} = ${i + 1};` }, result: `The file src/app${v}.ts has been updated successfully.` })),
  // different searches failing without a word
  (v) => Array.from({ length: 8 }, (_, i) => ({ tool: 'Bash', args: { command: `rg -n symbol${v}_${i} src` }, error: 'Exit code 1' })),
];

/** Writes `per` runs of each shape (events.jsonl, sessions.jsonl) into a new temporary folder. */
function writeScreenedRuns(per: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'loopwatch-calibrate-screened-'));
  made.push(dir);
  const lines: Line[] = [];
  const labels: Line[] = [];
  SHAPES.forEach((shape, s) => {
    for (let k = 0; k < per; k++) {
      const session = `shape-${s}-${k}`;
      shape(k).forEach((c, step) => lines.push({ session, step, ...c }));
      labels.push({ session, exit_status: s < 4 ? 'step_limit' : 'submitted', agent: 'claude-code 2.0.0' });
    }
  });
  writeFileSync(join(dir, 'events.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  writeFileSync(join(dir, 'sessions.jsonl'), `${labels.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return dir;
}

const judged = { agent: undefined, family: 'all', exitStatus: 'submitted', loop: false };
const judge: RunJudge = () => judged;

describe('calibrate: the simulation screens signals as a session does', () => {
  it('should give runs the evidence screen reads the outcomes a real replay gives', async () => {
    const dir = writeScreenedRuns(2);
    const inputs = [join(dir, 'events.jsonl')];
    const space = spaceFor({});
    const permissive = resolveOptions(permissiveOptions({}, space));
    const prepared = (await recordSignals(inputs, permissive)).runs.map(prepareRun);
    expect(prepared.length).toBe(SHAPES.length * 2);
    const rand = seededRandom(3);
    const points = [space.start, ...Array.from({ length: 4 }, () => space.params.map((p, i) => (rand() < 0.5 ? Math.floor(rand() * p.values.length) : (space.start[i] as number))))];
    const outcomes = new Set<string>();
    for (const point of points) {
      const options = withFitted({}, fittedOf(space, point));
      const em = emulationOf(resolveOptions(options), permissive, new Variants());
      const one = new Map((await replayOnePhase(inputs, options, judge)).runs.map((r) => [runKey(r.file, r.session), [r.warned, r.firstBreak]]));
      const two = new Map((await replayTwoPhase(inputs, options, judge)).runs.map((r) => [runKey(r.file, r.session), [r.warned, r.firstBreak]]));
      for (const run of prepared) {
        const key = runKey(run.file, run.session);
        const a = simulateOnePhase(run, em);
        const b = simulateTwoPhase(run, em);
        const where = `${run.session} at ${JSON.stringify(fittedOf(space, point))}`;
        expect([a.warned, a.firstBreak], `one-phase ${where}`).toEqual(one.get(key));
        expect([b.warned, b.firstBreak], `two-phase ${where}`).toEqual(two.get(key));
        outcomes.add(`${a.warned}/${a.firstBreak !== null}`);
      }
    }
    // the runs are not all alike: some quiet, some warned, some broken
    expect(outcomes.size).toBe(3);
  }, 120_000);
});
