/**
 * Prefilters in front of the text screens (perf35, issue 29) change no answer: withoutShellNoise skips its six
 * line expressions for a first line that neither holds `: line ` nor begins with N, I, C or E (shell-noise.ts's
 * mayBeNoiseText), and the acknowledgement's six patterns run as one expression (acknowledgement.ts's ACK_ANY).
 * Each is compared with the straight-line reading it replaced, kept here as the reference, over random texts
 * built from the patterns' own pieces (so that matches are frequent) and over the traces' results and errors
 * when LOOPWATCH_TRACES (or /work/shared/data/traces) is there.
 */
import { existsSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACK_LOOK, ACK_BYTES, ACK_PATTERNS, acknowledgesScanned, isAcknowledgement } from '../src/text/acknowledgement.js';
import { MASK_LIMIT, maskBytes } from '../src/text/mask-volatile.js';
import { encodeUtf8, utf8Scratch } from '../src/fingerprint/canonical-hash.js';
import { MAX_NOISE_LINES, SHELL_NOISE_PATTERNS, withoutShellNoise } from '../src/text/shell-noise.js';
import { reportScan } from '../src/wasm/module-report-scan.js';
import { traceEvents } from '../bench/real-calls.js';
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

/** isAcknowledgement as it read before its patterns were joined (its quick test aside: the same in both). */
function ackReference(text: string): boolean {
  if (text.length > ACK_LOOK) return false;
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
    }
    // (the counts say the traces reach both readings' matches, where they are there at all)
    if (texts.length > 0) expect(acks + noisy).toBeGreaterThan(0);
  }, 120_000);
});
