/**
 * Hook payloads as each agent sends them (the shapes of test/fixtures/hooks/), made from scripted calls,
 * and the action an agent reads from loopwatch's reply; hook calls as child processes (one per hook call,
 * as agents run them), several at once.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AgentName } from '../../src/hooks/hook-agent.js';
import type { LiveAction } from '../../src/index.js';
import { CLI, type CliRun, HOOK_MAIN } from './cli.js';
import { hookInProcess } from './hook-in-process.js';
import type { ScriptedCall } from './live-scenarios.js';

/** Every agent. */
export const AGENTS: readonly AgentName[] = ['claude-code', 'codex', 'gemini'];

/** The fixture files' texts read so far, by agent and name (each is read once per worker process). */
const fixtureTexts = new Map<string, string>();

/** A fixture file of test/fixtures/hooks/<agent>/, parsed (a new object on every call). */
export function fixture(agent: AgentName, name: string): Record<string, unknown> {
  const key = `${agent}/${name}`;
  let text = fixtureTexts.get(key);
  if (text === undefined) fixtureTexts.set(key, (text = readFileSync(fileURLToPath(new URL(`../fixtures/hooks/${key}`, import.meta.url)), 'utf8')));
  return JSON.parse(text) as Record<string, unknown>;
}

/** The payload an agent sends before `call` runs (`id`: its tool-use id, where the agent has one). */
export function beforePayload(agent: AgentName, session: string, call: ScriptedCall, id: string): Record<string, unknown> {
  const p: Record<string, unknown> = { ...fixture(agent, 'before.json'), session_id: session, tool_name: call.tool, tool_input: call.args };
  if (agent === 'gemini') delete p.tool_use_id;
  else p.tool_use_id = id;
  return p;
}

/** The payload an agent sends after `call` ran, with its result or error (`n`: varies Codex's timings). */
export function afterPayload(agent: AgentName, session: string, call: ScriptedCall, id: string, n = 0): Record<string, unknown> {
  const failed = call.error !== undefined;
  const base = { ...fixture(agent, failed ? 'after-failure.json' : 'after-success.json'), session_id: session, tool_name: call.tool, tool_input: call.args };
  switch (agent) {
    case 'claude-code':
      return failed ? { ...base, tool_use_id: id, error: call.error } : { ...base, tool_use_id: id, tool_response: call.result };
    case 'codex':
      return { ...base, tool_use_id: id, tool_response: `Exit code: ${failed ? 1 : 0}\nWall time: ${(0.1 + n / 7).toFixed(1)} seconds\nOutput:\n${failed ? call.error : call.result}\n` };
    case 'gemini':
      return {
        ...base,
        tool_response: failed ? { llmContent: call.error, returnDisplay: call.error, error: { message: call.error, type: 'shell_execute_error' } } : { llmContent: call.result, returnDisplay: call.result },
      };
  }
}

/** The payload an agent sends when the user submits a new prompt (UserPromptSubmit, BeforeAgent). */
export function promptPayload(agent: AgentName, session: string): Record<string, unknown> {
  return { ...fixture(agent, 'prompt.json'), session_id: session };
}

/** A successful edit of `file` as each agent's edit tool makes it (Edit, apply_patch, replace). */
export function editCall(agent: AgentName, file: string): ScriptedCall {
  switch (agent) {
    case 'claude-code':
      return { tool: 'Edit', args: { file_path: file, old_string: 'gcc', new_string: 'cc' }, result: `The file ${file} has been updated.` };
    case 'codex':
      return { tool: 'apply_patch', args: { input: `*** Begin Patch\n*** Update File: ${file}\n-gcc\n+cc\n*** End Patch` }, result: `Success. Updated the following files:\nM ${file}` };
    case 'gemini':
      return { tool: 'replace', args: { file_path: file, old_string: 'gcc', new_string: 'cc' }, result: `Successfully modified file: ${file} (1 replacements).` };
  }
}

/** A read of `file` as each agent's read tool makes it. */
export function readCall(agent: AgentName, file: string): ScriptedCall {
  switch (agent) {
    case 'claude-code':
      return { tool: 'Read', args: { file_path: file }, result: `contents of ${file}` };
    case 'codex':
      return { tool: 'Bash', args: { command: `cat ${file}` }, result: `contents of ${file}` };
    case 'gemini':
      return { tool: 'read_file', args: { file_path: file }, result: `contents of ${file}` };
  }
}

/** The action an agent reads from loopwatch's reply to a call before it runs. */
export function proposeAction(agent: AgentName, stdout: string): LiveAction {
  if (stdout === '') return 'allow';
  const o = JSON.parse(stdout) as { continue?: boolean; systemMessage?: string; decision?: string; hookSpecificOutput?: { permissionDecision?: string; additionalContext?: string } };
  const h = o.hookSpecificOutput ?? {};
  if (agent === 'gemini') return o.continue === false ? 'stop' : o.decision === 'deny' ? 'deny' : o.decision === 'ask' ? 'ask' : 'warn';
  if (agent === 'codex') {
    if (h.permissionDecision === 'deny') return o.systemMessage === undefined ? 'deny' : 'stop';
    return o.systemMessage === undefined ? 'warn' : 'ask';
  }
  return o.continue === false ? 'stop' : h.permissionDecision === 'deny' ? 'deny' : h.permissionDecision === 'ask' ? 'ask' : 'warn';
}

