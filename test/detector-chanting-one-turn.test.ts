/**
 * The text of one model turn, given with each call that turn made (as a trace reader may give a message's
 * text to every tool call in it), is one piece of prose: six parallel calls carrying "Let me read the
 * remaining configuration files..." are not that sentence said six times. The same sentence said turn
 * after turn still is chanting. Both engines (the detector is shared; its prose stream is not), and across
 * a snapshot taken in the middle of a turn.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { ToolEvent } from '../src/index.js';
import { ENGINES, type Engine, actionsOf } from './helpers/verdicts.js';

const chantingOnly = { exactRepeat: false, frequency: false, cycle: false, semantic: false, similarArgs: false, resultRepeat: false, deadEnd: false, stateRepeat: false, chanting: true } as const;

const NARRATION = 'Now I have a clear picture of the codebase. Let me create the task list and start implementing the changes.';

/** `n` calls, the call i of turn `round(i)` carrying `text(i)`. */
const calls = (n: number, round: (i: number) => number, text: (i: number) => string): ToolEvent[] =>
  Array.from({ length: n }, (_, i) => ({ tool: 'TaskCreate', args: { subject: `task ${i}` }, result: `Task #${i} created`, round: round(i), text: text(i) }));

function flagged(events: readonly ToolEvent[], engine: Engine): string[] {
  const d = new LoopDetector({ engine, detectors: chantingOnly });
  try {
    return actionsOf(events.map((e) => d.check(e))).filter((a) => a !== '-');
  } finally {
    d.dispose();
  }
}

describe.each(ENGINES)('the text of one turn given with each of its calls (%s engine)', (engine) => {
  it('should not take one message given with six calls of its turn for chanting', () => {
    expect(flagged(calls(6, () => 4, () => NARRATION), engine)).toEqual([]);
  });

  it('should read each turn once: three turns of four calls, each with its own message', () => {
    const texts = ['I will read the three workflow files first to see which jobs run on a pull request.', 'The ingest workflow has no concurrency group, so two runs can overlap; I will add one.', 'Both workflows now share the group; let me check the remaining scripts for the same issue.'];
    expect(flagged(calls(12, (i) => Math.floor(i / 4), (i) => texts[Math.floor(i / 4)] as string), engine)).toEqual([]);
  });

  it('should still take the same sentence said turn after turn for chanting', () => {
    expect(flagged(calls(6, (i) => i, () => NARRATION), engine)).toContain('warn');
  });

  it('should still take the same sentence given without rounds, call after call, for chanting', () => {
    expect(flagged(calls(6, () => 0, () => NARRATION).map(({ round: _r, ...e }) => e), engine)).toContain('warn');
  });
});

describe('the text of one turn across a snapshot', () => {
  it('should read the turn once when the session is restored in the middle of it', () => {
    const events = calls(6, () => 9, () => NARRATION);
    const d = new LoopDetector({ detectors: chantingOnly });
    const e = new LoopDetector({ detectors: chantingOnly });
    try {
      for (const ev of events.slice(0, 2)) expect(d.check(ev)).toBeNull();
      e.restore(d.snapshot());
      for (const ev of events.slice(2)) expect(e.check(ev)).toBeNull();
    } finally {
      d.dispose();
      e.dispose();
    }
  });
});
