/**
 * A write Claude Code refused until its file is read, sent again after the read, is the write the harness
 * asked for, not the refused one pushed again (quiet34, s25). holdout4 55210cba #91-#97: `Write
 * src/reporting/__init__.py` refused "File has not been read yet" (#91), a Glob, refused again (#93), an `ls`,
 * the file read (#95), another read, then the same Write proposed (#97) and applied. Two-phase warned it at
 * its proposal as the same call three times in twenty (frequency); the refusals, answered by the read, are no
 * repeats of the agent's own (write-looked-at.ts, as quiet24 read them for the dead end). The same write
 * pushed with no read between, or refused again after a read, still warns. Both engines.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { ENGINES, liveActions } from './helpers/verdicts.js';

const DIR = '/home/dev/tide/src/reporting';
const NOT_READ = '<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>';
const BODY = '"""Reports."""\n\nfrom src.reporting.generator import ReportGenerator\n\n__all__ = ["ReportGenerator"]\n';

/** The Write of the package's `__init__.py`, the same args each time: refused (`error`) or applied. */
const write = (error?: string): ToolEvent =>
  error === undefined
    ? { tool: 'Write', args: { file_path: `${DIR}/__init__.py`, content: BODY }, result: `File created successfully at: ${DIR}/__init__.py` }
    : { tool: 'Write', args: { file_path: `${DIR}/__init__.py`, content: BODY }, error };
const read = (file: string, result: string): ToolEvent => ({ tool: 'Read', args: { file_path: `${DIR}/${file}` }, result });
const glob: ToolEvent = { tool: 'Glob', args: { pattern: 'src/reporting/__init__.py' }, result: 'No files found' };
const ls: ToolEvent = { tool: 'Bash', args: { command: `ls -la ${DIR}` }, result: 'total 32\n-rw-rw-r-- 1 dev dev 18867 generator.py\n-rw-rw-r-- 1 dev dev 0 __init__.py' };
const EMPTY = '<system-reminder>Warning: the file exists but is shorter than the provided offset (1). The file has 1 lines.</system-reminder>';
const CLI = '     1→"""Command line."""\n     2→\n     3→import click\n';

/** 55210cba #91-#97: refused twice, looked for, read, the write sent again (it applies). */
const answered: ToolEvent[] = [write(NOT_READ), glob, write(NOT_READ), ls, read('__init__.py', EMPTY), read('../cli.py', CLI), write()];

/** The same write refused again and again, other looks between but never a read of its file. */
const pushed: ToolEvent[] = [write(NOT_READ), glob, write(NOT_READ), ls, read('../cli.py', CLI), write(NOT_READ), glob, write(NOT_READ)];

/** Read, refused again after the read, read again, refused again: the read does not help. */
const inVain: ToolEvent[] = [write(NOT_READ), read('__init__.py', EMPTY), write(NOT_READ), glob, read('__init__.py', EMPTY), write(NOT_READ), ls, write(NOT_READ)];

describe.each(ENGINES)('a write resent after the read its refusals asked for (%s engine)', (engine) => {
  it('should not warn the write proposed after the read, two-phase', () => {
    expect(liveActions(answered, engine, { labelled: true })).toEqual([]);
  });

  it('should still warn the same write pushed with no read of its file between', () => {
    expect(liveActions(pushed, engine).length).toBeGreaterThan(0);
  });

  it('should still warn a write refused again after each read', () => {
    expect(liveActions(inVain, engine).length).toBeGreaterThan(0);
  });
});
