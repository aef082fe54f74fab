/**
 * An edit whose old text is not in its file ("String to replace not found in file.", Codex's "Failed to find
 * expected lines", Gemini CLI's "0 occurrences found for old_string", OpenHands' "did not appear verbatim") is
 * read as args refused (edit-mismatch.ts, outcome-facts.ts), so a dead end of such slips answered by edits of
 * the same file that applied is no wall (quiet23, s20: devset 5515aa87 #26-#41, holdout7 3288a74e #14-#23,
 * Claude Code editing one component or report, a slip now and then between edits that applied). The same slip
 * again and again on a file nothing changed stays a dead end (devset 019a23c3 #82-#88), and so do the
 * OpenHands refusals the traces' step-limit runs are stuck on ("File already exists" for `create` over a file
 * it made, then `rm` and `create` again: astropy-13579, django-11400/12406/13109/15280), which are no
 * content slips: counting every failed write answered by a later write of its file (quiet21, quiet22) cost
 * those five runs' warnings.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { editTextNotFound } from '../src/text/edit-mismatch.js';
import { ERR_EDIT_MISMATCH, ERR_INVALID_ARGS, errorBits } from '../src/text/error-reading.js';
import { ENGINES, verdictsOf } from './helpers/verdicts.js';

const FILE = '/repo/app/components/Messaging.tsx';
const NOT_FOUND = (n: number): string => `<tool_use_error>String to replace not found in file.\nString:   <span className="text-${n}"></tool_use_error>`;

/** An edit of the component refused: its old text (`n`: each another) is not in the file. */
const slip = (n: number): ToolEvent => ({ tool: 'Edit', args: { file_path: FILE, old_string: `  <span className="text-${n}">`, new_string: `  <span className="t-${n}">` }, error: NOT_FOUND(n) });
/** An edit of the component that applied. */
const edit = (n: number): ToolEvent => ({
  tool: 'Edit',
  args: { file_path: FILE, old_string: `  <div className="old-${n}">`, new_string: `  <div className="new-${n}">` },
  result: `The file ${FILE} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n  ${n}→  <div className="new-${n}">`,
});
/** A look at part of the component. */
const read = (n: number): ToolEvent => ({ tool: 'Read', args: { file_path: FILE, offset: n * 40, limit: 40 }, result: `  ${n * 40}→<div className="x-${n}">\n  ${n * 40 + 1}→</div>` });

/** 5515aa87 #26-#43: slips between edits that applied, each answered by an edit of the file made with the text read again. */
const answered: ToolEvent[] = [edit(0), slip(1), read(1), slip(2), edit(3), edit(4), edit(5), slip(6), edit(7), edit(8), read(2), edit(9), slip(10), read(3), edit(11)];

/** 019a23c3 #82-#88: the file never changes, slip after slip, a look between. */
const unanswered: ToolEvent[] = [edit(0), slip(1), read(1), slip(2), slip(3), slip(4), read(2), slip(5)];

const WS = '/workspace/django__django__3.2';
const SCRIPT = `${WS}/reproduce_issue.py`;
/** `create` over the script the agent made before: refused (OpenHands' str_replace_editor). */
const createRefused = (n: number): ToolEvent => ({
  tool: 'str_replace_editor',
  args: { command: 'create', path: SCRIPT, file_text: `import django\nprint(${n})\n` },
  error: `ERROR: Invalid \`path\` parameter: ${SCRIPT}. File already exists at: ${SCRIPT}. Cannot overwrite files using command \`create\`.`,
});
const rm = (): ToolEvent => ({ tool: 'execute_bash', args: { command: `rm ${SCRIPT}` }, result: '[The command completed with exit code 0.]' });
const created = (n: number): ToolEvent => ({ tool: 'str_replace_editor', args: { command: 'create', path: SCRIPT, file_text: `import django\nprint(${n})\n` }, result: `File created successfully at: ${SCRIPT}` });
const run = (n: number): ToolEvent => ({ tool: 'execute_bash', args: { command: `cd ${WS} && python reproduce_issue.py` }, error: `[exit 1] django.db.utils.OperationalError: no such table: app_${n}` });

/** django-13109 #37-#48: create refused, rm, create, run, again and again. */
const createLoop: ToolEvent[] = [created(0), run(0), createRefused(1), rm(), created(1), run(1), createRefused(2), rm(), created(2), run(2), createRefused(3), rm(), created(3), run(3)];

const deadEnds = (events: readonly ToolEvent[], engine: (typeof ENGINES)[number]): number => verdictsOf(events, { engine }).filter((v) => v?.kind === 'dead_end').length;

describe.each(ENGINES)('edits whose old text is not in the file (%s engine)', (engine) => {
  it('should not be a dead end when edits of the file that applied answer them', () => {
    expect(deadEnds(answered, engine)).toBe(0);
  });

  it('should still be a dead end when the file never changed between them', () => {
    expect(deadEnds(unanswered, engine)).toBeGreaterThan(0);
  });

  it("should leave OpenHands' `create` over an existing file, answered by rm and create, a dead end", () => {
    expect(deadEnds(createLoop, engine)).toBeGreaterThan(0);
  });
});

describe('an edit whose old text is not in the file', () => {
  it("should be recognised in each tool's words, and read as args refused only on a write", () => {
    for (const e of [
      NOT_FOUND(1),
      'apply_patch verification failed: Failed to find expected lines in /repo/src/validator.go:\nfunc Require(',
      'Failed to edit, could not find the string to replace.',
      "Failed to edit, 0 occurrences found for old_string in C:\\Users\\a\\app.ts. Ensure you're not escaping content incorrectly",
      'ERROR: No replacement was performed, old_str `def f(x):` did not appear verbatim in /workspace/a.py.',
    ]) {
      expect(editTextNotFound(e), e).toBe(true);
      expect(errorBits(e) & ERR_EDIT_MISMATCH, e).toBe(ERR_EDIT_MISMATCH);
      expect(errorBits(e) & ERR_INVALID_ARGS, e).toBe(0);
    }
  });

  it('should not take other refusals of an edit for it', () => {
    for (const e of [
      createRefused(1).error as string,
      'ERROR: Parameter `old_str` is required for command: str_replace.',
      '<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>',
      'ERROR: No replacement was performed. Multiple occurrences of old_str `def __str__(self):` in lines [51, 60]. Please ensure it is unique',
      "<tool_use_error>Found 3 matches of the string to replace, but replace_all is false.</tool_use_error>",
      'grep: expected lines: No such file or directory',
    ]) {
      expect(editTextNotFound(e), e).toBe(false);
    }
  });

  it('should read only the first characters of a long error', () => {
    expect(editTextNotFound(`${'x'.repeat(600)} String to replace not found in file.`)).toBe(false);
  });
});
