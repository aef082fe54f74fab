/**
 * Claude Code 2.1.16x runs a workflow's agents side by side and writes `subagents/workflows/wf_<id>/
 * journal.jsonl` beside their transcripts: lines `{type: "started" | "result", key, agentId, result?}`.
 * Read in a walk of ~/.claude/projects, the journal was an `unknown-format` skip (so `scan` exited 2); it
 * is now read as Claude Code and passed over with one note, while the agents' own transcripts beside it
 * are read as before.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { detectFormat } from '../src/formats/detect-format.js';
import type { TraceCall } from '../src/formats/trace-record.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-claude-code-workflow-journal');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const wf = 'projects/-home-u/baeb5d66/subagents/workflows/wf_d66113ec-b09';

describe('Claude Code workflow journal', () => {
  it('should pass the journal over with one note and read the agent beside it', async () => {
    const journal = write(`${wf}/journal.jsonl`, jsonl([
      { type: 'started', key: 'v2:5b36', agentId: 'a9918ee1' },
      { type: 'started', key: 'v2:ab25', agentId: 'ae10f525' },
      { type: 'result', key: 'v2:ab25', agentId: 'ae10f525', result: { findings: [], overallVerdict: 'All numeric claims recompute correctly.' } },
      { type: 'result', key: 'v2:5b36', agentId: 'a9918ee1', result: { findings: [{ severity: 'error', issue: 'a wrong unit' }] } },
    ]));
    const agent = write(`${wf}/agent-a9918ee1.jsonl`, jsonl([
      { parentUuid: null, isSidechain: true, agentId: 'a9918ee1', sessionId: 'baeb5d66', uuid: 'u1', type: 'user', message: { role: 'user', content: 'Review formula_spec.json.' } },
      { parentUuid: 'u1', isSidechain: true, agentId: 'a9918ee1', sessionId: 'baeb5d66', uuid: 'a1', type: 'assistant', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'formula_spec.json' } }] } },
      { parentUuid: 'a1', isSidechain: true, agentId: 'a9918ee1', sessionId: 'baeb5d66', uuid: 'u2', type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '{"blocks": []}' }] } },
    ]));
    const items = await collect([journal, agent]);
    expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
    const notes = items.filter((i) => i.kind === 'note');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ file: journal, line: 1 });
    expect(notes[0]!.kind === 'note' && notes[0]!.message).toMatch(/^passed over: a workflow journal/);
    expect(items.filter((i): i is TraceCall => i.kind === 'call').map((c) => [c.session, c.event.tool, c.event.result, c.errorInfo])).toEqual([
      ['baeb5d66/agent-a9918ee1', 'Read', '{"blocks": []}', 'absent'],
    ]);
  });

  it('should detect a journal line as Claude Code, and not a line that only shares its type', () => {
    expect(detectFormat({ type: 'started', key: 'v2:5b36', agentId: 'a9918ee1' }, 'journal.jsonl')).toEqual({ format: 'claude-code', decisive: true });
    expect(detectFormat({ type: 'result', subtype: 'success', result: 'done' }, 'out.jsonl')).not.toEqual({ format: 'claude-code', decisive: true });
  });
});
