/**
 * A scan with worker threads hands events-format lines that name their session in their first bytes over
 * unread (routed-lines.ts); the workers read them and send back each call's step and outcome. Whatever the
 * thread count and batch size, the verdict lines, the session reports and the issues are those of a scan
 * that reads every line in the calling thread: on sessions interleaved across two files with the same ids,
 * steps that are not call indices, failures, calls without args, lines not routed (an escape, another key
 * first), routed lines that hold no call (a tool of the wrong type, broken JSON, bad UTF-8, a SWE-agent
 * trajectory), and sessions ended early by `--max-sessions` that come back.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';

/** Lines of one file: sessions s0..s3 looping at times, with odd lines among them. */
function fileLines(seed: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < 120; i++) {
    const s = `s${(Math.floor(i / 10) * 3 + seed) % 4}`;
    const cmd = i % 5 === 0 ? `make ${i}` : `pytest -q ${(i >> 3) % 3}`;
    const rec: Record<string, unknown> = { session: s, step: 10 + 2 * i, tool: i % 9 === 0 ? 'str_replace_editor' : 'bash', args: { command: cmd }, result: i % 4 === 0 ? 'FAILED: 1 error' : 'ok' };
    if (i % 6 === 0) rec.error = 'exit 1';
    if (i % 11 === 0) delete rec.args;
    if (i % 13 === 0) rec.text = 'Let me try again. Let me try again.';
    out.push(JSON.stringify(rec).replace('{"session":', '{"session": '));
    if (i === 20) out.push('{"session": "s1", "tool": 5, "args": {}}');
    if (i === 30) out.push('{"session": "s2", "tool": "bash", "args": {"command": "ls"');
    if (i === 40) out.push('{"session": "s3", "tool": "bash", "args": {"command": "caf\u00e9 \\u00e9"}, "result": "ok"}');
    if (i === 50) out.push('{"tool": "bash", "session": "s0", "args": {"command": "ls"}}');
    if (i === 60) out.push('{"session": "s0", "tool": "bash", "trajectory": [], "args": {}}');
  }
  return out;
}

describe('scan with worker threads, lines handed over unread', () => {
  const dir = tempDir();
  const a = join(dir, 'a.jsonl');
  const b = join(dir, 'b.jsonl');
  writeFileSync(a, fileLines(0).join('\n') + '\n');
  // a line of bytes that are not UTF-8 in a routed record
  writeFileSync(b, Buffer.concat([Buffer.from(fileLines(3).join('\n') + '\n'), Buffer.from('{"session": "s1", "tool": "bash", "args": {"command": "'), Buffer.from([0xff, 0xfe]), Buffer.from('"}}\n')]));

  const run = async (extra: readonly string[]): Promise<{ stdout: string; stderr: string; doc: string }> => {
    const jsonl = await loopwatchInProcess(['scan', a, b, '--jsonl', '--min-action', 'warn', '--fail-on', 'never', '--no-progress', ...extra]);
    const doc = await loopwatchInProcess(['scan', a, b, '--json', '--fail-on', 'never', '--no-progress', ...extra]);
    return { stdout: jsonl.stdout, stderr: jsonl.stderr.split('\n').sort().join('\n'), doc: doc.stdout.replace(/"(seconds|millis|callsPerSecond|eventsPerSecond)": ?[0-9.e+-]+/g, '') };
  };

  it.each([
    ['--max-sessions', '100000'],
    ['--max-sessions', '2'],
  ])('should give what one thread gives, whatever the threads and batch size (%s %s)', async (flag, value) => {
    const one = await run(['--workers', '1', flag, value]);
    expect(one.stdout).not.toBe('');
    expect(one.stderr).toContain('skipped (bad-record)');
    expect(one.stderr).toContain('skipped (invalid-json)');
    expect(one.stderr).toContain('skipped (invalid-utf8)');
    for (const extra of [['--workers', '2'], ['--workers', '3'], ['--workers', '2', '--batch-size', '3']]) {
      const many = await run([...extra, flag, value]);
      expect(many.stdout).toBe(one.stdout);
      expect(many.stderr).toBe(one.stderr);
      expect(many.doc).toBe(one.doc);
    }
  }, 180_000); // eight scans in this thread (a spawned scan had no vitest timeout while spawnSync blocked)
});
