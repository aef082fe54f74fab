/**
 * A long chunk that is a short chunk said over counts as the short chunk (src/text/chunk-root.ts): eight
 * pieces of a 50-character chunk are not four repetitions of a 100-character one (Gemini CLI's suite
 * streams a 50-character chunk nine times, then a table row, and counts no loop); ten are chanting. A
 * long chunk of its own is still caught at its own rule. Both engines.
 */
import { describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/verdicts.js';
import { CHANTING_DEFAULTS, LoopDetector } from '../src/index.js';
import { rootLength } from '../src/text/chunk-root.js';

const SHORT = 'This is a unique sentence, id=1. This is a unique '; // 50 characters
const LONG = 'The migration step failed again; I will now re-run the same migration with more logging enabled. '; // 98

/** The 1-based index of the first piece streamed through checkText that got a verdict, or 0. */
function firstVerdict(pieces: readonly string[], engine: (typeof ENGINES)[number]): number {
  const d = new LoopDetector({ engine });
  try {
    return pieces.findIndex((p) => d.checkText(p) !== null) + 1;
  } finally {
    d.dispose();
  }
}

describe('rootLength', () => {
  it('should find the shortest chunk a string repeats, or its own length', () => {
    expect(rootLength('abcabcabc')).toBe(3);
    expect(rootLength(SHORT + SHORT)).toBe(50);
    expect(rootLength('abcab')).toBe(5);
    expect(rootLength('a')).toBe(1);
    expect(rootLength('')).toBe(0);
  });
});

describe.each(ENGINES)('chanting of a chunk said over, %s engine', (engine) => {
  it('should not take a short chunk said eight times for a long chunk said four times', () => {
    expect(SHORT.length).toBeLessThan(CHANTING_DEFAULTS.longChunk);
    expect(firstVerdict(Array.from({ length: CHANTING_DEFAULTS.threshold - 1 }, () => SHORT), engine)).toBe(0);
  });

  it('should find the short chunk at its own threshold', () => {
    expect(firstVerdict(Array.from({ length: 20 }, () => SHORT), engine)).toBe(CHANTING_DEFAULTS.threshold);
  });

  it('should still find a long chunk of its own at the long rule', () => {
    expect(LONG.length).toBeGreaterThanOrEqual(CHANTING_DEFAULTS.longChunk);
    const at = firstVerdict(Array.from({ length: 10 }, () => LONG), engine);
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThanOrEqual(CHANTING_DEFAULTS.longRepetitions + 1);
  });
});
