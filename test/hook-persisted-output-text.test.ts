/**
 * Claude Code's PostToolUse of a Bash call whose output holds many `<persisted-output>` blocks and no blank
 * line (7.6 MB, under the hook's 8 MB): the hook masks the blocks' paths before capping the text (so its
 * fingerprint does not move with the path) and did it in time quadratic in the blocks (3.4 MB: 9.9 s), past
 * every agent's hook timeout. Through the real hook process, killed after 30 s (by the child that runs it,
 * itself killed after 45 s).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runChildScript } from './helpers/child-run.js';
import { HOOK_MAIN, tempDir } from './helpers/cli.js';
import { afterPayload } from './helpers/hook-payloads.js';

const BLOCK = '<persisted-output>\nOutput too large (42KB). Full output saved to: /tmp/x/tool-results/b1.txt\n</persisted-output>';

describe("a Bash output of many persisted-output blocks, in Claude Code's PostToolUse", () => {
  // against integ (43c0a5d): killed at 30 s (about 50 s by its 9.9 s at 3.4 MB), 1 of 1 fails
  it('should be recorded by the hook process, which ends', { timeout: 60_000 }, async () => {
    const stdout = BLOCK.repeat(Math.floor((7.5 * 2 ** 20) / BLOCK.length));
    const payload = afterPayload('claude-code', 'blocks', { tool: 'Bash', args: { command: 'make' }, result: '' }, 'call_1');
    payload.tool_response = { stdout, stderr: '', interrupted: false, isImage: false };
    const state = join(tempDir(), 'state');
    // the payload written by the child itself: a 7.6 MB script text is no command line
    const run = await runChildScript(
      `import { spawnSync } from 'node:child_process';
const payload = ${JSON.stringify({ ...payload, tool_response: null })};
payload.tool_response = { stdout: ${JSON.stringify(BLOCK)}.repeat(${stdout.length / BLOCK.length}), stderr: '', interrupted: false, isImage: false };
const r = spawnSync(process.execPath, [${JSON.stringify(HOOK_MAIN)}, '--agent', 'claude-code', '--state-dir', ${JSON.stringify(state)}], { input: JSON.stringify(payload), encoding: 'utf8', timeout: 30000, killSignal: 'SIGKILL' });
console.log(JSON.stringify({ status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr }));`,
      45_000,
    );
    expect(run.killed).toBe(false);
    expect(run.code, run.stderr).toBe(0);
    const hook = JSON.parse(run.stdout) as { status: number | null; signal: string | null; stdout: string; stderr: string };
    expect(hook.signal).toBe(null); // the hook process killed at 30 s
    expect(hook.status, hook.stderr).toBe(0);
    expect(hook.stderr).toBe('');
  });
});
