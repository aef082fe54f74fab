/**
 * `loopwatch scan` hears the person's prompts, as the agents' hooks do: in a Claude Code transcript, a
 * Codex rollout, a Gemini CLI chat and a hook payload log (UserPromptSubmit), the first call after a typed prompt comes after a fresh start
 * (LoopDetector.freshStart). A session that does the same work again for each new prompt (run the tests,
 * read the file) is not broken, while the same calls read as one run of calls (no prompts between them)
 * are; a genuine loop within one prompt still breaks; the verdicts are the same whatever the worker count
 * and the batch size (the pool carries the fresh start in order with the calls); and `eval`'s two replays
 * hear the prompts alike.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readInputs } from '../src/index.js';
import { tempDir, verdictLines } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { type Turn, type TurnCall, writeTurns } from './helpers/prompted-sessions.js';

const FORMATS = ['claude-code', 'codex', 'gemini', 'hooks'] as const;

const failingTests: TurnCall = { command: 'npm test', result: 'FAIL src/api.test.ts\n  x returns 200 (12 ms)\nTests: 1 failed, 11 passed', failing: true };
const readApi: TurnCall = { command: 'cat src/api.ts', result: 'export const api = 1;', failing: false };

/** Eight prompts, each answered by running the tests and reading the same file: the same work again, asked for. */
const askedAgain: Turn[] = Array.from({ length: 8 }, (_, i) => ({ prompt: `Now look at step ${i}, please.`, calls: [failingTests, readApi] }));

/** The same calls with one prompt before them all. */
const oneRun: Turn[] = [{ prompt: 'Please fix the failing test.', calls: askedAgain.flatMap((t) => t.calls) }];

/** Two ordinary prompts, then one in which the agent runs the failing tests eight times in a row. */
const loopInOnePrompt: Turn[] = [...askedAgain.slice(0, 2), { prompt: 'Make the test pass.', calls: Array.from({ length: 8 }, () => failingTests) }];

/** The actions `scan --jsonl` reports for the session of `file` (extra flags in `flags`). */
async function actions(dir: string, flags: readonly string[] = []): Promise<string[]> {
  const r = await loopwatchInProcess(['scan', '--jsonl', dir, ...flags]);
  expect(r.stderr).toBe('');
  return verdictLines(r.stdout).map((v) => String(v.action));
}

describe.each(FORMATS)('scan of a %s session with prompts', (format) => {
  it('marks the first call after each prompt but the first (the readers give TraceCall.prompted)', async () => {
    const dir = tempDir();
    const file = writeTurns(dir, format, `asked-${format}`, askedAgain);
    const prompted: boolean[] = [];
    for await (const item of readInputs([file])) if (item.kind === 'call') prompted.push(item.prompted === true);
    // the first prompt comes before the session's first call: nothing to start afresh
    expect(prompted).toEqual(askedAgain.flatMap((_, i) => [i > 0, false]));
  });

  it('should not break work asked for again by each new prompt', async () => {
    const dir = tempDir();
    writeTurns(dir, format, `asked-${format}`, askedAgain);
    expect(await actions(dir)).not.toContain('break');
  });

  it('should break the same calls read as one run of calls', async () => {
    const dir = tempDir();
    writeTurns(dir, format, `one-run-${format}`, oneRun);
    expect(await actions(dir)).toContain('break');
  });

  it('should be explained as the scan sees it (explain replays the prompts too)', async () => {
    const dir = tempDir();
    writeTurns(dir, format, `asked-${format}`, askedAgain);
    writeTurns(dir, format, `loop-${format}`, loopInOnePrompt);
    expect((await loopwatchInProcess(['explain', `asked-${format}`, dir])).stdout).toContain('first break: none');
    expect((await loopwatchInProcess(['explain', `loop-${format}`, dir])).stdout).toMatch(/first break: call #\d+ /);
  });

  it('should break a loop within one prompt', async () => {
    const dir = tempDir();
    writeTurns(dir, format, `loop-${format}`, loopInOnePrompt);
    expect(await actions(dir)).toContain('break');
  });
});

describe('scan with prompts, whatever the threads and batches', () => {
  it('should give the same verdicts with worker threads and with any batch size', async () => {
    const dir = tempDir();
    for (const format of FORMATS) {
      writeTurns(dir, format, `asked-${format}`, askedAgain);
      writeTurns(dir, format, `loop-${format}`, loopInOnePrompt);
    }
    const one = await loopwatchInProcess(['scan', '--jsonl', dir, '--workers', '0']);
    expect(verdictLines(one.stdout).some((v) => v.action === 'break')).toBe(true);
    for (const flags of [['--workers', '2'], ['--workers', '3', '--batch-size', '1'], ['--workers', '0', '--batch-size', '3'], ['--workers', '2', '--batch-size', '5']]) {
      expect((await loopwatchInProcess(['scan', '--jsonl', dir, ...flags])).stdout, flags.join(' ')).toBe(one.stdout);
    }
  });
});

describe('eval with prompts', () => {
  it('should neither warn nor break work asked for again by each prompt, in either replay, and break a loop within one prompt in both', async () => {
    const dir = tempDir();
    const labels: string[] = [];
    for (const format of FORMATS) {
      writeTurns(dir, format, `asked-${format}`, askedAgain);
      writeTurns(dir, format, `loop-${format}`, loopInOnePrompt);
      labels.push(JSON.stringify({ session: `asked-${format}`, exit_status: 'interactive', agent: format }), JSON.stringify({ session: `loop-${format}`, exit_status: 'interactive', agent: format, loop: true }));
    }
    writeFileSync(join(dir, 'sessions.jsonl'), `${labels.join('\n')}\n`);
    const r = await loopwatchInProcess(['eval', dir, '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { falseAlarms: unknown[]; warnings: unknown[]; loops: { session: string; onePhase: { warned: boolean; firstBreak: number | null }; twoPhase: { warned: boolean; firstBreak: number | null } }[] };
    expect(report.falseAlarms).toEqual([]);
    expect(report.warnings).toEqual([]);
    expect(report.loops.map((l) => l.session).sort()).toEqual(FORMATS.map((f) => `loop-${f}`).sort());
    for (const l of report.loops) {
      expect(l.onePhase.firstBreak, l.session).not.toBeNull();
      expect(l.twoPhase.firstBreak, l.session).not.toBeNull();
    }
  });
});
