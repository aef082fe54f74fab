/**
 * One rule set, one corpus (issue 30, item 4; issue 28, item 13), through the redaction function itself:
 * every secret of the corpus goes (each vendor key in every context: after `\n` escaped in JSON text, `_`,
 * a digit or `%3D` it was shown whole), exactly the secret goes (the text around it is kept), and ordinary
 * text stays as it is (40-character paths were masked as AWS secret keys, `Basic functionality` as a
 * credential). The same corpus runs through every output in `redaction-corpus-cli.test.ts` and
 * `redaction-corpus-services.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../src/index.js';
import { cutText } from '../src/text/shown-text.js';
import { ORDINARY_CORPUS, SECRET_CORPUS, VENDOR_KEYS, shownPart } from './helpers/secret-corpus.js';

describe('the redaction corpus', () => {
  it('should hold every vendor key in every context, and the secrets known by their context', () => {
    expect(VENDOR_KEYS.length).toBeGreaterThanOrEqual(14);
    expect(SECRET_CORPUS.length).toBeGreaterThan(300);
    expect(ORDINARY_CORPUS.length).toBeGreaterThan(30);
  });
});

describe('secrets that must go', () => {
  for (const s of SECRET_CORPUS) {
    it(`should redact a ${s.name}, and nothing around it`, () => {
      const out = redactSecrets(s.text);
      expect(shownPart(out, s), out).toBeNull();
      expect(out).toBe(s.redacted);
    });
  }

  it('should redact every secret of the corpus in JSON text (escaped as JSON writes it)', () => {
    for (const s of SECRET_CORPUS) {
      const out = redactSecrets(JSON.stringify({ args: { cmd: s.text } }));
      expect(shownPart(out, s), `${s.name}: ${out}`).toBeNull();
    }
  });

  it('should never show part of a secret however the text is cut before it is redacted', () => {
    for (const s of SECRET_CORPUS) {
      for (let max = 1; max <= s.text.length + 1; max++) {
        const out = redactSecrets(cutText(s.text, max));
        expect(shownPart(out, s), `${s.name} cut at ${max}: ${out}`).toBeNull();
      }
    }
  });
});

describe('ordinary text that must stay', () => {
  for (const t of ORDINARY_CORPUS) {
    it(`should leave ${t.name} as it is, also in JSON text`, () => {
      expect(redactSecrets(t.text)).toBe(t.text);
      const json = JSON.stringify({ args: { cmd: t.text } });
      expect(redactSecrets(json)).toBe(json);
    });
  }
});
