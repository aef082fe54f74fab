/**
 * Catch-all `allow` rules: a rule that covers every shell command rather than the calls meant to repeat.
 * A project's `.loopwatch.json` comes with the repository the agent works in (a cloned project's too), so
 * its rules are refused when they are catch-alls (project-allowlist.ts); the user's own `allow` option
 * (`--config`, the library) is the user's choice and is not checked. A rule is a catch-all when
 *
 * - it names a shell tool (SHELL_TOOLS) and no `command` pattern: every command of that tool; or
 * - its `command` pattern matches at least half of PROBE_COMMANDS (probe-commands.ts), unrelated commands
 *   no rule meant for one repeating command matches more than one or two of (`.`, `$`, `\w`, `[a-z]`, `s`),
 *   and it names no tool or a shell tool (a rule for another tool covers no more than that tool).
 *
 * Rules narrow one by one may still cover everything together (`^a` … `^z`): covering-rules.ts judges a
 * file's rules together.
 */
import type { ResolvedAllowRule } from './allow-rules.js';
import { PROBE_COMMANDS } from './probe-commands.js';

/** The tools whose `command` argument is a shell command (Claude Code, Codex CLI, Gemini CLI, ACP). */
export const SHELL_TOOLS: ReadonlySet<string> = new Set(['Bash', 'PowerShell', 'run_shell_command', 'exec_command', 'shell', 'local_shell', 'mcp__acp__Bash']);

/** The unrelated commands a rule is tried on (probe-commands.ts): one matching at least half of them is a catch-all. */
export { PROBE_COMMANDS } from './probe-commands.js';

/** Why `rule` is a catch-all (see the header), or null when it is not. */
export function catchAllRule(rule: ResolvedAllowRule): string | null {
  const shell = rule.tool === undefined || SHELL_TOOLS.has(rule.tool);
  if (!shell) return null;
  if (rule.command === undefined) return `it allows every command of ${rule.tool}`;
  const hits = PROBE_COMMANDS.filter((c) => (rule.command as RegExp).test(c));
  if (hits.length * 2 < PROBE_COMMANDS.length) return null;
  return `its command matches ${hits.length} of ${PROBE_COMMANDS.length} unrelated commands such as ${JSON.stringify(hits[0])}`;
}
