/**
 * `scan` names its output files on stderr terminal-safe: a path holding ESC, BEL, C1 or a bidirectional
 * control (a folder named by a cloned repository, a CI variable) is printed as escapes in "HTML report
 * written to", "metrics written to" and the `--metrics` failure, where Node's message quotes the path again.
 * Before, those three lines printed it raw (OSC 0 retitled the terminal, U+202E reversed the line), while
 * `--html`'s and `--output`'s usage errors were already escaped. Through the CLI's `main`.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeJsonl } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';

const NAME = 'r\u001b]0;owned\u0007\u001b[2J\u009b31m\u202e\u2066';
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('scan prints its output paths terminal-safe', () => {
  const dir = tempDir();
  const input = writeJsonl(dir, 'calls.jsonl', [1, 2, 3].map(() => ({ session: 's', tool: 'Bash', args: { command: 'make' }, error: 'Exit code 2' })));

  it('should escape the paths it wrote to', async () => {
    const html = join(dir, `${NAME}.html`);
    const metrics = join(dir, `${NAME}.prom`);
    const r = await loopwatchInProcess(['scan', input, '--html', html, '--metrics', metrics, '--no-progress', '--fail-on', 'never']);
    expect(r.code).toBe(0);
    expect(readFileSync(html, 'utf8')).toContain('<html');
    expect(readFileSync(metrics, 'utf8')).toContain('loopwatch_');
    expect(r.stderr).toContain('HTML report written to ');
    expect(r.stderr).toContain('metrics written to ');
    expect(r.stderr).toContain('r\\x1b]0;owned\\x07\\x1b[2J\\x9b31m\\u202e\\u2066');
    expect(r.stderr).not.toMatch(RAW);
  }, 60_000);

  it("should escape a --metrics path that cannot be written, and Node's message quoting it", async () => {
    const folder = join(dir, NAME);
    mkdirSync(folder);
    const r = await loopwatchInProcess(['scan', input, '--metrics', folder, '--no-progress', '--fail-on', 'never']);
    expect(r.stderr).toMatch(/loopwatch scan: --metrics .*r\\x1b\]0;owned.*: cannot write the file \(it is a folder\)/);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(RAW);
  }, 60_000);
});
