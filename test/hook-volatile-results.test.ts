/**
 * The same call with the same output, as Claude Code and Gemini CLI report it today, is the same outcome
 * through `loopwatch hook` (the first and the last of a session's five calls as hook processes, as the agents
 * run it, the three between through the same command in this process, on the same state files): what differs between two
 * identical runs (a timing, a per-call file name, a process group id) is left out, so a call repeated with
 * an unchanged result is warned, then denied, then stopped.
 *
 * The payloads are written here, in the shapes the agents send:
 * - Claude Code: the Agent SDK's sdk-tools.d.ts (@anthropic-ai/claude-agent-sdk 0.3.336, Claude Code
 *   2.1.336; https://code.claude.com/docs/en/hooks#posttooluse-input): Bash's `tool_response` has
 *   `persistedOutputPath` (a new random file name per call when the output is too large to inline),
 *   `backgroundTaskId`; Glob's `durationMs`; the payload itself `duration_ms`.
 * - Gemini CLI: packages/core/src/tools/shell.ts (https://geminicli.com/docs/hooks/reference#aftertool):
 *   `llmContent` is `Output: ...`, then `Exit Code: N` when it is not 0 (no `error` field), then
 *   `Process Group PGID: N`, all inside `<untrusted_context>` tags from 0.49 on.
 */
import { describe, expect, it } from 'vitest';
import type { AgentName } from '../src/hooks/hook-agent.js';
import { hookInProcess } from './helpers/hook-in-process.js';
import { hook, proposeAction } from './helpers/hook-payloads.js';
import { tempFolder } from './helpers/temp-folder.js';

const dir = tempFolder('hook-volatile');

/**
 * Proposes one call five times in a session, each run recorded with `after(i)`; the actions it got. The
 * first run's two hooks through hook processes, the others through the hook command in this process on the
 * same state files (a hook process is ~0.1 CPU-s, this ~3 ms; what is checked is the reading of the results,
 * the same in both).
 */
async function repeat(agent: AgentName, session: string, before: Record<string, unknown>, after: (i: number) => Record<string, unknown>): Promise<string[]> {
  const actions: string[] = [];
  for (let i = 0; i < 5; i++) {
    const id = agent === 'gemini' ? {} : { tool_use_id: `toolu_${session}_${i}` };
    const run = i === 0 ? hook : hookInProcess;
    const b = await run(['--agent', agent, '--state-dir', dir], { ...before, session_id: session, ...id });
    expect(b.stderr).toBe('');
    const action = proposeAction(agent, b.stdout);
    actions.push(action);
    if (action === 'deny' || action === 'stop') continue;
    const a = await run(['--agent', agent, '--state-dir', dir], { ...after(i), session_id: session, ...id });
    expect(a.stderr).toBe('');
  }
  return actions;
}

const LADDER = ['allow', 'allow', 'warn', 'deny', 'stop'];

const claude = {
  transcript_path: '/home/dev/.claude/projects/-home-dev-app/s.jsonl',
  cwd: '/home/dev/app',
  permission_mode: 'default',
  prompt_id: '0b9d7c1e-6a52-4c8e-9f0e-3c1d2b4a5e6f',
};

describe('Claude Code results without their per-run fields', () => {
  it('should stop the same git log whose large output is saved under a new file name each run', async () => {
    const input = { command: 'git log --oneline', description: 'Show history' };
    const before = { ...claude, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: input };
    const after = (i: number): Record<string, unknown> => ({
      ...claude,
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: input,
      tool_response: {
        stdout: '6ba04d3c fix the pager\n8a841e9c add the karmada manager',
        stderr: '',
        interrupted: false,
        isImage: false,
        noOutputExpected: false,
        persistedOutputPath: `/home/dev/.claude/projects/-home-dev-app/s/tool-results/b${i}x7on7tw.txt`,
        persistedOutputSize: 39762,
      },
      duration_ms: 180 + i,
    });
    expect(await repeat('claude-code', 'cc-persisted', before, after)).toEqual(LADDER);
  });

  it('should stop the same MCP call whose large output Claude Code saved under a new file name each run', async () => {
    const input = { repo: 'app', pr: 7 };
    const before = { ...claude, hook_event_name: 'PreToolUse', tool_name: 'mcp__github__get_diff', tool_input: input };
    const text = (i: number): string => `<persisted-output>\nOutput too large (52.3KB). Full output saved to: /home/dev/.claude/projects/-home-dev-app/s/tool-results/mcp-github-get_diff-17${i}.txt\n\nPreview (first 2KB):\ndiff --git a/x b/x\n</persisted-output>`;
    const after = (i: number): Record<string, unknown> => ({
      ...claude,
      hook_event_name: 'PostToolUse',
      tool_name: 'mcp__github__get_diff',
      tool_input: input,
      tool_response: [{ type: 'text', text: text(i) }],
    });
    expect(await repeat('claude-code', 'cc-mcp-persisted', before, after)).toEqual(LADDER);
  });

  it('should stop the same Glob finding the same files in a different time each run', async () => {
    const input = { pattern: '**/*.config.ts' };
    const before = { ...claude, hook_event_name: 'PreToolUse', tool_name: 'Glob', tool_input: input };
    const after = (i: number): Record<string, unknown> => ({
      ...claude,
      hook_event_name: 'PostToolUse',
      tool_name: 'Glob',
      tool_input: input,
      tool_response: { durationMs: 14806 - 97 * i, numFiles: 0, filenames: [], truncated: false },
    });
    expect(await repeat('claude-code', 'cc-glob', before, after)).toEqual(LADDER);
  });

  it('should never deny the same Glob whose files change each run', async () => {
    const input = { pattern: 'src/**/*.ts' };
    const before = { ...claude, hook_event_name: 'PreToolUse', tool_name: 'Glob', tool_input: input };
    const after = (i: number): Record<string, unknown> => ({
      ...claude,
      hook_event_name: 'PostToolUse',
      tool_name: 'Glob',
      tool_input: input,
      tool_response: { durationMs: 12, numFiles: i + 1, filenames: Array.from({ length: i + 1 }, (_, k) => `src/f${k}.ts`), truncated: false },
    });
    const actions = await repeat('claude-code', 'cc-glob-new', before, after);
    expect(actions).not.toContain('deny');
    expect(actions).not.toContain('stop');
  });
});

