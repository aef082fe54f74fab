/**
 * A loop that spans the person's prompts is still a loop: the agent repeats a round of calls that cannot
 * succeed (a branch switch that fails because its own log changed, then add / commit / push of the log) and
 * asks at two points of each round, and the person only answers ("2", "ok"). Such an answer gives no fresh
 * start (src/text/prompt-answer.ts), so scan and eval find the loop in a Claude Code transcript, a Codex
 * rollout, a Gemini CLI chat and a hook payload log alike, whatever the worker count and batch size; the
 * same calls with a real new task before each part of each round stay quiet (each task starts afresh).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readInputs } from '../src/index.js';
import { answeredRounds, taskedRounds } from './helpers/answered-rounds.js';
import { type CliRun, tempDir, verdictLines } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { writeTurns } from './helpers/prompted-sessions.js';

const FORMATS = ['claude-code', 'codex', 'gemini', 'hooks'] as const;
const ROUNDS = 6;

/** Both sessions of every format in one folder, and their labels in another (the answered rounds a genuine loop). */
function sessions(): { dir: string; files: Map<string, string>; labels: string } {
  const dir = tempDir();
  const files = new Map<string, string>();
  const labels: string[] = [];
  for (const format of FORMATS) {
    files.set(`answered-${format}`, writeTurns(dir, format, `answered-${format}`, answeredRounds(ROUNDS)));
    files.set(`tasked-${format}`, writeTurns(dir, format, `tasked-${format}`, taskedRounds(ROUNDS)));
    labels.push(JSON.stringify({ session: `answered-${format}`, exit_status: 'interactive', agent: format, loop: true }), JSON.stringify({ session: `tasked-${format}`, exit_status: 'interactive', agent: format }));
  }
  const labelFile = join(tempDir(), 'sessions.jsonl');
  writeFileSync(labelFile, `${labels.join('\n')}\n`);
  return { dir, files, labels: labelFile };
}

const { dir, files, labels } = sessions();

describe('the readers, on prompts that only answer the agent', () => {
  it.each(FORMATS)('should mark no call prompted after an answer, and every round after a real task (%s)', async (format) => {
    const prompted = async (session: string): Promise<boolean[]> => {
      const out: boolean[] = [];
      for await (const item of readInputs([files.get(session)!])) if (item.kind === 'call') out.push(item.prompted === true);
      return out;
    };
    const calls = answeredRounds(ROUNDS).flatMap((t) => t.calls.map((_, j) => j === 0));
    expect(await prompted(`answered-${format}`)).toEqual(calls.map(() => false));
    expect(await prompted(`tasked-${format}`)).toEqual(calls.map((first, i) => first && i > 0));
  });
});

describe('scan of a loop whose rounds the person only answers', () => {
  let scan: CliRun;
  const bySession = new Map<string, string[]>();
  beforeAll(async () => {
    scan = await loopwatchInProcess(['scan', '--jsonl', dir]);
    for (const v of verdictLines(scan.stdout)) bySession.set(String(v.session), [...(bySession.get(String(v.session)) ?? []), String(v.action)]);
  });

  it.each(FORMATS)('should break the answered rounds (%s)', async (format) => {
    expect(scan.stderr).toBe('');
    expect(bySession.get(`answered-${format}`)).toContain('break');
  });

  it.each(FORMATS)('should stay quiet when each part of each round was asked for by a new task (%s)', async (format) => {
    expect(bySession.get(`tasked-${format}`)).toBeUndefined();
  });

  it('should give the same verdicts with worker threads and any batch size', async () => {
    for (const flags of [['--workers', '2', '--batch-size', '1'], ['--workers', '0', '--batch-size', '3']]) {
      expect((await loopwatchInProcess(['scan', '--jsonl', dir, ...flags])).stdout, flags.join(' ')).toBe(scan.stdout);
    }
  });
});

describe('eval of a loop whose rounds the person only answers', () => {
  it('should warn the answered rounds in both replays, and leave the tasked ones unwarned', async () => {
    const r = await loopwatchInProcess(['eval', dir, '--labels', labels, '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { falseAlarms: unknown[]; warnings: unknown[]; loops: { session: string; onePhase: { warned: boolean }; twoPhase: { warned: boolean } }[] };
    expect(report.falseAlarms).toEqual([]);
    expect(report.warnings).toEqual([]);
    expect(report.loops.map((l) => l.session).sort()).toEqual(FORMATS.map((f) => `answered-${f}`).sort());
    for (const l of report.loops) expect([l.session, l.onePhase.warned, l.twoPhase.warned]).toEqual([l.session, true, true]);
  });
});
