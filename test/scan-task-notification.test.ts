/**
 * A background task's notification is not the person's prompt (src/text/prompt-origin.ts): the readers
 * mark no call prompted after one, in a Claude Code transcript (origin.kind "task-notification", or the
 * text's leading `<task-notification>` in one of a Claude Code before origins) and a hook payload log (the
 * UserPromptSubmit's prompt text), so scan finds a loop that spans background tasks' completions; the same
 * calls after typed tasks stay quiet (each starts afresh), whatever the worker count and batch size.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readInputs } from '../src/index.js';
import { answeredRounds, taskedRounds } from './helpers/answered-rounds.js';
import { type CliRun, tempDir, verdictLines, writeJsonl } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { hookTurns, type Turn } from './helpers/prompted-sessions.js';
import { claudeCodeMarked, notifiedRounds, type OriginMarks } from './helpers/task-notifications.js';

const ROUNDS = 6;
const MARKS: readonly OriginMarks[] = ['none', 'origin', 'origin-blocks'];
const FORMATS = [...MARKS.map((m) => `claude-code-${m}`), 'hooks'] as const;

/** Writes the session of `turns` in `format` under `dir`; the path. */
function write(dir: string, format: string, session: string, turns: readonly Turn[]): string {
  if (format === 'hooks') return writeJsonl(dir, `hooks-${session}.jsonl`, hookTurns(session, turns));
  return writeJsonl(dir, `${session}.jsonl`, claudeCodeMarked(session, turns, format.slice('claude-code-'.length) as OriginMarks));
}

const dir = tempDir();
const files = new Map<string, string>();
for (const format of FORMATS) {
  files.set(`notified-${format}`, write(dir, format, `notified-${format}`, notifiedRounds(ROUNDS)));
  files.set(`tasked-${format}`, write(dir, format, `tasked-${format}`, taskedRounds(ROUNDS)));
}

/** Whether each call of `session` is marked prompted by the reader. */
async function prompted(session: string): Promise<boolean[]> {
  const out: boolean[] = [];
  for await (const item of readInputs([files.get(session)!])) if (item.kind === 'call') out.push(item.prompted === true);
  return out;
}

describe('the readers, on background tasks\' notifications', () => {
  const firsts = answeredRounds(ROUNDS).flatMap((t) => t.calls.map((_, j) => j === 0));

  it.each(FORMATS)('should mark no call prompted after a notification (%s)', async (format) => {
    expect(await prompted(`notified-${format}`)).toEqual(firsts.map(() => false));
  });

  it.each(FORMATS)('should still mark the first call after each typed prompt (%s)', async (format) => {
    expect(await prompted(`tasked-${format}`)).toEqual(firsts.map((first, i) => first && i > 0));
  });
});

describe('scan of a loop that spans background tasks\' notifications', () => {
  let scan: CliRun;
  const bySession = new Map<string, string[]>();
  beforeAll(async () => {
    scan = await loopwatchInProcess(['scan', '--jsonl', dir]);
    for (const v of verdictLines(scan.stdout)) bySession.set(String(v.session), [...(bySession.get(String(v.session)) ?? []), String(v.action)]);
  });

  it.each(FORMATS)('should break the loop (%s)', async (format) => {
    expect(scan.stderr).toBe('');
    expect(bySession.get(`notified-${format}`)).toContain('break');
  });

  it.each(FORMATS)('should stay quiet when each part of each round was asked for by a typed task (%s)', async (format) => {
    expect(bySession.get(`tasked-${format}`)).toBeUndefined();
  });

  it('should give the same verdicts with worker threads and any batch size', async () => {
    for (const flags of [['--workers', '2', '--batch-size', '1'], ['--workers', '0', '--batch-size', '3']]) {
      expect((await loopwatchInProcess(['scan', '--jsonl', dir, ...flags])).stdout, flags.join(' ')).toBe(scan.stdout);
    }
  });
});
