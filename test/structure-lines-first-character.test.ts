/**
 * StructureFilter.proseIn decides most lines by their first character after ASCII white space (no regex,
 * no copy of the line): it must give every line the class, and leave the code-block state, that the
 * regexes alone give. Random lines made of the characters structures begin with, Unicode white space and
 * prose, read as ranges of a larger text, against the same lines read with the first-character decision
 * off; and chanting's verdicts on texts of such lines, both ways.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { ToolEvent } from '../src/index.js';
import { StructureFilter, setStructureFastPath } from '../src/text/structure-lines.js';
import { seededRandom } from '../src/fingerprint/seeded-random.js';
import { ENGINES, actionsOf } from './helpers/verdicts.js';

afterEach(() => setStructureFastPath(true));

/** Pieces a line is made of: structure openers, white space (ASCII and Unicode), prose, fences. */
const PIECES = [' ', '  ', '   ', '    ', '\t', '\u00a0', '\u2003', '\ufeff', '```', '~~~', '`', '|', '- ', '* ', '+ ', '• ', '1. ', '12) ', '# ', '### ', '> ', '---', '***', '___', '===', '[', '2024-01-02', '12:30', 'INFO ', 'ERROR', 'WARNING', 'TRACE', 'CRITICAL ', 'Done', 'Now', 'the file', 'let me', 'x', '.', '!', 'é', 'Ω', 'I will', 'Fix', 'Ei', 'The', 'IT ', 'Do', 'N', 'WARNINGS', 'Critical', '**', '**Status**: ', ':**', '**:'];

function randomLine(next: () => number): string {
  const n = Math.floor(next() * 6);
  let s = '';
  for (let k = 0; k < n; k++) s += PIECES[Math.floor(next() * PIECES.length)] as string;
  return s;
}

describe('StructureFilter first-character decision', () => {
  it('should class every line as the regexes do, in and out of code blocks', () => {
    const next = seededRandom(29);
    const fast = new StructureFilter();
    const slow = new StructureFilter();
    for (let i = 0; i < 20_000; i++) {
      const line = randomLine(next);
      const before = 'abc\n'.repeat(Math.floor(next() * 2));
      const text = `${before}${line}\nmore`;
      setStructureFastPath(true);
      const a = fast.proseIn(text, before.length, before.length + line.length);
      setStructureFastPath(false);
      const b = slow.proseIn(text, before.length, before.length + line.length);
      expect({ line, class: a, fence: fast.fenceOpen }).toEqual({ line, class: b, fence: slow.fenceOpen });
    }
  });
});

const chantingOnly = { exactRepeat: false, frequency: false, cycle: false, semantic: false, similarArgs: false, resultRepeat: false, deadEnd: false, stateRepeat: false, chanting: true } as const;

describe.each(ENGINES)('chanting with and without the first-character decision (%s engine)', (engine) => {
  it('should give the same verdicts on texts of structured and prose lines', () => {
    const next = seededRandom(7);
    const chant = 'I will now check the configuration of the build again to be completely sure of it. ';
    const events: ToolEvent[] = [];
    for (let i = 0; i < 300; i++) {
      const lines: string[] = [];
      const n = 1 + Math.floor(next() * 6);
      for (let k = 0; k < n; k++) lines.push(next() < 0.3 ? chant.repeat(1 + Math.floor(next() * 3)) : randomLine(next));
      events.push({ tool: 'Read', args: { i }, result: 'ok', text: lines.join(next() < 0.5 ? '\n' : '\n\n') + (next() < 0.5 ? '\n' : '') });
    }
    const verdicts = (on: boolean): string[] => {
      setStructureFastPath(on);
      const d = new LoopDetector({ engine, detectors: chantingOnly });
      try {
        return actionsOf(events.map((e) => d.check(e)));
      } finally {
        d.dispose();
      }
    };
    const fast = verdicts(true);
    expect(fast.filter((a) => a !== '-').length).toBeGreaterThan(0);
    expect(fast).toEqual(verdicts(false));
  });
});
