/**
 * Prefilters in front of the text screens, and pattern lists asked as one expression (any-pattern.ts), (perf35, issue 29) change no answer: withoutShellNoise skips its six
 * line expressions for a first line that neither holds `: line ` nor begins with N, I, C or E (shell-noise.ts's
 * mayBeNoiseText), and the acknowledgement's six patterns run as one expression (acknowledgement.ts's ACK_ANY).
 * Each is compared with the straight-line reading it replaced, kept here as the reference, over random texts
 * built from the patterns' own pieces (so that matches are frequent) and over the traces' results and errors
 * when LOOPWATCH_TRACES (or /work/shared/data/traces) is there.
 */
import { existsSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACK_LOOK, ACK_BYTES, ACK_PATTERNS, ACK_QUICK, acknowledgesScanned, isAcknowledgement } from '../src/text/acknowledgement.js';
import { MASK_LIMIT, maskBytes } from '../src/text/mask-volatile.js';
import { encodeUtf8, utf8Scratch } from '../src/fingerprint/canonical-hash.js';
import { MAX_NOISE_LINES, SHELL_NOISE_PATTERNS, withoutShellNoise } from '../src/text/shell-noise.js';
import { reportScan } from '../src/wasm/module-report-scan.js';
import { traceEvents } from '../bench/real-calls.js';
import { anyPattern, joinable } from '../src/text/any-pattern.js';
import { DECLINE_PATTERNS, NEEDS_PERSON_PATTERNS, isDeclined, needsPerson } from '../src/text/failure-kinds.js';
import { REJECTION_PATTERNS, isTurnRejection } from '../src/text/turn-rejection.js';
import { INVALID_ARGS_PATTERNS, refusedArgs } from '../src/text/invalid-args.js';
import { EDIT_MISMATCH_PATTERNS, editTextNotFound } from '../src/text/edit-mismatch.js';
import { errorText } from '../src/session/observe-event.js';

/** withoutShellNoise as it read before its prefilter. */
function noiseReference(text: string): string {
  let at = 0;
  for (let n = 0; n < MAX_NOISE_LINES; n++) {
    const end = text.indexOf('\n', at);
    const line = text.slice(at, end === -1 ? text.length : end);
    if (!SHELL_NOISE_PATTERNS.some((p) => p.test(line))) break;
    at = end === -1 ? text.length : end + 1;
  }
  return at === 0 ? text : text.slice(at);
}

const decoder = new TextDecoder();

/** isAcknowledgement as it read before its patterns were joined (its quick test on the text as given, then the patterns one by one on the masked text). */
function ackReference(text: string): boolean {
  if (text.length > ACK_LOOK || !ACK_QUICK.test(text)) return false;
  const n = encodeUtf8(text);
  const masked = maskBytes(utf8Scratch(), n, MASK_LIMIT, ACK_BYTES);
  if (masked.length > ACK_BYTES) return false;
  const shown = decoder.decode(masked);
  return ACK_PATTERNS.some((p) => p.test(shown));
}

/** Pieces the noise lines and the acknowledgements are made of, and others beside them. */
const PIECES = [
  'Now using node v18.20.5 (npm v10.8.2)', 'Identity added: /home/u/.ssh/id (u@h)', 'Certificate added: k (c)', 'Error connecting to agent: Operation not permitted',
  'Could not open a connection to your authentication agent.', '/Users/me/.profile: line 6: compdef: command not found', 'x: line 18: /bin/ps: Operation not permitted',
  '.bashrc: line 2: y', ': line ', 'line 3: ', 'N', 'I', 'C', 'E', 'n', '\n', '\r\n', ' ', '\t', 'ok', 'OK.', 'Done', 'Success', 'The file a.ts has been updated successfully.',
  "The user doesn't want to proceed", 'Permission to use Bash has been denied', 'not logged in', 'Unauthorized', 'please log in', 'login required',
  'Provide exactly one action', 'could not parse your output', 'Tool "replace" not found in registry', 'Invalid input', 'must be', 'expected', 'String to replace not found',
  'Error:', 'aborted', 'Sibling tool call errored', 'user_rejected', '[Request interrupted by user]', '<tool_use_error>', 'InputValidationError', 'Found 2 matches', 'occurrences',
  'Plan updated', 'Task #3 created successfully', 'completed with no output', 'has been', 'successfully', 'updated', 'set', 'error: Failed', 'é', '日本', '"quoted"', '1234', 'abc',
];
const text = fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 6 })), { maxLength: 14 }).map((p) => p.join(''));

