/**
 * `loopwatch serve --log FILE` keeps the hook routes' decision log under `LOOPWATCH_DECISION_LOG_MAX_BYTES`, as
 * the hook does; a value that is no size was taken as 64 MiB in silence (hostile34 made the hook say it): serve
 * now says it once on stderr at start, and serves as before. Without `--log` it says nothing of it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI } from './helpers/cli.js';
import { until } from './helpers/nats-run.js';

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup.splice(0)) c();
});

/** serve's stderr up to its listening line, then stopped: `log` given or not, with the bad bound in its environment. */
async function startLines(withLog: boolean): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'loopwatch-serve-logcap-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const args = [CLI, 'serve', '--port', '0', '--no-state', '--no-token', ...(withLog ? ['--log', join(dir, 'decisions.jsonl')] : [])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LOOPWATCH_DECISION_LOG_MAX_BYTES: 'lots' } });
  cleanup.push(() => child.kill('SIGKILL'));
  let log = '';
  child.stderr.on('data', (b: Buffer) => (log += b.toString('utf8')));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  await until('serve to listen', () => /listening on/.test(log), 30_000);
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  return log;
}

describe('loopwatch serve with a decision log bound that is no size', () => {
  it('should say it once at start when it keeps a decision log, and serve', async () => {
    const log = await startLines(true);
    const said = log.split('\n').filter((l) => l.includes('LOOPWATCH_DECISION_LOG_MAX_BYTES'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^loopwatch serve: LOOPWATCH_DECISION_LOG_MAX_BYTES="lots" is not a size \(.*\); the decision log is kept under 64 MiB$/);
  }, 60_000);

  it('should say nothing of it without a decision log', async () => {
    expect(await startLines(false)).not.toContain('LOOPWATCH_DECISION_LOG_MAX_BYTES');
  }, 60_000);
});
