/**
 * A SWE-agent trajectory that keeps only its `history` (demonstrations are written so): each assistant
 * message with an `action` is a call, the message after it its result, the thought its text; a run repeating
 * one action is flagged. Before, the whole file was skipped (`bad-record`, exit 2).
 */
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir } = scratchDir('formats-swe-agent-history');
const system = { role: 'system', content: 'You are an autonomous programmer.', agent: 'main', message_type: 'system_prompt' };
const task = { role: 'user', content: 'Fix the failing import.', agent: 'main', message_type: 'observation' };
const act = (action: string, thought: string) => ({ role: 'assistant', content: `${thought}\n\`\`\`\n${action}\n\`\`\``, thought, action, agent: 'main', message_type: 'action' });
const seen = (content: unknown, role = 'user') => ({ role, content, agent: 'main', message_type: 'observation' });

describe('SWE-agent history-only trajectories', () => {
  it('should read each assistant action as a call, answered by the message after it', async () => {
    const file = join(dir, 'demo.traj');
    writeFileSync(file, JSON.stringify({ history: [system, task, act('find_file app.py', 'Find it.'), seen('Found 1 matches'), act('open "src/app.py"', ''), seen([{ type: 'text', text: '[File: src/app.py (3 lines total)]' }], 'tool'), { role: 'assistant', content: 'Done, no action.', agent: 'main' }, act('submit', 'Submit.')] }));
    expect((await collect([file])).map((i) => (i.kind === 'call' ? [i.session, i.event.tool, i.event.args, i.event.result ?? null, i.event.text ?? null, i.event.step, i.errorInfo] : [i.kind]))).toEqual([
      ['demo.traj', 'find_file', { command: 'find_file app.py' }, 'Found 1 matches', 'Find it.', 0, 'unknown'],
      ['demo.traj', 'open', { command: 'open "src/app.py"' }, '[File: src/app.py (3 lines total)]', null, 1, 'unknown'],
      ['demo.traj', 'submit', { command: 'submit' }, null, 'Submit.', 2, 'unknown'],
      ['end'],
    ]);
  });

  it('should flag a history repeating one action and its answer', async () => {
    const history: unknown[] = [system, task];
    for (let i = 0; i < 8; i++) history.push(act('python reproduce.py', 'Run it again.'), seen('ImportError: cannot import name "x"'));
    const file = join(dir, 'stuck.traj');
    writeFileSync(file, JSON.stringify({ history }));
    const { code, stdout } = await loopwatchInProcess(['scan', file, '--jsonl']);
    expect(code).toBe(1);
    expect(stdout.trim().split('\n').map((l) => JSON.parse(l) as { action: string }).some((v) => v.action === 'break')).toBe(true);
  });
});
