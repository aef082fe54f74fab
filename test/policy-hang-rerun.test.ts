/**
 * A command that hangs, run again and again unchanged, is a loop, the world's failure or not (quiet14).
 * quiet13 read exit status 124 as the tool's time limit (an infrastructure failure), and failures on the
 * infrastructure exempt a call from repetition: retries through a rate limit are no loop. Unbounded, ten
 * identical `npm test` runs each cut at their `timeout_ms` (20 minutes burnt) were never flagged, nor Codex's
 * worded "command timed out" ones. The exemption is bounded (progress.ts INFRA_RETRIES): more than 4
 * back-to-back failures on the infrastructure of the same call, nothing between, compare as any failures.
 * Retries through a rate limit (up to 4, as the demo's `rate_limit_retry`) and a build cut once and re-run
 * at once (policy-tool-timeouts) stay quiet.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { codexOutcome } from '../src/formats/codex-output.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

/** What a hanging `npm test` says when cut at its time limit, as each harness writes it. */
const HANGS: Record<string, string> = {
  'Codex 0.6x (exit code 124)': (codexOutcome('Exit code: 124\nWall time: 120 seconds\nOutput:\n> jest\n PASS a.test.js\n').error as string | undefined) ?? '',
  'Codex 0.7x (worded)': 'command timed out after 120000 milliseconds\n> jest\n',
  'Claude Code (exit code 124)': 'Exit code 124\n> jest\n',
};
const run = (text: string): ToolEvent => ({ tool: 'shell_command', args: { command: 'npm test', timeout_ms: 120000 }, result: text, error: text });
const times = (n: number, e: ToolEvent): ToolEvent[] => Array.from({ length: n }, () => e);

/** The same page fetched through a rate limit: 4 refusals, then the page. */
const RETRIES: ToolEvent[] = [
  { tool: 'read_file', args: { path: 'src/a.ts' }, result: 'export const a = 1;\n' },
  ...times(4, { tool: 'fetch_url', args: { url: 'https://docs.python.org/3/library/zoneinfo.html' }, error: 'HTTP 429 Too Many Requests: rate limit exceeded, retry after 12s' }),
  { tool: 'fetch_url', args: { url: 'https://docs.python.org/3/library/zoneinfo.html' }, result: '# zoneinfo\nIANA time zone support ... (documentation page, 14,220 characters)' },
];

describe.each(ENGINES)('the same command hanging at the time limit, run again unchanged (%s engine)', (engine) => {
  describe.each(Object.entries(HANGS))('%s', (_harness, text) => {
    it('should warn, then break, one-phase', () => {
      const acts = flaggedActions(times(10, run(text)), engine);
      expect(acts[0]).toBe('warn');
      expect(acts).toContain('break');
    });

    it('should warn, then deny, two-phase', () => {
      const acts = liveActions(times(10, run(text)), engine);
      expect(acts).toContain('warn');
      expect(acts.some((a) => a === 'deny' || a === 'stop')).toBe(true);
    });

    it('should not flag 4 runs (retries are bounded, not forbidden)', () => {
      expect(flaggedActions(times(4, run(text)), engine)).toEqual([]);
      expect(liveActions(times(4, run(text)), engine)).toEqual([]);
    });
  });

  it('should leave 4 retries through a rate limit quiet, both phases', () => {
    expect(flaggedActions(RETRIES, engine)).toEqual([]);
    expect(liveActions(RETRIES, engine)).toEqual([]);
  });
});
