/**
 * Agent families: the per-family tables of an evaluation group sessions by the agent that produced them,
 * read from the label's `agent` field. The built-in rules (first match wins, case-insensitive, on word
 * boundaries):
 *
 * | family | agent names that contain |
 * |---|---|
 * | `mini-swe-agent` | `mini-swe-agent`, `live-swe-agent` |
 * | `OpenHands` | `openhands`, `codeact` |
 * | `SWE-agent` | `swe-agent` (after the two above) |
 * | `tau-bench` | `tau-bench`, `tau2`, `tau-2`, `tau_bench` |
 * | `ReAct` | `react`, `reflexion` |
 * | `claude-code` | `claude-code`, `claude code` (Claude Code transcripts) |
 * | `codex` | `codex` (Codex CLI rollouts) |
 * | `gemini-cli` | `gemini-cli`, `gemini cli` (Gemini CLI chats) |
 *
 * Any other agent is a family of its own, named as the label names it; a label without `agent` is in
 * `(no agent)`. Overrides (`PATTERN=FAMILY`, the CLI's `--family`) are tried first, in order: a
 * case-insensitive substring of the agent name.
 */

/** One rule: agents whose name matches `pattern` are in `family`. */
export interface FamilyRule {
  readonly pattern: RegExp;
  readonly family: string;
}

/** The built-in rules, tried in order. */
export const FAMILY_RULES: readonly FamilyRule[] = Object.freeze([
  { pattern: /\b(?:mini|live)-swe-agent\b/i, family: 'mini-swe-agent' },
  { pattern: /\b(?:openhands|codeact)/i, family: 'OpenHands' },
  { pattern: /\bswe-agent\b/i, family: 'SWE-agent' },
  { pattern: /\btau(?:-?2|[-_]bench)/i, family: 'tau-bench' },
  { pattern: /\b(?:react|reflexion)\b/i, family: 'ReAct' },
  { pattern: /\bclaude[- ]code\b/i, family: 'claude-code' },
  { pattern: /\bcodex\b/i, family: 'codex' },
  { pattern: /\bgemini[- ]cli\b/i, family: 'gemini-cli' },
]);

/** The family of sessions whose label names no agent. */
export const NO_AGENT = '(no agent)';

/** An override: agents whose name contains `contains` (any case) are in `family`. */
export interface FamilyOverride {
  readonly contains: string;
  readonly family: string;
}

/** Parses `PATTERN=FAMILY`; null when it is not of that shape (both sides non-empty). */
export function parseFamilyOverride(text: string): FamilyOverride | null {
  const at = text.lastIndexOf('=');
  if (at <= 0 || at === text.length - 1) return null;
  return { contains: text.slice(0, at).toLowerCase(), family: text.slice(at + 1) };
}

/** The family of a session produced by `agent` (overrides first, then the built-in rules). */
export function familyOf(agent: string | undefined, overrides: readonly FamilyOverride[] = []): string {
  if (agent === undefined || agent === '') return NO_AGENT;
  const low = agent.toLowerCase();
  for (const o of overrides) if (low.includes(o.contains)) return o.family;
  for (const r of FAMILY_RULES) if (r.pattern.test(agent)) return r.family;
  return agent;
}