const gemini = {
  transcript_path: '/home/dev/.gemini/tmp/6f1c2e/chats/session-2026-12-05T10-00-g1.json',
  cwd: '/home/dev/app',
  timestamp: '2026-12-05T10:00:06.901Z',
};

/** run_shell_command's llmContent as Gemini CLI 0.49+ writes it. */
function shellContent(output: string, exitCode: number, pgid: number): string {
  const lines = [`Output: ${output}`, ...(exitCode === 0 ? [] : [`Exit Code: ${exitCode}`]), `Process Group PGID: ${pgid}`];
  return `<untrusted_context>\n${lines.join('\n')}\n</untrusted_context>`;
}

describe('Gemini CLI shell results without their process group id', () => {
  const input = { command: 'npm test', description: 'Run the tests' };
  const before = { ...gemini, hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: input };

  it('should stop the same npm test failing the same way, each run in a new process group', async () => {
    const after = (i: number): Record<string, unknown> => ({
      ...gemini,
      hook_event_name: 'AfterTool',
      tool_name: 'run_shell_command',
      tool_input: input,
      tool_response: { llmContent: shellContent('FAIL test/a.test.ts\n  expected 2, received 3', 1, 20404 + 17 * i), returnDisplay: 'FAIL test/a.test.ts' },
    });
    expect(await repeat('gemini', 'gm-fail', before, after)).toEqual(LADDER);
  });

  it('should stop the same command printing the same output, each run in a new process group', async () => {
    const after = (i: number): Record<string, unknown> => ({
      ...gemini,
      hook_event_name: 'AfterTool',
      tool_name: 'run_shell_command',
      tool_input: { command: 'git status', description: `Check status ${i}` },
      tool_response: { llmContent: shellContent('On branch main\nnothing to commit, working tree clean', 0, 23244 + 5 * i), returnDisplay: 'On branch main' },
    });
    const status = { ...before, tool_input: { command: 'git status', description: 'Check status' } };
    expect(await repeat('gemini', 'gm-ok', status, after)).toEqual(LADDER);
  });

  it('should never deny npm test after each distinct edit, the failures going down', async () => {
    const actions: string[] = [];
    let calls = 0;
    const run = async (payload: Record<string, unknown>): Promise<string> => {
      // the first hook call a process, the rest in this process (the same state files)
      const r = await (calls++ === 0 ? hook : hookInProcess)(['--agent', 'gemini', '--state-dir', dir], { ...payload, session_id: 'gm-progress' });
      expect(r.stderr).toBe('');
      return r.stdout;
    };
    for (let i = 0; i < 5; i++) {
      const edit = { file_path: `/home/dev/app/src/f${i}.ts`, old_string: 'a', new_string: 'b' };
      await run({ ...gemini, hook_event_name: 'BeforeTool', tool_name: 'replace', tool_input: edit });
      await run({ ...gemini, hook_event_name: 'AfterTool', tool_name: 'replace', tool_input: edit, tool_response: { llmContent: `Successfully modified file: ${edit.file_path} (1 replacements).` } });
      actions.push(proposeAction('gemini', await run(before)));
      const failing = shellContent(`FAIL: ${5 - i} of 9 tests failed`, 1, 20404 + i);
      await run({ ...gemini, hook_event_name: 'AfterTool', tool_name: 'run_shell_command', tool_input: input, tool_response: { llmContent: failing, returnDisplay: 'FAIL' } });
    }
    expect(actions.filter((a) => a !== 'allow')).toEqual([]);
  });
});
