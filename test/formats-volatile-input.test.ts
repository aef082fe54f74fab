/**
 * One definition of the args fields an agent fills with free text (src/formats/volatile-input.ts): Claude
 * Code's Bash and Gemini CLI's run_shell_command `description`. The hooks compared calls without it while
 * the transcript readers kept it, so `loopwatch eval` of a session was quieter than the hook on the same
 * session (a command run again with a new description was a new call). Each reader now gives the call as
 * the agent's hook decodes it; other tools, and other agents' shell tools, keep every field.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { TraceCall } from '../src/formats/trace-record.js';
import { AGENTS } from '../src/hooks/agents.js';
import { FIXTURE_CALLS, claudeCodeLines, geminiChat } from './helpers/format-fixtures.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-volatile-input');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const calls = async (file: string): Promise<TraceCall[]> => (await collect([file])).filter((i): i is TraceCall => i.kind === 'call');

/** Call i: a shell command with a description written anew each time, or another tool with a `description` of its own. */
const shellOrOther = (shell: string) => (i: number) =>
  i % 2 === 0
    ? { tool: shell, args: { command: 'npm test', description: `Run the tests (try ${i})` }, result: 'ok' }
    : { tool: 'TodoWrite', args: { description: `step ${i}` }, result: 'ok' };

describe('args fields an agent fills with free text', () => {
  it('should read a Claude Code transcript\'s Bash calls without description, as the hook decodes them', async () => {
    const file = write('cc.jsonl', jsonl(claudeCodeLines('cc-desc', shellOrOther('Bash'), false)));
    const read = await calls(file);
    expect(read).toHaveLength(FIXTURE_CALLS);
    expect(read.map((c) => c.event.args)).toEqual(Array.from({ length: FIXTURE_CALLS }, (_, i) => (i % 2 === 0 ? { command: 'npm test' } : { description: `step ${i}` })));
    const hook = AGENTS['claude-code'].decode({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_use_id: 't', tool_input: { command: 'npm test', description: 'Run the tests' } }, 'PreToolUse', 'propose');
    expect(hook.call.args).toEqual(read[0]!.event.args);
  });

  it('should read a Gemini CLI chat\'s and checkpoint\'s run_shell_command calls without description, as the hook decodes them', async () => {
    const chat = write('session-2026-02-23T09-00-desc.json', JSON.stringify(geminiChat('gem-desc', shellOrOther('run_shell_command'), false)));
    const fromChat = await calls(chat);
    expect(fromChat.map((c) => c.event.args)).toEqual(Array.from({ length: FIXTURE_CALLS }, (_, i) => (i % 2 === 0 ? { command: 'npm test' } : { description: `step ${i}` })));
    const checkpoint = write('checkpoint-desc.json', JSON.stringify([
      { role: 'user', parts: [{ text: 'Run the tests.' }] },
      { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'run_shell_command', args: { command: 'npm test', description: 'Run the tests' } } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'run_shell_command', response: { output: 'Command: npm test\nOutput: ok\nExit Code: 0' } } }] },
    ]));
    expect((await calls(checkpoint)).map((c) => c.event.args)).toEqual([{ command: 'npm test' }]);
    const hook = AGENTS.gemini.decode({ session_id: 'g', hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'npm test', description: 'Run again' } }, 'BeforeTool', 'propose');
    expect(hook.call.args).toEqual(fromChat[0]!.event.args);
  });

  it('should read logged hook payloads as each agent\'s hook does, and keep other shell tools whole', async () => {
    const file = write('hooks.jsonl', jsonl([
      { session_id: 'c', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_use_id: 't1', tool_input: { command: 'ls', description: 'List' } },
      { session_id: 'g', hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'ls', description: 'List' } },
      { session_id: 'g', hook_event_name: 'BeforeTool', tool_name: 'Bash', tool_input: { command: 'ls', description: 'List' } },
    ]));
    expect((await calls(file)).map((c) => [c.session, c.event.tool, c.event.args])).toEqual([
      ['c', 'Bash', { command: 'ls' }],
      ['g', 'run_shell_command', { command: 'ls' }],
      ['g', 'Bash', { command: 'ls', description: 'List' }],
    ]);
  });
});
