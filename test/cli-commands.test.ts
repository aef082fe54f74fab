/**
 * The CLI's commands as a new user meets them: help with examples for each, the version, the demo (the
 * README's first command), and the same verdicts whatever the worker count and batch size.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLI, loopwatch, tempDir, writeJsonl } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { traceDir } from './helpers/traces.js';
import { iterateFleet } from '../src/demo/fleet/fleet.js';
import { join } from 'node:path';

describe('loopwatch help and version', () => {
  it.each(['scan', 'demo', 'bench'])('should print help with examples for %s', async (command) => {
    const run = loopwatch([command, '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Usage: loopwatch ${command}`);
    expect(run.stdout).toContain('Examples:');
  });

  it('should print the package version, and the command list without a command', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(loopwatch(['--version']).stdout.trim()).toBe(pkg.version);
    const bare = loopwatch([]);
    expect(bare.code).toBe(2);
    expect(bare.stdout).toContain('Commands:');
    expect(loopwatch(['--help']).code).toBe(0);
  });
});

describe('loopwatch demo', () => {
  // 100 sessions (300 until s22): the demo's fleet costs ~8 ms of CPU a session, and what these tests assert
  // (the demo's lines, its scores the same on workers) holds at any size that has loops in it (21 of 60)
  it('should scan the synthetic fleet and score it against the injected truth', async () => {
    const run = await loopwatchInProcess(['demo', '--sessions', '100', '--workers', '1']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('loopwatch demo: 100 synthetic sessions (seed 42), scanned with this thread');
    expect(run.stdout).toContain('loopwatch scan: 100 sessions');
    expect(run.stdout).toContain('against the injected truth');
    expect(run.stdout).toMatch(/recall/);
    expect(run.stdout).toMatch(/precision/);
  }, 180_000); // demo runs in this process now (vitest's timer runs): past 60 s at load ~28

  it('should count as failed exactly the fleet calls that failed', async () => {
    const run = JSON.parse((await loopwatchInProcess(['demo', '--sessions', '120', '--workers', '0', '--json'])).stdout) as { summary: { events: number; toolFailures: number } };
    let calls = 0;
    let failed = 0;
    for (const s of iterateFleet({ sessions: 120, seed: 42 })) {
      calls += s.events.length;
      failed += s.events.filter((e) => e.error !== undefined).length;
    }
    expect(run.summary.events).toBe(calls);
    expect(failed).toBeGreaterThan(0);
    expect(failed).toBeLessThan(calls);
    expect(run.summary.toolFailures).toBe(failed);
  }, 180_000); // demo runs in this process now (vitest's timer runs): past 60 s at load ~28

  it('should give the same scores in this thread and on workers, as JSON', async () => {
    const inThread = JSON.parse((await loopwatchInProcess(['demo', '--sessions', '100', '--workers', '0', '--json'])).stdout) as { score: unknown; summary: { sessions: number } };
    const pooled = JSON.parse((await loopwatchInProcess(['demo', '--sessions', '100', '--workers', '2', '--json'])).stdout) as { score: unknown };
    expect(inThread.summary.sessions).toBe(100);
    expect(pooled.score).toEqual(inThread.score);
  }, 180_000); // demo runs in this process now (vitest's timer runs): past 60 s at load ~28
});

describe('loopwatch scan determinism', () => {
  const dir = tempDir();
  // 40 sessions interleaved: some repeat a failing call, some cycle, some work
  const lines: unknown[] = [];
  for (let c = 0; c < 30; c++) {
    for (let s = 0; s < 40; s++) {
      const kind = s % 4;
      const args = kind === 0 ? { command: 'make test' } : kind === 1 ? { path: c % 2 === 0 ? 'a.py' : 'b.py' } : { path: `f${c}_${s}.py` };
      lines.push({ session: `s${s}`, tool: kind === 0 ? 'bash' : 'read_file', args, result: kind === 0 ? 'error: 1 failed' : `content ${kind === 1 ? c % 2 : c}` });
    }
  }
  const file = writeJsonl(dir, 'fleet.jsonl', lines);

  it('should give identical verdict lines for any worker count, batch size and session cap above the live count', async () => {
    const reference = (await loopwatchInProcess(['scan', file, '--jsonl', '--workers', '0'])).stdout;
    expect(reference.split('\n').length).toBeGreaterThan(50);
    for (const args of [['--workers', '1', '--batch-size', '7'], ['--workers', '2'], ['--workers', '3', '--batch-size', '1'], ['--workers', '0', '--max-sessions', '40']]) {
      expect((await loopwatchInProcess(['scan', file, '--jsonl', ...args])).stdout, args.join(' ')).toBe(reference);
    }
  });

  it('should end the least recently used sessions beyond --max-sessions, say so, and stay deterministic', async () => {
    const one = await loopwatchInProcess(['scan', file, '--json', '--workers', '0', '--max-sessions', '10']);
    const two = await loopwatchInProcess(['scan', file, '--json', '--workers', '2', '--max-sessions', '10']);
    expect(one.stderr).toContain('sessions were ended early to keep at most 10 live (--max-sessions)');
    const a = JSON.parse(one.stdout) as { summary: { evictedSessions: number; flaggedSessions: number } ; sessions: unknown[] };
    const b = JSON.parse(two.stdout) as typeof a;
    expect(a.summary.evictedSessions).toBeGreaterThan(0);
    expect(b.sessions).toEqual(a.sessions);
  });

  it.skipIf(traceDir === null)('should give the same verdicts on the real traces with 1, 2 and 3 threads', async () => {
    const events = join(traceDir as string, 'events.jsonl.gz');
    const reference = (await loopwatchInProcess(['scan', events, '--jsonl', '--workers', '0'])).stdout;
    expect(reference.length).toBeGreaterThan(0);
    expect((await loopwatchInProcess(['scan', events, '--jsonl', '--workers', '1', '--batch-size', '333'])).stdout).toBe(reference);
    expect((await loopwatchInProcess(['scan', events, '--jsonl', '--workers', '3'])).stdout).toBe(reference);
  }, 180_000); // three whole scans in this thread: a spawned scan's test had no vitest timeout while spawnSync blocked
});

describe('loopwatch scan output to a pipe', () => {
  it('should go on without output when the reader stops early (loopwatch scan --jsonl | head -1), and exit 1 for the loops', async () => {
    const dir = tempDir();
    const lines = Array.from({ length: 4000 }, (_, i) => ({ session: `p${i % 20}`, tool: 'bash', args: { command: 'make test' }, result: 'error: 1 failed' }));
    const file = writeJsonl(dir, 'many.jsonl', lines);
    const r = spawnSync('bash', ['-c', `"${process.execPath}" "${CLI}" scan "${file}" --jsonl --workers 2 | head -1 >/dev/null; echo "status \${PIPESTATUS[0]}"`], { encoding: 'utf8' });
    expect(r.stdout).toContain('status 1');
    expect(r.stderr).toBe('loopwatch: standard output was closed; the rest of the output is dropped, the run goes on for its exit code\n');
  });
});
