/**
 * Claude Code's warmup agents: a subagent started with the prompt "Warmup" to fill the prompt cache, whose
 * calls never run (each answered `is_error` "Warmup"). Real transcripts hold hundreds of the same `Glob`
 * there; read as a subagent it was broken as an exact repeat at its 4th call. The reader passes such an
 * agent over with one note, in its own `agent-*.jsonl` file (2.1) or inline without an `agentId`, and
 * still reads a real subagent and the parent beside it.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TraceCall } from '../src/formats/trace-record.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-warmup');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

const SESSION = '2fc63785-0000-4000-8000-0000000000aa';
const base = { sessionId: SESSION, version: '2.1.2', cwd: '/work/app' };
const glob = { pattern: '**/*', path: '/work/app' };
/** An agent's lines: its prompt, then `calls` Globs, each answered with `answer` (is_error when `failed`). */
function agent(extra: object, prompt: unknown, calls: number, answer: string, failed: boolean): unknown[] {
  const tag = JSON.stringify(extra).replace(/\W/g, '').slice(-6);
  const lines: unknown[] = [{ ...base, ...extra, type: 'user', uuid: `${tag}-p`, parentUuid: null, message: { role: 'user', content: prompt } }];
  for (let n = 0; n < calls; n++) {
    lines.push({ ...base, ...extra, type: 'assistant', uuid: `${tag}-a${n}`, parentUuid: `${tag}-p`, message: { id: `msg_${tag}${n}`, role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${tag}${n}`, name: 'Glob', input: glob }] } });
    lines.push({ ...base, ...extra, type: 'user', uuid: `${tag}-r${n}`, parentUuid: `${tag}-a${n}`, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${tag}${n}`, content: answer, ...(failed ? { is_error: true } : {}) }] } });
  }
  return lines;
}

function project(): string {
  const parent = write(`proj/${SESSION}.jsonl`, jsonl([
    ...agent({ isSidechain: false }, 'list the sources', 1, 'src/a.ts\nsrc/b.ts', false),
    // inline, as 2.0.x wrote sidechains: no agentId, told apart by its root
    ...agent({ isSidechain: true }, [{ type: 'text', text: 'Warmup' }], 5, 'Warmup', true),
  ]));
  write(`proj/${SESSION}/subagents/agent-a21d36a.jsonl`, jsonl(agent({ isSidechain: true, agentId: 'a21d36a' }, 'Warmup', 12, 'Warmup', true)));
  write(`proj/${SESSION}/subagents/agent-a54f67e.jsonl`, jsonl(agent({ isSidechain: true, agentId: 'a54f67e' }, 'Explore the layout', 2, 'src/a.ts', false)));
  return join(parent, '..');
}

describe('Claude Code warmup agents', () => {
  it('should pass over a warmup agent with one note, and read the parent and a real subagent', async () => {
    const items = await collect([project()]);
    expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
    const calls = items.filter((i): i is TraceCall => i.kind === 'call');
    expect(calls.map((c) => c.session)).toEqual([`${SESSION}/agent-a54f67e`, `${SESSION}/agent-a54f67e`, SESSION]);
    const notes = items.filter((i) => i.kind === 'note');
    expect(notes.map((n) => [n.file.slice(dir.length), n.line])).toEqual([
      [`/proj/${SESSION}/subagents/agent-a21d36a.jsonl`, 1],
      [`/proj/${SESSION}.jsonl`, 4],
    ]);
    expect(notes[0]!.kind === 'note' && notes[0]!.message).toBe(`passed over: "${SESSION}/agent-a21d36a" is a warmup agent (the prompt "Warmup": its calls never run)`);
  });

  it('should read an agent whose prompt only begins with the word, and a main chain whose prompt is the word', async () => {
    const file = write('other/s.jsonl', jsonl([
      ...agent({ isSidechain: true, agentId: 'ab1' }, 'Warmup the cache, then list files', 2, 'a.ts', false),
      ...agent({ isSidechain: false }, 'Warmup', 2, 'a.ts', false), // a person typing "Warmup" in the main chain
    ]));
    const calls = (await collect([file])).filter((i): i is TraceCall => i.kind === 'call');
    expect(calls.map((c) => c.session)).toEqual([`${SESSION}/agent-ab1`, `${SESSION}/agent-ab1`, SESSION, SESSION]);
  });
});
