/**
 * The real agent traces beside the repository, scanned with the default policy. Skipped when
 * `../shared/data/traces` is absent (as on CI).
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultTraceDir, formatScan, scanTraces } from '../src/eval/trace-scan.js';

const dir = defaultTraceDir(resolve(dirname(fileURLToPath(import.meta.url)), '..'));

describe.skipIf(dir === null)('default policy on the real traces', () => {
  it('should scan every call, flag most step-limit runs and few submitted runs at break', async () => {
    const scan = await scanTraces(dir as string);
    console.log(formatScan(scan));
    expect(scan.events).toBeGreaterThan(20_000);
    expect(scan.skippedLines).toBe(0);
    const limit = scan.byExitStatus.step_limit!;
    const submitted = scan.byExitStatus.submitted!;
    expect(limit.warned / limit.sessions).toBeGreaterThan(0.6);
    expect(submitted.broken / submitted.sessions).toBeLessThan(0.06);
  });
});
