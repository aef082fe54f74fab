/**
 * Resumed sessions read once: Claude Code 2.0 appends a resumed session's history to its transcript again
 * (new line uuids, the same message and tool_use ids), and a Codex rollout of a resumed session carries a
 * second session_meta and the parent's calls with the same call_ids. Each call id is read once, its first
 * time; the replayed calls and their results are passed over, and every call keeps its own result.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { CallIds, MAX_CALL_IDS } from '../src/formats/call-ids.js';
import type { TraceCall } from '../src/formats/trace-record.js';
import { claudeCodeLines, codexLines } from './helpers/format-fixtures.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-resumed');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const call = (i: number) => ({ tool: 'Bash', args: { command: `ls dir${i}` }, result: `dir${i}: 3 files` });
const calls = async (file: string) => {
  const items = await collect([file]);
  expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
  return items.filter((i): i is TraceCall => i.kind === 'call');
};

/** `lines` written again as a resume writes them: new uuids (and parents), everything else the same. */
function replayed(lines: readonly object[]): object[] {
  const renamed = (u: unknown) => (typeof u === 'string' ? `resumed-${u}` : u);
  return (lines as readonly { uuid?: unknown; parentUuid?: unknown }[]).filter((l) => l.uuid !== undefined).map((l) => ({ ...l, uuid: renamed(l.uuid), parentUuid: renamed(l.parentUuid) }));
}

describe('resumed sessions', () => {
  it('should read a Claude Code history appended again on resume once, each call with its own result', async () => {
    const original = claudeCodeLines('cc-resume', call, false);
    const more = claudeCodeLines('cc-resume', (i) => call(100 + i), false).slice(2, 5).map((l) => ({ ...l, uuid: `after-${(l as { uuid: string }).uuid}`, message: { ...(l as { message: object }).message, id: 'msg_after' } }));
    const relabel = (l: object) => JSON.parse(JSON.stringify(l).replaceAll('toolu_cc-resume_0', 'toolu_after')) as object;
    const file = write('resumed.jsonl', jsonl([...original, ...replayed(original), ...more.map(relabel)]));
    const read = await calls(file);
    expect(read.map((c) => (c.event.args as { command: string }).command)).toEqual([...Array.from({ length: 8 }, (_, i) => `ls dir${i}`), 'ls dir100']);
    expect(read.map((c) => c.event.result)).toEqual([...Array.from({ length: 8 }, (_, i) => `dir${i}: 3 files`), 'dir100: 3 files']);
    expect(read.every((c) => c.session === 'cc-resume' && c.errorInfo === 'absent')).toBe(true);
  });

  it('should pair a call left unanswered before the resume with the result the replayed copy brings', async () => {
    const base = { sessionId: 's-r', isSidechain: false, type: 'assistant' };
    const use = (uuid: string, id: string, command: string) => ({ ...base, uuid, message: { id: `msg_${id}`, role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] } });
    const answer = (uuid: string, id: string, content: string, is_error?: boolean) => ({ ...base, type: 'user', uuid, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content, ...(is_error ? { is_error } : {}) }] } });
    const file = write('interrupted.jsonl', jsonl([
      use('a1', 't1', 'npm test'), answer('u1', 't1', '1 failing'),
      use('a2', 't2', 'npm run build'), // interrupted: no result
      use('r1', 't1', 'npm test'), answer('ru1', 't1', '1 failing'),
      use('r2', 't2', 'npm run build'), answer('ru2', 't2', '[Request interrupted by user for tool use]', true),
      use('a3', 't3', 'git status'), answer('u3', 't3', 'clean'),
    ]));
    expect((await calls(file)).map((c) => [c.event.args, c.event.result, c.errorInfo])).toEqual([
      [{ command: 'npm test' }, '1 failing', 'absent'],
      [{ command: 'npm run build' }, '[Request interrupted by user for tool use]', 'known'],
      [{ command: 'git status' }, 'clean', 'absent'],
    ]);
  });

  it('should read a Codex rollout carrying its parent session again (second session_meta, same call_ids) once', async () => {
    const parent = codexLines('0199-parent', call, 0);
    const next = codexLines('0199-parent', (i) => call(50 + i), 1).slice(4, 7).map((l) => JSON.parse(JSON.stringify(l).replaceAll('call_0199-parent_0', 'call_next')) as object);
    const file = write('rollout-2026-01-05T12-00-00-0199-parent.jsonl', jsonl([...parent, ...parent, ...next]));
    const read = await calls(file);
    expect(read).toHaveLength(9);
    expect(read.every((c) => c.session === '0199-parent')).toBe(true);
    expect(read.map((c) => c.event.result)).toEqual([...Array.from({ length: 8 }, (_, i) => `dir${i}: 3 files`), 'dir50: 3 files']);
    expect(read.map((c) => c.errorInfo)).toEqual([...Array(8).fill('absent'), 'known']);
  });

  it(`should remember at most ${MAX_CALL_IDS} call ids, forgetting the oldest first`, () => {
    const ids = new CallIds<string>(2);
    expect([ids.call('a', 'A'), ids.call('b', 'B'), ids.call('a', 'A')]).toEqual([true, true, false]);
    expect(ids.result('a')).toEqual({ kind: 'first', holder: 'A' });
    expect(ids.result('a')).toEqual({ kind: 'replay' });
    expect(ids.call('c', 'C')).toBe(true); // 'a' forgotten
    expect([ids.result('a'), ids.result('c')]).toEqual([{ kind: 'unknown' }, { kind: 'first', holder: 'C' }]);
  });
});
