/**
 * The scan a user expects: whole session ids (cut only on a terminal too narrow for them), `--top N`,
 * `--output FILE`, `--action` / `--kind` filters, the exit code precedence with `--allow-skipped` and
 * `--allow-empty`, tool failures and refused calls counted apart, plurals, and Ctrl-C printing the summary of
 * what was read.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIN_SESSION_WIDTH, summaryText } from '../src/cli/render/summary-text.js';
import type { ScanSummary } from '../src/cli/scan/scan-summary.js';
import { CLI, tempDir, verdictLines, writeJsonl } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';

const long = `swe-bench/django__django-11099/attempt-3/${'x'.repeat(40)}`;
const calls = (session: string, n: number, tool = 'bash', error?: string) => Array.from({ length: n }, () => ({ session, tool, args: { command: 'make test' }, result: 'FAILED', ...(error === undefined ? {} : { error }) }));
const dir = tempDir();
const file = writeJsonl(dir, 'runs.jsonl', [
  ...calls(long, 8, 'bash', 'exit status 1'),
  ...calls('short', 3, 'search'),
  ...Array.from({ length: 6 }, (_, i) => ({ session: 'cycler', tool: i % 2 === 0 ? 'open' : 'close', args: { path: 'a.py' }, result: 'ok' })),
  ...Array.from({ length: 4 }, (_, i) => ({ session: 'clean', tool: 'read', args: { path: `f${i}` }, result: `${i}` })),
]);

describe('loopwatch scan report options', () => {
  it('should print session ids whole when the report does not go to a terminal, and --json has them whole', async () => {
    const run = await loopwatchInProcess(['scan', file, '--workers', '0']);
    expect(run.stdout).toContain(`  ${long} `);
    const doc = JSON.parse((await loopwatchInProcess(['scan', file, '--json', '--workers', '0'])).stdout) as { sessions: { session: string; file: string }[] };
    expect(doc.sessions.map((s) => s.session)).toContain(long);
  });

  it('should cut a long id only to what a narrow terminal leaves, and not at 44 characters on a wide one', async () => {
    const summary = JSON.parse((await loopwatchInProcess(['scan', file, '--json', '--workers', '0'])).stdout).summary as ScanSummary;
    const wide = summaryText(summary, { minAction: 'warn', width: 220 });
    expect(wide).toContain(`  ${long} `);
    const narrow = summaryText(summary, { minAction: 'warn', width: 100 });
    const row = narrow.split('\n').find((l) => l.includes('swe-bench/')) as string;
    expect(row).toContain('…');
    expect(row.indexOf('…')).toBeGreaterThanOrEqual(2 + MIN_SESSION_WIDTH - 1); // the id keeps MIN_SESSION_WIDTH characters, its `…` the last of them
  });

  it('should list --top N worst sessions and tools, and filter by --action and --kind', async () => {
    const one = JSON.parse((await loopwatchInProcess(['scan', file, '--json', '--workers', '0', '--top', '1'])).stdout) as { summary: ScanSummary };
    expect(one.summary.worstSessions.map((s) => s.session)).toEqual([long]);
    expect(one.summary.topTools).toHaveLength(1);
    const cycles = JSON.parse((await loopwatchInProcess(['scan', file, '--json', '--workers', '0', '--kind', 'cycle'])).stdout) as { summary: ScanSummary; sessions: { session: string }[] };
    expect(cycles.sessions.map((s) => s.session)).toEqual(['cycler']);
    expect(cycles.summary.sessions).toBe(4); // the counts cover every session; the filters choose what is listed
    const warnOnly = verdictLines((await loopwatchInProcess(['scan', file, '--jsonl', '--workers', '0', '--action', 'warn'])).stdout);
    expect(warnOnly.length).toBeGreaterThan(0);
    expect(new Set(warnOnly.map((l) => l.action))).toEqual(new Set(['warn']));
    expect((await loopwatchInProcess(['scan', file, '--kind', 'cycles'])).stderr).toContain('--kind must be one of exact_repeat, cycle, frequency, state_repeat, dead_end, similar_args, semantic, result_repeat, chanting, received "cycles" (did you mean cycle?)');
  });

  it('should write the report into --output FILE, and refuse a path it cannot write before reading anything', async () => {
    const out = join(tempDir(), 'report.json');
    const run = await loopwatchInProcess(['scan', file, '--json', '--workers', '0', '--output', out]);
    expect(run.stdout).toBe('');
    expect(JSON.parse(readFileSync(out, 'utf8')).summary.sessions).toBe(4);
    const bad = await loopwatchInProcess(['scan', file, '--output', join(out, 'not-a-folder', 'x.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^loopwatch scan: --output .*: cannot write the file \(a part of the path is not a folder\)/);
  });

  it('should count tool failures (as the input says) apart from calls the checker refused', async () => {
    const doc = JSON.parse((await loopwatchInProcess(['scan', file, '--json', '--workers', '0'])).stdout) as { summary: ScanSummary; sessions: Record<string, unknown>[] };
    expect(doc.summary).toMatchObject({ toolFailures: 8, refusedCalls: 0 });
    expect(doc.sessions.find((s) => s.session === long)).toMatchObject({ toolFailures: 8, refusedCalls: 0 });
    expect(doc.sessions.every((s) => !('failedCalls' in s))).toBe(true);
  });

  it('should rank skipped input above loops found unless --allow-skipped, and empty input as 2 unless --allow-empty', async () => {
    const broken = writeJsonl(tempDir(), 'broken.jsonl', [...calls('a', 6), '{"truncated": ']);
    const run = await loopwatchInProcess(['scan', broken, '--workers', '0']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('loopwatch: 1 line, element, input or call was skipped (named above; --allow-skipped to exit on the findings alone); exit code 2');
    const allowed = await loopwatchInProcess(['scan', broken, '--workers', '0', '--allow-skipped']);
    expect(allowed.code).toBe(1);
    expect(allowed.stderr).toContain('loopwatch: 1 line, element, input or call was skipped (named above)\n');
    expect((await loopwatchInProcess(['scan', tempDir(), '--allow-skipped'])).code).toBe(2);
    expect((await loopwatchInProcess(['scan', tempDir(), '--allow-empty'])).code).toBe(0);
  });

  it('should say 1 session, 1 call', async () => {
    const single = writeJsonl(tempDir(), 'one.jsonl', [{ session: 'x', tool: 't' }]);
    expect((await loopwatchInProcess(['scan', single, '--workers', '0'])).stdout).toContain('loopwatch scan: 1 session, 1 call in');
  });

  it('should print the summary of what was read on Ctrl-C and exit 130', async () => {
    const child = spawn(process.execPath, [CLI, 'scan', '-', '--workers', '0'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let sent = false;
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => {
      stderr += b.toString();
      if (!sent && stderr.includes('skipped (invalid-json)')) child.kill('SIGINT'); // it is reading: interrupt it, once
      sent ||= stderr.includes('skipped (invalid-json)');
    });
    // calls (more than the 64 KiB looked at to choose the layout), then a broken line to say the reading has
    // begun; standard input stays open
    child.stdin.write(calls('a', 1000).map((c) => JSON.stringify(c)).join('\n') + '\n{broken\n');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(130);
    expect(stdout).toContain('loopwatch scan: 1 session, 1,000 calls');
    expect(stdout).toContain('interrupted: this covers only the input read before Ctrl-C');
    expect(stderr).toContain('exit code 130');
  }, 30_000);
});
