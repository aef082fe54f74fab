/**
 * A session ended early to stay within `--max-sessions` and seen again goes on with its calls numbered on,
 * and so do its verdicts: loop start, unit and the message's "since call #N" agree with the call's index
 * (they restarted from 0 while the index went on: `index 6, loopStart 0` where 4 was right).
 */
import { describe, expect, it } from 'vitest';
import { tempDir, verdictLines, writeJsonl } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';

const call = (session: string, command: string) => ({ session, tool: 'bash', args: { command }, result: 'FAILED' });

describe('numbering after a session restarts', () => {
  // a: 3 different calls, then b pushes a out (--max-sessions 1), then a repeats one call 4 times
  const dir = tempDir();
  const file = writeJsonl(dir, 'restart.jsonl', [call('a', 'ls'), call('a', 'pwd'), call('a', 'cat x'), call('b', 'ls'), ...Array.from({ length: 4 }, () => call('a', 'make'))]);

  it.each(['0', '2'])('should number the verdicts of the second run on from the first (workers %s)', async (workers) => {
    const run = await loopwatchInProcess(['scan', file, '--jsonl', '--max-sessions', '1', '--workers', workers]);
    const lines = verdictLines(run.stdout);
    expect(lines.map((l) => [l.session, l.index, l.loopStart])).toEqual([
      ['a', 5, 3],
      ['a', 6, 3],
    ]);
    for (const l of lines) expect(l.message).toContain(`since call #${(l.loopStart as number) + 1})`); // counted from 1 for a person (call-number.ts)
    expect(run.stderr).toContain('2 sessions were ended early to keep at most 1 live');
  });

  it('should report the session once, ended early, with its first verdict numbered on', async () => {
    const doc = JSON.parse((await loopwatchInProcess(['scan', file, '--json', '--max-sessions', '1', '--workers', '0'])).stdout) as { sessions: { session: string; calls: number; endedEarly: boolean; firstVerdict: { index: number; loopStart: number } | null }[] };
    expect(doc.sessions.map((s) => [s.session, s.calls, s.endedEarly, s.firstVerdict?.index, s.firstVerdict?.loopStart])).toEqual([
      ['a', 7, true, 5, 3],
      ['b', 1, true, undefined, undefined],
    ]);
  });
});
