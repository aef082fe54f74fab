/**
 * Codex's `web_search_call` items (the hosted web search: `action` {type: search | open_page | find_in_page,
 * query / url / pattern}, `status`, never an output item) as the s14 note asked: read as a call whose outcome
 * is known at once to be unknown (no result, no error), so it is never a call waiting for its output (it
 * holds no later call back, and no unpaired-result issue is made), and Codex's hooks never see it (PreToolUse
 * covers Bash, apply_patch and MCP tools: no proposal waits for it). The seven sets hold 264 of them: 183
 * searches with queries, 53 open_page and 16 find_in_page with a url, and 11 that name no page (7 open_page
 * without url, 2 find_in_page without url, 2 without an action), whose arguments read alike. Identical such
 * calls one after another make no verdict (8 in a row here); the one verdict the sets have on web_search
 * (holdout6 chasekb, one-phase only) is the same url opened four times in nine calls. A pin of that reading,
 * no change of code.
 */
import { describe, expect, it } from 'vitest';
import type { TraceCall } from '../src/formats/trace-record.js';
import { LoopDetector } from '../src/session/loop-detector.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { write } = scratchDir('formats-codex-web-search');
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const at = (i: number) => `2026-04-08T08:28:${String(i).padStart(2, '0')}Z`;
const item = (i: number, payload: unknown) => ({ timestamp: at(i), type: 'response_item', payload });

describe('Codex web_search_call items', () => {
  it('should be calls with an unknown outcome, none left waiting, a later call not held back', async () => {
    const lines: unknown[] = [{ timestamp: at(0), type: 'session_meta', payload: { id: 'ws', cwd: '/w', cli_version: '0.118.0' } }];
    for (let i = 0; i < 8; i++) {
      lines.push(item(i, { type: 'reasoning', summary: [] }));
      lines.push(item(i, { type: 'web_search_call', status: 'completed', action: { type: 'open_page' } }));
    }
    lines.push(item(9, { type: 'function_call', call_id: 'c1', name: 'exec_command', arguments: '{"cmd":"ls"}' }));
    lines.push(item(9, { type: 'function_call_output', call_id: 'c1', output: 'Process exited with code 0\nOutput:\na.txt' }));
    const items = await collect([write('rollout-2026-04-08T08-27-18-ws.jsonl', jsonl(lines))]);
    expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
    const calls = items.filter((i): i is TraceCall => i.kind === 'call');
    expect(calls.map((c) => [c.event.tool, c.errorInfo])).toEqual([...Array.from({ length: 8 }, () => ['web_search', 'unknown']), ['exec_command', 'absent']]);
    expect(calls[0]?.event.args).toEqual({ type: 'open_page' });
    expect(calls[0]?.event.result).toBeUndefined();
    // eight alike, one after another, each its own turn: no verdict
    const d = new LoopDetector();
    expect(calls.map((c) => d.check(c.event)?.action ?? null).filter((a) => a !== null)).toEqual([]);
  });
});
