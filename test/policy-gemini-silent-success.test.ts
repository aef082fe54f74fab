/**
 * A shell command that succeeded printing nothing in Gemini CLI has passed (quiet6; a real Gemini CLI
 * session of holdout3, broken in both replays once eval compared its shell calls as the hook does, without
 * their `description`): `systemctl --user restart pi-media-bot.service` after each edit of the bot's code,
 * answered `Output: (empty)` each time. Read as a text that neither passed nor failed, the same answer after
 * each edit was a behaviour the edits did not change (a state repeat, stalled; frequency over it): broken
 * at its fifth run one-phase, blocked two-phase. `Output: (empty)` is the CLI's note of no output
 * (src/text/empty-output-note.ts), as Claude Code's `(Bash completed with no output)` is: the run passed,
 * and a command that passed after each new edit is progress. The stuck twin still fires: the same restart
 * again and again with the same read between.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { notesNoOutput } from '../src/text/empty-output-note.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const RESTART = 'systemctl --user restart pi-media-bot.service';
const restart = (): ToolEvent => ({ tool: 'run_shell_command', args: { command: RESTART }, result: 'Output: (empty)' });
const edit = (n: number): ToolEvent => ({
  tool: 'replace',
  args: { file_path: '/home/jules/scripts/pi_bot.py', old_string: `    step = ${n - 1}\n`, new_string: `    step = ${n}\n` },
  result: 'Successfully modified file: /home/jules/scripts/pi_bot.py (1 replacements).',
});
const read = (file: string, offset: number): ToolEvent => ({ tool: 'read_file', args: { file_path: file, offset, limit: 100 }, result: `import os, json, subprocess\n# ${file} from ${offset}\n` });

/** Read something new, edit the bot, restart it: ten rounds (without the note read, broken from the fifth, blocked at the seventh). */
const rounds: ToolEvent[] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].flatMap((r) => [read(`scripts/module_${r}.py`, 0), edit(r), restart()]);

/** The same restart again and again, only the same read between. */
const stuck: ToolEvent[] = [1, 2, 3, 4, 5, 6, 7].flatMap(() => [read('scripts/pi_bot.py', 0), restart()]);

describe.each(ENGINES)('a restart printing nothing, after each edit (%s engine)', (engine) => {
  it('should not warn about the session, one-phase', () => {
    expect(flaggedActions(rounds, engine)).toEqual([]);
  });

  it('should not block a restart, two-phase', () => {
    expect(liveActions(rounds, engine)).not.toContain('deny');
  });

  it('should still break the same restart again and again with the same read between', () => {
    expect(flaggedActions(stuck, engine)).toContain('break');
  });
});

describe('the note of no output', () => {
  it('should read Gemini CLI\'s notes of an empty output, either shape', () => {
    expect(notesNoOutput('Output: (empty)')).toBe(true);
    expect(notesNoOutput('Command: eww reload\nDirectory: (root)\nStdout: (empty)\nStderr: (empty)\nError: (none)')).toBe(true);
  });

  it('should not read output, or a note of something else, as no output', () => {
    expect(notesNoOutput('Output: bazarr')).toBe(false);
    expect(notesNoOutput('Command: ls\nDirectory: (root)\nStdout: a.txt\nStderr: (empty)\nError: (none)')).toBe(false);
    expect(notesNoOutput('Error: (none)')).toBe(false);
    expect(notesNoOutput('(empty)')).toBe(false);
    expect(notesNoOutput('')).toBe(false);
  });
});
