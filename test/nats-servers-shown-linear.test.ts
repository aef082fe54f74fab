/**
 * A server list or an error message is shown without a URL's password or token (nats-auth.ts `shownServers`,
 * which `redactConnection` runs on every message of a connection) in time linear in its length, and as the
 * expression it replaces showed it. The old expression tried a scheme from each letter of a run and read the
 * rest of the run from each: a `--nats` flag or a message of 64 KB of letters before `@a://@` took 12 s.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactConnection, shownServers } from '../src/serve/nats/nats-auth.js';
import { REDACTED, redactSecrets } from '../src/text/redact.js';

/** The expression as it was written before (the definition of the answer; quadratic in a run of letters). */
const REFERENCE = /([a-z][a-z0-9+.-]*:\/\/)([^@/,\s]*)@/gi;

/** What shownServers answered with the reference expression. */
function reference(text: string): string {
  return redactSecrets(text.replace(REFERENCE, (_m, scheme: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    return colon < 0 ? `${scheme}${REDACTED}@` : `${scheme}${userinfo.slice(0, colon)}:${REDACTED}@`;
  }));
}

const PIECES = [
  'nats', 'tls', 'NATS', 'a', 'Z', 'x1', '1', '42', '+', '.', '-', '://', ':', '/', '//', '@', ',', ' ', '\t', '\n', '\u00a0',
  'user', 'pw', 'user:pw', 'host:4222', 'ſ', '\u212a', 'é', '[', ']',
];

describe('a NATS server list shown in linear time', () => {
  it('should show what the reference expression showed, on texts built from its parts', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        expect(shownServers(text), JSON.stringify(text)).toBe(reference(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it('should keep the digits and signs before a scheme and hide the password after it', () => {
    expect(shownServers('1+nats://u:secret@h:4222,tls://tok@h2')).toBe(`1+nats://u:${REDACTED}@h:4222,tls://${REDACTED}@h2`);
    expect(shownServers(['nats://a:b@x', 'nats://y'])).toBe(`nats://a:${REDACTED}@x,nats://y`);
  });

  it('should answer at once on 128 KB of letters before a scheme (a hang guard, not a speed figure)', () => {
    // the reference took about 50 s on the first
    const size = 1 << 17;
    const texts = ['A'.repeat(size) + '@A://@', `${'a1'.repeat(size / 2)}://x/`, `nats://${'u'.repeat(size)} @`];
    const started = performance.now();
    for (const text of texts) expect(shownServers(text).length).toBeGreaterThanOrEqual(size);
    expect(redactConnection(texts[0] as string, 'nats://u:pw@h').endsWith(`A://${REDACTED}@`)).toBe(true);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
