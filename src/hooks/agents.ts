/**
 * The agents' codecs, and which one a payload comes from when `--agent` is not given: Gemini CLI names its
 * events BeforeTool/AfterTool/BeforeAgent; Codex's PreToolUse/PostToolUse/UserPromptSubmit payloads carry
 * `turn_id` and `model`, Claude Code's do not; only Claude Code sends PostToolUseFailure, PermissionDenied and PostToolBatch.
 */
import { InvalidEventError } from '../errors.js';
import { describe } from '../options/checks.js';
import { hasCodexMarks } from '../formats/codex-hook-result.js';
import { CLAUDE_CODE } from './claude-code.js';
import { CODEX } from './codex.js';
import { GEMINI } from './gemini.js';
import type { AgentName, HookAgent, HookPhase } from './hook-agent.js';

/** The codec of each agent. */
export const AGENTS: Readonly<Record<AgentName, HookAgent>> = { 'claude-code': CLAUDE_CODE, codex: CODEX, gemini: GEMINI };

/** The phase of `eventName` for `agent`, or null for an event that is not about tool calls (ignored). */
export function phaseOf(agent: HookAgent, eventName: string): HookPhase | null {
  for (const phase of ['propose', 'record', 'decline', 'prompt', 'end'] as const) if (agent.events[phase].includes(eventName)) return phase;
  return null;
}

/** The agent that sent a payload with this `hook_event_name` (see the header). */
export function detectAgent(p: Readonly<Record<string, unknown>>, eventName: string): HookAgent {
  if (eventName === 'BeforeTool' || eventName === 'AfterTool' || eventName === 'BeforeAgent') return GEMINI;
  if (eventName === 'PostToolUseFailure' || eventName === 'PermissionDenied' || eventName === 'PostToolBatch') return CLAUDE_CODE;
  if (eventName === 'SessionEnd') return typeof p.timestamp === 'string' ? GEMINI : CLAUDE_CODE;
  return hasCodexMarks(p) ? CODEX : CLAUDE_CODE;
}

/**
 * The codec for a payload: `named` (from --agent) when given, else the detected one. Throws
 * InvalidEventError when the payload has no event name, or names a tool event of another agent.
 */
export function agentFor(p: Readonly<Record<string, unknown>>, named: AgentName | undefined): { agent: HookAgent; eventName: string } {
  const eventName = p.hook_event_name;
  if (typeof eventName !== 'string' || eventName === '') {
    throw new InvalidEventError('hook_event_name', `the hook payload's hook_event_name must be a non-empty string, received ${describe(eventName)}`);
  }
  if (named === undefined) return { agent: detectAgent(p, eventName), eventName };
  const agent = AGENTS[named];
  if (phaseOf(agent, eventName) === null) {
    const other = Object.values(AGENTS).find((a) => a !== agent && phaseOf(a, eventName) !== null && phaseOf(a, eventName) !== 'end');
    if (other !== undefined) {
      throw new InvalidEventError('hook_event_name', `--agent ${named}, but hook_event_name "${eventName}" is a ${other.title} event (${agent.title} sends ${[...agent.events.propose, ...agent.events.record].join(', ')})`);
    }
  }
  return { agent, eventName };
}
