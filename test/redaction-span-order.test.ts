/**
 * The spans every rule finds are merged in the order of their starts, sorted as numeric keys (no
 * comparator; the rules' spans come out of order when several rules find something). Held to the plain
 * way (sort the pairs by start, longer first, then merge) on random texts made of every rule's triggers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { secretSpans } from '../src/text/redact.js';
import { SECRET_RULES } from '../src/text/secret-rules.js';

/** The plain way: every rule's spans, sorted with a comparator, overlapping and touching ones merged. */
function plainSpans(text: string): number[] {
  const found: number[] = [];
  for (const rule of SECRET_RULES) rule(text, found, false);
  const pairs: [number, number][] = [];
  for (let k = 0; k < found.length; k += 2) pairs.push([found[k] as number, found[k + 1] as number]);
  pairs.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: number[] = [];
  for (const [start, end] of pairs) {
    const n = merged.length;
    if (n > 0 && start <= (merged[n - 1] as number)) merged[n - 1] = Math.max(merged[n - 1] as number, end);
    else merged.push(start, end);
  }
  return merged;
}

const part = fc.oneof(
  fc.constantFrom(
    'sk-abcdefghijklmnopqrstu', 'ghp_abcdefghijklmnopqrstuvwxyz', 'password: "hunter22"', 'token=abcdef', '--password s3cr3t ', 'Bearer abcdefgh1234',
    'https://u:pw@host/', 'eyJhbGciOiJI.eyJzdWIiOiIx.c2lnbmF0dXJl', '-----BEGIN RSA PRIVATE KEY-----', '-----END RSA PRIVATE KEY-----',
    'AIzaSyA1234567890abcdefghijklmnopqrstuv', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'aws_secret_access_key ', ' ', '"', '=', ':', '://', '@',
  ),
  fc.string({ maxLength: 10 }),
);

describe('secret spans in the order of their starts', () => {
  it('should merge spans exactly as a comparator sort would, whichever rules found them', () => {
    fc.assert(
      fc.property(fc.array(part, { maxLength: 16 }), (parts) => {
        const text = parts.join('');
        expect(secretSpans(text)).toEqual(plainSpans(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('should merge the spans of a text where every rule finds many (out of order across rules)', () => {
    const text = 'sk-abcdefghijklmnopqrstu password="sk-abcdefghijklmnopqrstu" Bearer eyJhbGciOiJI.eyJzdWIiOiIx.c2lnbmF0dXJl https://u:pw@h/ '.repeat(500);
    const spans = secretSpans(text);
    expect(spans.length).toBeGreaterThan(1000);
    expect(spans).toEqual(plainSpans(text));
  });
});
