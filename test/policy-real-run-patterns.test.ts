/**
 * Must-fire and must-not-fire cases for the general causes found reading real agent runs (issue 6), each a
 * short synthetic session showing the same behaviour, run through the default LoopDetector on both engines.
 */
import { describe, expect, it } from 'vitest';
import { ENGINES, type Engine, verdictsOf } from './helpers/verdicts.js';
import type { ToolEvent, Verdict } from '../src/index.js';

const verdicts = (events: readonly ToolEvent[], engine: Engine): (Verdict | null)[] => verdictsOf(events, { engine });

const kinds = (vs: readonly (Verdict | null)[]): string[] => vs.filter((v): v is Verdict => v !== null).map((v) => v.kind);
/** Every signal's kind, of every verdict (the verdict's own kind is only the most specific one). */
const signalKinds = (vs: readonly (Verdict | null)[]): string[] => vs.flatMap((v) => (v === null ? [] : v.signals.map((s) => s.kind)));

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
    expect(signalKinds(verdicts(events, engine))).toContain('semantic');
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

describe.each(ENGINES)('different searches that each fail to find anything (%s engine)', (engine) => {
  const miss = (tool: string, q: string): ToolEvent => ({ tool, args: { query: q }, result: `Could not find [${q}]. Similar: ['${q.split(' ').at(-1)}']`, error: `Could not find [${q}]` });

  it('should fire when unrelated queries keep failing the same way, each message echoing its own query', () => {
    const events = [miss('search', 'band'), miss('search', 'American metalcore band'), miss('lookup', 'founded 2009'), miss('search', 'lead vocalist Jerry Roush')];
    const v = verdicts(events, engine);
    expect(kinds(v)).toContain('dead_end');
    expect(v.findIndex((x) => x?.kind === 'dead_end')).toBe(2); // the third failure
  });

  it('should not count failures of other kinds with them', () => {
    const events: ToolEvent[] = [
      miss('search', 'band'),
      { tool: 'open', args: { url: 'https://example.org/a' }, error: 'Permission denied: https://example.org/a' },
      miss('search', 'American metalcore band'),
      { tool: 'open', args: { url: 'https://example.org/b' }, result: 'Attila is an American metalcore band.' },
    ];
    expect(kinds(verdicts(events, engine))).toEqual([]);
  });
});

describe.each(ENGINES)('a test re-run after each new edit, failing the same way (%s engine)', (engine) => {
  const run: ToolEvent = { tool: 'bash', args: { command: 'python reproduce.py' }, result: 'Traceback (most recent call last):\nValueError: cannot reindex on an axis with duplicate labels', error: 'exit status 1' };
  const edit = (k: number): ToolEvent => ({ tool: 'str_replace_editor', args: { command: 'str_replace', path: 'xarray/core/indexing.py', old_str: `attempt ${k - 1}`, new_str: `attempt ${k}` }, result: `The file xarray/core/indexing.py has been edited (attempt ${k}).` });
  const actions = (events: readonly ToolEvent[]): string[] => verdicts(events, engine).map((v) => v?.action ?? '-');

  it('should warn but not break while each re-run follows a new edit, for a few attempts', () => {
    const events: ToolEvent[] = [run];
    for (let k = 1; k <= 4; k++) events.push(edit(k), run);
    const a = actions(events);
    expect(a).toContain('warn');
    expect(a).not.toContain('break');
  });

  it('should break once the edit-and-re-run attempts go on and on', () => {
    const events: ToolEvent[] = [run];
    for (let k = 1; k <= 10; k++) events.push(edit(k), run);
    expect(actions(events)).toContain('break');
  });

  it('should still break soon when the same edit is repeated before each re-run', () => {
    const events: ToolEvent[] = [run];
    for (let k = 1; k <= 4; k++) events.push(edit(1), run);
    expect(actions(events).slice(0, 7)).toContain('break');
  });
});

describe.each(ENGINES)('paraphrased searches that land on the same page (%s engine)', (engine) => {
  const PAGE = 'Marathi Abhimaangeet is a song written in Marathi by the noted poet Suresh Bhat and set to music by Kaushal Inamdar.';
  const search = (q: string, result: string): ToolEvent => ({ tool: 'search', args: { query: q }, result });

  it('should fire when different phrasings of one question keep returning the very same page', () => {
    const events = [search('Marathi Abhimaangeet song', PAGE), search('Marathi Abhimaangeet song composer', PAGE), search('composer of the Marathi Abhimaangeet song', PAGE)];
    expect(signalKinds(verdicts(events, engine))).toContain('semantic');
  });

  it('should not fire when the same phrasings get a brief acknowledgement, or different pages', () => {
    const acks = [search('Marathi Abhimaangeet song', 'OK'), search('Marathi Abhimaangeet song composer', 'OK'), search('composer of the Marathi Abhimaangeet song', 'OK')];
    expect(kinds(verdicts(acks, engine))).toEqual([]);
    const pages = [search('Marathi Abhimaangeet song', PAGE), search('Marathi Abhimaangeet song composer', 'Kaushal S. Inamdar (born 2 October 1971) is an Indian music composer.'), search('composer of the Marathi Abhimaangeet song', 'Suresh Bhat (1932-2003) was a Marathi poet.')];
    expect(kinds(verdicts(pages, engine))).toEqual([]);
  });
});
