/**
 * scripts/devset/hook-replay.mjs replays every file it is given. Since `--agent-version V` came, the
 * arguments left out as that option's value were `i === versionAt + 1` even without the option
 * (`versionAt` -1), so the first file was dropped without a word: `hook-replay.mjs A B` replayed B only
 * (holdout5: 4 files given, 3 lines printed). Two small Claude Code sessions written here, both replayed.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('devset-hook-replay-files');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

/** A Claude Code session `session` of `calls` different `ls` calls, each answered. */
function session(session: string, calls: number): string {
  const base = { sessionId: session, version: '2.1.200', cwd: '/home/user/project', isSidechain: false };
  const lines: unknown[] = [];
  for (let n = 0; n < calls; n++) {
    lines.push({ ...base, type: 'assistant', uuid: `${session}-a${n}`, message: { id: `msg_${n}`, role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${session.slice(0, 4)}${n}`, name: 'Bash', input: { command: `ls dir${n}` } }] } });
    lines.push({ ...base, type: 'user', uuid: `${session}-r${n}`, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${session.slice(0, 4)}${n}`, content: `file${n}` }] } });
  }
  return jsonl(lines);
}

describe('hook-replay.mjs', () => {
  it('should replay the first file given too, without --agent-version', () => {
    // the files first: an option in front (index 0) took the drop before
    const a = write('claude-code/p/aaaa0000-0000-4000-8000-000000000001.jsonl', session('aaaa0000-0000-4000-8000-000000000001', 2));
    const b = write('claude-code/p/bbbb0000-0000-4000-8000-000000000002.jsonl', session('bbbb0000-0000-4000-8000-000000000002', 2));
    const r = spawnSync(process.execPath, [join('scripts', 'devset', 'hook-replay.mjs'), a, b], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^aaaa0000-0000-4000-8000-000000000001 claude-code 0 prompts, 2 of 2 calls sent: quiet$/);
    expect(lines[1]).toMatch(/^bbbb0000-0000-4000-8000-000000000002 claude-code 0 prompts, 2 of 2 calls sent: quiet$/);
  });
});