/** Runs `loopwatch ...args` with `input` on stdin, without blocking the test's thread. */
export function loopwatchAsync(args: readonly string[], input: string, env: NodeJS.ProcessEnv = process.env, cwd?: string): Promise<CliRun> {
  return nodeAsync(CLI, args, input, env, cwd);
}

/**
 * Runs `node script ...args` with `input` on stdin, without blocking the test's thread (`env` and `cwd` as
 * given, else the test's).
 */
function nodeAsync(script: string, args: readonly string[], input: string, env: NodeJS.ProcessEnv = process.env, cwd?: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

/**
 * One hook call as an agent makes it: a process of the command `loopwatch hook install` writes into the
 * agents' settings, `node dist/hook/hook-main.cjs ...args` (`loopwatch hook` without the CLI around it: the
 * same hook command, bundle and code cache), the payload on stdin. ~0.03 CPU-s less a process than `loopwatch
 * hook` (no ES module loader, no command dispatch; 0.16 against 0.19 CPU-s, medians of 11 alternating, load
 * ~19), which tests about the CLI's `hook` command run with `loopwatchAsync(['hook', ...])`.
 */
export function hook(args: readonly string[], payload: unknown): Promise<CliRun> {
  return nodeAsync(HOOK_MAIN, args, typeof payload === 'string' ? payload : JSON.stringify(payload));
}

/**
 * A hook runner for one session's calls: its first `processes` calls hook processes ({@link hook}: the
 * entry, its stdin and exit code, as the agents run them), the rest the same command in this process on the
 * same state files (helpers/hook-in-process.ts: ~3 ms a call against ~0.1 CPU-s a process). For a test whose
 * point is what the hook decides, not the process it runs in.
 */
export function processesFirst(processes = 1): (args: readonly string[], payload: unknown) => Promise<CliRun> {
  let n = 0;
  return (args, payload) => (n++ < processes ? hook(args, payload) : hookInProcess(args, payload));
}

/**
 * Sends one Claude Code session's hook calls ({@link processesFirst}: the first `processes` as hook processes,
 * the rest in this process) with the state in `stateDir`, and gives each call's stdout; a call that exits
 * non-zero or prints on stderr fails the test (throws, with both).
 */
export function claudeCodeSender(stateDir: string, processes: number): (payload: unknown) => Promise<string> {
  const run = processesFirst(processes);
  return async (payload) => {
    const r = await run(['--agent', 'claude-code', '--state-dir', stateDir], payload);
    if (r.code !== 0 || r.stderr !== '') throw new Error(`hook exited ${r.code}, stderr: ${JSON.stringify(r.stderr)}`);
    return r.stdout;
  };
}

/** What one scripted call got through the hook: the proposal's action and reply, the record's reply. */
export interface HookStep {
  readonly propose: LiveAction;
  readonly proposeReply: string;
  /** The record's reply ('' for none), or null when the call was not run. */
  readonly recordReply: string | null;
  /** Everything the hook processes printed on stderr. */
  readonly stderr: string;
}

/**
 * Replays scripted calls of one session through `loopwatch hook`, one process per hook call, as the agent
 * would: each call proposed, and recorded with its outcome when it was allowed to run. With `processEvery`
 * n > 1, only the first call and every n-th after it go through hook processes, the others through the
 * same command in this process (helpers/hook-in-process.ts), on the same state files; with 0, none.
 */
export async function replayHook(agent: AgentName, session: string, calls: readonly ScriptedCall[], args: readonly string[], processEvery = 1): Promise<HookStep[]> {
  const steps: HookStep[] = [];
  for (const [i, c] of calls.entries()) {
    const id = `toolu_${session}_${i}`;
    const run = processEvery > 0 && i % processEvery === 0 ? hook : hookInProcess;
    const before = await run(['--agent', agent, ...args], beforePayload(agent, session, c, id));
    if (before.code !== 0) throw new Error(`hook exited ${before.code}: ${before.stderr}`);
    const propose = proposeAction(agent, before.stdout);
    if (propose === 'deny' || propose === 'stop') {
      steps.push({ propose, proposeReply: before.stdout, recordReply: null, stderr: before.stderr });
      continue;
    }
    const after = await run(['--agent', agent, ...args], afterPayload(agent, session, c, id, i));
    if (after.code !== 0) throw new Error(`hook exited ${after.code}: ${after.stderr}`);
    steps.push({ propose, proposeReply: before.stdout, recordReply: after.stdout, stderr: before.stderr + after.stderr });
  }
  return steps;
}

/** Runs `tasks` with at most `limit` at once; resolves with their results in order. */
export async function inParallel<T>(tasks: readonly (() => Promise<T>)[], limit: number): Promise<T[]> {
  const out: T[] = new Array<T>(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, tasks.length) }, async () => {
      while (next < tasks.length) {
        const i = next++;
        out[i] = await (tasks[i] as () => Promise<T>)();
      }
    }),
  );
  return out;
}

/** The reply to a call allowed unchecked: only the notice for the person (`systemMessage`, src/hooks/unchecked-notice.ts). */
export const UNCHECKED_REPLY = /^\{"systemMessage":"loopwatch could not check this call for loops and allowed it \(.*\); details on the hook's stderr"\}\n$/;
