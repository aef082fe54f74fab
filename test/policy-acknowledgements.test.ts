/**
 * An acknowledgement is not an answer: successive edits of one file, each answered "The file <path> has
 * been updated successfully.", or todo-list updates answered "Todos have been modified successfully...",
 * are not varied calls getting the very same answer, nor similar calls stalled on one result. The same edit
 * made again and again is still a loop, and varied calls getting the very same real answer still are.
 * Both engines, one- and two-phase.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { isAcknowledgement } from '../src/text/acknowledgement.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const PATH = '/Users/someone/Documents/GitHub/expense-tracker/supabase/functions/resend/index.ts';
const UPDATED = `The file ${PATH} has been updated successfully.`;
const TODOS = 'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable';

/** Edits of one file, each replacing another line. */
const edits: ToolEvent[] = Array.from({ length: 9 }, (_, i) => ({
  tool: 'Edit',
  args: { file_path: PATH, old_string: `const retries${i} = ${i};`, new_string: `const retries${i} = ${i + 1};` },
  result: UPDATED,
}));

/** A todo list updated as the work goes: one more item done each time. */
const todos: ToolEvent[] = Array.from({ length: 7 }, (_, k) => ({
  tool: 'TodoWrite',
  args: { todos: Array.from({ length: 6 }, (_, i) => ({ content: `Step ${i + 1} of the migration`, status: i < k ? 'completed' : i === k ? 'in_progress' : 'pending' })) },
  result: TODOS,
}));

/** The same edit, again and again. */
const sameEdit: ToolEvent[] = Array.from({ length: 6 }, () => ({ tool: 'Edit', args: { file_path: PATH, old_string: 'const retries = 3;', new_string: 'const retries = 4;' }, result: UPDATED }));

/** Varied listings of one folder, all getting the very same real answer. */
const LISTING = 'README.md\nnode_modules\npackage-lock.json\npackage.json\nsrc\ntest\ntsconfig.json\nvitest.config.ts\n';
const listings: ToolEvent[] = ['ls', 'ls -1', 'ls .', 'ls ./', 'ls -1 .', 'ls -- .', 'command ls'].map((command) => ({ tool: 'Bash', args: { command }, result: LISTING }));

describe('what an acknowledgement is', () => {
  it('should read short success messages as acknowledgements, once paths are masked', () => {
    expect(isAcknowledgement(UPDATED)).toBe(true);
    expect(isAcknowledgement(TODOS)).toBe(true);
    expect(isAcknowledgement('Success. Updated the following files:\nM src/components/profile/groups.tsx\n')).toBe(true);
    expect(isAcknowledgement('Plan updated')).toBe(true);
    expect(isAcknowledgement('Task #3 created successfully: Add DB_PATH to defaults.py')).toBe(true);
    expect(isAcknowledgement('Updated task #1 status')).toBe(true);
    expect(isAcknowledgement(' [The command completed with exit code 0.]\n[Current working directory: /workspace/repo]')).toBe(true);
  });

  it('should not read answers, listings or failures to find as acknowledgements', () => {
    expect(isAcknowledgement(LISTING)).toBe(false);
    expect(isAcknowledgement('No files found')).toBe(false);
    expect(isAcknowledgement('9 passed in 0.42s')).toBe(false);
    expect(isAcknowledgement(`${UPDATED}\n${'   12\tconst line = compute(value);\n'.repeat(60)}`)).toBe(false);
    expect(isAcknowledgement('The /srv/deleted/ folder holds nothing')).toBe(false);
    expect(isAcknowledgement('Marathi Abhimaangeet is a song written in Marathi by the noted poet Suresh Bhat.')).toBe(false);
    expect(isAcknowledgement('The film was a commercial success and was added to the registry in 2004.')).toBe(false);
  });
});

describe.each(ENGINES)('acknowledgements are not answers (%s engine)', (engine) => {
  it('should not flag successive edits of one file acknowledged alike, one- or two-phase', () => {
    expect(flaggedActions(edits, engine)).toEqual([]);
    expect(liveActions(edits, engine)).toEqual([]);
  });

  it('should not flag todo-list updates acknowledged alike, one- or two-phase', () => {
    expect(flaggedActions(todos, engine)).toEqual([]);
    expect(liveActions(todos, engine)).toEqual([]);
  });

  it('should still break the same edit made again and again', () => {
    expect(flaggedActions(sameEdit, engine)).toContain('break');
    expect(liveActions(sameEdit, engine)).toContain('deny');
  });

  it('should still warn on varied calls that keep getting the very same real answer', () => {
    expect(flaggedActions(listings, engine)).toContain('warn');
  });
});
