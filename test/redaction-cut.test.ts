/**
 * Cutting never shows part of a secret (issue 13, item 10): previews, excerpts and snippets are cut before
 * they are redacted, so a cut must never fall inside a secret; the text is cut before it instead, and the
 * whole secrets left are then redacted where the text is shown. Property tests over texts with secrets at
 * random places, cut at random lengths.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../src/index.js';
import { describe as describeValue } from '../src/options/checks.js';
import { previewArgs } from '../src/text/call-preview.js';
import { cutText, oneLine } from '../src/text/shown-text.js';
import { SECRET_SHAPES, shownPart } from './helpers/secret-shapes.js';

const secret = fc.constantFrom(...SECRET_SHAPES.map((s) => s.text));
const filler = fc.constantFrom(' ', '. ', ', ', '\n', ' the file ', ' and then ', ' = ', ': ', '; ', ' (', ') ', '  \t ');
/** Text of fillers and secrets, each secret with a separator on both sides. */
const text = fc.array(fc.oneof({ arbitrary: filler, weight: 3 }, { arbitrary: secret.map((s) => ` ${s} `), weight: 1 }), { minLength: 1, maxLength: 12 }).map((parts) => parts.join(''));

/** Asserts that `shown`, redacted, shows no part of any secret. */
function showsNoSecret(shown: string, context: string): void {
  const out = redactSecrets(shown);
  for (const s of SECRET_SHAPES) expect(shownPart(out, s), `${s.name} in ${JSON.stringify(out)} (${context})`).toBeNull();
}

describe('cutting text that holds secrets', () => {
  it('should cut before a secret rather than inside it', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 400 }), (t, max) => {
        const cut = cutText(t, max);
        expect(cut.length).toBeLessThanOrEqual(max);
        if (t.length > max) {
          expect(cut.endsWith('…')).toBe(true);
          expect(t.startsWith(cut.slice(0, -1))).toBe(true);
        } else expect(cut).toBe(t);
        showsNoSecret(cut, `max ${max}`);
      }),
      { numRuns: 3000 },
    );
  });

  it('should do the same on one line, in call previews and in the snippets of error messages', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 200 }), (t, max) => {
        showsNoSecret(oneLine(t, max), `oneLine ${max}`);
        showsNoSecret(previewArgs({ cmd: t }), 'previewArgs');
        showsNoSecret(previewArgs(t), 'previewArgs of a string');
        showsNoSecret(describeValue(t), 'describe');
      }),
      { numRuns: 1500 },
    );
  });

  it('should keep text without secrets as it was cut before', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.integer({ min: 1, max: 300 }), (t, max) => {
        fc.pre(redactSecrets(t) === t);
        expect(cutText(t, max)).toBe(t.length > max ? `${t.slice(0, max - 1)}…` : t);
      }),
      { numRuns: 2000 },
    );
  });
});
