/**
 * Another edit proposed after failed edits is weighed on its outcome (src/policy/edit-after-failed-edits.ts):
 * warned before it ran, as a stall of failures, it was the largest class of warnings left on the real-session
 * sets (an edit that did not match, the file read or the error read, another edit of the same place; most
 * apply). The same failed edit sent again is still warned at its proposal; edits that keep failing are
 * warned at their record and broken as before. Both engines.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { ENGINES, type Engine, liveActions, verdictsOf } from './helpers/verdicts.js';

const FILE = '/home/dev/shop/src/cart/total.ts';
const MISSING = '<tool_use_error>String to replace not found in file.\nString: const total = items.reduce((a, b) => a + b.price, 0);</tool_use_error>';
const SHOWN = '1\texport function total(items: Item[]): number {\n2\t  const total = items.reduce((sum, item) => sum + item.price, 0);\n3\t  return total;\n4\t}\n';

/** Claude Code's `Edit` of the cart total with `old` as its old string, failing or applied. */
const edit = (old: string, applied: boolean, round?: number): ToolEvent => ({
  tool: 'Edit',
  args: { file_path: FILE, old_string: `const total = items.reduce(${old}.price, 0);`, new_string: 'const total = sumOf(items);' },
  ...(applied ? { result: `The file ${FILE} has been updated successfully.` } : { error: MISSING }),
  ...(round === undefined ? {} : { round }),
});
const read = (round?: number): ToolEvent => ({ tool: 'Read', args: { file_path: FILE }, result: SHOWN, ...(round === undefined ? {} : { round }) });
const tests: ToolEvent = { tool: 'Bash', args: { command: 'npm test -- cart' }, result: 'Tests: 12 passed, 12 total' };

/** Two edits that did not match, the file read, then the edit made with the text read: it applies. */
const lookedInto: ToolEvent[] = [tests, edit('(a, b) => a + b', false), edit('(acc, b) => acc + b', false), read(), edit('(sum, item) => sum + item', true)];
/** Gemini CLI's `replace` failing twice ("0 occurrences"), `read_file`, then the replace that applies. */
const geminiLookedInto: ToolEvent[] = [
  { tool: 'run_shell_command', args: { command: 'npm run lint' }, result: 'Command: npm run lint\nOutput: (empty)' },
  ...['(a, b) => a + b', '(acc, b) => acc + b'].map((old) => ({ tool: 'replace', args: { file_path: FILE, old_string: `items.reduce(${old}.price, 0)`, new_string: 'sumOf(items)' }, error: 'Failed to edit, 0 occurrences found for old_string in /home/dev/shop/src/cart/total.ts. No edits made.' })),
  { tool: 'read_file', args: { absolute_path: FILE }, result: SHOWN },
  { tool: 'replace', args: { file_path: FILE, old_string: 'items.reduce((sum, item) => sum + item.price, 0)', new_string: 'sumOf(items)' }, result: `Successfully modified file: ${FILE} (1 replacements).` },
];
/** The same without the read: the error was enough to make another edit, which applies. */
const unread: ToolEvent[] = [tests, edit('(a, b) => a + b', false), edit('(acc, b) => acc + b', false), edit('(sum, item) => sum + item', true)];
/** Edit after edit, each another text, each failing: a struggle that goes on blind. */
const blind: ToolEvent[] = [tests, ...['(a, b) => a + b', '(acc, b) => acc + b', '(acc, it) => acc + it', '(s, it) => s + it', '(s, x) => s + x'].map((old) => edit(old, false))];
/** The file read, then the very edit that failed sent again. */
const sameAgain: ToolEvent[] = [tests, edit('(a, b) => a + b', false), edit('(acc, b) => acc + b', false), read(), edit('(acc, b) => acc + b', false)];
/** A read after each edit, and each edit failing again: a struggle that goes on. */
const stuck: ToolEvent[] = [tests, ...['(a, b) => a + b', '(acc, b) => acc + b', '(acc, it) => acc + it', '(s, it) => s + it', '(s, x) => s + x'].flatMap((old) => [edit(old, false), read()])];

/** Two-phase actions of `events` with their rounds given at the proposal too (by default liveActions proposes without them). */
const withRounds = (events: readonly ToolEvent[], engine: Engine): string[] =>
  liveActions(events, engine, { labelled: true, roundAtProposal: true });

describe.each(ENGINES)('an edit proposed after failed edits (%s engine)', (engine) => {
  it('should not warn an edit proposed after the failures were looked into (Claude Code Edit, Read)', () => {
    expect(liveActions(lookedInto, engine, { labelled: true })).toEqual([]);
  });

  it('should not warn it for Gemini CLI replace and read_file either', () => {
    expect(liveActions(geminiLookedInto, engine, { labelled: true })).toEqual([]);
  });

  it('should not warn another edit proposed right after the failures either (the error read)', () => {
    expect(liveActions(unread, engine, { labelled: true })).toEqual([]);
  });

  it('should still warn the same failed edit sent again, at its proposal', () => {
    expect(liveActions(sameAgain, engine, { labelled: true })[0]).toBe('P4:warn');
  });

  it('should still warn edits that keep failing blind at the record of the third, and break them as before', () => {
    expect(liveActions(blind, engine, { labelled: true })).toEqual(['R3:warn', 'P4:warn', 'P5:deny']);
  });

  it('should still warn edits that keep failing after each read, at their record', () => {
    const actions = liveActions(stuck, engine, { labelled: true });
    expect(actions.length).toBeGreaterThan(0);
    expect(actions[0]).toBe('R5:warn');
  });

  it('should leave the one-phase replay as it was (the outcome known, nothing to defer)', () => {
    expect(verdictsOf(lookedInto, { engine }).filter((v) => v !== null)).toEqual([]);
    expect(verdictsOf(stuck, { engine }).some((v) => v !== null)).toBe(true);
  });
});

describe('an edit proposed after failed edits, random sessions', () => {
  /** A session of edits of one file (failing or applied, of a few texts), reads, and other work, some of one turn. */
  const step = fc.record({
    kind: fc.constantFrom('fail', 'fail', 'apply', 'read', 'other'),
    old: fc.constantFrom('(a, b) => a + b', '(acc, b) => acc + b', '(sum, item) => sum + item', '(s, x) => s + x'),
    round: fc.option(fc.nat(4), { nil: undefined }),
  });
  const session = fc.array(step, { minLength: 3, maxLength: 24 }).map((steps) =>
    steps.map(({ kind, old, round }): ToolEvent => {
      if (kind === 'read') return read(round);
      if (kind === 'other') return { ...tests, ...(round === undefined ? {} : { round }) };
      return edit(old, kind === 'apply', round);
    }),
  );

  it('should be decided alike by both engines, two-phase', () => {
    fc.assert(
      fc.property(session, (events) => {
        expect(withRounds(events, 'wasm')).toEqual(withRounds(events, 'reference'));
      }),
      { numRuns: 150 },
    );
  });
});
