/**
 * Results written before their call: Claude Code 2.1.88 to 2.1.104 sometimes appends a tool_result line one
 * to three lines before the assistant line holding its tool_use. The result waits a bounded number of lines
 * for its call and is paired with it when it comes; one whose call never comes is reported at its own line.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { EARLY_RESULT_LINES, EarlyResults, MAX_EARLY_RESULTS } from '../src/formats/early-results.js';
import type { TraceCall } from '../src/formats/trace-record.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-early-results');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

// the shape of 2.1.97's lines (4thehalibit 1fb5e404, lines 161-164): thinking, the Edit's result, the Edit, the next message
const base = { sessionId: 's-early', isSidechain: false, version: '2.1.97', cwd: '/home/dev' };
const assistant = (uuid: string, parentUuid: string, id: string, content: unknown[]) => ({ ...base, type: 'assistant', uuid, parentUuid, message: { id, type: 'message', role: 'assistant', content } });
const answer = (uuid: string, parentUuid: string, tool_use_id: string, content: string) => ({ ...base, type: 'user', uuid, parentUuid, message: { role: 'user', content: [{ tool_use_id, type: 'tool_result', content }] } });
const edit = (id: string, file: string) => ({ type: 'tool_use', id, name: 'Edit', input: { file_path: file, old_string: 'a', new_string: 'b' } });
const bash = (id: string, command: string) => ({ type: 'tool_use', id, name: 'Bash', input: { command } });
const attachment = (uuid: string, parentUuid: string) => ({ ...base, type: 'attachment', uuid, parentUuid, attachment: { type: 'edited_text_file' } });

describe('Claude Code results written before their call', () => {
  it('should pair a result written one to three lines before its call with that call', async () => {
    const file = write('early.jsonl', jsonl([
      assistant('a1', 'p0', 'msg_1', [{ type: 'thinking', thinking: '', signature: 's' }]),
      answer('u1', 'a2', 'toolu_1', 'The file /home/dev/hyprland.conf has been updated successfully.'),
      assistant('a2', 'a1', 'msg_1', [edit('toolu_1', '/home/dev/hyprland.conf')]),
      assistant('a3', 'u1', 'msg_2', [{ type: 'thinking', thinking: '', signature: 's' }]),
      answer('u2', 'a5', 'toolu_2', 'The file /home/dev/waybar.css has been updated successfully.'),
      assistant('a4', 'a3', 'msg_2', [{ type: 'text', text: 'Box-drawing borders around each month:' }]),
      attachment('x1', 'u2'),
      assistant('a5', 'a4', 'msg_2', [edit('toolu_2', '/home/dev/waybar.css')]),
      assistant('a6', 'x1', 'msg_3', [bash('toolu_3', 'hyprctl reload')]),
      answer('u3', 'a6', 'toolu_3', 'ok'),
    ]));
    const items = await collect([file]);
    expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
    const calls = items.filter((i): i is TraceCall => i.kind === 'call');
    expect(calls.map((c) => [c.event.tool, c.event.result, c.errorInfo, c.line])).toEqual([
      ['Edit', 'The file /home/dev/hyprland.conf has been updated successfully.', 'absent', 3],
      ['Edit', 'The file /home/dev/waybar.css has been updated successfully.', 'absent', 8],
      ['Bash', 'ok', 'absent', 9],
    ]);
  });

  it(`should report a result whose call never comes at its own line, once ${EARLY_RESULT_LINES} lines have passed or the input ends`, async () => {
    const filler = Array.from({ length: EARLY_RESULT_LINES + 1 }, (_, i) => assistant(`f${i}`, 'p', `msg_f${i}`, [{ type: 'text', text: `note ${i}` }]));
    const file = write('never.jsonl', jsonl([
      assistant('a0', 'p', 'msg_0', [bash('toolu_0', 'ls')]),
      answer('u0', 'a0', 'toolu_0', 'a.ts'),
      answer('u1', 'gone', 'toolu_lost', 'HEAD is now at 53c408d'),
      ...filler,
      assistant('late', 'p', 'msg_late', [bash('toolu_lost', 'git reset --hard')]), // past the bound: a call of its own
      answer('u2', 'gone', 'toolu_end', 'left at the end'),
    ]));
    const items = await collect([file]);
    expect(items.filter((i) => i.kind === 'issue').map((i) => [i.kind === 'issue' && i.code, i.kind === 'issue' && i.line])).toEqual([
      ['unpaired-result', 3],
      ['unpaired-result', 4 + EARLY_RESULT_LINES + 2],
    ]);
    const calls = items.filter((i): i is TraceCall => i.kind === 'call');
    expect(calls.map((c) => [c.event.args, c.event.result, c.errorInfo])).toEqual([
      [{ command: 'ls' }, 'a.ts', 'absent'],
      [{ command: 'git reset --hard' }, undefined, 'unknown'],
    ]);
  });

  it('should say when the input begins after the call of its first result (a session continued from an earlier file)', async () => {
    const file = write('continued.jsonl', jsonl([answer('u0', 'elsewhere', 'toolu_prev', 'husky - DEPRECATED'), assistant('a1', 'u0', 'msg_1', [bash('toolu_1', 'git status --short')]), answer('u1', 'a1', 'toolu_1', ' M app')]));
    const issues = (await collect([file])).filter((i) => i.kind === 'issue');
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ code: 'unpaired-result', line: 1 });
    expect(issues[0]!.kind === 'issue' && issues[0]!.message).toContain('the input begins after its call');
  });

  it(`should hold at most ${MAX_EARLY_RESULTS} results, reporting the oldest first`, () => {
    const early = new EarlyResults(EARLY_RESULT_LINES, 2);
    const outcome = { result: 'x', errorInfo: 'absent' as const };
    expect([...early.hold('a', outcome, 'f', 1, 'a lost')]).toEqual([]);
    expect([...early.hold('b', outcome, 'f', 2, 'b lost')]).toEqual([]);
    expect([...early.hold('c', outcome, 'f', 3, 'c lost')]).toEqual([{ kind: 'issue', code: 'unpaired-result', file: 'f', line: 1, message: 'a lost' }]);
    expect(early.take('b')).toBe(outcome);
    expect(early.take('b')).toBeUndefined();
    expect([...early.flush()].map((i) => i.message)).toEqual(['c lost']);
    expect(early.size).toBe(0);
  });
});
