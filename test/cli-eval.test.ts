/**
 * `loopwatch eval DIR` on a folder of labelled runs written here: runs in two formats, labels matched by
 * id and by file name, per-family figures with intervals, the false alarms and misses listed, a bad label
 * named with its line, and the errors a user can make.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { tempDir, writeJsonl } from './helpers/cli.js';

/** A run stuck on one failing command, a run that works, and their labels. */
function labelledRuns(badLabel = false): string {
  const dir = tempDir();
  const calls: unknown[] = [];
  for (let i = 0; i < 8; i++) calls.push({ session: 'stuck-1', tool: 'bash', args: { command: 'make build' }, result: '', error: 'make: *** [all] Error 2' });
  for (let i = 0; i < 6; i++) calls.push({ session: 'done-1', tool: 'read_file', args: { path: `src/f${i}.py` }, result: `body ${i}` });
  for (let i = 0; i < 5; i++) calls.push({ session: 'quiet-limit', tool: 'search', args: { query: `topic number ${i * 7}` }, result: `page ${i}` });
  for (let i = 0; i < 8; i++) calls.push({ session: 'alarm-1', tool: 'get_order', args: { id: 'A1' }, result: '', error: 'order not ready' });
  calls.push({ session: 'no-label', tool: 'ls', args: {}, result: 'a b' });
  writeJsonl(dir, 'events.jsonl', calls);
  mkdirSync(join(dir, 'swe'));
  const trajectory = [0, 1, 2, 3, 4, 5].map((i) => ({ action: 'python reproduce.py', observation: 'Traceback: ValueError at line 3', thought: `try ${i}` }));
  writeFileSync(join(dir, 'swe', 'task-9.traj'), JSON.stringify({ trajectory }));
  const labels: unknown[] = [
    { session: 'stuck-1', exit_status: 'step_limit', agent: 'mini-swe-agent 1.15.0' },
    { session: 'done-1', exit_status: 'submitted', agent: 'OpenHands CodeActAgent' },
    { session: 'quiet-limit', exit_status: 'step_limit', agent: 'my-agent v2' },
    { session: 'alarm-1', exit_status: 'submitted', agent: 'tau2-bench llm_agent' },
    { session: 'task-9', exit_status: 'step_limit', agent: 'SWE-agent 0.x' },
    { session: 'never-ran', exit_status: 'submitted' },
  ];
  if (badLabel) labels.splice(2, 0, '{"session": "x"', { session: 'done-1', exit_status: 'submitted' });
  writeJsonl(dir, 'sessions.jsonl', labels);
  return dir;
}

interface Row {
  group: string;
  sessions: number;
  stepLimitWarned: { count: number; of: number; rate: number | null; low: number | null; high: number | null };
  submittedBroken: { count: number; of: number; rate: number | null };
}

