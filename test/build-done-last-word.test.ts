/**
 * build-done.ts's quick look at an output's last word (perf29): an output whose last word is not right after
 * `[100%] Built target ` is answered no without reading back through it. The answers are the plain
 * definition's (the last occurrence of the mark, on a line of its own to the end), on outputs made of the
 * mark, names, ASCII and other white space, line feeds and characters past ASCII, and on every result of
 * the traces when they are here.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILD_LOOK, reportsBuildDone } from '../src/text/build-done.js';
import { traceCalls, traceDir } from './helpers/traces.js';

const MARK = '[100%] Built target ';

/** reportsBuildDone as it was before the quick look: the mark's last occurrence read back through the whole text. */
function plainBuildDone(text: string): boolean {
  if (text.length > BUILD_LOOK) return false;
  const at = text.lastIndexOf(MARK);
  if (at < 0) return false;
  const start = text.lastIndexOf('\n', at) + 1;
  if (text.slice(start, at).trim() !== '') return false;
  return /^\[100%\] Built target \S+$/.test(text.slice(start).trim());
}

/** Pieces an output is made of here: the mark and its parts, names, white space of several scripts, line feeds. */
const piece = fc.constantFrom(
  MARK, '[100%] Built target', '[ 50%] Built target ', 'Built target ', 'app', 'kangaroo_test', 'é', '\u00a0', '\u3000', '\u2028',
  ' ', '\t', '\r', '\n', '\n\n', '\v', '\f', 'make[2]: *** Error 1', '[', '%]', 'x',
);
const output = fc.array(piece, { maxLength: 12 }).map((ps) => ps.join(''));

describe('a done build read from the last word', () => {
  it('should answer as the plain definition on outputs made of the mark, names and white space', () => {
    fc.assert(
      fc.property(output, (t) => {
        expect(reportsBuildDone(t)).toBe(plainBuildDone(t));
      }),
      { numRuns: 20000 },
    );
  });

  it('should answer as the plain definition on any text and around the length cap', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (t) => {
      expect(reportsBuildDone(t)).toBe(plainBuildDone(t));
    }), { numRuns: 5000 });
    for (const pad of [BUILD_LOOK - MARK.length - 3, BUILD_LOOK - MARK.length - 2]) {
      const t = `${'x'.repeat(pad)}\n${MARK}ap`;
      expect(reportsBuildDone(t)).toBe(plainBuildDone(t));
    }
  });

  it('should read a name of other scripts and white space of other scripts at the end as the plain definition does', () => {
    for (const t of [`${MARK}ядро`, `${MARK}app\u00a0`, `${MARK}app\u3000\n`, `${MARK}\u00a0app`, `x\n${MARK}app \u2028`]) expect(reportsBuildDone(t)).toBe(plainBuildDone(t));
    expect(reportsBuildDone(`${MARK}ядро`)).toBe(true);
  });

  it.skipIf(traceDir === null)('should answer as the plain definition on every result of the traces', () => {
    let n = 0;
    for (const [, c] of traceCalls()) {
      if (typeof c.result !== 'string') continue;
      const head = c.result.slice(0, 4096);
      expect(reportsBuildDone(head)).toBe(plainBuildDone(head));
      n++;
    }
    expect(n).toBeGreaterThan(20000);
  });
});
