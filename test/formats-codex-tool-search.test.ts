/**
 * Codex 0.14x rollouts hold `tool_search_call` items (the model looking up deferred tools, `arguments` an
 * object) answered by `tool_search_output` (`{status, tools: [namespaces of tools]}`). The reader passed both
 * over without a word: a model searching for tools again and again was invisible. They are now a call of the
 * tool `tool_search` with the names of the tools found as its result (empty when none).
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { TraceCall } from '../src/formats/trace-record.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-codex-tool-search');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const item = (payload: object) => ({ timestamp: '2026-07-03T07:12:42.604Z', type: 'response_item', payload });
const meta = { timestamp: '2026-07-03T07:12:00.000Z', type: 'session_meta', payload: { id: '019f26d2-378f', cwd: '/app', cli_version: '0.144.5' } };
const search = (call_id: string, query: string) => item({ type: 'tool_search_call', id: `tsc_${call_id}`, call_id, status: 'completed', execution: 'client', arguments: { query, limit: 8 } });
const found = (call_id: string, tools: object[], status = 'completed') => item({ type: 'tool_search_output', call_id, status, execution: 'client', tools });
const fn = (name: string) => ({ type: 'function', name, description: 'A long description the model reads.', parameters: { type: 'object' } });

describe('Codex tool_search calls', () => {
  it('should read each search as a call of tool_search, its result the tools found', async () => {
    const file = write('rollout-2026-07-03T15-12-18-019f26d2-378f.jsonl', jsonl([
      meta,
      { timestamp: 't', type: 'world_state', payload: { cwd: '/app' } },
      search('c1', 'job logs failure'),
      found('c1', [{ type: 'namespace', name: 'mcp__qzcli', description: 'Tools', tools: [fn('qz_delete_job'), fn('qz_logs')] }, fn('automation_update')]),
      search('c2', 'blueprint asset'),
      found('c2', []),
      search('c3', 'broken'),
      found('c3', [], 'failed'),
      item({ type: 'function_call', name: 'mcp__qzcli__qz_logs', arguments: '{"job":"7"}', call_id: 'c4' }),
      item({ type: 'function_call_output', call_id: 'c4', output: 'no logs' }),
    ]));
    const items = await collect([file]);
    expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
    expect(items.filter((i): i is TraceCall => i.kind === 'call').map((c) => [c.session, c.event.tool, c.event.args, c.event.result, c.errorInfo])).toEqual([
      ['019f26d2-378f', 'tool_search', { query: 'job logs failure', limit: 8 }, 'mcp__qzcli.qz_delete_job\nmcp__qzcli.qz_logs\nautomation_update', 'absent'],
      ['019f26d2-378f', 'tool_search', { query: 'blueprint asset', limit: 8 }, '', 'absent'],
      ['019f26d2-378f', 'tool_search', { query: 'broken', limit: 8 }, '', 'known'],
      ['019f26d2-378f', 'mcp__qzcli__qz_logs', { job: '7' }, 'no logs', 'unknown'],
    ]);
  });
});
