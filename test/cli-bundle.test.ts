/**
 * The bundled command (`dist/src/bin/loopwatch.js`, what the package's `bin` runs) against the same command
 * as tsc's modules: the same output and exit code for each command, with the paths it finds relative to
 * itself (the pool's worker, the hook bundle, package.json, the bench suite) resolving from the bundle.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLI, CLI_MODULES, tempDir, writeJsonl } from './helpers/cli.js';

function run(entry: string, args: readonly string[], input = ''): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [entry, ...args], { input, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A trace with loops in it: one session repeating a call, one alternating, one quiet. */
function trace(): string {
  const lines: unknown[] = [];
  for (let i = 0; i < 12; i++) {
    lines.push({ session: 'stuck', tool: 'read_file', args: { path: '/a.py' }, result: 'same text' });
    lines.push({ session: 'flip', tool: i % 2 === 0 ? 'read' : 'edit', args: { path: '/b.py' }, result: `r${i % 2}` });
    lines.push({ session: 'quiet', tool: 'ls', args: { dir: `/d${i}` }, result: `listing ${i}` });
  }
  return writeJsonl(tempDir(), 'trace.jsonl', lines);
}

describe('the bundled command', () => {
  it('is what the package names as its bin', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { bin: Record<string, string> };
    expect(pkg.bin.loopwatch).toBe('dist/src/bin/loopwatch.js');
  });

  const file = trace();
  const cases: [string, string[]][] = [
    ['--version', ['--version']],
    ['--help', ['--help']],
    ['scan --jsonl in the calling thread', ['scan', file, '--jsonl', '--workers', '1']],
    ['scan --jsonl with a worker thread (the pool finds its worker module)', ['scan', file, '--jsonl', '--workers', '2']],
    ['scan summary', ['scan', file, '--no-progress']],
    ['explain', ['explain', file, '--session', 'stuck']],
    ['an unknown command', ['nonsense']],
    ['hook install --print', ['hook', 'install', '--agent', 'claude-code', '--print']],
  ];
  for (const [name, args] of cases) {
    it(`${name}: the same output and exit code as the modules`, () => {
      const bundled = run(CLI, args);
      const modules = run(CLI_MODULES, args);
      expect(bundled.code).toBe(modules.code);
      // the summary's timing line differs from run to run
      const untimed = (s: string): string => s.replace(/ in [\d.]+ s \([\d,]+ calls\/s\)/, '');
      expect(untimed(bundled.stdout)).toBe(untimed(modules.stdout));
      expect(bundled.stderr.replaceAll('dist/src/bin/loopwatch.js', 'X')).toBe(modules.stderr.replaceAll('dist/src/cli/main.js', 'X'));
    });
  }

  it('runs a hook call through the hook bundle', () => {
    const payload = JSON.stringify({ session_id: 's1', hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: '/x' }, cwd: tempDir() });
    const dir = tempDir();
    const bundled = run(CLI, ['hook', '--agent', 'claude-code', '--state-dir', dir], payload);
    expect(bundled.code).toBe(0);
    expect(bundled.stderr).toBe('');
  });
});
