/**
 * Readers that go away: a closed stdout (`loopwatch scan --jsonl | head`) or stderr stops that output, not
 * the run, and the exit code still says what the whole input holds (1: loops found, 2: input skipped),
 * never a crash with EPIPE.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI, tempDir, writeJsonl } from './helpers/cli.js';

const dir = tempDir();
const lines: unknown[] = [];
for (let s = 0; s < 2000; s++) for (let i = 0; i < 8; i++) lines.push({ session: `s${s}`, tool: 'bash', args: { command: 'make test' }, result: 'FAILED' });
const loops = writeJsonl(dir, 'loops.jsonl', lines);
const broken = writeJsonl(dir, 'broken.jsonl', [...lines.slice(0, 80), ...Array.from({ length: 3000 }, () => '{broken')]);

/** Runs the CLI and closes its stdout or stderr once the first bytes come; resolves to the exit code. */
function runClosing(args: string[], close: 'stdout' | 'stderr'): Promise<{ code: number | null; other: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const closing = child[close];
    const other = close === 'stdout' ? child.stderr : child.stdout;
    let text = '';
    other.on('data', (b: Buffer) => (text += b.toString()));
    closing.once('data', () => closing.destroy());
    child.on('close', (code) => resolve({ code, other: text }));
  });
}

describe('loopwatch with closed pipes', () => {
  it('should exit 1 when loops were found although stdout was closed after the first verdict line', async () => {
    const r = await runClosing(['scan', loops, '--jsonl', '--workers', '1'], 'stdout');
    expect(r.code).toBe(1);
    expect(r.other).toContain('standard output was closed');
    expect(r.other).not.toContain('EPIPE');
  });

  it('should exit 2 for skipped lines although stderr was closed after the first one, and still print the summary', async () => {
    const r = await runClosing(['scan', broken, '--workers', '1'], 'stderr');
    expect(r.code).toBe(2);
    expect(r.other).toContain('loopwatch scan: 10 sessions, 80 calls');
  });
});
