/**
 * Determinism on the real traces: `loopwatch scan --jsonl` of `../shared/data/traces` gives the same bytes
 * with one thread (every line read in the calling thread) as with two or three (lines handed over unread
 * to the workers: routed-lines.ts), and with a small batch. Skipped without the traces.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loopwatch } from './helpers/cli.js';
import { traceDir } from './helpers/traces.js';

describe.skipIf(traceDir === null)('scan of the real traces, by thread count', () => {
  it('should write the same verdict lines with 1, 2 and 3 threads', () => {
    const file = join(traceDir as string, 'events.jsonl.gz');
    const scan = (extra: readonly string[]): string => loopwatch(['scan', file, '--jsonl', '--fail-on', 'never', '--no-progress', ...extra]).stdout;
    const one = scan(['--workers', '1']);
    expect(one.split('\n').length).toBeGreaterThan(500);
    expect(scan(['--workers', '2'])).toBe(one);
    expect(scan(['--workers', '3', '--batch-size', '100'])).toBe(one);
  }, 600_000);
});
