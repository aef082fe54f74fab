/**
 * What similar args keeps of a call is no larger than the call's args for args of many small parts: a
 * summary (src/text/args-summary.ts) gives a key no hash and a string, array or object 16-bit sizes, and an
 * integer from -128 to 127 one byte. Args like the RSS bench's (491 B of JSON: nested options, ranges,
 * short strings and small numbers) took a summary of 768 B in the first form, 1.56x their JSON; now at
 * most 1.1x. Small and large numbers still compare as the args do (-0 and 0, 127 and 127.0, 128, 2^31).
 */
import { describe, expect, it } from 'vitest';
import { argsSimilarity } from '../src/text/args-similarity.js';
import { S_NUMBER, S_SMALL, summarizeArgs } from '../src/text/args-summary.js';
import { summarySimilarity } from '../src/text/summary-similarity.js';

/** Args shaped like an editor call with options (the RSS bench's medium fixture). */
function editorArgs(i: number): Record<string, unknown> {
  return {
    path: `/workspace/project/src/cart/catalog${i}.tsx`,
    options: {
      encoding: 'utf-8',
      flags: ['refactor', 'rename'],
      retries: 0,
      timeoutMs: 0,
      metadata: { author: `agent-${i}`, tags: ['invite', 'router', 'extract'], created: '2024-05-10T12:00:00Z', reviewed: true },
    },
    ranges: [
      { start: 10 + i, end: 42 },
      { start: 120, end: 188 },
    ],
    search: { pattern: 'inlineupload\\(', caseSensitive: true, maxResults: 10 },
    note: 'memoise the metrics backup so that encoder validates the settings inbox before refund draft.',
  };
}

describe('similar args: summary size', () => {
  it('should keep at most 1.1x the JSON of args made of many small parts', () => {
    for (let i = 0; i < 20; i++) {
      const args = editorArgs(i);
      expect(summarizeArgs(args).length, `args ${i}`).toBeLessThanOrEqual(1.1 * JSON.stringify(args).length);
    }
  });

  it('should keep an integer from -128 to 127 in a byte, and compare every number as the args do', () => {
    expect(summarizeArgs(127)[0]).toBe(S_SMALL);
    expect(summarizeArgs(-128)[0]).toBe(S_SMALL);
    for (const big of [128, -129, -0, 0.5, 2 ** 31]) expect(summarizeArgs(big)[0]).toBe(S_NUMBER);
    const numbers = [0, -0, 1, 127, 127.0, 128, -128, -129, 255, 0.5, 2 ** 31, NaN, Infinity];
    for (const a of numbers) {
      for (const b of numbers) {
        const x = { n: a, m: [a, 'x'] };
        const y = { n: b, m: [b, 'x'] };
        expect(summarySimilarity(summarizeArgs(x).slice(), 0, summarizeArgs(y).slice(), 0, 0.8), `${a} ${b}`).toBe(argsSimilarity(x, y, 0.8));
      }
    }
  });
});
