/**
 * `scan` of a Claude Code hook payload log takes a call as not run where the live hook does (newuser6): a
 * call a person declined at Claude Code's prompt, named with Claude Code's rejection text by the turn's
 * PostToolBatch, and a call auto mode's classifier denied (PermissionDenied), are forgotten, not read as calls
 * without outcome (before: both were, so the report counted calls that never ran, as the hook does not:
 * test/hook-declined-in-batch.test.ts, test/hook-permission-denied.test.ts). Only a call still waiting for
 * its after-event is forgotten, whatever its text (newuser7: an Agent SDK program's own message for a call
 * it declined, a wording Claude Code may change to; before, only Claude Code's known wordings were:
 * src/formats/post-tool-batch.ts).
 */
import { describe, expect, it } from 'vitest';
import { collect, scratchDir } from './helpers/trace-files.js';

const { write } = scratchDir('formats-hooks-not-run');
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const cc = (event: string, tool: string, id: string, extra: object = {}) => ({ session_id: 's1', transcript_path: '/t.jsonl', cwd: '/app', hook_event_name: event, tool_name: tool, tool_input: { command: id }, tool_use_id: id, ...extra });
const entry = (tool: string, id: string, response: unknown) => ({ tool_name: tool, tool_input: { command: id }, tool_use_id: id, tool_response: response });
const batch = (entries: readonly unknown[]) => ({ session_id: 's1', transcript_path: '/t.jsonl', cwd: '/app', hook_event_name: 'PostToolBatch', tool_calls: entries });
const WITH_FEEDBACK = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\nkeep the build folder";

/** The calls `scan` reads from `lines`: tool, id and outcome. */
async function read(name: string, lines: readonly unknown[]): Promise<string[]> {
  const items = await collect([write(name, jsonl(lines))]);
  return items.map((i) => (i.kind === 'call' ? `${i.event.tool} ${(i.event.args as { command: string }).command} ${i.errorInfo}` : i.kind));
}

describe('a hook payload log\'s calls that did not run', () => {
  it('should forget a call PostToolBatch names as declined, keeping the batch\'s calls that ran', async () => {
    expect(await read('declined.jsonl', [
      cc('PreToolUse', 'Bash', 'rm'),
      cc('PreToolUse', 'Read', 'r1'),
      cc('PostToolUse', 'Read', 'r1', { tool_response: 'file text' }),
      batch([entry('Bash', 'rm', WITH_FEEDBACK), entry('Read', 'r1', 'file text')]),
      cc('PreToolUse', 'Bash', 't1'),
      cc('PostToolUseFailure', 'Bash', 't1', { error: 'Exit code 1' }),
    ])).toEqual(['Read r1 absent', 'Bash t1 known']); // before: 'Bash rm unknown' first
  });

  it('should forget a call PermissionDenied names, as the hook does', async () => {
    expect(await read('denied.jsonl', [
      cc('PreToolUse', 'Bash', 'd1'),
      cc('PermissionDenied', 'Bash', 'd1', { reason: 'auto mode classifier' }),
      cc('PreToolUse', 'Bash', 'd2'),
      cc('PostToolUse', 'Bash', 'd2', { tool_response: 'ok' }),
    ])).toEqual(['Bash d2 absent']);
  });

  it('should never forget a call that ran, and forget one still waiting whatever its text', async () => {
    expect(await read('kept.jsonl', [
      // ran: its output happens to be the rejection text (a file holding it), and the batch repeats it
      cc('PreToolUse', 'Bash', 'cat'),
      cc('PostToolUse', 'Bash', 'cat', { tool_response: WITH_FEEDBACK }),
      // waiting at its batch: an Agent SDK program declined it (canUseTool, its own message), or a wording Claude Code might change to
      cc('PreToolUse', 'Bash', 'rm'),
      cc('PreToolUse', 'Bash', 'x'),
      batch([entry('Bash', 'cat', WITH_FEEDBACK), entry('Bash', 'rm', 'No: not that.'), entry('Bash', 'x', 'The user declined this tool use. To tell you how to proceed, the user said:\nno')]),
    ])).toEqual(['Bash cat absent']); // before: 'Bash rm unknown', 'Bash x unknown' too
  });

  it('should pass over a batch of a session it holds no call of, and a batch without calls', async () => {
    expect(await read('other.jsonl', [batch([entry('Bash', 'rm', WITH_FEEDBACK)]), { ...batch([]), tool_calls: 'x' }, cc('PreToolUse', 'Bash', 'a'), cc('PostToolUse', 'Bash', 'a', { tool_response: 'ok' })])).toEqual(['Bash a absent']);
  });
});