/** The traces' result and error texts (their first 2,048 characters), or none without the traces. */
async function traceTexts(): Promise<string[]> {
  const dir = process.env.LOOPWATCH_TRACES ?? '/work/shared/data/traces';
  if (!existsSync(dir)) return [];
  const calls = (await traceEvents(dir)) ?? [];
  const out: string[] = [];
  for (const c of calls) {
    const e = errorText(c.error);
    if (e !== undefined) out.push(e.slice(0, 2048));
    if (typeof c.result === 'string') out.push(c.result.slice(0, 2048));
  }
  return out;
}

/** Each screen whose patterns are now asked as one, with the patterns it asked one by one (over the same head of the text). */
const SCREENS: readonly [string, (t: string) => boolean, readonly RegExp[]][] = [
  ['isDeclined', isDeclined, DECLINE_PATTERNS],
  ['needsPerson', needsPerson, NEEDS_PERSON_PATTERNS],
  ['isTurnRejection', isTurnRejection, REJECTION_PATTERNS],
  ['refusedArgs', refusedArgs, INVALID_ARGS_PATTERNS],
  ['editTextNotFound', editTextNotFound, EDIT_MISMATCH_PATTERNS],
];

describe('anyPattern', () => {
  it('should join every list the text screens ask (else they would ask one by one, as before)', () => {
    for (const [, , ps] of SCREENS) expect(joinable(ps)).toBe(true);
    expect(joinable(ACK_PATTERNS)).toBe(true);
    expect(joinable(SHELL_NOISE_PATTERNS)).toBe(true);
  });

  it('should ask one by one where joining would change a pattern: a backreference, a named group, a global flag; by flags where they differ', () => {
    // joined, `\1` would read the first pattern's group, which took part in no match: "a" would match
    expect(anyPattern([/(x)y/, /(a)\1/])('a')).toBe(false);
    expect(anyPattern([/(x)y/, /(a)\1/])('aa')).toBe(true);
    expect(joinable([/(?<n>a)\k<n>/])).toBe(false);
    // other flags: one expression a set of flags
    expect(anyPattern([/a/i, /B/, /c/i])('b')).toBe(false);
    expect(anyPattern([/a/i, /B/, /c/i])('B')).toBe(true);
    expect(anyPattern([/a/i, /B/, /c/i])('C')).toBe(true);
    expect(joinable([/a/g])).toBe(false);
    expect(joinable([/(?<=a)b/, /(?<!c)d/])).toBe(true);
  });
});

describe('text prefilters give the answers of the readings they sit in front of', () => {
  it('should drop the same leading noise lines as the six expressions alone, for random texts', () => {
    fc.assert(fc.property(text, (t) => {
        expect(withoutShellNoise(t)).toBe(noiseReference(t));
      }), { numRuns: 3000 });
  });

  it('should read the same acknowledgement as the six patterns one by one, for random texts', () => {
    fc.assert(
      fc.property(text, (t) => {
        const want = ackReference(t);
        expect(isAcknowledgement(t)).toBe(want);
        // acknowledgesScanned reads the text reportScan read last: scan it first, as readHead does
        reportScan(t, true, true);
        expect(acknowledgesScanned(t)).toBe(want);
      }),
      { numRuns: 3000 },
    );
  });

  it('should read errors as the patterns one by one do, for random texts', () => {
    fc.assert(
      fc.property(text, (t) => {
        for (const [, screen, ps] of SCREENS) expect(screen(t)).toBe(ps.some((p) => p.test(t.slice(0, 512))));
      }),
      { numRuns: 3000 },
    );
  });

  it('should give the same answers for every result and error of the traces', async () => {
    const texts = await traceTexts();
    let acks = 0;
    let noisy = 0;
    for (const t of texts) {
      const n = noiseReference(t);
      expect(withoutShellNoise(t)).toBe(n);
      if (n !== t) noisy++;
      const a = ackReference(t);
      expect(isAcknowledgement(t)).toBe(a);
      if (a) acks++;
      for (const [, screen, ps] of SCREENS) expect(screen(t)).toBe(ps.some((p) => p.test(t.slice(0, 512))));
    }
    // (the counts say the traces reach both readings' matches, where they are there at all)
    if (texts.length > 0) expect(acks + noisy).toBeGreaterThan(0);
  }, 120_000);
});
