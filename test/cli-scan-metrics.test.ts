/**
 * `loopwatch scan --metrics FILE`: the scan's figures as Prometheus text (gauges named loopwatch_scan_*),
 * equal to the summary's, with bounded labels and no session id; a file the scan reads is refused.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeJsonl } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';

const dir = tempDir();
const file = writeJsonl(dir, 'runs.jsonl', [
  ...Array.from({ length: 6 }, () => ({ session: 'secret-stuck', tool: 'bash', args: { command: 'make' }, error: 'make: *** Error 2' })),
  ...Array.from({ length: 4 }, (_, i) => ({ session: 'secret-clean', tool: 'read', args: { path: `f${i}` }, result: `${i}` })),
]);

const value = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('loopwatch scan --metrics', () => {
  it('should write the summary as Prometheus gauges beside the usual output', async () => {
    const out = join(dir, 'scan.prom');
    const run = await loopwatchInProcess(['scan', file, '--workers', '0', '--json', '--metrics', out]);
    expect(run.code).toBe(1); // the stuck session reached break
    expect(run.stderr).toContain(`metrics written to ${out}`);
    const summary = JSON.parse(run.stdout).summary as { sessions: number; events: number; flaggedSessions: number; byAction: Record<string, number>; wastedCalls: number; toolFailures: number };
    const text = readFileSync(out, 'utf8');
    expect(value(text, 'loopwatch_scan_sessions')).toBe(summary.sessions);
    expect(value(text, 'loopwatch_scan_calls')).toBe(summary.events);
    expect(value(text, 'loopwatch_scan_sessions_flagged')).toBe(summary.flaggedSessions);
    expect(value(text, 'loopwatch_scan_flagged_sessions_total')).toBe(summary.flaggedSessions); // the old name, until 0.2.0
    expect(value(text, 'loopwatch_scan_flagged_sessions{action="break"}')).toBe(summary.byAction.break);
    expect(value(text, 'loopwatch_scan_wasted_calls')).toBe(summary.wastedCalls);
    expect(value(text, 'loopwatch_scan_tool_failures')).toBe(summary.toolFailures);
    expect(value(text, 'loopwatch_scan_sessions_by_kind{kind="exact_repeat"}')).toBeGreaterThan(0);
    expect(value(text, 'loopwatch_scan_calls_per_second')).toBeGreaterThan(0);
    expect(text).not.toContain('secret-');
    for (const line of text.split('\n')) if (line !== '' && !line.startsWith('#')) expect(line).toMatch(/^loopwatch_scan_/);
  });

  it('should refuse a metrics file the scan would read', async () => {
    const run = await loopwatchInProcess(['scan', dir, '--metrics', join(dir, 'more.jsonl')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--metrics');
  });
});
