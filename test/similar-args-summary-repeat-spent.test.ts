/**
 * A value reusing one object past the repeat budget (`[v, v]` forty levels deep) in similar args' summary or
 * the masked args copy: a part hashed past that budget spends the summary (the copy) at the next part, so
 * the value is walked about twice, where before each part walked a whole budget until OPAQUE_WORK_MAX (six
 * walks of it). Counted as reads of the shared leaf through a Proxy; the summaries of other values are
 * unchanged (test/similar-args-summary.test.ts, -one-walk).
 */
import { describe, expect, it } from 'vitest';
import { hashValue } from '../src/fingerprint/canonical-hash.js';
import { summarizeArgs } from '../src/text/args-summary.js';
import { snapshotArgs } from '../src/detectors/snapshot-args.js';
import { countedLeaf as counted, doubling } from './helpers/shared-values.js';

/** Reads of the leaf by one walk of the whole args (the unit every bound below is counted in). */
function oneWalk(): number {
  const c = counted();
  hashValue({ q: doubling(40, 'array', c.leaf) });
  return c.reads();
}

describe('a value reusing one object past the repeat budget', () => {
  it("should cost similar args' summary at most three walks of it (six before)", () => {
    const c = counted();
    summarizeArgs({ q: doubling(40, 'array', c.leaf) });
    expect(c.reads()).toBeGreaterThan(0);
    expect(c.reads()).toBeLessThanOrEqual(3 * oneWalk());
  });

  it('should cost the masked args copy at most three walks of it (six before)', () => {
    const c = counted();
    snapshotArgs({ q: doubling(40, 'array', c.leaf) }, (s) => s);
    expect(c.reads()).toBeGreaterThan(0);
    expect(c.reads()).toBeLessThanOrEqual(3 * oneWalk());
  });
});
