/**
 * The benchmark suite's command line (newuser18): `npm run bench -- --scope nosuch` printed an empty report
 * and exited 0, and `--time abc` printed "NaN ms per task"; a misspelt option threw a TypeError with
 * Node's stack. Each is now a one-line usage error naming the flag, the rule and the value (the known
 * scopes listed), exit 2, before anything is measured. Runs the built suite as `npm run bench` does.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BenchUsageError, readBenchArgs } from '../bench/bench-args.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SUITE = join(ROOT, 'dist/bench/index.js');
const SCOPES = [
  { id: 'core-objects', name: 'core: exact + frequency + cycle, args as objects' },
  { id: 'kernel', name: 'kernel' },
  { id: 'real', name: 'real' },
];

describe('the benchmark suite\'s command line', () => {
  it('should take the defaults and the scopes a part of an id or a name selects', () => {
    expect(readBenchArgs([], SCOPES)).toEqual({ scope: '', json: false, time: 400, sessions: [1, 1000, 10000], run: '', repeat: 1, fleetSessions: 10000, fleetCalls: 100 });
    expect(readBenchArgs(['--scope', 'core', '--time', '50', '--sessions', '1,100', '--repeat', '3', '--json'], SCOPES)).toMatchObject({ scope: 'core', time: 50, sessions: [1, 100], repeat: 3, json: true });
    expect(readBenchArgs(['--scope', 'frequency'], SCOPES).scope).toBe('frequency');
    expect(readBenchArgs(['--scope', 'real'], SCOPES).scope).toBe('real');
  });

  it('should refuse a scope that no scope\'s id or name contains, listing the scopes', () => {
    expect(() => readBenchArgs(['--scope', 'nosuch'], SCOPES)).toThrow(new BenchUsageError('--scope must be part of a scope\'s id or name, received "nosuch"; scopes: core-objects, kernel, real'));
  });

  it.each([
    [['--time', 'abc'], '--time must be a number above 0, received "abc"'],
    [['--time', '0'], '--time must be a number above 0, received "0"'],
    [['--sessions', '1,x'], '--sessions must be a whole number above 0, received "x"'],
    [['--sessions', ''], '--sessions must be a whole number above 0, received ""'],
    [['--repeat', '0'], '--repeat must be a whole number above 0, received "0"'],
    [['--repeat', '1.5'], '--repeat must be a whole number above 0, received "1.5"'],
    [['--fleet-sessions=-3'], '--fleet-sessions must be a whole number above 0, received "-3"'],
    [['--fleet-calls', 'many'], '--fleet-calls must be a whole number above 0, received "many"'],
  ])('should refuse %j', (argv, message) => {
    expect(() => readBenchArgs(argv, SCOPES)).toThrow(new BenchUsageError(message));
  });

  it('should refuse an unknown option in one line, naming the options', () => {
    expect(() => readBenchArgs(['--scop', 'kernel'], SCOPES)).toThrow(/^Unknown option '--scop'.*; options: --scope, --json, --time, --sessions, --repeat, --fleet-sessions, --fleet-calls$/);
  });

  it('should exit 2 with one line on stderr and measure nothing when the scope names none', () => {
    const run = spawnSync(process.execPath, [SUITE, '--scope', 'nosuch'], { encoding: 'utf8', timeout: 30_000 });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^loopwatch bench: --scope must be part of a scope's id or name, received "nosuch"; scopes: core-objects, .*, real\n$/);
    for (const id of ['serve', 'nats', 'hook', 'kernel', 'memory', 'rss', 'sketch', 'scan', 'real']) expect(run.stderr).toContain(` ${id}`);
  });

  it('should exit 2 on a time that is not a number rather than print "NaN ms per task"', () => {
    const run = spawnSync(process.execPath, [SUITE, '--scope', 'kernel', '--time', 'abc'], { encoding: 'utf8', timeout: 30_000 });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('loopwatch bench: --time must be a number above 0, received "abc"\n');
  });
});
