/**
 * A read tool's read of a file that is not there: Claude Code's `Read` failing with "File does not exist."
 * (its older form inside `<tool_use_error>` tags), the harness's note of the working directory after it
 * ("Note: your current working directory is X." or "Current working directory: X") and its guess at the name
 * meant ("Did you mean x?") aside. A probe that found nothing, as a shell `cat` of a missing path is
 * (missing-read.ts): an agent looking for a settings file at the paths it may have (`C:/Users/a/.claude/...`,
 * then `~/.claude/...`), or checking that a file it is about to create is not there yet. Different such reads
 * are no dead end; the same read failing again is left to the detectors of repeated calls.
 *
 * Read only of a read tool ({@link READ_TOOLS}: read-tool-content.ts) whose whole failure is that one line:
 * the same words from a shell command are that program's, read as before; any other failure of a read tool
 * (a file too large, a binary file, a permission) is a real failure. Reads at most {@link READ_MISSING_LOOK}
 * characters, in one pass with no pattern that can backtrack.
 */
import { READ_TOOLS } from './read-tool-content.js';
import { toolFailureLine } from './tool-failure-line.js';

/** Characters of a failure's text read at most (a longer failure is not this one line). */
export const READ_MISSING_LOOK = 1024;

/** What the read tool says of a file that is not there. */
const MISSING = 'File does not exist.';

/** What may follow it on its line: the harness's note of the working directory, or its guess at the name meant. */
const NOTES: readonly string[] = Object.freeze(['Note: your current working directory is ', 'Current working directory: ', 'Did you mean ']);

/** Whether `text` is only the read tool's line saying a file is not there (see the file's comment). */
export function saysFileMissing(text: string): boolean {
  if (text.length > READ_MISSING_LOOK) return false;
  const t = toolFailureLine(text);
  if (!t.startsWith(MISSING)) return false;
  const rest = t.slice(MISSING.length).trim();
  if (rest === '') return true;
  return !rest.includes('\n') && NOTES.some((note) => rest.startsWith(note));
}

/**
 * Whether a failed call of `tool` is a read tool's read of a file not there: its error says only that, and its
 * result, if any, says no more.
 */
export function readToolFoundNoFile(tool: string, error: string, result: string | undefined): boolean {
  return READ_TOOLS.includes(tool) && saysFileMissing(error) && (result === undefined || result === error || saysFileMissing(result));
}
