/**
 * StructureFilter.proseIn tries on a line only the expressions its first character (ASCII, after ASCII white
 * space) can begin (issue 29: chanting reads every line of the agent's text): a list item or a log line is
 * not tried as a fence, a table row or a quote by any expression. Its classes are the regexes' own
 * (test/structure-lines-first-character.test.ts holds it to them).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StructureFilter } from '../src/text/structure-lines.js';

afterEach(() => vi.restoreAllMocks());

/** The sources of the expressions RegExp.prototype.test ran while `f` ran. */
function triedBy(f: () => void): string[] {
  const tried: string[] = [];
  const test = RegExp.prototype.test;
  vi.spyOn(RegExp.prototype, 'test').mockImplementation(function (this: RegExp, s: string) {
    tried.push(this.source);
    return test.call(this, s);
  });
  f();
  vi.restoreAllMocks();
  return tried;
}

describe('StructureFilter: the expressions a line is tried with', () => {
  it('should not try a list item, a numbered step or a log line as a fence', () => {
    for (const line of ['- run the tests again', '  * check the build', '12. Open the file', '2024-01-02 12:00 started', 'ERROR: no such file', '[INFO] done', '+ added line']) {
      const f = new StructureFilter();
      const tried = triedBy(() => expect(f.proseIn(`${line}\nmore`, 0, line.length)).toBe(-1));
      expect(tried.filter((s) => s.includes('```'))).toEqual([]);
    }
  });

  it('should class a table row and a quote by their first character alone, and try a fence only where one can open', () => {
    const f = new StructureFilter();
    expect(triedBy(() => expect(f.proseIn('| a | b |', 0, 9)).toBe(-1))).toEqual([]);
    expect(triedBy(() => expect(f.proseIn('  > quoted', 0, 10)).toBe(-1))).toEqual([]);
    // four spaces before a fence: no fence (an indented code line), and prose
    expect(triedBy(() => expect(f.proseIn('    ```', 0, 7)).toBe(0))).toEqual([]);
    expect(f.fenceOpen).toBe(false);
    expect(triedBy(() => expect(f.proseIn('```ts', 0, 5)).toBe(-1)).some((s) => s.includes('```'))).toBe(true);
    expect(f.fenceOpen).toBe(true);
  });
});
