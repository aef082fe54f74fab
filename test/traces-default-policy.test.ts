/**
 * The real agent traces beside the repository, evaluated with the default policy as `npm run eval` does.
 * Skipped when `../shared/data/traces` is absent (as on CI).
 */
import { describe, expect, it } from 'vitest';
import { evaluate } from '../src/eval/eval-report.js';
import { openEvalSource } from '../src/eval/eval-source.js';
import { traceDir } from './helpers/traces.js';

describe.skipIf(traceDir === null)('default policy on the real traces', () => {
  it('should scan every call, flag most step-limit runs and few submitted runs at break, in both replays', async () => {
    const report = await evaluate(await openEvalSource(traceDir as string));
    expect(report.calls).toBeGreaterThan(20_000);
    expect(report.issues).toEqual([]);
    expect(report.unlabelled).toEqual([]);
    for (const t of [report.onePhase, report.twoPhase]) {
      const o = t.overall;
      console.log(`step_limit warned ${o.stepLimitWarned.rate}, broken ${o.stepLimitBroken.rate}; submitted broken ${o.submittedBroken.rate}`);
      expect(o.stepLimitWarned.rate as number).toBeGreaterThan(0.6);
      expect(o.submittedBroken.rate as number).toBeLessThan(0.06);
    }
    expect(report.onePhase.rows.map((r) => r.group)).toEqual(['OpenHands', 'ReAct', 'SWE-agent', 'mini-swe-agent', 'tau-bench']);
  });
});
