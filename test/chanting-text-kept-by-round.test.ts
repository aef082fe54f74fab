/**
 * Chanting keeps the last text it read only for a call that names its round (model turn): that text is
 * read again only when another call of the same round brings text, to read one turn's message once. A
 * call without a round (the traces' calls, most library callers') leaves nothing held (~250 B a session of
 * real calls: branch mem6k); the verdicts are those of the same calls either way, across a snapshot too
 * (the WebAssembly engine's: the reference engine takes none).
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { ToolEvent } from '../src/index.js';
import { ENGINES, actionsOf } from './helpers/verdicts.js';

const chantingOnly = { exactRepeat: false, frequency: false, cycle: false, semantic: false, similarArgs: false, resultRepeat: false, deadEnd: false, stateRepeat: false, chanting: true } as const;

const NARRATION = 'Now I have a clear picture of the codebase. Let me create the task list and start implementing the changes.';

/** Call `i` with its own args, the narration as text, and round `round(i)` (none when undefined). */
const calls = (n: number, round: (i: number) => number | undefined): ToolEvent[] =>
  Array.from({ length: n }, (_, i) => {
    const r = round(i);
    return { tool: 'TaskCreate', args: { subject: `task ${i}` }, result: `Task #${i} created`, text: NARRATION, ...(r === undefined ? {} : { round: r }) };
  });

/** The session's chanting detector (either engine's pipeline), found by its class. */
function chantingOf(d: LoopDetector): { lastText: string | null } {
  const pipeline = (d as unknown as { pipeline: Record<string, unknown> }).pipeline;
  const found = [...Object.values(pipeline), ...((pipeline['detectors'] as unknown[] | undefined) ?? [])].find((x) => (x as object | null)?.constructor?.name === 'ChantingDetector');
  if (found === undefined) throw new Error('no chanting detector');
  return found as { lastText: string | null };
}

describe.each(ENGINES)('chanting\'s last text, kept by round (%s engine)', (engine) => {
  it('should hold no text after calls without rounds, and the text of a call with one', () => {
    const d = new LoopDetector({ engine, detectors: chantingOnly });
    try {
      for (const e of calls(4, () => undefined)) d.check(e);
      expect(chantingOf(d).lastText).toBeNull();
      d.check(calls(1, () => 7)[0] as ToolEvent);
      expect(chantingOf(d).lastText).toBe(NARRATION);
      d.check(calls(1, () => undefined)[0] as ToolEvent);
      expect(chantingOf(d).lastText).toBeNull();
    } finally {
      d.dispose();
    }
  });

  it.runIf(engine === 'wasm')('should give the same verdicts whether restored from a snapshot taken after a call without a round or not', () => {
    // rounds: none, then a turn of three calls, none again, then turn after turn
    const events = calls(16, (i) => (i < 3 || (i >= 6 && i < 9) ? undefined : i < 6 ? 2 : i));
    for (const at of [1, 3, 5, 8, 12]) {
      const whole = new LoopDetector({ engine, detectors: chantingOnly });
      const first = new LoopDetector({ engine, detectors: chantingOnly });
      const restored = new LoopDetector({ engine, detectors: chantingOnly });
      try {
        const expected = actionsOf(events.map((e) => whole.check(e)));
        const before = events.slice(0, at).map((e) => first.check(e));
        restored.restore(first.snapshot());
        expect(actionsOf([...before, ...events.slice(at).map((e) => restored.check(e))]), `snapshot after ${at} calls`).toEqual(expected);
        expect(expected).toContain('warn');
      } finally {
        whole.dispose();
        first.dispose();
        restored.dispose();
      }
    }
  });
});
