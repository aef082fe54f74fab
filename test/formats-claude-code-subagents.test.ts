/**
 * Claude Code subagents written inline by older versions (sidechain lines without agentId): each Task
 * subagent is a session of its own, found by following parentUuid to its root (`<sessionId>/sidechain-
 * <root uuid>`), even when two run at once and their lines interleave; lines of other types carry a chain
 * on; a subagent that names its agentId keeps `<sessionId>/agent-<agentId>`.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_SIDECHAIN_LINES, ClaudeCodeSessions } from '../src/formats/claude-code-sessions.js';
import type { TraceCall } from '../src/formats/trace-record.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-cc-subagents');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

/** A line as Claude Code 1.0 wrote it: `uuid` names it, `parentUuid` the line before it in its chain. */
const line = (uuid: string, parentUuid: string | null, isSidechain: boolean, type: 'user' | 'assistant', content: unknown) => ({
  parentUuid, isSidechain, userType: 'external', cwd: '/work/app', sessionId: 'main-1', version: '1.0.43', type, uuid, timestamp: '2025-07-01T10:00:00.000Z',
  message: type === 'assistant' ? { id: `msg_${uuid}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-20250514', content } : { role: 'user', content },
});
const use = (id: string, name: string, input: object) => [{ type: 'tool_use', id, name, input }];
const result = (id: string, content: string) => [{ tool_use_id: id, type: 'tool_result', content }];
const grep = { pattern: 'TODO', output_mode: 'files_with_matches' };

describe('Claude Code inline subagents', () => {
  it('should split the sidechains of two Task subagents running at once into one session each, by their roots', async () => {
    const file = write('main-1.jsonl', jsonl([
      line('m1', null, false, 'user', 'Find the TODOs and the FIXMEs.'),
      line('m2', 'm1', false, 'assistant', [...use('task_a', 'Task', { description: 'TODOs', prompt: 'Find TODOs' }), ...use('task_b', 'Task', { description: 'FIXMEs', prompt: 'Find FIXMEs' })]),
      line('ra', null, true, 'user', 'Find TODOs'),
      line('rb', null, true, 'user', 'Find FIXMEs'),
      line('a1', 'ra', true, 'assistant', use('g_a1', 'Grep', grep)),
      line('b1', 'rb', true, 'assistant', use('g_b1', 'Grep', grep)),
      line('a2', 'a1', true, 'user', result('g_a1', 'src/a.ts')),
      line('b2', 'b1', true, 'user', result('g_b1', 'src/a.ts')),
      { parentUuid: 'a2', isSidechain: true, type: 'system', subtype: 'informational', content: 'note', uuid: 'a3', sessionId: 'main-1' },
      line('a4', 'a3', true, 'assistant', use('r_a4', 'Read', { file_path: 'src/a.ts' })),
      line('b3', 'b2', true, 'assistant', use('g_b3', 'Grep', grep)),
      line('a5', 'a4', true, 'user', result('r_a4', 'TODO: x')),
      line('b4', 'b3', true, 'user', result('g_b3', 'src/a.ts')),
      line('m3', 'm2', false, 'user', [...result('task_a', 'one TODO'), ...result('task_b', 'no FIXME')]),
    ]));
    const items = await collect([file]);
    expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
    const calls = items.filter((i): i is TraceCall => i.kind === 'call');
    const of = (session: string) => calls.filter((c) => c.session === session).map((c) => `${c.event.tool} ${String(c.event.result)}`);
    expect(of('main-1')).toEqual(['Task one TODO', 'Task no FIXME']);
    expect(of('main-1/sidechain-ra')).toEqual(['Grep src/a.ts', 'Read TODO: x']);
    expect(of('main-1/sidechain-rb')).toEqual(['Grep src/a.ts', 'Grep src/a.ts']);
    expect(new Set(calls.map((c) => c.session))).toEqual(new Set(['main-1', 'main-1/sidechain-ra', 'main-1/sidechain-rb']));
    expect(items.filter((i) => i.kind === 'end').map((e) => e.session).sort()).toEqual(['main-1', 'main-1/sidechain-ra', 'main-1/sidechain-rb']);
  });

  it('should keep a subagent that names its agentId as before, and name a sidechain line without uuid by its session', () => {
    const sessions = new ClaudeCodeSessions('file.jsonl');
    expect(sessions.of({ sessionId: 's', isSidechain: true, agentId: 'ab12', uuid: 'x', parentUuid: null })).toBe('s/agent-ab12');
    expect(sessions.of({ sessionId: 's', isSidechain: true, parentUuid: null })).toBe('s/sidechain');
    expect(sessions.of({ isSidechain: false, uuid: 'y' })).toBe('file.jsonl');
    expect(sessions.of({ sessionId: 7, isSidechain: true })).toEqual({ bad: '"sessionId" must be a non-empty string, received 7 (number)' });
  });

  it(`should remember the roots of at most ${MAX_SIDECHAIN_LINES} sidechain lines, forgetting the oldest`, () => {
    const sessions = new ClaudeCodeSessions('f', 3);
    const side = (uuid: string, parentUuid: string | null) => sessions.of({ sessionId: 's', isSidechain: true, uuid, parentUuid });
    expect([side('r', null), side('c1', 'r'), side('c2', 'c1'), side('c3', 'c2')]).toEqual(Array(4).fill('s/sidechain-r'));
    expect(side('c4', 'r')).toBe('s/sidechain-c4'); // r forgotten: c4 starts a chain of its own
  });
});
