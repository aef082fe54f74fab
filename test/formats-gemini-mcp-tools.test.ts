/**
 * Gemini CLI 0.61 names an MCP tool `mcp_<server>_<tool>` (single underscores), so loopwatch, which knew
 * an MCP tool only as `mcp__<server>__<tool>`, read a Gemini MCP write (`mcp_lw_save_note`) as a read
 * (workspace-changes.ts `mcpChanges`). Where the call is known for sure to be an MCP tool's (a hook
 * payload's `mcp_context`, a chat file's `displayName: "<tool> (<server> MCP Server)"`), it is now named
 * `mcp__<server>__<tool>`, by the hook, the hook payload log reader and the chat reader alike; a local tool
 * whose name starts `mcp_` keeps its name. Payloads and chat lines are written in the shapes Gemini CLI
 * 0.61 wrote walking an MCP server `lw`.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { TraceCall } from '../src/formats/trace-record.js';
import { GEMINI } from '../src/hooks/gemini.js';
import { changesWorkspace } from '../src/policy/workspace-changes.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-gemini-mcp-tools');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SESSION = 'e61e9027-dfb7-494b-88a6-0b329bdf2255';
const context = (tool: string) => ({ server_name: 'lw', tool_name: tool, command: '/usr/bin/node', args: ['/home/me/mock/mcp.mjs'] });
const before = (name: string, input: unknown, mcp?: unknown) => ({ session_id: SESSION, transcript_path: '/nowhere/session.jsonl', cwd: '/home/me/proj', hook_event_name: 'BeforeTool', timestamp: 't', tool_name: name, tool_input: input, ...(mcp === undefined ? {} : { mcp_context: mcp }) });
const after = (name: string, input: unknown, output: string, mcp?: unknown) => ({ ...before(name, input, mcp), hook_event_name: 'AfterTool', tool_response: { llmContent: output, returnDisplay: output } });

const chatCall = (n: number, name: string, args: unknown, displayName: string) => {
  const id = `${name}__${name}_179656102959${n}_0`;
  const result = [{ functionResponse: { id, name, response: { output: '<untrusted_context>\nsaved (1 notes)\n</untrusted_context>' } } }];
  return [
    JSON.stringify({ id: `g${n}`, timestamp: 't', type: 'gemini', content: '', thoughts: [], model: 'gemini-2.5-flash', toolCalls: [{ id, name, args, result, status: 'success', timestamp: 't', resultDisplay: 'saved (1 notes)', description: JSON.stringify(args), displayName, renderOutputAsMarkdown: true }] }),
    JSON.stringify({ id: `u${n}`, timestamp: 't', type: 'user', content: result }),
  ];
};

describe('Gemini CLI MCP tools', () => {
  it("should name a hook payload's MCP tool mcp__<server>__<tool> by its mcp_context, and read its write as a change", () => {
    const call = GEMINI.decode(before('mcp_lw_save_note', { text: 'alpha is 42' }, context('save_note')), 'BeforeTool', 'propose');
    expect(call.phase === 'propose' && call.call.tool).toBe('mcp__lw__save_note');
    expect(changesWorkspace('mcp__lw__save_note', { text: 'alpha is 42' })).toBe(true);
  });

  it('should leave a name that is not mcp_<server>_<tool> of its mcp_context, and a local mcp_ tool without one', () => {
    const other = GEMINI.decode(before('save_note', { text: 'x' }, context('save_note')), 'BeforeTool', 'propose');
    const local = GEMINI.decode(before('mcp_update_notes', { text: 'x' }), 'BeforeTool', 'propose');
    expect([other.phase === 'propose' && other.call.tool, local.phase === 'propose' && local.call.tool]).toEqual(['save_note', 'mcp_update_notes']);
    expect(changesWorkspace('mcp_update_notes', { text: 'x' })).toBe(false);
  });

  it('should name the MCP tool of a chat file by its displayName, and a log of hook payloads by mcp_context, as the hook does', async () => {
    const chat = write('chats/session-2026-12-06T12-55-e61e9027.jsonl', [
      JSON.stringify({ sessionId: SESSION, projectHash: 'ab'.repeat(32), startTime: 't', lastUpdated: 't', kind: 'main' }),
      JSON.stringify({ id: 'p1', timestamp: 't', type: 'user', content: [{ text: 'fix the notes' }] }),
      ...chatCall(0, 'mcp_lw_save_note', { text: 'alpha is 42' }, 'save_note (lw MCP Server)'),
      ...chatCall(1, 'mcp_update_notes', { text: 'alpha is 42' }, 'mcp_update_notes'),
      ...chatCall(2, 'mcp_lw_save_note', { text: 'alpha is 42' }, 'save_note (other MCP Server)'),
    ].join('\n') + '\n');
    const log = write('gemini-hook-payloads.jsonl', [
      before('mcp_lw_save_note', { text: 'alpha is 42' }, context('save_note')),
      after('mcp_lw_save_note', { text: 'alpha is 42' }, 'saved (1 notes)', context('save_note')),
      before('mcp_update_notes', { text: 'x' }),
      after('mcp_update_notes', { text: 'x' }, 'ok'),
    ].map((l) => JSON.stringify(l)).join('\n') + '\n');
    const tools = async (file: string): Promise<string[]> => (await collect([file])).filter((i): i is TraceCall => i.kind === 'call').map((c) => c.event.tool);
    expect(await tools(chat)).toEqual(['mcp__lw__save_note', 'mcp_update_notes', 'mcp_lw_save_note']);
    expect(await tools(log)).toEqual(['mcp__lw__save_note', 'mcp_update_notes']);
  });

  it('should name the MCP tool of a checkpoint (/chat save) as the hook does, its name split as Gemini CLI splits it', async () => {
    // Gemini CLI 0.61's saveCheckpoint: {history: chat.getHistory(), authType}; a functionCall carries only {id, name, args}
    const call = (id: string, name: string, args: unknown) => ({ role: 'model', parts: [{ functionCall: { id, name, args } }] });
    const answer = (id: string, name: string, output: string) => ({ role: 'user', parts: [{ functionResponse: { id, name, response: { output } } }] });
    const checkpoint = write('checkpoint-notes.json', JSON.stringify({ history: [
      { role: 'user', parts: [{ text: 'fix the notes' }] },
      call('c1', 'mcp_lw_save_note', { text: 'alpha is 42' }), answer('c1', 'mcp_lw_save_note', '<untrusted_context>\nsaved (1 notes)\n</untrusted_context>'),
      call('c2', 'read_file', { file_path: 'notes.txt' }), answer('c2', 'read_file', 'alpha'),
      call('c3', 'mcp_notes_writer_list', {}), answer('c3', 'mcp_notes_writer_list', 'none'),
      call('c4', 'mcp_lw_a_very_long_server_na...ol_name_that_did_not_fit_here', {}), answer('c4', 'mcp_lw_a_very_long_server_na...ol_name_that_did_not_fit_here', 'x'),
    ], authType: 'gemini-api-key' }, null, 2));
    const calls = (await collect([checkpoint])).filter((i): i is TraceCall => i.kind === 'call');
    expect(calls.map((c) => [c.event.tool, c.errorInfo])).toEqual([
      ['mcp__lw__save_note', 'absent'], ['read_file', 'absent'], ['mcp__notes__writer_list', 'absent'], ['mcp_lw_a_very_long_server_na...ol_name_that_did_not_fit_here', 'absent'],
    ]);
    // the hook's name for the same call, told its server by mcp_context
    const hook = GEMINI.decode(before('mcp_lw_save_note', { text: 'alpha is 42' }, context('save_note')), 'BeforeTool', 'propose');
    expect(hook.phase === 'propose' && hook.call.tool).toBe(calls[0]?.event.tool);
    expect(changesWorkspace(calls[0]?.event.tool ?? '', { text: 'alpha is 42' })).toBe(true);
  });
});
