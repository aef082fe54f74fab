/**
 * Claude Code's hook gives Bash's outcome as an object (`tool_response: {stdout, stderr, interrupted,
 * isImage, ...}`), the transcript as the text the model read (its stdout and stderr). Kept as an object,
 * none of the policy's readings of a result's text reached it through the hook (a check that passed, a
 * wait, an empty inbox, a runner's banner): eval, reading the transcript, was quieter than the hook on the
 * same session (quiet6: devset 6d4c1970, a patrol agent's empty inbox, asked about in eval, denied through
 * the hook). The hook now gives Bash's outcome as that text (src/hooks/claude-code.ts shellText). Both
 * engines, two-phase as the hook runs.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { AGENTS } from '../src/hooks/agents.js';
import { ENGINES, liveActions } from './helpers/verdicts.js';

const cc = AGENTS['claude-code'];
const base = { session_id: 's', transcript_path: '/home/dev/.claude/projects/-home-dev-app/s.jsonl', cwd: '/home/dev/app', permission_mode: 'default' };

/** A Bash call as the hook decodes its PostToolUse payload, with `stdout` as its output. */
function bash(command: string, stdout: string, stderr = ''): ToolEvent {
  const payload = { ...base, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_use_id: 't', tool_input: { command, description: 'Patrol step' }, tool_response: { stdout, stderr, interrupted: false, isImage: false, noOutputExpected: false } };
  const c = cc.decode(payload, 'PostToolUse', 'record').call as { tool: string; args: unknown; result?: unknown };
  return { tool: c.tool, args: c.args, result: c.result };
}

const inbox = (): ToolEvent => bash('gt mail inbox', '📬 Inbox: deacon/ (0 messages, 0 unread)\n  (no messages)\n');
/** A patrol cycle: the inbox, a heartbeat, an issue updated, a wait for a signal (received after a new delay each time). */
const cycles: ToolEvent[] = Array.from({ length: 12 }, (_, c) => [
  inbox(),
  bash(`gt deacon heartbeat "patrol cycle ${c}"`, `✓ Heartbeat updated: patrol cycle ${c}\n`),
  bash(`bd update hq-wisp-${c} --status=in_progress`, `✓ Updated issue: hq-wisp-${c}\n`),
  bash('gt mol step await-signal --agent-bead hq-deacon --timeout 60s', `⏳ Awaiting signal (timeout: 1m0s, idle: 0)...\n✓ Signal received after ${97 + 13 * c}ms\n`),
]).flat();

describe('Bash outcomes through the Claude Code hook', () => {
  it('should be the text the transcript gives the model: stdout and stderr, those not empty', () => {
    expect(bash('ls', 'a.txt\n').result).toBe('a.txt');
    expect(bash('cd /x && ls', '', '\nShell cwd was reset to /home/dev/app').result).toBe('Shell cwd was reset to /home/dev/app');
    expect(bash('make', 'built\n', 'warning: unused\n').result).toBe('built\nwarning: unused');
    expect(bash('true', '').result).toBe('');
  });
});

describe.each(ENGINES)('an empty inbox each patrol cycle, as the hook decodes it (%s engine)', (engine) => {
  it('should not block a check', () => {
    const actions = liveActions(cycles, engine);
    expect(actions).not.toContain('deny');
    expect(actions).not.toContain('stop');
  });
});
