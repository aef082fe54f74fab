/**
 * Loops issue 27 found missed, each caught now, one- and two-phase, both engines: the same call repeated
 * with other calls between (a search issued again after each new read); one action failing again and
 * again with a different error text each time, nothing changed between (a new error is no progress when
 * nothing was done that could change it); near-identical commands (`ls`, `ls -1`, `ls .`) getting the
 * very same output. Their legitimate twins stay silent: the same failing command re-run after each edit
 * of another file, with the error moving on.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const read = (i: number): ToolEvent => ({ tool: 'Read', args: { file_path: `src/mod${i}.ts` }, result: `export const mod${i} = ${i};` });
const edit = (i: number): ToolEvent => ({ tool: 'Edit', args: { file_path: `src/mod${i}.ts`, old_string: `= ${i};`, new_string: `= ${i + 1};` }, result: `The file src/mod${i}.ts has been updated successfully.` });

/** The same search after each new read. */
const searchAfterEachRead: ToolEvent[] = Array.from({ length: 8 }, (_, i) => [{ tool: 'Grep', args: { pattern: 'handleAuth', path: 'src' }, result: 'src/auth.ts:12: export function handleAuth(req: Request)' }, read(i)]).flat();

const ERRORS = [
  "TypeError: Cannot read properties of undefined (reading 'map')",
  'ReferenceError: fetchUser is not defined',
  'SyntaxError: Unexpected token }',
  "Error: Cannot find module './config'",
  'RangeError: Maximum call stack size exceeded',
  'TypeError: db.query is not a function',
  'AssertionError: expected 200, got 500',
  'Error: listen EADDRINUSE: address already in use :::3000',
];
const start = (error: string): ToolEvent => ({ tool: 'Bash', args: { command: 'npm start' }, error: `Exit code 1\n${error}` });
/** One command failing again and again, a different error each time, back to back. */
const newErrorEachTime: ToolEvent[] = ERRORS.map(start);
/** The same, with reads between. */
const newErrorReadsBetween: ToolEvent[] = ERRORS.flatMap((e, i) => [start(e), read(i)]);
/** The legitimate twin: an edit of another file before each run, the error moving on. */
const newErrorAfterEachEdit: ToolEvent[] = ERRORS.flatMap((e, i) => [edit(i), start(e)]);

const LISTING = 'README.md\nnode_modules\npackage-lock.json\npackage.json\nsrc\ntest\ntsconfig.json\nvitest.config.ts\n';
/** Near-identical listings of one folder, the very same output each time. */
const listings: ToolEvent[] = ['ls', 'ls -1', 'ls .', 'ls ./', 'ls -1 .', 'ls -- .', 'command ls'].map((command) => ({ tool: 'Bash', args: { command }, result: LISTING }));

describe.each(ENGINES)('loops issue 27 found missed (%s engine)', (engine) => {
  it('should break the same search issued again after each new read', () => {
    expect(flaggedActions(searchAfterEachRead, engine)).toContain('break');
    expect(liveActions(searchAfterEachRead, engine, { afterBlock: 'end' })).toContain('deny');
  });

  it('should break one command failing again and again with a new error each time, nothing changed between', () => {
    expect(flaggedActions(newErrorEachTime, engine)).toContain('break');
    expect(liveActions(newErrorEachTime, engine, { afterBlock: 'end' })).toContain('deny');
    expect(flaggedActions(newErrorReadsBetween, engine)).toContain('break');
    expect(liveActions(newErrorReadsBetween, engine, { afterBlock: 'end' })).toContain('deny');
  });

  it('should not flag the same command failing anew after each edit of another file', () => {
    expect(flaggedActions(newErrorAfterEachEdit, engine)).toEqual([]);
    expect(liveActions(newErrorAfterEachEdit, engine, { afterBlock: 'end' })).toEqual([]);
  });

  it('should warn on near-identical commands getting the very same output', () => {
    expect(flaggedActions(listings, engine)).toContain('warn');
    expect(liveActions(listings, engine, { afterBlock: 'end' })).toContain('warn');
  });
});
