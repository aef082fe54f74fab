/**
 * The order test files start in: the longest first (seconds from test/setup/durations.json, which
 * `npx vitest run --reporter=default --reporter=./scripts/test-durations.mjs` writes), then files not listed, largest first, as
 * vitest orders them. On a fresh clone vitest has no timings of its own, and a 60 s file that happened to
 * start last kept one worker busy for a minute after the other had finished. With `--sequence.shuffle`
 * (and `--sequence.seed=N`), the files in a random order of that seed instead, as vitest's own shuffling
 * sequencer would (a custom sequencer turns that off): to show that files sharing a worker do not depend
 * on the order they run in.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds a file took in a past run, by its path from the repo root; files under a few seconds are not listed. */
const DURATIONS = JSON.parse(readFileSync(new URL('./durations.json', import.meta.url), 'utf8')) as Record<string, number>;

/** `items` in a random order drawn from `seed` (mulberry32, Fisher-Yates): the same seed, the same order. */
export function seededShuffle<T>(items: readonly T[], seed: number): T[] {
  let s = seed >>> 0;
  const next = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Longest known files first, then vitest's own order; shuffled by the seed under `--sequence.shuffle`. */
export class LongestFirst extends BaseSequencer {
  /** The files in the order they start. */
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const { shuffle, seed } = this.ctx.config.sequence;
    if (shuffle) return seededShuffle(base, seed ?? 0);
    const seconds = (f: TestSpecification): number => DURATIONS[relative(this.ctx.config.root, f.moduleId).split('\\').join('/')] ?? 0;
    return base.map((f, i) => ({ f, i, s: seconds(f) })).sort((a, b) => b.s - a.s || a.i - b.i).map((x) => x.f);
  }
}
