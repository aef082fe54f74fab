/**
 * One definition of what differs between two identical runs of a Claude Code tool (src/formats/
 * volatile-output.ts), read by the hook and by the transcript and hook payload log readers. Claude Code
 * (2.1.2 on) gives the model a `<persisted-output>` block in place of a large output, naming the file it
 * saved it to: a new random name (or the call's id) per run. The transcript reader kept the path, so the
 * same `git log` with the same large output, run again, was a new outcome every time (and the hook, given
 * the same text by an MCP tool, saw the same); the path is now masked everywhere, the size and preview kept.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { TraceCall } from '../src/formats/trace-record.js';
import { PERSISTED_PATH, stablePersistedText, stableResult } from '../src/formats/volatile-output.js';
import { AGENTS } from '../src/hooks/agents.js';
import { FIXTURE_CALLS, claudeCodeLines } from './helpers/format-fixtures.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-volatile-output');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const calls = async (file: string): Promise<TraceCall[]> => (await collect([file])).filter((i): i is TraceCall => i.kind === 'call');

/** A persisted output as Claude Code 2.1.x writes it into the tool_result (anthropics/claude-code#23948). */
const persisted = (path: string, preview = '6ba04d3c fix the pager\n8a841e9c add the manager'): string =>
  `<persisted-output>\nOutput too large (36.8KB). Full output saved to: ${path}\n\nPreview (first 2KB):\n${preview}\n</persisted-output>`;
const runPath = (i: number): string => `/home/dev/.claude/projects/-home-dev-app/5f3c0d9e/tool-results/b${i}q7on7tw.txt`;

describe('a persisted output\'s per-run file path', () => {
  it('should mask the path and keep the size and the preview', () => {
    const masked = stablePersistedText(persisted(runPath(1)));
    expect(masked).toBe(persisted(PERSISTED_PATH));
    expect(stablePersistedText(persisted(runPath(2)))).toBe(masked);
    expect(stablePersistedText(persisted(runPath(1), 'other output'))).not.toBe(masked);
    // a Windows path with spaces, the call's id as its name
    expect(stablePersistedText(persisted('C:\\Users\\Ana G\\.claude\\projects\\H--app\\s\\tool-results\\toolu_01.txt'))).toBe(masked);
    expect(stablePersistedText(masked)).toBe(masked); // idempotent: a decision log read back
  });

  it('should leave a preview that prints "saved to:" and text outside a block as they are', () => {
    const preview = 'Report saved to: /tmp/r1.txt';
    expect(stablePersistedText(persisted(runPath(1), preview))).toBe(persisted(PERSISTED_PATH, preview));
    expect(stablePersistedText('Full output saved to: /tmp/x.txt')).toBe('Full output saved to: /tmp/x.txt');
    const plain = { stdout: 'ok' };
    expect(stableResult('Read', plain)).toBe(plain);
  });

  it('should read a transcript\'s repeated large outputs as one outcome, as the hook decodes them', async () => {
    const file = write('cc-persisted.jsonl', jsonl(claudeCodeLines('cc-persisted', (i) => ({ tool: 'Bash', args: { command: 'git log' }, result: persisted(runPath(i)) }), false)));
    const read = await calls(file);
    expect(read).toHaveLength(FIXTURE_CALLS);
    expect(new Set(read.map((c) => c.event.result)).size).toBe(1);
    expect(read[0]!.event.result).toBe(persisted(PERSISTED_PATH));
    // an MCP tool's text result in the hook's PostToolUse: the same text
    const hook = AGENTS['claude-code'].decode({ session_id: 's', hook_event_name: 'PostToolUse', tool_name: 'mcp__gh__diff', tool_use_id: 't', tool_input: {}, tool_response: [{ type: 'text', text: persisted(runPath(9)) }] }, 'PostToolUse', 'record');
    expect(hook.call.result).toEqual([{ type: 'text', text: read[0]!.event.result }]);
    const bash = AGENTS['claude-code'].decode({ session_id: 's', hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_use_id: 't', tool_input: { command: 'git log' }, tool_response: { stdout: persisted(runPath(8)), stderr: '', interrupted: false, isImage: false } }, 'PostToolUse', 'record');
    expect(bash.call.result).toBe(read[0]!.event.result);
  });

  it('should read logged Claude Code hook payloads without the per-run fields, as the hook does', async () => {
    const file = write('hooks-persisted.jsonl', jsonl([0, 1].flatMap((i) => [
      { session_id: 'c', hook_event_name: 'PreToolUse', tool_name: 'Glob', tool_use_id: `g${i}`, tool_input: { pattern: '**/*.ts' } },
      { session_id: 'c', hook_event_name: 'PostToolUse', tool_name: 'Glob', tool_use_id: `g${i}`, tool_input: { pattern: '**/*.ts' }, tool_response: { durationMs: 14 + i, numFiles: 0, filenames: [] } },
      { session_id: 'c', hook_event_name: 'PreToolUse', tool_name: 'mcp__x__q', tool_use_id: `m${i}`, tool_input: {} },
      { session_id: 'c', hook_event_name: 'PostToolUse', tool_name: 'mcp__x__q', tool_use_id: `m${i}`, tool_input: {}, tool_response: persisted(runPath(i)) },
    ])));
    const results = (await calls(file)).map((c) => c.event.result);
    expect(results).toEqual([{ numFiles: 0, filenames: [] }, persisted(PERSISTED_PATH), { numFiles: 0, filenames: [] }, persisted(PERSISTED_PATH)]);
  });
});
