/**
 * A Claude Code 2.0.77 warmup agent whose file goes on under another session id: its prompt "Warmup" names
 * one session, and the lines after it (the model's calls, each answered "Warmup") the session resumed
 * later. The reader passed over the warmup's session only, so the rest was read as a subagent of the other
 * session and warned as a dead end at its 3rd call (holdout4: 2 such agents, yeekhin-code bc565592). A
 * warmup agent is now known by its agent id too, within its file.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-warmup-resumed');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const FIRST = '85bf6ceb-0000-4000-8000-000000000001';
const LATER = 'bc565592-0000-4000-8000-000000000002';

/** A warmup agent `agentId`: its prompt under `FIRST`, then `calls` calls under `session`. */
function warmup(agentId: string, session: string, calls: number): unknown[] {
  const base = { isSidechain: true, agentId, version: '2.0.77', cwd: '/home/node/project' };
  const lines: unknown[] = [{ ...base, sessionId: FIRST, type: 'user', uuid: `${agentId}-p`, parentUuid: null, message: { role: 'user', content: 'Warmup' } }];
  let parent = `${agentId}-p`;
  for (let n = 0; n < calls; n++) {
    lines.push({ ...base, sessionId: session, type: 'assistant', uuid: `${agentId}-a${n}`, parentUuid: parent, message: { id: `msg_${agentId}${n}`, role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${agentId}${n}`, name: 'Bash', input: { command: 'pwd && ls -la' } }] } });
    lines.push({ ...base, sessionId: session, type: 'user', uuid: `${agentId}-r${n}`, parentUuid: `${agentId}-a${n}`, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${agentId}${n}`, content: 'Warmup', is_error: true }] } });
    parent = `${agentId}-r${n}`;
  }
  return lines;
}

describe('Claude Code warmup agents written on under another session', () => {
  it('should pass over the whole agent with one note', async () => {
    const file = write('proj/agent-af14340.jsonl', jsonl(warmup('af14340', LATER, 3)));
    const items = await collect([file]);
    expect(items.filter((i) => i.kind === 'call')).toEqual([]);
    expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
    expect(items.filter((i) => i.kind === 'note').map((n) => n.kind === 'note' && n.message)).toEqual([`passed over: "${FIRST}/agent-af14340" is a warmup agent (the prompt "Warmup": its calls never run)`]);
  });

  it('should still read another agent of the file that is no warmup', async () => {
    const other = { isSidechain: true, agentId: 'a54f67e', sessionId: LATER, version: '2.0.77' };
    const file = write('proj2/agent-mixed.jsonl', jsonl([
      ...warmup('af14340', LATER, 1),
      { ...other, type: 'user', uuid: 'o-p', parentUuid: null, message: { role: 'user', content: 'Explore the layout' } },
      { ...other, type: 'assistant', uuid: 'o-a', parentUuid: 'o-p', message: { id: 'msg_o', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_o', name: 'Glob', input: { pattern: '**/*' } }] } },
      { ...other, type: 'user', uuid: 'o-r', parentUuid: 'o-a', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_o', content: 'src/a.ts' }] } },
    ]));
    const items = await collect([file]);
    expect(items.filter((i) => i.kind === 'call').map((c) => c.kind === 'call' && c.session)).toEqual([`${LATER}/agent-a54f67e`]);
  });
});
