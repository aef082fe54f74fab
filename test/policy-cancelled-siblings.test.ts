/**
 * A call the agent cancelled before it ran is no run of it (quiet7; a real Claude Code 2.1.23 session of
 * holdout3, warned in both replays). The person declined a `Read`, and Claude Code cancelled the calls sent
 * beside it ("<tool_use_error>Sibling tool call errored</tool_use_error>"; later versions: "Cancelled:
 * parallel tool call Read(…) errored"), a `git status` among them, twice; the third `git status`, the
 * first to run, was taken for the third run of one call (frequency). Such a call reads as declined
 * (src/text/failure-kinds.ts DECLINE_PATTERNS), and a call that never ran is no turn of work repeated
 * (src/policy/turns.ts spansTurns). The same `git status` run three times is still seen.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { isDeclined } from '../src/text/failure-kinds.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const DIR = '/mnt/c/Users/dev/Documents/.claude';
const DECLINED = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";
const SIBLING = '<tool_use_error>Sibling tool call errored</tool_use_error>';
const status = (outcome: { result: string } | { error: string }, round: number): ToolEvent => ({ tool: 'Bash', args: { command: `cd ${DIR} && git status 2>/dev/null || echo "Not a git repo"` }, ...outcome, round });
const read = (file: string, error: string, round: number): ToolEvent => ({ tool: 'Read', args: { file_path: `${DIR}/Backups/${file}` }, error, round });

/** A look around, then a declined read whose siblings were cancelled, twice, a backup written, and the status check run. */
function session(cancelled: { result: string } | { error: string }): ToolEvent[] {
  return [
    { tool: 'Bash', args: { command: `ls -la ${DIR}` }, result: 'total 12\ndrwxr-xr-x 4 dev dev 4096 Jan 30 .\nBackups\nsettings.json', round: 1 },
    { tool: 'Read', args: { file_path: `${DIR}/settings.json` }, result: '     1→{\n     2→  "model": "opus"\n     3→}', round: 2 },
    read('session-backup-2026-01-29.md', DECLINED, 3),
    read('session-backup-2026-01-28.md', 'error' in cancelled ? cancelled.error : SIBLING, 3),
    status(cancelled, 3),
    read('session-backup-2026-01-29.md', DECLINED, 4),
    status(cancelled, 4),
    { tool: 'Write', args: { file_path: `${DIR}/Backups/session-n8n-setup-2026-01-30.md`, content: '# n8n setup\n' }, result: `File created successfully at: ${DIR}/Backups/session-n8n-setup-2026-01-30.md`, round: 5 },
    status({ result: 'Not a git repo\nShell cwd was reset to /home/dev' }, 6),
  ];
}

describe('a call cancelled beside a failed or declined one', () => {
  it('should read as declined, in both of Claude Code\'s wordings', () => {
    expect(isDeclined(SIBLING)).toBe(true);
    expect(isDeclined('<tool_use_error>Cancelled: parallel tool call Read(/Users/dev/.claude/projects/-Users-d…) errored</tool_use_error>')).toBe(true);
    expect(isDeclined('error: sibling process exited')).toBe(false);
  });
});

describe.each(ENGINES)('a status check cancelled twice, then run once (%s engine)', (engine) => {
  it('should not be flagged, one-phase or two-phase', () => {
    expect(flaggedActions(session({ error: SIBLING }), engine)).toEqual([]);
    expect(liveActions(session({ error: SIBLING }), engine)).toEqual([]);
  });

  it('should be flagged when it ran each time, the same answer', () => {
    expect(flaggedActions(session({ result: 'Not a git repo\nShell cwd was reset to /home/dev' }), engine)).not.toEqual([]);
  });
});
