/**
 * `loopwatch serve` flags: every bad value or misplaced flag is one line naming the flag, exit 2, before
 * anything listens or connects; an unreachable NATS server is named the same way.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultStateDir, serveSettings } from '../src/cli/serve-command.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { tempFolder } from './helpers/temp-folder.js';

describe('loopwatch serve flags', () => {
  it.each([
    [['--port', '70000'], '--port must be an integer from 0 to 65,535'],
    [['--port', 'x'], '--port must be an integer'],
    [['--body-limit', '10'], '--body-limit must be an integer from 1024 to'],
    [['--prot', '1'], 'did you mean --port?'],
    [['--partitions', '4'], '--partitions is for a NATS worker: give --nats URL too'],
    [['--nats', 'nats://127.0.0.1:4222', '--port', '1'], '--port is for the HTTP server, not a NATS worker'],
    [['--nats', 'not a url'], '--nats must be a server URL'],
    [['--nats', 'nats://127.0.0.1:4222', '--partitions', '0'], '--partitions must be an integer from 1 to 1,024'],
    [['--nats', 'nats://127.0.0.1:4222', '--worker-id', 'a b'], '--worker-id must be 1 to 64 letters'],
    [['--no-state', '--state-dir', '/tmp/x'], '--no-state and --state-dir cannot be used together'],
    [['--preset', 'nope'], '--preset must be one of'],
  ])('should refuse %j in one line, exit 2', async (args, message) => {
    const r = await loopwatchInProcess(['serve', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('should keep state in serve-PORT for a port given, and in no shared folder for --port 0 unless --state-dir names one', async () => {
    const stateOf = (args: string[]): string | undefined => {
      const s = serveSettings(args);
      if (s.kind !== 'http') throw new Error('expected the HTTP server');
      return s.options.stateDir;
    };
    expect(stateOf(['--port', '8123'])).toBe(defaultStateDir(8123));
    // every server on a port the system chooses would share serve-0 and restore the others' sessions
    expect(stateOf(['--port', '0'])).toBeUndefined();
    expect(stateOf(['--port', '0', '--state-dir', '/tmp/lw-own'])).toBe('/tmp/lw-own');
    expect(stateOf(['--port', '8123', '--no-state'])).toBeUndefined();
  });

  it('should refuse a --max-sessions the WebAssembly memory cannot hold under --config in one line naming the window, exit 2', async () => {
    const dir = tempFolder('serve-flags');
    writeFileSync(join(dir, 'long-rings.json'), JSON.stringify({ detectors: { stateRepeat: { window: 10_000 } } }));
    const r = await loopwatchInProcess(['serve', '--config', join(dir, 'long-rings.json'), '--max-sessions', '100000']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--max-sessions 100000: .*detectors\.stateRepeat\.window = 10,000.*at most 60912 sessions/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('should name a NATS server it cannot reach, try again until --nats-connect-wait is spent, then exit 1 (not a usage error)', async () => {
    const r = await loopwatchInProcess(['serve', '--nats', 'nats://127.0.0.1:1', '--nats-connect-wait', '1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--nats nats:\/\/127\.0\.0\.1:1: connection refused; trying again in 0\.3 s \(attempt 1, up to --nats-connect-wait 1 s\)/);
    expect(r.stderr).toMatch(/--nats nats:\/\/127\.0\.0\.1:1: no NATS server reachable at nats:\/\/127\.0\.0\.1:1 \(connection refused\) after \d+ attempts in 1 s/);
  });

  it('should list serve in the main help', async () => {
    expect((await loopwatchInProcess(['--help'])).stdout).toContain('serve [options]');
    expect((await loopwatchInProcess(['serve', '--help'])).stdout).toContain('POST /v1/check');
  });
});
