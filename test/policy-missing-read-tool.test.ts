/**
 * A read tool's reads of files that are not there are probes, not a wall. A Claude Code subagent (holdout9,
 * Windows) is asked to set up a status line: it reads the settings file at the paths it may have
 * (`C:/Users/<name>/.claude/settings.json` for three guessed names, the first again), each failing "File does
 * not exist." with the harness's note of the working directory; `~/.claude/settings.json` is read; then it
 * reads the script it is about to create (not there yet) and writes both files. One-phase the read of the
 * script broke the session as the same dead end; two-phase the proposal of the read that worked was blocked.
 * Each read is a probe that found nothing, as a shell `cat` of a missing path is (src/text/missing-read-tool.ts).
 * The same missing file read again and again is still a loop, and reads failing with a real error still a wall.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { READ_MISSING_LOOK, readToolFoundNoFile, saysFileMissing } from '../src/text/missing-read-tool.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const MISSING = 'File does not exist. Note: your current working directory is D:\\.';
/** A Claude Code `Read` failing with `out` (the reader gives the failure as the error and the result). */
const failedRead = (file: string, out = MISSING): ToolEvent => ({ tool: 'Read', args: { file_path: file }, result: out, error: out });
const ok = (tool: string, args: Record<string, unknown>, result: string): ToolEvent => ({ tool, args, result });

/** The session's shape: settings looked for at guessed homes, found at `~`, a script to create looked for, both written. */
const lookedFor: ToolEvent[] = [
  failedRead('C:/Users/ann1/.claude/settings.json'),
  failedRead('C:/Users/ann/.claude/settings.json'),
  failedRead('C:/Users/anna/.claude/settings.json'),
  failedRead('C:/Users/ann1/.claude/settings.json'),
  ok('Read', { file_path: '~/.claude/settings.json' }, '     1\t{\n     2\t  "theme": "dark"\n     3\t}\n'),
  failedRead('~/.claude/status-line.sh'),
  ok('Edit', { file_path: '~/.claude/status-line.sh', old_string: '', new_string: '#!/usr/bin/env bash\necho "$1"\n' }, 'The file ~/.claude/status-line.sh has been updated successfully.'),
  ok('Edit', { file_path: '~/.claude/settings.json', old_string: '"theme": "dark"', new_string: '"theme": "dark",\n  "statusLine": {"type": "command"}' }, 'The file ~/.claude/settings.json has been updated successfully.'),
];
/** The same missing file read again and again. */
const sameFile: ToolEvent[] = Array.from({ length: 6 }, () => failedRead('C:/Users/ann/.claude/settings.json'));
/** Different files failing with one real error. */
const realError: ToolEvent[] = ['a', 'b', 'c', 'd', 'e'].map((f) => failedRead(`C:/data/${f}.bin`, 'This tool cannot read binary files. The file appears to be a binary .bin file.'));

describe("what a read tool says of a file that is not there", () => {
  it('should read the line alone, with the working directory noted, a name guessed, in tags, or labelled', () => {
    expect(saysFileMissing('File does not exist.')).toBe(true);
    expect(saysFileMissing(MISSING)).toBe(true);
    expect(saysFileMissing('File does not exist. Current working directory: /home/u/app')).toBe(true);
    expect(saysFileMissing('File does not exist. Did you mean .env?')).toBe(true);
    expect(saysFileMissing('File does not exist. Note: your current working directory is /w. Did you mean cmd.h?')).toBe(true);
    expect(saysFileMissing('<tool_use_error>File does not exist.</tool_use_error>')).toBe(true);
    expect(saysFileMissing('<tool_use_error>File does not exist. Did you mean types?</tool_use_error>')).toBe(true);
    expect(saysFileMissing('Error: File does not exist. Note: your current working directory is J:\\.')).toBe(true);
  });

  it('should read anything more, or another failure, as a real failure', () => {
    expect(saysFileMissing('File does not exist.\nTraceback (most recent call last):')).toBe(false);
    expect(saysFileMissing('File does not exist. Permission denied')).toBe(false);
    expect(saysFileMissing('Config file does not exist.')).toBe(false);
    expect(saysFileMissing('This tool cannot read binary files.')).toBe(false);
    expect(saysFileMissing('')).toBe(false);
    expect(saysFileMissing(`File does not exist. Did you mean ${'x'.repeat(READ_MISSING_LOOK)}?`)).toBe(false);
  });

  it("should read it of a read tool only: a shell's same words are its program's", () => {
    expect(readToolFoundNoFile('Read', MISSING, MISSING)).toBe(true);
    expect(readToolFoundNoFile('Read', MISSING, undefined)).toBe(true);
    expect(readToolFoundNoFile('Bash', MISSING, MISSING)).toBe(false);
    expect(readToolFoundNoFile('Read', MISSING, 'Traceback (most recent call last):')).toBe(false);
  });
});

describe.each(ENGINES)('a file looked for at the paths it may have, one read being of a file to create (%s engine)', (engine) => {
  it('should not break the session one-phase, nor block the read that worked two-phase', () => {
    expect(flaggedActions(lookedFor, engine)).not.toContain('break');
    expect(liveActions(lookedFor, engine)).not.toContain('deny');
    expect(liveActions(lookedFor, engine)).not.toContain('stop');
  });

  it('should still break the same missing file read again and again', () => {
    expect(flaggedActions(sameFile, engine)).toContain('break');
    expect(liveActions(sameFile, engine)).toContain('deny');
  });

  it('should still flag different reads failing with one real error', () => {
    expect(flaggedActions(realError, engine)).toContain('warn');
    expect(liveActions(realError, engine)).toContain('warn');
  });
});
