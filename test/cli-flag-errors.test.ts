/**
 * Bad command lines: every bad flag value is one line on stderr naming the flag, the rule and the value,
 * with exit code 2 (never a stack trace, never 1, which means loops were found); unknown flags and commands
 * get the closest known one; a worker count the session cap cannot be spread over is lowered and said.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_LIVE_SESSIONS, MIN_CORES_FOR_WORKERS, checkerThreads, defaultCheckerThreads } from '../src/cli/scan/session-checker.js';
import { loopwatch, tempDir, writeJsonl } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';

const dir = tempDir();
const file = writeJsonl(dir, 'calls.jsonl', Array.from({ length: 6 }, () => ({ session: 'a', tool: 'bash', args: { command: 'make' } })));

describe('loopwatch flag errors', () => {
  it.each([
    [['--max-sessions', '10000000'], '--max-sessions must be an integer from 1 to 9,999,999, received "10000000"'],
    [['--workers', '300'], '--workers must be an integer from 0 to 256, received "300"'],
    [['--workers', '-1'], '--workers needs a value (write --workers=VALUE for one that starts with -)'],
    [['--workers=-1'], '--workers must be an integer from 0 to 256, received "-1"'],
    [['--batch-size', '0'], '--batch-size must be an integer from 1 to 65,536, received "0"'],
    [['--batch-size', '1e3'], '--batch-size must be an integer from 1 to 65,536, received "1e3"'],
    [['--min-action', 'brake'], '--min-action must be one of warn, ask, break, received "brake" (did you mean break?)'],
    [['--jsn'], 'unknown flag --jsn (did you mean --json?)'],
    [['--json=yes'], '--json takes no value'],
    [['--format'], '--format needs a value'],
  ])('should refuse scan %j in one line naming the flag, exit 2', async (flags, message) => {
    const run = await loopwatchInProcess(['scan', file, ...flags]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`loopwatch scan: ${message} (see loopwatch scan --help)\n`);
    expect(run.stdout).toBe('');
  });

  it('should lower a --max-sessions the WebAssembly memory cannot hold under --config, naming the window, and scan with it; the default silently', async () => {
    writeFileSync(join(dir, 'long-rings.json'), JSON.stringify({ detectors: { stateRepeat: { window: 10_000 } } }));
    const config = ['--config', join(dir, 'long-rings.json')];
    const given = await loopwatchInProcess(['scan', file, ...config, '--max-sessions', '100000', '--json']);
    expect(given.stderr).toBe('loopwatch: --max-sessions 100000 lowered to 60911: under these detection options a session takes 67.8 KiB of WebAssembly memory (its rings are as long as the windows; the longest: detectors.stateRepeat.window = 10,000), and each thread must be able to hold every live session\n');
    expect(given.code).toBe(1);
    const byDefault = await loopwatchInProcess(['scan', file, ...config, '--json']);
    expect(byDefault.stderr).toBe('');
    expect(JSON.parse(byDefault.stdout).sessions).toEqual(JSON.parse(given.stdout).sessions);
  });

  it('should suggest the closest command, and the closest flag of demo and explain', async () => {
    expect(loopwatch(['scna', file])).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown command "scna" (did you mean scan?') });
    expect(loopwatch(['demo', '--sesions', '5'])).toMatchObject({ code: 2, stderr: 'loopwatch demo: unknown flag --sesions (did you mean --sessions?) (see loopwatch demo --help)\n' });
    expect(loopwatch(['explain', 'a', file, '--arond', '2'])).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown flag --arond (did you mean --around?)') });
  });

  it('should check with the calling thread alone by default below 4 cores, and with every core from 4 up', async () => {
    expect([1, 2, 3].map(defaultCheckerThreads)).toEqual([1, 1, 1]);
    expect(defaultCheckerThreads(MIN_CORES_FOR_WORKERS)).toBe(MIN_CORES_FOR_WORKERS);
    expect(defaultCheckerThreads(16)).toBe(16);
  });

  it('should lower a worker count the session cap cannot be spread over, say so, and scan with it', async () => {
    // 100 threads of 100,000 sessions each would pass the engine's limit of 10,000,000 sessions: 99 it is
    expect(checkerThreads(100, 100_000)).toBe(99);
    expect(checkerThreads(100, MAX_LIVE_SESSIONS)).toBe(1);
    expect(checkerThreads(0, MAX_LIVE_SESSIONS)).toBe(0);
    // sessions small enough for a thread's WebAssembly memory to hold 5,000,000 of them
    writeFileSync(join(dir, 'small-sessions.json'), JSON.stringify({ detectors: { exactRepeat: true, frequency: false, cycle: false, semantic: false, similarArgs: false, resultRepeat: false, deadEnd: false, stateRepeat: false, chanting: false } }));
    const small = ['--config', join(dir, 'small-sessions.json')];
    const lowered = await loopwatchInProcess(['scan', file, ...small, '--workers', '3', '--max-sessions', '4999999', '--json']);
    expect(lowered.stderr).toBe('loopwatch: --workers 3 lowered to 2: each thread must be able to hold all --max-sessions 4999999 live sessions, and all threads together at most 10000000\n');
    expect(lowered.code).toBe(1);
    const biggest = await loopwatchInProcess(['scan', file, ...small, '--max-sessions', String(MAX_LIVE_SESSIONS), '--json']);
    expect(biggest.stderr).toBe('');
    expect(biggest.code).toBe(1);
    expect(JSON.parse(biggest.stdout).sessions).toEqual(JSON.parse(lowered.stdout).sessions);
  });
});
