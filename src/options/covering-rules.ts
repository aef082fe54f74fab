/**
 * A project's `allow` rules judged together. catch-all-rule.ts refuses a rule that alone covers every
 * command; rules narrow one by one can still cover everything together (`^a` … `^z`, `^[a-m]` beside
 * `^[n-z]` and `^[^a-z]`, some for `Bash` and some for any tool), and rules naming the agent's own tools
 * (`Read`, `Edit`, `Grep`, ...) without a command allow every call the agent makes but its shell commands.
 * So, for a project's `.loopwatch.json` (project-allowlist.ts), a rule is refused when
 *
 * 1. it is a catch-all on its own (catchAllRule);
 * 2. it names one of AGENT_TOOLS and no `command`: every read, edit, search or fetch of the agent, the calls
 *    loops are made of (a tool meant to be polled, `job_status`, Codex's `write_stdin`, is not among them);
 * 3. the rules that apply to one shell tool together (those naming no tool, and those naming that tool)
 *    match at least 1/COVER_SHARE of PROBE_COMMANDS: then every one of them is refused, for that tool.
 *
 * The user's own `allow` option (`--config`, the library) is not judged: it is theirs, and the way to
 * accept a refused project rule is to copy it there.
 */
import type { ResolvedAllowRule } from './allow-rules.js';
import { SHELL_TOOLS, catchAllRule } from './catch-all-rule.js';
import { PROBE_COMMANDS } from './probe-commands.js';

/** Rules that together match at least 1/COVER_SHARE of the probes are refused (a quarter: 16 of 64). */
export const COVER_SHARE = 4;

/**
 * The coding agents' own tools a project may not allow whole (Claude Code, Codex CLI, Gemini CLI, ACP):
 * reading, writing, editing, searching, fetching, sub-agents.
 */
export const AGENT_TOOLS: ReadonlySet<string> = new Set([
  'Read', 'Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'NotebookRead', 'Glob', 'Grep', 'LS', 'WebFetch', 'WebSearch', 'Task', 'Agent',
  'apply_patch', 'read_file', 'read_many_files', 'write_file', 'replace', 'edit', 'glob', 'grep', 'search_file_content', 'list_directory',
  'web_fetch', 'google_web_search', 'view_image',
  'mcp__acp__Read', 'mcp__acp__Write', 'mcp__acp__Edit', 'mcp__acp__MultiEdit',
]);

/** How many probes at least the rules for one tool may match together before they are refused. */
export const COVER_LIMIT = Math.ceil(PROBE_COMMANDS.length / COVER_SHARE);

/** Rule `i` refused, and why. */
export interface RefusedRule {
  readonly index: number;
  readonly why: string;
}

/** How many PROBE_COMMANDS at least one of `rules` matches. */
function covered(rules: readonly ResolvedAllowRule[]): number {
  return PROBE_COMMANDS.filter((c) => rules.some((r) => (r.command as RegExp).test(c))).length;
}

/** The rules of a project's allowlist to refuse (see the header), in the order of `rules`. */
export function refusedRules(rules: readonly ResolvedAllowRule[]): RefusedRule[] {
  const refused = new Map<number, string>();
  rules.forEach((rule, index) => {
    const alone = catchAllRule(rule);
    if (alone !== null) refused.set(index, alone);
    else if (rule.command === undefined && rule.tool !== undefined && AGENT_TOOLS.has(rule.tool)) refused.set(index, `it allows every call of ${rule.tool}, one of the agent's own tools`);
  });
  // the rules naming no tool first: refused together, they no longer count for the shell tools named
  const scopes: (string | undefined)[] = [undefined, ...new Set(rules.flatMap((r) => (r.tool !== undefined && SHELL_TOOLS.has(r.tool) ? [r.tool] : [])))];
  for (const tool of scopes) {
    const group = [...rules.keys()].filter((i) => {
      const r = rules[i] as ResolvedAllowRule;
      return !refused.has(i) && r.command !== undefined && (r.tool === undefined || r.tool === tool);
    });
    if (group.length === 0) continue;
    const n = covered(group.map((i) => rules[i] as ResolvedAllowRule));
    if (n < COVER_LIMIT) continue;
    const named = tool === undefined ? 'any tool' : tool;
    const why = group.length === 1 ? `it matches ${n} of ${PROBE_COMMANDS.length} unrelated commands` : `with the ${group.length - 1} other rules for ${named}, it matches ${n} of ${PROBE_COMMANDS.length} unrelated commands`;
    for (const i of group) refused.set(i, why);
  }
  return [...refused].sort((a, b) => a[0] - b[0]).map(([index, why]) => ({ index, why }));
}
