/**
 * `loopwatch scan` on files of every supported format, through the CLI's `main` in this process (the bundled command
 * as a process: cli-commands.test.ts, cli-bundle.test.ts): the stuck session is flagged up to
 * break, the clean one is not, and the outputs have the documented shapes.
 */
import { describe, expect, it } from 'vitest';
import { tempDir, verdictLines } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { FIXTURE_CALLS, writeAnthropic, writeAtif, writeInspectLog, writeClaudeCode, writeCodex, writeEvents, writeGeminiCli, writeHookPayloads, writeOpenAiChat, writeOpenAiResponses, writeOpenHands, writeOtel, writeSweAgent } from './helpers/format-fixtures.js';

const VERDICT_FIELDS = ['session', 'file', 'index', 'step', 'tool', 'kind', 'detector', 'confidence', 'action', 'loopStart', 'recommended', 'message'];

const dir = tempDir();
const cases: [string, string[], string, string][] = [
  ['events', [writeEvents(dir)], 'stuck', 'clean'],
  ['openai-chat', [writeOpenAiChat(dir)], 'chat-stuck', 'chat-clean'],
  ['openai-responses', [writeOpenAiResponses(dir)], 'resp-stuck', 'resp-clean'],
  ['anthropic', [writeAnthropic(dir)], 'anthropic-stuck', 'anthropic-clean'],
];
const [trajStuck, trajClean] = writeSweAgent(dir);
// a .traj file's session is named by the file
cases.push(['swe-agent', [trajStuck, trajClean], 'stuck.traj', 'clean.traj']);
cases.push(['claude-code', writeClaudeCode(dir), 'cc-stuck', 'cc-clean']);
cases.push(['codex', writeCodex(dir), 'codex-stuck', 'codex-clean']);
cases.push(['otel', [writeOtel(dir)], 'otel-stuck', 'otel-clean']);
cases.push(['hooks', [writeHookPayloads(dir)], 'hook-stuck', 'hook-clean']);
cases.push(['openhands', [writeOpenHands(dir)], 'oh-stuck', 'oh-clean']);
cases.push(['gemini-cli', writeGeminiCli(dir), 'gem-stuck', 'gem-clean']);
cases.push(['atif', writeAtif(dir), 'atif-stuck', 'atif-clean']);
cases.push(['inspect', [writeInspectLog(dir)], 'fix_tests/stuck#1', 'fix_tests/clean#1']);

describe('loopwatch scan, per format', () => {
  for (const [format, files, stuck, clean] of cases) {
    it(`should flag the stuck ${format} session up to break, and not the clean one`, async () => {
      const run = await loopwatchInProcess(['scan', ...files, '--jsonl', '--workers', '1']);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(1); // a session reached break (the default --fail-on)
      const lines = verdictLines(run.stdout);
      expect(lines.length).toBeGreaterThan(0);
      for (const l of lines) {
        expect(Object.keys(l)).toEqual(VERDICT_FIELDS);
        expect(l.session).toBe(stuck);
      }
      expect(lines.map((l) => l.action)).toContain('break');
      expect(lines.every((l) => typeof l.index === 'number' && (l.index as number) < FIXTURE_CALLS)).toBe(true);
      expect(lines.some((l) => l.session === clean)).toBe(false);
    });

    it(`should read ${format} the same when forced with --format, and summarise it as JSON`, async () => {
      const run = await loopwatchInProcess(['scan', ...files, '--json', '--format', format, '--workers', '0']);
      expect(run.code).toBe(1);
      const doc = JSON.parse(run.stdout) as { summary: Record<string, unknown>; sessions: { session: string; calls: number; worstAction: string | null }[] };
      expect(doc.summary).toMatchObject({ sessions: 2, events: 2 * FIXTURE_CALLS, flaggedSessions: 1, skipped: 0 });
      expect(Object.keys(doc.summary)).toEqual(expect.arrayContaining(['sessions', 'events', 'flaggedSessions', 'byKind', 'byAction', 'wastedCalls', 'eventsPerSecond']));
      expect((doc.summary.byAction as Record<string, number>).break).toBe(1);
      expect(doc.summary.wastedCalls as number).toBeGreaterThan(0);
      const bySession = new Map(doc.sessions.map((s) => [s.session, s]));
      expect(bySession.get(stuck)).toMatchObject({ calls: FIXTURE_CALLS, worstAction: 'break' });
      expect(bySession.get(clean)).toMatchObject({ calls: FIXTURE_CALLS, worstAction: null });
    });
  }

  it('should scan a folder of mixed formats, gzip included, and read standard input', async () => {
    const mixed = tempDir();
    writeEvents(mixed, 'a.jsonl.gz');
    writeOpenAiChat(mixed, 'b.jsonl');
    writeAnthropic(mixed, 'c.json');
    writeSweAgent(mixed);
    const run = await loopwatchInProcess(['scan', mixed, '--json', '--workers', '2']);
    expect(run.stderr).toBe('');
    const doc = JSON.parse(run.stdout) as { summary: { sessions: number; flaggedSessions: number; events: number } };
    expect(doc.summary).toMatchObject({ sessions: 8, flaggedSessions: 4, events: 8 * FIXTURE_CALLS });

    const piped = await loopwatchInProcess(['scan', '-', '--json', '--workers', '0'], `${JSON.stringify({ session: 's', tool: 't', args: { a: 1 } })}\n`);
    expect(piped.code).toBe(0);
    expect(JSON.parse(piped.stdout).summary).toMatchObject({ sessions: 1, events: 1, flaggedSessions: 0 });
  });

  it('should check calls whose arguments were not recorded by tool name, and say so in the summary', async () => {
    const file = writeOtel(tempDir(), 'no-args.jsonl', false);
    const run = await loopwatchInProcess(['scan', file, '--workers', '0']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`${2 * FIXTURE_CALLS} calls had no recorded arguments: compared by tool name only`);
    expect(run.stdout).toMatch(/otel-stuck\s+8\s+\d+ break/);
    const doc = JSON.parse((await loopwatchInProcess(['scan', file, '--json', '--workers', '0'])).stdout) as { summary: Record<string, unknown> };
    expect(doc.summary).toMatchObject({ events: 2 * FIXTURE_CALLS, callsWithoutArgs: 2 * FIXTURE_CALLS, skipped: 0 });
    const withArgs = await loopwatchInProcess(['scan', writeOtel(tempDir()), '--workers', '0']);
    expect(withArgs.stdout).not.toContain('no recorded arguments');
  });

  it('should print a readable summary naming the stuck session and where its loop began', async () => {
    const run = await loopwatchInProcess(['scan', writeEvents(tempDir()), '--workers', '0']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('loopwatch scan: 2 sessions, 16 calls');
    expect(run.stdout).toMatch(/flagged sessions \(warn or above\): 1 of 2/);
    expect(run.stdout).toContain('top looping tools');
    expect(run.stdout).toMatch(/stuck\s+8\s+\d+ break\s+\w+\s+call #1, flagged at call #\d+/);
  });
});
