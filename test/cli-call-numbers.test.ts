/**
 * Call numbers a person reads count from 1, wherever they are read: the verdict's message ("since call
 * #1" for a loop that began at the session's first call), scan's summary and Markdown ("call #1, flagged at
 * call #3"), explain's call column and footer. The machine fields stay as they were, counted from 0
 * (`index`, `loopStart` of --jsonl and --json), and an input's own steps are shown as it numbers them.
 * They said "since call #0", "step 0, flagged at step 2" and "#0" for the first call before; eval's report
 * said "#2" for the third call until s28, and explain "#5 (step 4)" for the fifth call of an input that
 * numbers its calls from 0 (its step column beside the # column, one apart).
 */
import { describe, expect, it } from 'vitest';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { tempDir, verdictLines, writeJsonl } from './helpers/cli.js';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';

const dir = tempDir();
const make = (step?: number) => ({ session: 's1', ...(step === undefined ? {} : { step }), tool: 'bash', args: { command: 'make' }, result: 'error 1' });
/** Five identical failing calls: warned at the third (index 2), the loop began at the first. */
const plain = writeJsonl(dir, 'plain.jsonl', Array.from({ length: 5 }, () => make()));
/** The same calls with the input's own steps 10, 20, ... */
const stepped = writeJsonl(dir, 'stepped.jsonl', Array.from({ length: 5 }, (_, i) => make(10 * (i + 1))));
/** The same calls numbered by the input from 0: its steps are the calls' indices. */
const fromZero = writeJsonl(dir, 'from-zero.jsonl', Array.from({ length: 5 }, (_, i) => make(i)));
/** A folder for eval: the plain run, labelled submitted (its break a false alarm, listed with where it came). */
const evalDir = join(dir, 'eval');
mkdirSync(evalDir);
writeJsonl(evalDir, 'run.jsonl', Array.from({ length: 5 }, () => make()));
writeJsonl(evalDir, 'sessions.jsonl', [{ session: 's1', exit_status: 'submitted', agent: 'mini-swe-agent' }]);

describe('call numbers a person reads', () => {
  it('should say "since call #1" in the message of a loop begun at the first call, its loopStart field still 0', async () => {
    const lines = verdictLines((await loopwatchInProcess(['scan', plain, '--jsonl', '--workers', '0'])).stdout);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines[0]).toMatchObject({ index: 2, loopStart: 0 });
    for (const l of lines) expect(l.message).toContain('since call #1)');
  });

  it('should name the loop by call number from 1 in the summary and the Markdown', async () => {
    const text = (await loopwatchInProcess(['scan', plain, '--workers', '0'])).stdout;
    expect(text).toContain('call #1, flagged at call #3');
    const md = (await loopwatchInProcess(['scan', plain, '--markdown', '--workers', '0'])).stdout;
    expect(md).toContain('| call #1, flagged at call #3 |');
  });

  it("should name the loop by the input's own steps when it gives them", async () => {
    const text = (await loopwatchInProcess(['scan', stepped, '--workers', '0'])).stdout;
    expect(text).toContain('step 10, flagged at step 30');
    const lines = verdictLines((await loopwatchInProcess(['scan', stepped, '--jsonl', '--workers', '0'])).stdout);
    expect(lines[0]).toMatchObject({ index: 2, step: 30, loopStart: 0 });
    expect(lines[0]?.message).toContain('since call #1)');
  });

  it('should number explain\'s calls from 1, its verdicts and footer alike, and keep --json\'s index from 0', async () => {
    const run = await loopwatchInProcess(['explain', 's1', plain]);
    const numbers = run.stdout.split('\n').map((l) => /^\s*(\d+)\s+bash /.exec(l)?.[1]).filter((n) => n !== undefined);
    expect(numbers).toEqual(['1', '2', '3', '4', '5']);
    expect(run.stdout).toMatch(/^3 .*WARN\s+exact_repeat \d\.\d\d since #1 /m);
    expect(run.stdout).toContain('first verdict: call #3 exact_repeat (warn)');
    expect(run.stdout).toContain('first break: call #4 exact_repeat; calls after it: 1');
    const rows = JSON.parse((await loopwatchInProcess(['explain', 's1', plain, '--json'])).stdout) as { index: number }[];
    expect(rows.map((r) => r.index)).toEqual([0, 1, 2, 3, 4]);
  });

  it("should give explain's calls no second number when the input's steps are the calls' indices from 0", async () => {
    const run = await loopwatchInProcess(['explain', 's1', fromZero]);
    expect(run.stdout).not.toMatch(/\bstep\b/);
    expect(run.stdout).toMatch(/^#\s+call /m);
    expect(run.stdout).toContain('first break: call #4 exact_repeat; calls after it: 1');
  });

  it("should name a call by its number and the input's own step when the input gives steps of its own", async () => {
    const run = await loopwatchInProcess(['explain', 's1', stepped]);
    expect(run.stdout).toMatch(/^# step\s+call /m);
    expect(run.stdout).toMatch(/^3\s+30\s+bash /m);
    expect(run.stdout).toContain("first break: call #4 (input's step 40) exact_repeat; calls after it: 1");
  });

  it("should count eval's calls from 1 (its listing and median first break), its --json from 0", async () => {
    const run = await loopwatchInProcess(['eval', evalDir]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/exact_repeat at call #3, break at call #4\s+exact_repeat at call #3, break at call #4/);
    expect(run.stdout).toMatch(/^all\b.*\s#4\s/m);
    const json = JSON.parse((await loopwatchInProcess(['eval', evalDir, '--json'])).stdout) as { onePhase: { overall: { medianFirstBreak: number } }; falseAlarms: { onePhase: { firstBreak: number; first: { index: number } } }[] };
    expect(json.onePhase.overall.medianFirstBreak).toBe(3);
    expect(json.falseAlarms[0]?.onePhase).toMatchObject({ firstBreak: 3, first: { index: 2 } });
  });
});
