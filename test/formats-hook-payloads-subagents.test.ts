/**
 * A hook payload log of Claude Code with a subagent: the subagent's calls (payloads with `agent_id`) are a
 * session of their own, `<session_id>#<agent_id>`, as the hook checks them; a call of the subagent still
 * waiting at its parent's Interrupt (Claude Code 2.1.337 sent no after-event for it, nor SubagentStop), at
 * its parent's SessionEnd or at its own SubagentStop is forgotten, as the hook ends the subagent's state
 * there. Before, the subagent's calls were read into the parent's session and its cut-off call held back
 * the parent's later calls until the input ended.
 */
import { describe, expect, it } from 'vitest';
import { collect, scratchDir } from './helpers/trace-files.js';

const { write } = scratchDir('formats-hook-subagents');

const S = '26297119-0891-42f0-8b96-4a664da9a13a';
const A = 'addd64c3c2a6705f4';
const base = { session_id: S, transcript_path: `/nonexistent/${S}.jsonl`, cwd: '/nonexistent', permission_mode: 'default' };
const pre = (id: string, tool: string, input: unknown, agent?: string) => ({ ...base, ...(agent === undefined ? {} : { agent_id: agent, agent_type: 'general-purpose' }), hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input, tool_use_id: id });
const post = (id: string, tool: string, input: unknown, agent?: string) => ({ ...pre(id, tool, input, agent), hook_event_name: 'PostToolUse', tool_response: { stdout: 'ok', stderr: '', interrupted: false, isImage: false } });
const agentCall = pre('toolu_main_3', 'Agent', { description: 'wait a bit', prompt: 'run it', subagent_type: 'general-purpose', run_in_background: false });
const ls = { command: 'ls' };
const sleep = { command: "python3 -c 'import time; time.sleep(20)'", description: 'wait' };

const sessionsOf = async (lines: readonly unknown[]): Promise<string[]> => {
  const file = write(`log-${Math.random().toString(36).slice(2)}.jsonl`, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const items = await collect([file]);
  expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
  return items.filter((i) => i.kind === 'call').map((c) => `${c.session} ${c.event.tool} ${c.errorInfo}`);
};

describe('hook payload logs with subagents', () => {
  it("should read a subagent's calls as its own session, and forget its call cut off by the parent's Interrupt", async () => {
    const lines = [
      agentCall,
      pre('toolu_sub_1', 'Bash', ls, A),
      post('toolu_sub_1', 'Bash', ls, A),
      pre('toolu_sub_4', 'Bash', sleep, A),
      { ...base, hook_event_name: 'Interrupt', source: 'user', reason: 'stop', via: 'client' },
      { ...base, hook_event_name: 'UserPromptSubmit', prompt: 'second prompt' },
      pre('toolu_main_5', 'Bash', ls),
      post('toolu_main_5', 'Bash', ls),
    ];
    expect(await sessionsOf(lines)).toEqual([`${S}#${A} Bash absent`, `${S} Agent unknown`, `${S} Bash absent`]);
  });

  it("should forget a subagent's waiting call at its SubagentStop and at its parent's SessionEnd, not another session's", async () => {
    const other = { session_id: 'other' };
    const lines = [
      pre('t1', 'Bash', sleep, A),
      { ...base, agent_id: A, hook_event_name: 'SubagentStop' },
      pre('t2', 'Bash', sleep, 'b2'),
      { ...pre('t3', 'Bash', sleep, 'b3'), ...other },
      { ...base, hook_event_name: 'SessionEnd', reason: 'other' },
    ];
    expect(await sessionsOf(lines)).toEqual([`other#b3 Bash unknown`]);
  });
});
