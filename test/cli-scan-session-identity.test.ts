/**
 * A session is its input file and its id: the same id in two files (two models' `task-1.jsonl`, or a
 * `.jsonl` beside its `.jsonl.gz`) is two sessions, never merged; the summary, `--json` and `--jsonl` name
 * the file beside the id, and `explain` refuses an id found in several inputs, naming them.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, verdictLines, writeJsonl } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';

const loop = (n: number) => Array.from({ length: n }, () => ({ session: 'task-1', tool: 'bash', args: { command: 'make test' }, result: 'FAILED' }));

describe('sessions are a file and an id', () => {
  const dir = tempDir();
  mkdirSync(join(dir, 'modelA'));
  mkdirSync(join(dir, 'modelB'));
  const a = writeJsonl(dir, 'modelA/task-1.jsonl', loop(4));
  const b = writeJsonl(dir, 'modelB/task-1.jsonl', loop(4));

  it('should keep the same id in two folders apart (4 calls each, not one session of 8)', async () => {
    const run = await loopwatchInProcess(['scan', dir, '--json', '--workers', '0']);
    const doc = JSON.parse(run.stdout) as { summary: { sessions: number; events: number }; sessions: { session: string; file: string; calls: number }[] };
    expect(doc.summary).toMatchObject({ sessions: 2, events: 8 });
    expect(doc.sessions.map((s) => [s.file, s.session, s.calls])).toEqual([
      [a, 'task-1', 4],
      [b, 'task-1', 4],
    ]);
    // 4 identical failing calls: a warning at the 3rd and a break at the 4th in each file; merged, 8 in a row
    const lines = verdictLines((await loopwatchInProcess(['scan', dir, '--jsonl', '--workers', '2'])).stdout);
    expect(lines.map((l) => [l.file, l.session, l.index, l.action])).toEqual([
      [a, 'task-1', 2, 'warn'],
      [a, 'task-1', 3, 'break'],
      [b, 'task-1', 2, 'warn'],
      [b, 'task-1', 3, 'break'],
    ]);
  });

  it('should keep a .jsonl and its .jsonl.gz apart, and name both files in the summary', async () => {
    const d = tempDir();
    const plain = writeJsonl(d, 'run.jsonl', loop(6));
    const gz = writeJsonl(d, 'run.jsonl.gz', loop(6));
    const run = await loopwatchInProcess(['scan', d, '--workers', '0']);
    expect(run.stdout).toContain('loopwatch scan: 2 sessions, 12 calls');
    const rows = run.stdout.split('\n').filter((l) => l.startsWith('  task-1'));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(new RegExp(`${plain.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`));
    expect(rows[1]).toMatch(new RegExp(`${gz.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`));
  });

  it('should refuse to explain an id found in several inputs, naming them, and explain it in one', async () => {
    const both = await loopwatchInProcess(['explain', 'task-1', dir]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain(`session "task-1" is in 2 inputs (${a}, ${b})`);
    const one = await loopwatchInProcess(['explain', 'task-1', b]);
    expect(one.code).toBe(0);
    expect(one.stdout).toContain(`session task-1, 4 calls from ${b}`);
  });
});
