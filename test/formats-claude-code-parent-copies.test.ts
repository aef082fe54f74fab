/**
 * Claude Code 2.1's compaction and side-question transcripts (`subagents/agent-acompact-*.jsonl`,
 * `agent-aside_question-*.jsonl`) start from their parent's whole conversation: every tool_use of the parent
 * again, with its id, and none of their own. They are passed over with one note each (not a skip: the scan
 * still exits on its findings), and a real subagent beside them is still read.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TraceCall } from '../src/formats/trace-record.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-parent-copies');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

const SESSION = 'afff224b-fed2-4b40-845a-42ee83e3dc56';
const base = { sessionId: SESSION, version: '2.1.88', cwd: '/studio' };
const use = (uuid: string, id: string, command: string, extra: object) => ({ ...base, ...extra, type: 'assistant', uuid, message: { id: `msg_${uuid}`, role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] } });
const answer = (uuid: string, id: string, content: string, extra: object) => ({ ...base, ...extra, type: 'user', uuid, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] } });
/** The parent's conversation: three calls and their results, as `extra` places the lines. */
const conversation = (extra: object) => [0, 1, 2].flatMap((n) => [use(`a${n}`, `call_${n}`, `python train.py --epoch ${n}`, extra), answer(`u${n}`, `call_${n}`, `loss ${n}`, extra)]);
const main = { isSidechain: false };
const copy = (agentId: string) => ({ isSidechain: true, agentId });

function project(): string {
  const parent = write(`proj/${SESSION}.jsonl`, jsonl(conversation(main)));
  write(`proj/${SESSION}/subagents/agent-acompact-216e850932df6f43.jsonl`, jsonl([
    { ...base, ...copy('acompact-216e850932df6f43'), type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', uuid: 'c0', parentUuid: null },
    ...conversation(copy('acompact-216e850932df6f43')),
    { ...base, ...copy('acompact-216e850932df6f43'), type: 'assistant', uuid: 'c9', message: { id: 'msg_c9', role: 'assistant', content: [{ type: 'text', text: '<analysis>Summary...</analysis>' }] } },
  ]));
  write(`proj/${SESSION}/subagents/agent-aside_question-03dfb1fdbaeba9ce.jsonl`, jsonl(conversation(copy('aside_question-03dfb1fdbaeba9ce'))));
  write(`proj/${SESSION}/subagents/agent-a520480fc0182e0d7.jsonl`, jsonl([use('s0', 'call_sub', 'ls data/', copy('a520480fc0182e0d7')), answer('s1', 'call_sub', 'train.csv', copy('a520480fc0182e0d7'))]));
  return join(parent, '..');
}

describe('Claude Code compaction and side-question transcripts', () => {
  it('should pass over a copy of the parent conversation with one note each, and read the parent and a real subagent', async () => {
    const items = await collect([project()]);
    expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
    const calls = items.filter((i): i is TraceCall => i.kind === 'call');
    // the session's folder (its subagents) sorts before its transcript
    expect(calls.map((c) => `${c.session} ${(c.event.args as { command: string }).command}`)).toEqual([
      `${SESSION}/agent-a520480fc0182e0d7 ls data/`,
      `${SESSION} python train.py --epoch 0`,
      `${SESSION} python train.py --epoch 1`,
      `${SESSION} python train.py --epoch 2`,
    ]);
    const notes = items.filter((i) => i.kind === 'note');
    expect(notes.map((n) => [n.file.slice(dir.length), n.line])).toEqual([
      [`/proj/${SESSION}/subagents/agent-acompact-216e850932df6f43.jsonl`, 1],
      [`/proj/${SESSION}/subagents/agent-aside_question-03dfb1fdbaeba9ce.jsonl`, 1],
    ]);
    expect(notes[0]!.kind === 'note' && notes[0]!.message).toBe(`passed over: agent "acompact-216e850932df6f43" is a compaction of session "${SESSION}", a copy of its conversation that repeats its calls`);
  });

  it('should say so on stderr in a scan without counting it as skipped input', async () => {
    const run = await loopwatchInProcess(['scan', project(), '--workers', '0', '--no-progress']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('agent-acompact-216e850932df6f43.jsonl:1: passed over: agent "acompact-216e850932df6f43" is a compaction');
    expect(run.stderr).toContain('is a side question');
    expect(run.stderr).not.toContain('skipped');
    expect(run.stdout).toMatch(/sessions\s+2\b|2 sessions/);
  });
});
