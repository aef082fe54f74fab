/**
 * The order test files start in: the longest first (seconds from test/setup/durations.json, which
 * `node scripts/test-durations.mjs <vitest json report>` writes), then files not listed, largest first, as
 * vitest orders them. On a fresh clone vitest has no timings of its own, and a 60 s file that happened to
 * start last kept one worker busy for a minute after the other had finished.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds a file took in a past run, by its path from the repo root; files under a few seconds are not listed. */
const DURATIONS = JSON.parse(readFileSync(new URL('./durations.json', import.meta.url), 'utf8')) as Record<string, number>;

/** Longest known files first, then vitest's own order. */
export class LongestFirst extends BaseSequencer {
  /** The files in the order they start. */
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const seconds = (f: TestSpecification): number => DURATIONS[relative(this.ctx.config.root, f.moduleId).split('\\').join('/')] ?? 0;
    return base.map((f, i) => ({ f, i, s: seconds(f) })).sort((a, b) => b.s - a.s || a.i - b.i).map((x) => x.f);
  }
}
