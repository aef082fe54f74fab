/**
 * A search that found nothing in Gemini CLI is a silent failure (quiet5; a real Gemini CLI session of
 * holdout3, broken one-phase at #64): `grep -ri "..." /home/jules/scripts/` for one string after another,
 * each exiting 1 with nothing printed, which Gemini CLI answers "Output: (empty)" with "Exit Code: 1" (the
 * reader keeps the first as the error). Read as the same error text again and again, different searches
 * made a dead end, broken at the fifth. "Output: (empty)" is Gemini CLI's note of no output, as "(no
 * output)" is (src/text/failure-kinds.ts EXIT_ONLY): the failure says nothing, and different searches
 * finding nothing are no dead end (evidence-screen.ts notTheAgentsWall). A command failing with words of
 * its own is still one.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { failedSilently } from '../src/text/failure-kinds.js';
import { ENGINES, flaggedActions } from './helpers/verdicts.js';

const EMPTY = 'Output: (empty)';
const grep = (what: string): ToolEvent => ({ tool: 'run_shell_command', args: { command: `grep -ri "${what}" /home/jules/scripts/`, description: `Search for '${what}' in the scripts directory.` }, result: EMPTY, error: EMPTY });
const found = (what: string, line: string): ToolEvent => ({ tool: 'run_shell_command', args: { command: `grep -ri "${what}" /home/jules/scripts/`, description: `Search for '${what}'.` }, result: `Output: /home/jules/scripts/pi_bot.py:${line}` });
const read = (file: string): ToolEvent => ({ tool: 'read_file', args: { absolute_path: `/home/jules/scripts/${file}` }, result: `import os, json, subprocess\n# ${file}\nSHARE_DIR = "/home/jules/media"\n` });

/** Searches for the prompt and the model in the bot's scripts, most finding nothing, reads between. */
const searches: ToolEvent[] = [
  grep('openai'),
  read('pi_bot.py'),
  grep('Analyse cette demande'),
  grep('saison'),
  found('markup.add', '51: markup.add(InlineKeyboardButton("Contenu"))'),
  read('media_manager.py'),
  grep('Analyse'),
  grep('GPT'),
  read('commands.json'),
  grep('gpt-4o-mini'),
  grep('chat.completions'),
  grep('temperature'),
];

/** The same command failing again and again with an error of its own. */
const failing: ToolEvent[] = Array.from({ length: 6 }, (_, k) => ({
  tool: 'run_shell_command',
  args: { command: `python3 /home/jules/scripts/pi_bot.py --check ${k}`, description: 'Run the bot check.' },
  error: "Output: Traceback (most recent call last):\n  File \"/home/jules/scripts/pi_bot.py\", line 3, in <module>\nModuleNotFoundError: No module named 'telebot'",
}));

describe.each(ENGINES)('searches that found nothing in Gemini CLI (%s engine)', (engine) => {
  it('should not break different searches that each found nothing', () => {
    expect(flaggedActions(searches, engine)).not.toContain('break');
  });

  it('should still break a command failing with an error of its own', () => {
    expect(flaggedActions(failing, engine)).toContain('break');
  });
});

describe('the text', () => {
  it('should read Gemini CLI\'s note of no output as a silent failure', () => {
    expect(failedSilently(EMPTY, EMPTY)).toBe(true);
    expect(failedSilently('Output: (empty)\nExit Code: 1', undefined)).toBe(true);
    expect(failedSilently('Output: grep: /x: No such file or directory', undefined)).toBe(false);
  });
});
