/**
 * The module's "nothing found" reading of result text (assembly/nothing.ts, sixteen bytes at a time)
 * against its TypeScript twin (src/text/nothing-found.ts): the same answer for any text, with phrases
 * placed at every offset around the sixteen-byte steps, in any case, after word and non-word bytes.
 */
// vitest: isolate (the module's scratch area, through ./helpers/nothing-found-readings)
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NOTHING_LOOK, NOTHING_PHRASES, NOTHING_VALUES, bytesSayNothingFound } from '../src/text/nothing-found.js';
import { BARE_KIND, COLLECTION_ERRORS, ERROR_WORD, INSTALL_NOTICE, NAME_KINDS, ON_A_TYPE, PROGRAM_WORD } from '../src/text/not-a-finding.js';
import { MAX_NOISE_LINES, shellNoiseEnd } from '../src/text/shell-noise.js';
import { moduleSaysNothingFound as wasmSays } from './helpers/nothing-found-readings.js';
import { runs } from './helpers/streams.js';

const utf8 = new TextEncoder();


/** Phrases in the places where not-a-finding.ts passes them over, whole or cut short. */
const passedOver = [
  `not found${INSTALL_NOTICE}`, `not found${INSTALL_NOTICE.slice(0, 12)}`, `${PROGRAM_WORD} not found`, `${PROGRAM_WORD}   not found: x`,
  `x${PROGRAM_WORD} not found`, `${PROGRAM_WORD}not found`, `${PROGRAM_WORD}\tnot found`, `${PROGRAM_WORD.slice(1)} not found`, `${BARE_KIND} does not exist`, `${BARE_KIND}doesn't exist`,
  ...NAME_KINDS.flatMap((k) => [`${k} "x" does not exist`, `${k}  a.b  doesn't exist`, `${k} does not exist`, `x${k} y does not exist`]),
  ...ON_A_TYPE.flatMap((w) => [`'x' does not exist${w}'Y'`, `doesn't exist${w.toUpperCase()}`, `does not exist${w.slice(0, 5)}`]),
  `0 items${COLLECTION_ERRORS}6${ERROR_WORD}s`, `0 items${COLLECTION_ERRORS}12${ERROR_WORD}`, `0 items${COLLECTION_ERRORS}${ERROR_WORD}`, `0 items${COLLECTION_ERRORS}3 skipped`, `0 items${COLLECTION_ERRORS}1${ERROR_WORD.slice(0, 3)}`,
];
const phrase = fc.constantFrom(...NOTHING_PHRASES, ...NOTHING_VALUES, ...passedOver).chain((p) =>
  fc.array(fc.boolean(), { minLength: p.length, maxLength: p.length }).map((up) => [...p].map((c, i) => (up[i] ? c.toUpperCase() : c)).join('')),
);
const filler = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', 'x', 'N', 'n', 'o', '0', '9', ' ', '\n', '.', '_', '"', '@', '[', '`', '{', 'é', '\u0010'), maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);
const text = fc.array(fc.oneof(filler, phrase), { maxLength: 24 }).map((ps) => ps.join(''));

