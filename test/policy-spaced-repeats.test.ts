/**
 * A loop whose repetitions are spaced out by more calls than the cooldown: the same search, returning
 * nothing or the same thing, with new reads between each try. The cooldown sends the ladder back to its
 * first rung after quiet calls, but a verdict about the same repeated call whose loop began before them
 * takes the climb up where it was left; a loop that starts afresh starts on the first rung. Both engines.
 */
import { describe, expect, it } from 'vitest';
import { ENGINES, type Engine, verdictsOf } from './helpers/verdicts.js';
import { LoopDetector } from '../src/index.js';
import type { ToolEvent, Verdict } from '../src/index.js';
import { POLICY_DEFAULTS } from '../src/options/options.js';


/** `tries` searches, each followed by `gap` reads of files not read before. */
function spaced(search: (k: number) => ToolEvent, tries: number, gap: number): ToolEvent[] {
  const out: ToolEvent[] = [];
  let file = 0;
  for (let k = 0; k < tries; k++) {
    out.push(search(k));
    for (let g = 0; g < gap; g++, file++) out.push({ tool: 'read_file', args: { path: `src/module_${file}.py` }, result: `def f${file}():\n    return ${file}\n` });
  }
  return out;
}

/** The actions of the verdicts given, in order (calls without one left out). */
const actions = (events: readonly ToolEvent[], engine: Engine): string[] => verdictsOf(events, { engine }).filter((v): v is Verdict => v !== null).map((v) => v.action);

const GAP = POLICY_DEFAULTS.cooldown + 2;

describe.each(ENGINES)('the same search spaced out by new reads (%s engine)', (engine) => {
  it('should climb to break when it keeps returning nothing, though each try is further apart than the cooldown', () => {
    const search = (): ToolEvent => ({ tool: 'search_code', args: { query: 'def handle_timeout' }, result: 'No results found.' });
    const a = actions(spaced(search, 9, GAP), engine);
    expect(a[0]).toBe('warn');
    expect(a).toContain('break');
  });

  it('should climb to break when it keeps returning the same thing', () => {
    const search = (): ToolEvent => ({ tool: 'search_code', args: { query: 'class Scheduler' }, result: 'scheduler/core.py:12: class Scheduler(Base):' });
    expect(actions(spaced(search, 9, GAP), engine)).toContain('break');
  });

  it('should not break when each spaced search finds something new', () => {
    const search = (k: number): ToolEvent => ({ tool: 'search_code', args: { query: 'class Scheduler' }, result: `scheduler/core.py:${12 + k}: class Scheduler(Base):  # revision ${k}` });
    expect(actions(spaced(search, 9, GAP), engine)).not.toContain('break');
  });

  it('should start a loop that begins afresh after the quiet calls on the first rung', () => {
    const ls: ToolEvent = { tool: 'bash', args: { command: 'ls -la' }, result: 'a.py b.py' };
    const quiet = Array.from({ length: POLICY_DEFAULTS.cooldown }, (_, i): ToolEvent => ({ tool: 'bash', args: { command: `echo ${i}` }, result: String(i) }));
    const d = new LoopDetector({ engine, detectors: { frequency: false, stateRepeat: false, resultRepeat: false } });
    try {
      const v = [ls, ls, ls, ls, ...quiet, ls, ls, ls].map((e) => d.check(e)).filter((x): x is Verdict => x !== null);
      expect(v.map((x) => x.action)).toEqual(['warn', 'break', 'warn']);
    } finally {
      d.dispose();
    }
  });
});

describe('a resumed climb in a snapshot', () => {
  it('should continue where it was after restore, as without the snapshot', () => {
    const search = (): ToolEvent => ({ tool: 'search_code', args: { query: 'def handle_timeout' }, result: 'No results found.' });
    const events = spaced(search, 9, GAP);
    const whole = new LoopDetector();
    const expected = events.map((e) => JSON.stringify(whole.check(e)));
    const first = new LoopDetector();
    const cut = 3 * (GAP + 1) + 4; // inside the quiet stretch after the third try
    const got = events.slice(0, cut).map((e) => JSON.stringify(first.check(e)));
    const second = new LoopDetector();
    second.restore(first.snapshot());
    for (const e of events.slice(cut)) got.push(JSON.stringify(second.check(e)));
    expect(got).toEqual(expected);
    for (const d of [whole, first, second]) d.dispose();
  });
});
