/**
 * `loopwatch explain` (the CLI's `main` in this process: helpers/cli-in-process.ts): one session replayed
 * call by call with the verdicts a LoopDetector gives beside the right calls, none for a clean session,
 * suggestions for an unknown one, `--json`, `--around`, skipped input, and one session of the real traces.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { tempDir, writeJsonl } from './helpers/cli.js';
import { FIXTURE_CALLS, writeEvents } from './helpers/format-fixtures.js';
import { traceCalls, traceDir, traceEventsText } from './helpers/traces.js';

const dir = tempDir();
const events = writeEvents(dir);

/** The call lines of a text run (`number step call ...`), by call number (from 1). */
function callLines(stdout: string): Map<number, string> {
  const out = new Map<number, string>();
  for (const line of stdout.split('\n')) {
    const m = /^\s*(\d+)\s/.exec(line);
    if (m !== null) out.set(Number(m[1]), line);
  }
  return out;
}

/** What a LoopDetector says about the fixture's session `session`, call by call. */
function expectedVerdicts(session: string): ({ action: string; kind: string } | null)[] {
  const lines = readFileSync(events, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { session: string; tool: string });
  const d = new LoopDetector();
  return lines.filter((l) => l.session === session).map(({ session: _s, ...e }) => d.check(e));
}

describe('loopwatch explain', () => {
  it('should show BREAK and the kind beside the calls the detector flags in the stuck session', async () => {
    const run = await loopwatchInProcess(['explain', 'stuck', events]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = callLines(run.stdout);
    expect(lines.size).toBe(FIXTURE_CALLS);
    const expected = expectedVerdicts('stuck');
    expect(expected.some((v) => v?.action === 'break')).toBe(true);
    expected.forEach((v, i) => {
      const line = lines.get(i + 1) as string; // explain numbers calls from 1
      expect(line).toContain('bash {"command":"pytest -x');
      if (v === null) expect(line).not.toMatch(/WARN|ASK|BREAK/);
      else expect(line).toMatch(new RegExp(`${v.action.toUpperCase()}\\s+${v.kind} \\d\\.\\d\\d since #\\d+`));
    });
    const firstBreak = expected.findIndex((v) => v?.action === 'break');
    expect(run.stdout).toContain(`first break: call #${firstBreak + 1} `); // its step is its index: not shown beside it
    expect(run.stdout).not.toContain('(step ');
    expect(run.stdout).toContain(`calls after it: ${FIXTURE_CALLS - firstBreak - 1}`);
  });

  it('should show no verdict for the clean session', async () => {
    const run = await loopwatchInProcess(['explain', 'clean', events]);
    expect(run.code).toBe(0);
    const lines = callLines(run.stdout);
    expect(lines.size).toBe(FIXTURE_CALLS);
    for (const line of lines.values()) expect(line).not.toMatch(/WARN|ASK|BREAK/);
    expect(run.stdout).toContain('verdicts: warn 0 · ask 0 · break 0');
    expect(run.stdout).toContain('first verdict: none');
  });

  it('should exit 2 on an unknown session and suggest the ids that contain it', async () => {
    const run = await loopwatchInProcess(['explain', 'stu', events]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('no calls of session "stu"');
    expect(run.stderr).toContain('contains it: stuck');
  });

  it('should print one parseable JSON array with --json', async () => {
    const run = await loopwatchInProcess(['explain', 'stuck', events, '--json']);
    expect(run.code).toBe(0);
    const rows = JSON.parse(run.stdout) as Record<string, unknown>[];
    expect(rows).toHaveLength(FIXTURE_CALLS);
    expect(Object.keys(rows[0] as object)).toEqual(['index', 'step', 'tool', 'args', 'outcome', 'verdict']);
    expect(rows[0]).toMatchObject({ index: 0, step: 0, tool: 'bash', verdict: null });
    expect(String(rows[0]?.outcome)).toMatch(/^error: exit status 1/);
    const flagged = expectedVerdicts('stuck').map((v) => v?.action ?? null);
    expect(rows.map((r) => (r.verdict as { action?: string } | null)?.action ?? null)).toEqual(flagged);
  });

  it('should hide the calls farther than N from every verdict with --around N', async () => {
    const path = writeJsonl(dir, 'long.jsonl', [
      ...Array.from({ length: 10 }, (_, i) => ({ session: 's', step: i, tool: 'read_file', args: { path: `f${i}.py` }, result: `body ${i}` })),
      ...Array.from({ length: 4 }, (_, i) => ({ session: 's', step: 10 + i, tool: 'bash', args: { command: 'make' }, error: 'exit 2' })),
    ]);
    const all = callLines((await loopwatchInProcess(['explain', 's', path])).stdout);
    const flagged = [...all].filter(([, l]) => /WARN|ASK|BREAK/.test(l)).map(([i]) => i);
    expect(flagged.length).toBeGreaterThan(0);
    const run = await loopwatchInProcess(['explain', 's', path, '--around', '1']);
    expect(run.code).toBe(0);
    const shown = [...callLines(run.stdout).keys()];
    expect(shown).toEqual([...all.keys()].filter((i) => flagged.some((f) => Math.abs(f - i) <= 1)));
    expect(shown).not.toContain(1); // the first call, far from every verdict
    expect(run.stdout).toMatch(/… \d+ calls/);
  });

  it('should name skipped lines with file:line on stderr and exit 2', async () => {
    const path = writeJsonl(dir, 'broken.jsonl', [{ session: 'x', tool: 'ls', args: {} }, '{not json', { session: 'x', tool: 'ls', args: { path: 'a' } }]);
    const run = await loopwatchInProcess(['explain', 'x', path]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${path}:2: skipped (invalid-json)`);
    expect(callLines(run.stdout).size).toBe(2);
  });

  it('should print help with examples', async () => {
    const run = await loopwatchInProcess(['explain', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Usage: loopwatch explain[\s\S]*Examples:\n  loopwatch explain /);
    expect((await loopwatchInProcess(['--help'])).stdout).toContain('explain SESSION');
  });

  it('should reject a missing session and conflicting options as usage errors', async () => {
    expect((await loopwatchInProcess(['explain'])).code).toBe(2);
    const run = await loopwatchInProcess(['explain', 'stuck', events, '--all', '--around', '2']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--all and --around cannot be used together');
    expect((await loopwatchInProcess(['explain', 'stuck', events, '--around', 'x'])).stderr).toContain('--around must be an integer');
  });

  it.skipIf(traceDir === null)('should explain a session of the real traces with its agent and exit status', async () => {
    const first = traceEventsText().split('\n', 1)[0] as string;
    const session = (JSON.parse(first) as { session: string }).session;
    const calls = traceCalls().filter(([s]) => s === session).length;
    const run = await loopwatchInProcess(['explain', session, join(traceDir as string, 'events.jsonl.gz')]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`session ${session}, ${calls} calls`);
    expect(callLines(run.stdout).size).toBe(calls);
    expect(run.stdout).toContain(`calls: ${calls} ·`);
    expect(run.stdout).toMatch(/agent: .+ · exit status: \S+/);
  });
});
