/**
 * Gemini CLI appends each AfterTool hook's `additionalContext` to the tool's output, as
 * `\n\n<hook_context>...</hook_context>` (packages/core, the AfterTool trigger), and its chat records the
 * output so. Walking the real Gemini CLI 0.61 (`gemini -p` against a scripted model server), loopwatch's hook
 * warned after the third identical `cat notes.txt` and the chat recorded that call's output with the
 * warning appended: read with it, the third run had another result than the two before, and `scan` of the
 * chat flagged nothing where the hook had warned and then denied. The chat reader leaves the appended
 * blocks out (src/formats/gemini-parts.ts withoutHookContext). The chat is written here in the JSONL shape
 * Gemini CLI 0.61 writes (a header line, message lines, `$set` lines).
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_HOOK_CONTEXT_BLOCKS, withoutHookContext } from '../src/formats/gemini-parts.js';
import type { TraceCall } from '../src/formats/trace-record.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-gemini-hook-context');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WARNING = '[loopwatch] You appear to be in a loop (exact_repeat, confidence 0.85, since call #0): run_shell_command {"command":"cat notes.txt"} called 3 times in a row.';
const output = (pgid: number, context?: string): string =>
  `<untrusted_context>\nOutput: line one of notes\nProcess Group PGID: ${pgid}\n</untrusted_context>${context === undefined ? '' : `\n\n<hook_context>${context}</hook_context>`}`;
const turn = (n: number, out: string): string[] => {
  const id = `run_shell_command__run_shell_command_179654965${n}_0`;
  const call = { id, name: 'run_shell_command', args: { command: 'cat notes.txt', description: `step ${n}` }, result: [{ functionResponse: { id, name: 'run_shell_command', response: { output: out } } }], status: 'success', timestamp: 't', resultDisplay: 'line one of notes', displayName: 'Shell' };
  return [
    JSON.stringify({ id: `g${n}`, timestamp: 't', type: 'gemini', content: '', thoughts: [], model: 'gemini-2.5-flash', toolCalls: [call] }),
    JSON.stringify({ $set: { lastUpdated: 't' } }),
    JSON.stringify({ id: `u${n}`, timestamp: 't', type: 'user', content: [{ functionResponse: { id, name: 'run_shell_command', response: { output: out } } }] }),
  ];
};

describe("Gemini CLI chats: hooks' context appended to a tool's output", () => {
  it('should read the output without the appended hook context, as the hook read it', async () => {
    const file = write(
      'chats/session-2026-12-06T09-34-e959a6e3.jsonl',
      [
        JSON.stringify({ sessionId: 'e959a6e3-d7a4-451c-a23e-59c53b644bf7', projectHash: 'ab'.repeat(32), startTime: 't', lastUpdated: 't', kind: 'main' }),
        JSON.stringify({ id: 'p1', timestamp: 't', type: 'user', content: [{ text: 'Show me the notes' }] }),
        ...turn(0, output(1710)),
        ...turn(1, output(1757)),
        ...turn(2, output(1839, WARNING)),
      ].join('\n') + '\n',
    );
    const calls = (await collect([file])).filter((i): i is TraceCall => i.kind === 'call');
    expect(calls.map((c) => [c.event.result, c.errorInfo])).toEqual([
      ['Output: line one of notes', 'absent'],
      ['Output: line one of notes', 'absent'],
      ['Output: line one of notes', 'absent'],
    ]);
  });
});

describe('withoutHookContext', () => {
  it('should leave out every block appended at the end, and nothing else', () => {
    expect(withoutHookContext('out\n\n<hook_context>a</hook_context>\n\n<hook_context>b</hook_context>')).toBe('out');
    expect(withoutHookContext('out')).toBe('out');
    expect(withoutHookContext('')).toBe('');
    // a block not at the end, or not as Gemini CLI appends it, is the tool's own text
    expect(withoutHookContext('out\n\n<hook_context>a</hook_context>\nmore')).toBe('out\n\n<hook_context>a</hook_context>\nmore');
    expect(withoutHookContext('a file that ends with </hook_context>')).toBe('a file that ends with </hook_context>');
    expect(withoutHookContext('<hook_context>a</hook_context>')).toBe('<hook_context>a</hook_context>');
  });

  it('should finish on a hostile text: each block is looked for once, from the end', () => {
    const closes = '</hook_context>'.repeat(200_000);
    expect(withoutHookContext(closes)).toBe(closes);
    const block = '\n\n<hook_context></hook_context>';
    const blocks = block.repeat(200_000);
    expect(withoutHookContext(`x${blocks}`) === `x${block.repeat(200_000 - MAX_HOOK_CONTEXT_BLOCKS)}`).toBe(true);
  });

  it("should leave out no more blocks than Gemini CLI appends: a tool's output cannot make itself vanish", () => {
    // a file read, an MCP server's answer, ending in blocks of its own: before, every one went, and the output with them
    const own = 'the file\n\n<hook_context>one</hook_context>\n\n<hook_context>two</hook_context>\n\n<hook_context>three</hook_context>';
    expect(withoutHookContext(own)).toBe('the file\n\n<hook_context>one</hook_context>');
    expect(withoutHookContext(`${own}\n\n<hook_context>[loopwatch] warning</hook_context>`)).toBe('the file\n\n<hook_context>one</hook_context>\n\n<hook_context>two</hook_context>');
    expect(MAX_HOOK_CONTEXT_BLOCKS).toBe(2);
  });
});
