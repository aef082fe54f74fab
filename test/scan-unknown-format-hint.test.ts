/**
 * newuser30: a scan that skipped an input in no known format says once, at its end, how to bring a custom
 * trajectory in (the events format, one JSON object a line: docs/cli.md). Before, the `unknown-format`
 * issue named the formats it knows and no way forward (newuser29).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONVERT_HINT } from '../src/cli/scan-command.js';
import { tempDir, writeJsonl } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';

describe('scan of an input in no known format', () => {
  it('should say once how to convert a custom trajectory to the events format', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'mine-1.jsonl'), '{"hello": 1, "n": 2}\n');
    writeFileSync(join(dir, 'mine-2.jsonl'), '{"hello": 3, "n": 4}\n');
    const run = await loopwatchInProcess(['scan', dir, '--workers', '0']);
    expect(run.code).toBe(2);
    expect(run.stderr.split('unknown-format').length - 1).toBe(2);
    expect(run.stderr.split(CONVERT_HINT).length - 1).toBe(1);
    expect(CONVERT_HINT).toContain('{"session": "run-1", "tool": "bash"');
  });

  it('should not say it when every input was read', async () => {
    const dir = tempDir();
    writeJsonl(dir, 'events.jsonl', [{ session: 'run-1', tool: 'bash', args: { command: 'ls' }, result: 'a' }]);
    const run = await loopwatchInProcess(['scan', dir, '--workers', '0']);
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain(CONVERT_HINT);
  });
});
