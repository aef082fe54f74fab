/**
 * Session ids at `serve`'s door (HTTP bodies, and NATS messages through the same door): a lone surrogate
 * is refused (hostile5). It is U+FFFD in UTF-8, so `a\ud800`, `a\udfff` and `a\ufffd` shared a state file
 * (its name is the hash of the id's UTF-8) and, after a restart, the session came back as `a\ufffd`, lost
 * to its client or merged into another's. A NATS message's session quoted in an error is cut by cutText,
 * never inside a secret, before the error is redacted.
 */
import { describe, expect, it } from 'vitest';
import { InvalidEventError } from '../src/errors.js';
import { readBatch, readCall } from '../src/serve/call-schema.js';
import { errorResult } from '../src/serve/check-service.js';
import { stateFileName } from '../src/serve/state-files.js';

function refusal(f: () => unknown): InvalidEventError {
  try {
    f();
  } catch (e) {
    if (e instanceof InvalidEventError) return e;
    throw e;
  }
  throw new Error('not refused');
}

describe('session ids at the door', () => {
  it('should refuse a lone surrogate, which would share a state file with U+FFFD', () => {
    expect(stateFileName('a\ud800')).toBe(stateFileName('a\ufffd'));
    for (const session of ['a\ud800', 'a\udfff', '\udc00\ud800', 'x\ud83d']) {
      const e = refusal(() => readCall('', JSON.parse(JSON.stringify({ session, tool: 't' }))));
      expect(e.field).toBe('session');
      expect(e.message).toMatch(/^session must be well-formed Unicode/);
    }
    expect(refusal(() => readBatch({ calls: [{ session: 'ok', tool: 't' }, { session: 'b\ud800', tool: 't' }] })).field).toBe('calls[1].session');
    for (const session of ['a\ufffd', 'a\ud83d\ude00', '../../etc/passwd', 'a\u0000b', 'ａｄｍｉｎ']) expect(readCall('', { session, tool: 't' }).session).toBe(session);
  });

  it("should quote a NATS message's session without part of a key", () => {
    const key = 'ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';
    const subjectSession = `${'p'.repeat(60)}=${key}`;
    const e = refusal(() => readCall('', { session: 'other', tool: 't' }, subjectSession));
    const shown = JSON.stringify(errorResult(undefined, e));
    expect(shown).toContain('p'.repeat(60));
    expect(shown).not.toContain('ghp_');
    expect(shown).not.toContain(key.slice(4, 12));
  });
});
