/**
 * mayHoldSecret's one pass is its two expressions' answer (secret-trigger.ts): the trigger literals spelled
 * out from the expression, and the same answer on texts made of triggers in any case, their beginnings,
 * base64 runs around forty characters, and characters past ASCII that case-fold to ASCII letters elsewhere.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DISCORD_SHAPE, FORTY_IN_A_ROW, SHAPE_EXPRESSION, TRIGGERS, TRIGGER_EXPRESSION, mayHoldSecret } from '../src/text/secret-trigger.js';

/** The expressions' answer: what mayHoldSecret must say. */
const byExpression = (text: string): boolean =>
  TRIGGER_EXPRESSION.test(text) || FORTY_IN_A_ROW.test(text) || SHAPE_EXPRESSION.test(text) || DISCORD_SHAPE.test(text);

/** The literals an alternation of literals, classes (`[ab]`), groups (`(?:a|b)`) and escapes (`\.`) stands for. */
function expand(source: string): string[] {
  const alternatives: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === '|' && depth === 0) {
      alternatives.push(source.slice(from, i));
      from = i + 1;
    }
  }
  alternatives.push(source.slice(from));
  const out: string[] = [];
  for (const alt of alternatives) {
    let words = [''];
    for (let i = 0; i < alt.length; i++) {
      const c = alt[i] as string;
      let options: string[];
      if (c === '\\') options = [alt[++i] as string];
      else if (c === '[') {
        const end = alt.indexOf(']', i);
        options = [...alt.slice(i + 1, end)];
        i = end;
      } else if (alt.startsWith('(?:', i)) {
        const end = alt.indexOf(')', i);
        options = alt.slice(i + 3, end).split('|');
        i = end;
      } else options = [c];
      words = words.flatMap((w) => options.map((o) => w + o));
    }
    out.push(...words);
  }
  return out;
}

const mixedCase = (t: string, bits: number): string => [...t].map((ch, k) => ((bits >> k) & 1 ? ch.toUpperCase() : ch)).join('');

const fragment = fc.oneof(
  fc.tuple(fc.constantFrom(...TRIGGERS), fc.integer({ min: 0, max: 2047 })).map(([t, bits]) => mixedCase(t, bits)),
  fc.tuple(fc.constantFrom(...TRIGGERS), fc.integer({ min: 1, max: 10 })).map(([t, k]) => t.slice(0, Math.max(1, t.length - k))),
  fc.tuple(fc.integer({ min: 36, max: 42 }), fc.constantFrom('a', 'Z', '9', '/', '+', 'aB3/')).map(([n, ch]) => ch.repeat(n).slice(0, n)),
  fc.constantFrom(' ', '-', '_', '.', ':', '/', '\u212a', '\u0130', '\u017f', '\u0131', 'é', '😀', '\ud800', 'K', 'k', 'S', 's', '"', '='),
  fc.string({ maxLength: 6 }),
);

describe('mayHoldSecret, one pass', () => {
  it('should spell out exactly the expression\'s literals', () => {
    expect([...TRIGGERS].sort()).toEqual(expand(TRIGGER_EXPRESSION.source).sort());
    for (const t of TRIGGERS) {
      expect(t.length).toBeGreaterThanOrEqual(3);
      expect(t).toBe(t.toLowerCase());
    }
  });

  it('should find every trigger in any case, anywhere, and miss it cut short', () => {
    for (const t of TRIGGERS) {
      for (const text of [t, t.toUpperCase(), `x ${mixedCase(t, 0b10101)} y`, `é${t}`, t.slice(0, -1), ` ${t.slice(1)}`]) {
        expect(mayHoldSecret(text), text).toBe(byExpression(text));
      }
    }
  });

  it('should read base64 runs as the expression does (40 in a row, wherever the run starts)', () => {
    for (const n of [0, 1, 38, 39, 40, 41, 80]) {
      for (const text of ['a'.repeat(n), `-${'Ab9/+'.repeat(20).slice(0, n)}-`, `é${'0'.repeat(n)}`, `=${'z'.repeat(n)}`]) {
        expect(mayHoldSecret(text), text).toBe(byExpression(text));
      }
    }
  });

  it('should answer as the expressions on texts of triggers, their beginnings, runs and case-folding characters', () => {
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        expect(mayHoldSecret(text)).toBe(byExpression(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('should answer as the expressions on any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 64 }), (text) => {
        expect(mayHoldSecret(text)).toBe(byExpression(text));
      }),
      { numRuns: 3000 },
    );
  });
});
