/**
 * Whether a command runs inside an agent's shell rather than in the person's own terminal: what
 * `loopwatch hook trust` checks before it accepts a project's `.loopwatch.json` (hook-trust-command.ts).
 * A repository's README or a tool's output can tell the agent to run it, and an agent does what it reads.
 *
 * ```
 *   stdin not a terminal                     -> an agent's shell (Claude Code's Bash, Codex and Gemini CLI without a pty)
 *   an agent's variable in the environment   -> CLAUDECODE, GEMINI_CLI, CODEX_THREAD_ID, CODEX_SANDBOX*, ...
 *   an ancestor process named as an agent    -> claude, codex, gemini (or node running their packages): the pty
 *                                               Codex and Gemini CLI give a command is theirs, /proc says whose
 * ```
 *
 * A screen, not a wall: an agent told to (`env -i setsid -f script -qc ...`, or writing the marker itself)
 * gets past it; it has the person's rights. It stops the agent that runs the command as told.
 */
import { readFileSync } from 'node:fs';

/**
 * Variables the agents set in their commands' environment (the name's presence, any value). Measured
 * (s21, a shell command run by each through a mock model server, `env`): Codex CLI 0.171 sets
 * `CODEX_THREAD_ID`, `CODEX_SESSION_ID`, `CODEX_TOOL_CALL_ID`, `CODEX_VERSION` and `CODEX_CI` for every
 * command, `CODEX_MANAGED_BY_NPM` only when installed by npm, and no `CODEX_SANDBOX*` under
 * `danger-full-access` on Linux (those name macOS's seatbelt and a network-less sandbox); Gemini CLI 0.61
 * sets `GEMINI_CLI=1`. Claude Code could not be run here: it sets `CLAUDECODE=1` in its Bash tool's shell since
 * 0.2.47, by its maintainers' word (anthropics/claude-code issue 531); `CLAUDE_CODE_ENTRYPOINT` is unconfirmed.
 */
export const AGENT_VARIABLES: readonly string[] = Object.freeze([
  'CLAUDECODE',
  'CLAUDE_CODE_ENTRYPOINT',
  'GEMINI_CLI',
  'CODEX_THREAD_ID',
  'CODEX_SESSION_ID',
  'CODEX_TOOL_CALL_ID',
  'CODEX_CI',
  'CODEX_SANDBOX',
  'CODEX_SANDBOX_NETWORK_DISABLED',
  'CODEX_MANAGED_BY_NPM',
]);

/** A program name of an agent's CLI, or a path part of its package run by node. */
const AGENT_PROGRAM = /^(?:claude|codex|gemini)(?:-[a-z0-9-]+)?$|[\\/](?:@anthropic-ai[\\/]claude-code|@openai[\\/]codex|@google[\\/]gemini-cli)[\\/]/;

/** Ancestors looked at, at most (a chain longer than this is cut). */
const MAX_ANCESTORS = 64;

/** Characters of a process's command line read. */
const CMDLINE_LOOK = 4096;

/** What reads a process's parent and command line (/proc by default; injectable for a test of the walk). */
export interface ProcessTable {
  /** The parent's pid of `pid`, or null when not known. */
  parentOf(pid: number): number | null;
  /** The program name (comm) and the first two words of the command line of `pid`. */
  namesOf(pid: number): readonly string[];
}

/** /proc's table (Linux); elsewhere every read answers nothing. */
export const PROC_TABLE: ProcessTable = {
  parentOf(pid) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
      // `pid (comm) state ppid ...`: comm may hold ')' itself, the last one closes it
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      return Number.isInteger(ppid) && ppid > 0 ? ppid : null;
    } catch {
      return null;
    }
  },
  namesOf(pid) {
    const names: string[] = [];
    try {
      names.push(readFileSync(`/proc/${pid}/comm`, 'utf8').trim());
      names.push(...readFileSync(`/proc/${pid}/cmdline`, 'utf8').slice(0, CMDLINE_LOOK).split('\0').slice(0, 2));
    } catch {
      // gone, or not Linux
    }
    return names;
  },
};

/** `name` as a path's last part. */
function lastPart(name: string): string {
  return name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
}

/**
 * Why the running command looks like an agent's (see the header), or null when it looks like the person's
 * own terminal. Never throws.
 */
export function agentCaller(stdinTerminal: boolean, env: NodeJS.ProcessEnv = process.env, pid = process.ppid, table: ProcessTable = PROC_TABLE): string | null {
  if (!stdinTerminal) return 'its input is not a terminal';
  const variable = AGENT_VARIABLES.find((v) => env[v] !== undefined);
  if (variable !== undefined) return `its environment has ${variable}, which an agent sets for its commands`;
  let at: number | null = pid;
  for (let n = 0; at !== null && at > 1 && n < MAX_ANCESTORS; n++) {
    const agent = table.namesOf(at).find((name) => AGENT_PROGRAM.test(name) || AGENT_PROGRAM.test(lastPart(name)));
    if (agent !== undefined) return `it runs under ${JSON.stringify(lastPart(agent).slice(0, 80))} (pid ${at}), an agent's process`;
    at = table.parentOf(at);
  }
  return null;
}
