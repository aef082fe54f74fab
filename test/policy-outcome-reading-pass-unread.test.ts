/**
 * A session whose detectors read no pass (src/policy/facts-read.ts's CLEAN) reads a result head without it
 * (readHead's `pass` false: the scan skips the pass patterns, the notes are not taken out), and the shared
 * reading cache never hands such a reading to a session that reads the pass: every other bit is the same
 * either way, in either order.
 */
import { describe, expect, it } from 'vitest';
import { READ_PASS, readHead } from '../src/text/result-reading.js';

/** Results of every kind the reading tells apart, told apart by `tag` (the cache is shared: each test reads texts of its own). */
const results = (tag: string): string[] => [
  `9 passed, 0 failed (${tag})`,
  `All tests passed ${tag}`,
  `[the command completed with exit code 0]\nok ${tag}`,
  `error: Failed to find expected lines in ${tag}`,
  `status: running ${tag}`,
  `still in progress: ${tag}`,
  `The file /srv/${tag}.ts has been updated successfully.`,
  `nothing here ${tag}`,
  `Traceback (most recent call last): ${tag}\n${'x'.repeat(1500)}`,
];

describe('readHead without the pass', () => {
  it('should not report a pass, and report every other bit as the whole reading does', () => {
    const a = results('a');
    const b = results('b');
    for (const [i, t] of a.entries()) {
      for (const ack of [true, false]) {
        const whole = readHead(b[i] as string, ack);
        const part = readHead(`${t}`, ack, undefined, false);
        expect(part & READ_PASS).toBe(0);
        expect(part, t).toBe(whole & ~READ_PASS);
      }
    }
    expect(readHead(results('c')[0] as string) & READ_PASS).toBe(READ_PASS);
  });

  it('should still read the pass for a caller that reads it, after the text was read without it', () => {
    const d = results('d');
    for (const [i, t] of results('e').entries()) {
      // the whole reading of a text like it (another tag), read afresh
      const whole = readHead(d[i] as string);
      const without = readHead(t, true, undefined, false);
      expect(without).toBe(whole & ~READ_PASS);
      // read whole afterwards: the pass is read, not taken from the reading made without it
      expect(readHead(t)).toBe(whole);
      // and a reading made with it serves a caller without it
      expect(readHead(t, true, undefined, false)).toBe(without);
    }
  });
});