describe('WebAssembly "nothing found" = TypeScript twin', () => {
  it('should give the same answer for any text', () => {
    let yes = 0;
    fc.assert(
      fc.property(text, (t) => {
        const bytes = utf8.encode(t);
        const ref = bytesSayNothingFound(bytes, bytes.length);
        if (ref) yes++;
        expect(wasmSays(bytes)).toBe(ref);
      }),
      { numRuns: runs(2000) },
    );
    expect(yes).toBeGreaterThan(0);
  });

  it('should find a phrase at every offset, and only at a word start within the bytes looked at', () => {
    for (const p of ['no result', 'NOT FOUND', "couldn't find", 'found nothing', '0 rows']) {
      for (let at = 0; at < 40; at++) {
        for (const before of ['x', ' ', '9', '.']) {
          const t = `${before.repeat(at)}${p} and more text after it`;
          const bytes = utf8.encode(t);
          expect(wasmSays(bytes), `${JSON.stringify(before)} x ${at} + ${p}`).toBe(bytesSayNothingFound(bytes, bytes.length));
        }
      }
      // beyond the bytes looked at
      const far = utf8.encode(`${'y '.repeat(NOTHING_LOOK)}${p}`);
      expect(wasmSays(far)).toBe(false);
      const edge = utf8.encode(`${'-'.repeat(NOTHING_LOOK - p.length)}${p}`);
      expect(wasmSays(edge)).toBe(true);
    }
  });

  it('should find each phrase by its first three bytes in any case at every offset of a short text, its end at the text end or before', () => {
    // the module's blocks class a lane by its byte and the next two while those are inside the text, and by its
    // byte alone in the last block: phrases that end at the text's end, or a byte or two before it, test both
    const near = ['no_result', 'nOt', 'cou', 'doe', 'zer', 'ret', 'fou', '0 x', '0 R', 'NO ', 'not fou'];
    for (const p of [...NOTHING_PHRASES, ...near]) {
      for (let mask = 0; mask < 8; mask++) {
        const cased = [...p].map((c, i) => (i < 3 && (mask >> i) & 1 ? c.toUpperCase() : c)).join('');
        for (let at = 0; at < 40; at++) {
          for (const tail of ['', '.', ' x']) {
            for (const before of ['-', 'q']) {
              const bytes = utf8.encode(`${before.repeat(at)}${cased}${tail}`);
              expect(wasmSays(bytes), `${JSON.stringify(before)} x ${at} + ${cased} + ${JSON.stringify(tail)}`).toBe(bytesSayNothingFound(bytes, bytes.length));
            }
          }
        }
      }
    }
  });

  it('should pass over the same phrases where they report no empty search, at every offset', () => {
    let over = 0;
    for (const p of passedOver) {
      for (let at = 0; at < 40; at++) {
        for (const before of [' ', 'q', '\n', '"']) {
          for (const tail of ['', ': x', '.']) {
            const bytes = utf8.encode(`${before.repeat(at)}${p}${tail}`);
            const ref = bytesSayNothingFound(bytes, bytes.length);
            if (!ref) over++;
            expect(wasmSays(bytes), `${JSON.stringify(before)} x ${at} + ${p} + ${JSON.stringify(tail)}`).toBe(ref);
          }
        }
      }
      // the notice past the bytes looked at, the phrase within them
      const edge = utf8.encode(`${'-'.repeat(NOTHING_LOOK - 9)}${p}`);
      expect(wasmSays(edge), `edge ${p}`).toBe(bytesSayNothingFound(edge, edge.length));
    }
    expect(over).toBeGreaterThan(0);
  });

  it('should not see a phrase that follows a word byte, even across a sixteen-byte step', () => {
    for (let at = 10; at < 20; at++) {
      const bytes = utf8.encode(`${' '.repeat(at)}xno result`);
      expect(bytesSayNothingFound(bytes, bytes.length)).toBe(false);
      expect(wasmSays(bytes)).toBe(false);
    }
  });

  it("should set aside the same shell-startup lines first (assembly/shell-noise.ts = shellNoiseEnd)", () => {
    const line = fc.oneof(
      fc.constantFrom(
        '/Users/ana/.profile: line 6: compdef: command not found',
        '/home/bo/.bashrc: line 12: __git_ps1: command not found\r',
        '.zshrc: line 1: ',
        '/etc/profile: line 9:',
        '/opt/homebrew/Library/Homebrew/cmd/shellenv.sh: line 18: /bin/ps: Operation not permitted',
        './build.sh: line 6: make: command not found',
        'Now using node v18.20.5 (npm v10.8.2)',
        'Now using node v18 (npm v10.8.2) ',
        'Now using node v18.20. (npm v10)',
        'Identity added: /home/u/.ssh/id_ed25519 (user@host)',
        'Certificate added: /home/u/.ssh/id-cert.pub (u@ca)\r',
        'Identity added: a (b',
        'Identity added:  (b)',
        'Identity added: (x) (y) )',
        'Error connecting to agent: Operation not permitted',
        'Error connecting to agent: \r',
        'Error connecting to agent:  x',
        'Error connecting to agent: x\r',
        'Could not open a connection to your authentication agent.',
        'Could not open a connection to your authentication agent.\r',
        'Could not open a connection to your authentication agent.x',
        '/x/.profile:  line 2: y',
        '/x/.profile: line x: y',
        `/${'d/'.repeat(130)}.profile: line 3: compdef: command not found`,
      ),
      fc.string({ unit: fc.constantFrom('a', '/', '.', ':', ' ', '1', 'l', 'i', 'n', 'e', 'p', 'r', 'o', 'f', '\r'), maxLength: 30 }),
    );
    const noisy = fc.tuple(fc.array(line, { maxLength: 6 }), text, fc.nat(1200)).map(([ls, t, pad]) => `${ls.join('\n')}${ls.length > 0 ? '\n' : ''}${pad > 1100 ? 'y'.repeat(pad) : ''}${t}`);
    let skipped = 0;
    fc.assert(
      fc.property(noisy, (t) => {
        const bytes = utf8.encode(t);
        if (shellNoiseEnd(bytes, bytes.length) > 0) skipped++;
        expect(wasmSays(bytes)).toBe(bytesSayNothingFound(bytes, bytes.length));
      }),
      { numRuns: runs(2000) },
    );
    expect(skipped).toBeGreaterThan(0);
    // up to MAX_NOISE_LINES of them are set aside, the next is read as the command's own (a dash-style "not
    // found": a shell's `command not found` is no finding wherever it stands, not-a-finding.ts)
    for (let k = 0; k <= MAX_NOISE_LINES + 2; k++) {
      for (const end of ['\n', '\r\n']) {
        const bytes = utf8.encode(`${`/Users/ana/.profile: line 6: compdef: not found${end}`.repeat(k)}src${end}`);
        expect(wasmSays(bytes), `${k} lines`).toBe(k > MAX_NOISE_LINES);
        expect(bytesSayNothingFound(bytes, bytes.length), `${k} lines`).toBe(k > MAX_NOISE_LINES);
      }
    }
    // the first word's white space and the line's end are found sixteen bytes at a time: paths and lines of every
    // length around those steps, around the first word's cap (256 bytes) and the bytes read (1,024)
    for (let d = 1; d < 300; d += d < 40 ? 1 : 7) {
      for (const lead of ['/', 'N']) {
        for (const after of ['\n', '\r\n', ' \n', '\t\n', '']) {
          const path = `${lead}${'x'.repeat(d)}/.zshrc`;
          for (const t of [`${path}: line 6: compdef: command not found${after}src`, `${path}:\tline 6: x not found${after}src`, `Now using node v18.${d} (npm v10)${after}no result`]) {
            const bytes = utf8.encode(t);
            expect(wasmSays(bytes), t).toBe(bytesSayNothingFound(bytes, bytes.length));
          }
        }
      }
    }
    for (let n = 990; n < 1060; n++) {
      const bytes = utf8.encode(`/h/.bashrc: line 1: ${'z'.repeat(n - 20)} not found\nsrc`);
      expect(wasmSays(bytes), `${n}`).toBe(bytesSayNothingFound(bytes, bytes.length));
    }
    const long = utf8.encode(`${'/Users/ana/.profile: line 6: compdef: command not found\n'.repeat(3)}${'y '.repeat(200)}no result`);
    expect(wasmSays(long)).toBe(false);
  });
});