describe('loopwatch eval', () => {
  const dir = labelledRuns();

  it('should table every family one-phase and two-phase, with intervals, and list the false alarms and misses', async () => {
    const run = await loopwatchInProcess(['eval', dir]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('5 labelled runs judged, 1 runs without a label left out, 1 labels without a run');
    expect(run.stdout).toContain('One-phase');
    expect(run.stdout).toContain('Two-phase');
    for (const family of ['mini-swe-agent', 'OpenHands', 'SWE-agent', 'tau-bench', 'my-agent v2']) expect(run.stdout).toContain(family);
    expect(run.stdout).toMatch(/False alarms \(submitted runs broken\): 1 \(one-phase 1, two-phase 1\)\n.*\n\s+tau-bench\s+alarm-1/);
    expect(run.stdout).toMatch(/Misses \(step_limit runs never warned\): 1 \(one-phase 1, two-phase 1\)\n.*\n\s+my-agent v2\s+quiet-limit/);
  }, 180_000); // in this process now (vitest's timer runs): the first eval in a fresh worker loads its modules, 59 s at load ~27

  it('should give the same figures as JSON, matching a trajectory to its label by file name', async () => {
    const run = await loopwatchInProcess(['eval', dir, '--json']);
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout) as { onePhase: { rows: Row[]; overall: Row }; twoPhase: { overall: Row }; falseAlarms: { session: string }[]; misses: { session: string }[]; unlabelled: number; unlabelledFirst: string[]; unmatchedLabels: number };
    const swe = doc.onePhase.rows.find((r) => r.group === 'SWE-agent') as Row;
    expect(swe.sessions).toBe(1);
    expect(swe.stepLimitWarned.rate).toBe(1);
    const o = doc.onePhase.overall;
    expect(o.stepLimitWarned).toMatchObject({ count: 2, of: 3 });
    // the Wilson interval of 2 of 3
    expect(o.stepLimitWarned.low as number).toBeCloseTo(0.2077, 3);
    expect(o.stepLimitWarned.high as number).toBeCloseTo(0.9385, 3);
    expect(o.submittedBroken).toMatchObject({ count: 1, of: 2, rate: 0.5 });
    expect(doc.twoPhase.overall.stepLimitWarned.count).toBe(2);
    expect(doc.falseAlarms.map((r) => r.session)).toEqual(['alarm-1']);
    expect(doc.misses.map((r) => r.session)).toEqual(['quiet-limit']);
    expect(doc.unlabelled).toBe(1);
    expect(doc.unlabelledFirst).toEqual(['no-label']);
    expect(doc.unmatchedLabels).toBe(1);
  });

  it('should list the runs of one list for loopwatch explain, and take family overrides and rows per agent', async () => {
    expect((await loopwatchInProcess(['eval', dir, '--list', 'misses'])).stdout).toBe(`quiet-limit\tmy-agent v2\t5\t${join(dir, 'events.jsonl')}\n`);
    const overridden = JSON.parse((await loopwatchInProcess(['eval', dir, '--json', '--family', 'MY-AGENT=ReAct'])).stdout) as { onePhase: { rows: Row[] } };
    expect(overridden.onePhase.rows.map((r) => r.group)).toContain('ReAct');
    const byAgent = JSON.parse((await loopwatchInProcess(['eval', dir, '--json', '--by', 'agent'])).stdout) as { onePhase: { rows: Row[] } };
    expect(byAgent.onePhase.rows.map((r) => r.group)).toContain('tau2-bench llm_agent');
  });

  it('should name a bad label by file and line, judge the rest, and exit 2 unless --allow-skipped', async () => {
    const bad = labelledRuns(true);
    const run = await loopwatchInProcess(['eval', bad]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${join(bad, 'sessions.jsonl')}:3: skipped (invalid-json)`);
    expect(run.stderr).toContain(`${join(bad, 'sessions.jsonl')}:4: skipped (bad-record): session "done-1" is already labelled on line 2`);
    expect(run.stdout).toContain('5 labelled runs judged');
    expect((await loopwatchInProcess(['eval', bad, '--allow-skipped'])).code).toBe(0);
  });

  it('should refuse a folder without labels, no folder, a bad --family, and runs that match no label', async () => {
    const empty = tempDir();
    writeJsonl(empty, 'events.jsonl', [{ session: 'a', tool: 'ls', args: {} }]);
    const none = await loopwatchInProcess(['eval', empty]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no labels');
    expect((await loopwatchInProcess(['eval'])).stderr).toContain('name the folder of runs');
    expect((await loopwatchInProcess(['eval', dir, '--family', 'nope'])).stderr).toContain('--family must be PATTERN=FAMILY');
    writeJsonl(empty, 'sessions.jsonl', [{ session: 'b', exit_status: 'submitted' }]);
    const unmatched = await loopwatchInProcess(['eval', empty]);
    expect(unmatched.code).toBe(2);
    expect(unmatched.stderr).toContain('no run matched a label');
  });

  it('should print its help with examples', async () => {
    const run = await loopwatchInProcess(['eval', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: loopwatch eval');
    expect(run.stdout).toContain('sessions.jsonl');
    expect(run.stdout).toContain('Examples:');
  });
});
