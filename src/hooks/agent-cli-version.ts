/**
 * The version of an installed agent, as `hook install` finds it: `claude --version` ("2.1.9 (Claude
 * Code)"), `codex --version` ("codex-cli 0.130.0"), `gemini --version` ("0.26.0"), run with the user's
 * PATH, at most VERSION_TIMEOUT_MS; and what that version means for loopwatch's hook (agent-versions.ts).
 */
import { execFileSync } from 'node:child_process';
import { AGENT_VERSIONS, hooksOn, sendsSessionEnd, versionIn, warnsBefore } from './agent-versions.js';
import type { AgentName } from './hook-agent.js';

/** The command each agent is run as. */
export const AGENT_COMMANDS: Readonly<Record<AgentName, string>> = { 'claude-code': 'claude', codex: 'codex', gemini: 'gemini' };

/**
 * Milliseconds `<agent> --version` may take. Gemini CLI 0.61 loads its whole bundle to print its version:
 * 6 to 8 s on a busy machine (two cores, load 10), where a 5 s limit made install say it gave none.
 */
export const VERSION_TIMEOUT_MS = 20_000;

/** The installed agent's version, or undefined when it is not found (not on PATH, no version printed). */
export function cliVersion(agent: AgentName, env: NodeJS.ProcessEnv = process.env): string | undefined {
  try {
    const out = execFileSync(AGENT_COMMANDS[agent], ['--version'], { env, encoding: 'utf8', timeout: VERSION_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 });
    return versionIn(out);
  } catch {
    return undefined;
  }
}

/** What `hook install` says about the agent's version: one line, then what the user must know, if anything. */
export function versionNotes(agent: AgentName, version: string | undefined): string[] {
  const v = AGENT_VERSIONS[agent];
  const command = AGENT_COMMANDS[agent];
  if (version === undefined) {
    const need = [v.warnsBeforeFrom === null ? null : `${v.warnsBeforeFrom} or later takes warnings before a call`, v.hooksOnFrom === null ? null : `${v.hooksOnFrom} or later runs hooks without a setting`].filter((x) => x !== null);
    return [`${command} --version gave no version: assumed current${need.length === 0 ? '' : ` (${need.join('; ')})`}`];
  }
  const out = [`${command} ${version}`];
  if (v.warnsBeforeFrom !== null && !warnsBefore(agent, version)) {
    out.push(`${command} ${version} reads no warning before a call (${v.warnsBeforeFrom} does): loopwatch gives warnings after the call instead, with its result; denials and stops are unchanged`);
  }
  if (!hooksOn(agent, version)) out.push(`${command} ${version} runs hooks only with ${v.hooksSetting} (${v.hooksOnFrom} and later: always)`);
  if (!sendsSessionEnd(agent, version)) {
    out.push(`${command} ${version} sends no SessionEnd (${v.sessionEndFrom} and later do) and ignores that entry: a session's state stays after it ends, until the weekly sweep (7 days) or loopwatch hook reset`);
  }
  return out;
}
