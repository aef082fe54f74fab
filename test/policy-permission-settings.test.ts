/**
 * A call refused by the person's permission settings waits on the person, not on the agent (quiet5; a real
 * Claude Code 2.1.62 session of holdout3, broken in both replays): in "don't ask" mode every `mkdir -p` and
 * `Write` answered "Permission to use Bash has been denied because Claude Code is running in don't ask
 * mode.", and the agent tried each again, unchanged, between its messages to the person. Only the person can
 * lift a deny rule or a mode, as only they can lift Gemini CLI's "Tool execution denied by policy."
 * (src/text/failure-kinds.ts NEEDS_PERSON_PATTERNS): the loop is asked about, never broken, one-phase or
 * two-phase. The same call failing on its own (a `mkdir` refused by the file system) is still broken.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { needsPerson } from '../src/text/failure-kinds.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const denied = (tool: string): string =>
  `Permission to use ${tool} has been denied because Claude Code is running in don't ask mode. IMPORTANT: You *may* attempt to accomplish this action using other tools that might naturally be used to accomplish this goal, e.g. using head instead of cat. But you *should not* attempt to work around this denial in malicious ways.`;
const DIR = '/c/Users/User/RoyalApp/docs/plans';
const PLAN = 'C:/Users/User/RoyalApp/docs/plans/2026-02-27-royalapp-design.md';
const mkdir = (error: string): ToolEvent => ({ tool: 'Bash', args: { command: `mkdir -p ${DIR}`, description: 'Create RoyalApp docs directory' }, error });
const write = (error: string): ToolEvent => ({ tool: 'Write', args: { file_path: PLAN, content: '# RoyalApp design\n\n## Goals\n- a loyalty app for small shops\n' }, error });

/** Reads and task updates, then the mkdir and the write each tried again, every one denied by the mode. */
function session(mkdirError: string, writeError: string): ToolEvent[] {
  return [
    { tool: 'TaskUpdate', args: { taskId: '4', status: 'completed' }, result: 'Updated task #4 status' },
    { tool: 'Read', args: { file_path: 'C:/Users/User/loyalty-app/README.md' }, result: '     1→# Loyalty App\n     2→\n     3→A B2B loyalty platform\n' },
    { tool: 'TaskUpdate', args: { taskId: '5', status: 'in_progress' }, result: 'Updated task #5 status' },
    mkdir(mkdirError),
    write(writeError),
    mkdir(mkdirError),
    mkdir(mkdirError),
    write(writeError),
    mkdir(mkdirError),
    write(writeError),
    mkdir(mkdirError),
    mkdir(mkdirError),
    write(writeError),
  ];
}

const byMode = session(denied('Bash'), denied('Write'));
const byDisk = session(`mkdir: cannot create directory '${DIR}': Read-only file system`, `EROFS: read-only file system, open '${PLAN}'`);

describe.each(ENGINES)('calls denied by the person\'s permission settings (%s engine)', (engine) => {
  it('should warn about the denied calls tried again, and not break them, one-phase', () => {
    const flagged = flaggedActions(byMode, engine);
    expect(flagged.length).toBeGreaterThan(0);
    expect(flagged).not.toContain('break');
  });

  it('should not block the denied calls tried again, two-phase', () => {
    const acted = liveActions(byMode, engine);
    expect(acted).not.toContain('deny');
    expect(acted).not.toContain('stop');
  });

  it('should still break the same calls failing on their own', () => {
    expect(flaggedActions(byDisk, engine)).toContain('break');
  });
});

describe('the texts', () => {
  it('should read Claude Code\'s permission denials as wanting a person', () => {
    expect(needsPerson(denied('Bash'))).toBe(true);
    expect(needsPerson('Permission to use Bash with command cd /app && rm -rf node_modules && pnpm install 2>&1 has been denied.')).toBe(true);
    expect(needsPerson('Permission to use Bash with command head\necho "x" has been denied.')).toBe(true);
    expect(needsPerson('Permission to use WebFetch has been auto-denied (prompts unavailable).')).toBe(true);
    expect(needsPerson('Permission to use mcp__github__create_issue has been denied.')).toBe(true);
  });

  it('should not read a program\'s own permission errors as the person\'s settings', () => {
    expect(needsPerson("mkdir: cannot create directory '/opt/x': Permission denied")).toBe(false);
    expect(needsPerson('Error: EACCES: permission denied, open /etc/hosts')).toBe(false);
    expect(needsPerson('echo "Permission to use the API has been denied by the server"')).toBe(false);
  });
});
