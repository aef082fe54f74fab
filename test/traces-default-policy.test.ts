/**
 * The real agent traces beside the repository, evaluated with the default policy as `npm run eval` does.
 * Skipped when `../shared/data/traces` is absent (as on CI).
 */
import { describe, expect, it } from 'vitest';
import { evaluateTraces } from '../src/eval/trace-eval.js';
import { traceDir } from './helpers/traces.js';

describe.skipIf(traceDir === null)('default policy on the real traces', () => {
  it('should scan every call, flag most step-limit runs and few submitted runs at break', async () => {
    const result = await evaluateTraces(traceDir as string);
    expect(result.events).toBeGreaterThan(20_000);
    expect(result.issues).toEqual([]);
    const o = result.overall;
    console.log(`step_limit >=warn ${o.stepLimitWarned}, break ${o.stepLimitBroken}; submitted break ${o.submittedBroken}`);
    expect(o.stepLimitWarned as number).toBeGreaterThan(0.6);
    expect(o.submittedBroken as number).toBeLessThan(0.06);
  });
});
