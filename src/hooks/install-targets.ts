/**
 * Where each agent reads its hooks and what loopwatch's entries look like there, as their docs say:
 *
 * | agent       | user file                          | project file            | events (matcher)                                   | timeout unit |
 * |-------------|------------------------------------|-------------------------|----------------------------------------------------|--------------|
 * | claude-code | $CLAUDE_CONFIG_DIR or ~/.claude/settings.json | .claude/settings.json | PreToolUse, PostToolUse, PostToolUseFailure, PermissionDenied ("*"), PostToolBatch (async), UserPromptSubmit, SessionEnd, SubagentStop (async), Interrupt (async) | seconds |
 * | codex       | $CODEX_HOME or ~/.codex/hooks.json | .codex/hooks.json       | PreToolUse, PostToolUse ("*"), UserPromptSubmit, SessionEnd (timeout 3) | seconds |
 * | gemini      | ~/.gemini/settings.json            | .gemini/settings.json   | BeforeTool, AfterTool ("*"), BeforeAgent, SessionEnd | milliseconds |
 *
 * The prompt events (UserPromptSubmit, BeforeAgent) give the session a fresh start (src/live/fresh-start.ts).
 *
 * Every file holds `{"hooks": {"<event>": [{"matcher": ..., "hooks": [{"type": "command", "command": ...}]}]}}`.
 */
import { join } from 'node:path';
import type { AgentName } from './hook-agent.js';
import { homeFolder } from './state-dir.js';

/** Whose settings: the user's, or the project's (the current directory). */
export type InstallScope = 'user' | 'project';

/** One event loopwatch hooks into, and the matcher of its group (absent: the event has none). */
export interface HookEvent {
  readonly event: string;
  readonly matcher?: string;
  /**
   * Run in the background (Claude Code's `async: true`): the agent does not wait for it, for an event whose
   * answer says nothing to the agent (PostToolBatch: one more process a model turn, never waited for).
   */
  readonly async?: true;
  /**
   * The handler's timeout for this event, in the agent's unit, where the agent allows less than the others'
   * (Codex 0.171 clamps SessionEnd's to 3 s and shows "clamping SessionEnd hook timeout to 3s" in `/hooks`).
   */
  readonly timeout?: number;
}

/** An agent's settings for loopwatch. */
export interface InstallTarget {
  /** The settings file. */
  readonly path: string;
  /** The events loopwatch's command is added to. */
  readonly events: readonly HookEvent[];
  /** loopwatch's handler, for a command line. */
  handler(command: string): Record<string, unknown>;
  /** What the user must still do, if anything (said after an install). */
  readonly note?: string;
}

/** Seconds an agent lets the hook run before it gives up on it (and runs the call). */
const TIMEOUT_S = 10;

/** The most Codex lets a SessionEnd hook run (0.171 clamps a longer one, with a warning in `/hooks`). */
const CODEX_SESSION_END_TIMEOUT_S = 3;

function dirOf(env: NodeJS.ProcessEnv, variable: string, fallback: string): string {
  const v = env[variable];
  return v !== undefined && v !== '' ? v : join(homeFolder(env), fallback);
}

/**
 * Gemini CLI loads a trusted folder's `.env` into its hooks' environment, and runs each hook with `bash -c`:
 * BASH_ENV or LD_PRELOAD there run the project's code before any hook command, which no command line can
 * refuse. Its `advanced.excludedEnvVars` (merged by union: a project cannot take the user's out) does.
 */
const GEMINI_ENV_NOTE = 'Gemini CLI loads a trusted folder\'s .env into its hooks\' environment, where BASH_ENV or LD_PRELOAD run the project\'s code before any hook command starts; to keep them out, list them in ~/.gemini/settings.json: "advanced": {"excludedEnvVars": ["DEBUG", "DEBUG_MODE", "BASH_ENV", "LD_PRELOAD", "LD_LIBRARY_PATH", "NODE_OPTIONS"]} (docs/hooks.md)';

/** The settings of `agent` for `scope` (`cwd`: the project's directory). */
export function installTarget(agent: AgentName, scope: InstallScope, cwd: string, env: NodeJS.ProcessEnv = process.env): InstallTarget {
  switch (agent) {
    case 'claude-code':
      return {
        path: scope === 'user' ? join(dirOf(env, 'CLAUDE_CONFIG_DIR', '.claude'), 'settings.json') : join(cwd, '.claude', 'settings.json'),
        events: [{ event: 'PreToolUse', matcher: '*' }, { event: 'PostToolUse', matcher: '*' }, { event: 'PostToolUseFailure', matcher: '*' }, { event: 'PermissionDenied', matcher: '*' }, { event: 'PostToolBatch', async: true }, { event: 'UserPromptSubmit' }, { event: 'SessionEnd' }, { event: 'SubagentStop', async: true }, { event: 'Interrupt', async: true }],
        handler: (command) => ({ type: 'command', command, timeout: TIMEOUT_S }),
      };
    case 'codex':
      return {
        path: scope === 'user' ? join(dirOf(env, 'CODEX_HOME', '.codex'), 'hooks.json') : join(cwd, '.codex', 'hooks.json'),
        events: [{ event: 'PreToolUse', matcher: '*' }, { event: 'PostToolUse', matcher: '*' }, { event: 'UserPromptSubmit' }, { event: 'SessionEnd', timeout: CODEX_SESSION_END_TIMEOUT_S }],
        handler: (command) => ({ type: 'command', command, timeout: TIMEOUT_S }),
        note: 'Codex runs a new hook only once you have reviewed and trusted it in the interactive codex (/hooks); until then codex exec skips it without a word (automation that vets its hooks: codex exec --dangerously-bypass-hook-trust). Codex before 0.124 also needs [features] codex_hooks = true in config.toml.',
      };
    case 'gemini':
      return {
        path: scope === 'user' ? join(homeFolder(env), '.gemini', 'settings.json') : join(cwd, '.gemini', 'settings.json'),
        events: [{ event: 'BeforeTool', matcher: '*' }, { event: 'AfterTool', matcher: '*' }, { event: 'BeforeAgent' }, { event: 'SessionEnd' }],
        handler: (command) => ({ name: 'loopwatch', type: 'command', command, timeout: TIMEOUT_S * 1000, description: 'loop detection (loopwatch)' }),
        note: GEMINI_ENV_NOTE,
      };
  }
}

/**
 * Characters of a hook command read (64 KiB; the line install writes is a few hundred): a settings file of
 * 16 MiB holding one command gives no regex megabytes to walk.
 */
export const MAX_COMMAND_CHARS = 64 * 1024;

/**
 * Whether a hook command is loopwatch's: it runs `loopwatch hook` (by name, through npx, or as
 * `node .../dist/src/cli/main.js hook`) or the hook's own entry `.../dist/hook/hook-main.cjs` (as install
 * writes it), within its first {@link MAX_COMMAND_CHARS} characters. Uninstall removes exactly these.
 */
export function isLoopwatchCommand(command: unknown): boolean {
  return typeof command === 'string' && /(?:\bloopwatch|\/dist\/src\/cli\/main\.js)['"]?\s+hook(?:\s|$)|\/dist\/hook\/hook-main\.cjs['"]?(?:\s|$)/.test(command.slice(0, MAX_COMMAND_CHARS));
}

