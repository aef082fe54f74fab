/**
 * Parallel calls of one model turn are one decision: twelve Reads of numbered files made at once, four
 * messages failing together on one validation error, a cascade of "Sibling tool call errored" are not
 * loops. The same calls made turn after turn are. Turns are the events' `round`, or, in two-phase use
 * without rounds, the calls proposed while others are still in flight. Both engines, one- and two-phase.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { LiveCall, ToolEvent } from '../src/index.js';
import { ENGINES, type Engine, flaggedActions } from './helpers/verdicts.js';

/** Reads of numbered files (no outcome given, as a caller that reports none), each in the turn `round(i)`. */
const reads = (round: (i: number) => number): ToolEvent[] => Array.from({ length: 12 }, (_, i) => ({ tool: 'Read', args: { file_path: `/home/u/book/chapter${i + 1}.md` }, round: round(i) }));

/** Messages to four teammates, failing together on the same validation error. */
const messages = (round: (i: number) => number): ToolEvent[] =>
  Array.from({ length: 4 }, (_, i) => ({ tool: 'SendMessage', args: { to: `agent-${i}`, message: 'status?' }, error: 'InputValidationError: summary is required when message is a string', round: round(i) }));

/** One call failing and its siblings cancelled with it. */
const cascade = (round: (i: number) => number): ToolEvent[] => [
  { tool: 'Bash', args: { command: 'which teams' }, error: 'Exit code 1', round: round(0) },
  ...['src', 'docs', 'test'].map((dir, i) => ({ tool: 'Bash', args: { command: `ls ${dir}` }, error: '<tool_use_error>Sibling tool call errored</tool_use_error>', round: round(i + 1) })),
];

describe.each(ENGINES)('parallel calls of one turn (%s engine, one-phase)', (engine) => {
  it('should not flag twelve Reads of numbered files made in one turn', () => {
    expect(flaggedActions(reads(() => 7), engine)).toEqual([]);
  });

  it('should flag the same Reads made turn after turn', () => {
    expect(flaggedActions(reads((i) => i), engine)).toContain('warn');
  });

  it('should not take four calls failing together in one turn for a dead end', () => {
    expect(flaggedActions(messages(() => 2), engine)).toEqual([]);
  });

  it('should take the same failure in turn after turn for a dead end', () => {
    expect(flaggedActions(messages((i) => i), engine)).toContain('warn');
  });

  it('should not take a cascade of cancelled sibling calls for a dead end', () => {
    expect(flaggedActions(cascade(() => 1), engine)).toEqual([]);
    // nor when the cancelled calls fall in later turns: a cancelled call never ran, so it repeats no
    // failure (quiet7: it counts as declined; test/policy-cancelled-siblings.test.ts)
    expect(flaggedActions(cascade((i) => i), engine)).toEqual([]);
  });
});

/** Two-phase: every call proposed first, then every one recorded (calls in flight together), or one by one. */
function live(engine: Engine, calls: readonly LiveCall[], parallel: boolean): string[] {
  const d = new LoopDetector({ engine });
  const out: string[] = [];
  const note = (phase: string, i: number, action: string): void => void (action !== 'allow' && out.push(`${phase}${i}:${action}`));
  try {
    if (parallel) {
      calls.forEach((c, i) => note('p', i, d.propose({ tool: c.tool, args: c.args, id: c.id }).action));
      calls.forEach((c, i) => note('r', i, d.record(c).action));
    } else {
      calls.forEach((c, i) => {
        note('p', i, d.propose({ tool: c.tool, args: c.args, id: c.id }).action);
        note('r', i, d.record(c).action);
      });
    }
  } finally {
    d.dispose();
  }
  return out;
}

const numbered = (n: number, outcome: (i: number) => Partial<LiveCall>): LiveCall[] =>
  Array.from({ length: n }, (_, i) => ({ id: `toolu_${i}`, tool: 'Read', args: { file_path: `/home/u/book/chapter${i + 1}.md` }, ...outcome(i) }));

describe.each(ENGINES)('parallel calls in flight together (%s engine, two-phase)', (engine) => {
  it('should not warn on fourteen Reads of numbered files proposed together, then recorded', () => {
    expect(live(engine, numbered(14, (i) => ({ result: `# Chapter ${i + 1}\n\nIt was a dark night.` })), true)).toEqual([]);
  });

  it('should not warn on the same Reads one by one either', () => {
    expect(live(engine, numbered(14, (i) => ({ result: `# Chapter ${i + 1}\n\nIt was a dark night.` })), false)).toEqual([]);
  });

  it('should warn on the same Reads one by one when each fails', () => {
    expect(live(engine, numbered(14, () => ({ error: 'Error: the file could not be decoded as text.' })), false).some((x) => x.endsWith(':warn'))).toBe(true);
  });
});
