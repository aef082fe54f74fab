/**
 * A session's first loop is named by the step of the call it began with (`loopStartStep` in `scan --json`)
 * whatever the batch size. The scan reads calls up to a few batches ahead of their verdicts; its memory of
 * a session's steps (kept once they differ from call indices) was a fixed ring of 256, which the calls read
 * ahead overwrote: with `--batch-size 1000` a loop that began at step 10 was said to begin at step 5642.
 */
import { describe, expect, it } from 'vitest';
import { tempDir, writeJsonl } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';

/** `scan --json`'s sessions' first loop start steps for `file` read in batches of `batchSize`. */
async function loopStartSteps(file: string, batchSize: number): Promise<unknown[]> {
  const r = await loopwatchInProcess(['scan', file, '--json', '--batch-size', String(batchSize), '--workers', '0', '--no-progress']);
  const out = JSON.parse(r.stdout) as Record<string, unknown>;
  const found: unknown[] = [];
  JSON.stringify(out, (k, v: unknown) => {
    if (k === 'loopStartStep') found.push(v);
    return v;
  });
  return found;
}

describe('scan: a loop start named by its step', () => {
  it('should name the same step whatever the batch size, when steps are not call indices and calls are read ahead', async () => {
    const dir = tempDir();
    // 3,000 repeats of one call, step 2i + 10: steps differ from indices, so the scan keeps them
    const file = writeJsonl(dir, 'run.jsonl', Array.from({ length: 3000 }, (_, i) => ({ session: 's', step: 2 * i + 10, tool: 'bash', args: { cmd: 'ls' } })));
    const small = await loopStartSteps(file, 1);
    expect(small.length).toBeGreaterThan(0);
    expect(small[0]).toBe(10);
    for (const size of [64, 1000, 3000]) expect(await loopStartSteps(file, size), `--batch-size ${size}`).toEqual(small);
  });
});
