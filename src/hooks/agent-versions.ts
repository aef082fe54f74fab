/**
 * What each agent's version can take from a hook, and where a hook finds the version:
 *
 * | agent       | reads a warning before a call (PreToolUse `additionalContext`) | runs hooks without a setting | version in the transcript |
 * |-------------|------------------------------------------------------------------|------------------------------|---------------------------|
 * | claude-code | from 2.1.9 (before: the field is ignored)                       | always                       | each line's `"version"` (read from its end) |
 * | codex       | from 0.129 (before: the hook counts as failed, the call runs)   | from 0.124 (`[features] codex_hooks = true` before) | the rollout's `session_meta` `"cli_version"` (read from its start) |
 *
 * Codex sends SessionEnd from 0.145.0 (0.144.6's binary names no such event; 0.130.0 ignores the entry).
 * | gemini      | never (BeforeTool has no context for the model)                 | from 0.26 (`hooksConfig.enabled` or `tools.enableHooks` before) | none |
 *
 * Where the agent cannot take a warning before a call, the warning is given after it, with its result
 * (PostToolUse `additionalContext`). The version is read from the session's transcript
 * (`transcript_path`: the version that runs now, even after an upgrade), else the one `hook install`
 * found (`--agent-version`); unknown, the agent is taken to be a current one.
 */
import type { AgentName } from './hook-agent.js';
import { readTranscriptPart } from './transcript-part.js';

/** Bytes of a transcript read to find the agent's version. */
export const TRANSCRIPT_LOOK = 64 * 1024;

/** What one agent's versions can take. */
export interface AgentVersions {
  /** First version that reads a warning before a call, or null when none does. */
  readonly warnsBeforeFrom: string | null;
  /** First version that runs hooks without a setting, and the setting before it. */
  readonly hooksOnFrom: string | null;
  readonly hooksSetting: string | null;
  /**
   * First version that sends SessionEnd (whose hook ends the session's state), or null when every version
   * loopwatch installs for does (or none is known not to). An older one ignores the entry without a word.
   */
  readonly sessionEndFrom: string | null;
  /** Where the transcript holds the version (`head` or `tail`), and its pattern; null when it has none. */
  readonly transcript: { readonly at: 'head' | 'tail'; readonly pattern: RegExp } | null;
}

/** Each agent's versions (see the header). */
export const AGENT_VERSIONS: Readonly<Record<AgentName, AgentVersions>> = {
  'claude-code': { warnsBeforeFrom: '2.1.9', hooksOnFrom: null, hooksSetting: null, sessionEndFrom: null, transcript: { at: 'tail', pattern: /"version":"(\d+\.\d+\.\d+)/g } },
  codex: { warnsBeforeFrom: '0.129.0', hooksOnFrom: '0.124.0', hooksSetting: '[features] codex_hooks = true in config.toml', sessionEndFrom: '0.145.0', transcript: { at: 'head', pattern: /"cli_version":"(\d+\.\d+\.\d+)/g } },
  gemini: { warnsBeforeFrom: null, hooksOnFrom: '0.26.0', hooksSetting: '"hooksConfig": {"enabled": true} in settings.json ("tools": {"enableHooks": true} before 0.24)', sessionEndFrom: null, transcript: null },
};

/** The first `major.minor.patch` in `text`, or undefined. */
export function versionIn(text: string): string | undefined {
  return /(\d{1,6})\.(\d{1,6})\.(\d{1,6})/.exec(text.slice(0, 4096))?.[0];
}

/** -1, 0 or 1 as version `a` is older than, the same as or newer than `b` (both `x.y.z`). */
export function compareVersions(a: string, b: string): number {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/** Whether `agent` at `version` (undefined: unknown, taken as a current one) reads a warning before a call. */
export function warnsBefore(agent: AgentName, version: string | undefined): boolean {
  const from = AGENT_VERSIONS[agent].warnsBeforeFrom;
  if (from === null) return false;
  return version === undefined || compareVersions(version, from) >= 0;
}

/** Whether `agent` at `version` sends SessionEnd (unknown: yes). */
export function sendsSessionEnd(agent: AgentName, version: string | undefined): boolean {
  const from = AGENT_VERSIONS[agent].sessionEndFrom;
  return from === null || version === undefined || compareVersions(version, from) >= 0;
}

/** Whether `agent` at `version` runs hooks without a setting (unknown: yes). */
export function hooksOn(agent: AgentName, version: string | undefined): boolean {
  const from = AGENT_VERSIONS[agent].hooksOnFrom;
  return from === null || version === undefined || compareVersions(version, from) >= 0;
}

/** The agent's version as its transcript at `path` says it (the payload's `transcript_path`), or undefined. */
export function transcriptVersion(agent: AgentName, path: unknown): string | undefined {
  const t = AGENT_VERSIONS[agent].transcript;
  if (t === null) return undefined;
  const part = readTranscriptPart(path, t.at, TRANSCRIPT_LOOK);
  if (part === null) return undefined;
  let found: string | undefined;
  for (const m of part.text.matchAll(t.pattern)) {
    found = m[1];
    if (t.at === 'head') break;
  }
  return found;
}
