/**
 * Must-fire and must-not-fire cases for the general causes found reading real agent runs (issue 6), each a
 * short synthetic session showing the same behaviour, run through the default LoopDetector on both engines.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { ToolEvent, Verdict } from '../src/index.js';

const ENGINES = ['wasm', 'reference'] as const;

function verdicts(events: readonly ToolEvent[], engine: (typeof ENGINES)[number]): (Verdict | null)[] {
  const d = new LoopDetector({ engine });
  try {
    return events.map((e) => d.check(e));
  } finally {
    d.dispose();
  }
}

const kinds = (vs: readonly (Verdict | null)[]): string[] => vs.filter((v): v is Verdict => v !== null).map((v) => v.kind);

describe.each(ENGINES)('searches rephrased after each finds nothing (%s engine)', (engine) => {
  const search = (q: string, found: string | null): ToolEvent =>
    found === null
      ? { tool: 'search', args: { query: q }, result: `Could not find [${q}]. Similar: ['${q.split(' ')[0]} (disambiguation)']`, error: `Could not find [${q}]` }
      : { tool: 'search', args: { query: q }, result: found };

  it('should fire when paraphrases of one query all come back empty, though each error echoes its own query', () => {
    const events = [
      search('Riverside County California', 'Riverside County is a county in the southern part of the state.'),
      search('Riverside County courthouse architect', null),
      search('Riverside County historic courthouse architect', null),
      search('architect of the Riverside County courthouse', null),
      search('Riverside County old courthouse architect name', null),
    ];
    expect(kinds(verdicts(events, engine))).toContain('semantic');
  });

  it('should not fire when the paraphrased searches find something new each time', () => {
    const events = [
      search('Riverside County courthouse architect', 'Burnham & Root designed several courthouses.'),
      search('Riverside County historic courthouse architect', 'The 1903 courthouse was designed by Franklin P. Burnham.'),
      search('architect of the Riverside County courthouse', 'Franklin Pierce Burnham (1853–1909) was an American architect.'),
      search('Riverside County old courthouse architect name', 'Burnham also designed the Riverside Carnegie Library.'),
    ];
    expect(kinds(verdicts(events, engine))).toEqual([]);
  });
});
