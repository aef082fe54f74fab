/**
 * A session whose detectors never weigh an acknowledgement (no result repeat, semantic, similar args or
 * custom detector) does not read it of its results (readHead's `ack` false), and the shared reading cache
 * never hands such a reading to a session that does weigh it: every other bit is the same either way.
 */
import { describe, expect, it } from 'vitest';
import { weighsAcknowledgement } from '../src/text/acknowledgement.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import { READ_ACK, readHead } from '../src/text/result-reading.js';
import type { Detector } from '../src/detectors/detector.js';

/** Results that acknowledge a change, told apart by `tag` (each test reads texts of its own: the cache is shared). */
const acks = (tag: string): string[] => [`The file /srv/${tag}.ts has been updated successfully.`, `Updated task ${tag}`, `Saved ${tag.length} files in ${tag}`, `Done ${tag}`];
/** Results that do not, told apart by `tag`. */
const others = (tag: string): string[] => [`9 passed, 0 failed (${tag})`, `error: Failed to find expected lines in ${tag}`, `status: running ${tag}`, `still in progress: ${tag}`, `nothing here ${tag}`];

describe('readHead without the acknowledgement', () => {
  it('should not report an acknowledgement, and report every other bit as the full reading does', () => {
    for (const [a, b] of [...acks('a').map((t, i) => [t, acks('b')[i]]), ...others('a').map((t, i) => [t, others('b')[i]])] as [string, string][]) {
      const partial = readHead(a, false);
      const whole = readHead(b);
      expect(partial & READ_ACK).toBe(0);
      expect(partial).toBe(whole & ~READ_ACK);
    }
    for (const t of acks('e')) expect(readHead(t) & READ_ACK).toBe(READ_ACK);
  });

  it('should still detect the acknowledgement for a caller that asks, after the text was read without it', () => {
    for (const text of acks('c')) {
      expect(readHead(text, false) & READ_ACK).toBe(0);
      expect(readHead(text) & READ_ACK).toBe(READ_ACK);
      // and the reading kept since then serves both
      expect(readHead(text) & READ_ACK).toBe(READ_ACK);
      expect(readHead(text, false) & READ_ACK).toBe(0);
    }
  });

  it('should not report an acknowledgement a text does not make, when read without it first', () => {
    for (const text of others('d')) {
      readHead(text, false);
      expect(readHead(text) & READ_ACK).toBe(0);
    }
  });
});

describe('weighsAcknowledgement', () => {
  const only = (...on: string[]) => {
    const all = ['exactRepeat', 'frequency', 'cycle', 'semantic', 'similarArgs', 'resultRepeat', 'deadEnd', 'stateRepeat', 'chanting'];
    return Object.fromEntries(all.map((d) => [d, on.includes(d)]));
  };

  it('should be true with the detectors whose signals the screen reads it of, or a custom detector', () => {
    expect(weighsAcknowledgement(resolveOptions({}))).toBe(true);
    for (const d of ['resultRepeat', 'semantic', 'similarArgs']) expect(weighsAcknowledgement(resolveOptions({ detectors: only(d) }))).toBe(true);
    const custom: Detector = { name: 'mine', record: () => undefined, check: () => null, reset: () => undefined };
    expect(weighsAcknowledgement(resolveOptions({ detectors: only('exactRepeat'), custom: [custom] }))).toBe(true);
  });

  it('should be false without them', () => {
    expect(weighsAcknowledgement(resolveOptions({ detectors: only('exactRepeat') }))).toBe(false);
    expect(weighsAcknowledgement(resolveOptions({ detectors: only('exactRepeat', 'frequency', 'cycle', 'deadEnd', 'stateRepeat', 'chanting') }))).toBe(false);
  });
});
