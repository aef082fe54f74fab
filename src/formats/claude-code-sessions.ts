/**
 * The session a Claude Code transcript line belongs to. A main-chain line is its `sessionId`'s; a sidechain
 * line (a subagent's work) is `<sessionId>/agent-<agentId>` when it names its agent (2.0.x and later,
 * mostly in its own `agent-*.jsonl` file). Older versions wrote every Task subagent inline in the parent's
 * transcript without an `agentId`: those lines are told apart by their roots. Each line names its parent
 * (`parentUuid`); a sidechain line whose parent is no sidechain line read before (null for the first line
 * of a subagent) is a root, and every line below it is the subagent `<sessionId>/sidechain-<root uuid>`.
 *
 * ```
 *   main  m1 ── m2 (Task A) ── m3 (Task B) ── m4
 *   side  r1 ── a1 ── a2                       -> <sessionId>/sidechain-r1
 *   side  r2 ── b1                             -> <sessionId>/sidechain-r2
 * ```
 *
 * Roots are remembered for at most {@link MAX_SIDECHAIN_LINES} lines (the oldest forgotten first); a line
 * without a `uuid` of its own is `<sessionId>/sidechain`.
 */
import { describe } from '../options/checks.js';
import { CappedMap } from './capped-map.js';

/** Agents of Claude Code that copy their parent's conversation (`agentId` prefix -> what they are). */
const PARENT_COPIES: readonly (readonly [string, string])[] = [
  ['acompact-', 'a compaction'],
  ['aside_question-', 'a side question'],
];

/**
 * What line `v` is when it belongs to an agent that copies its parent session's conversation, else null.
 * Claude Code 2.1 writes a compaction (`subagents/agent-acompact-*.jsonl`) and a side question asked while
 * the agent works (`agent-aside_question-*.jsonl`) as sidechains that start from the parent's whole
 * conversation: every `tool_use` of the parent again, with its id, and none of their own. They are no new
 * work; read as subagents they would repeat the parent's calls.
 */
export function parentCopy(v: Readonly<Record<string, unknown>>): { readonly agent: string; readonly what: string } | null {
  const agent = v.agentId;
  if (v.isSidechain !== true || typeof agent !== 'string') return null;
  for (const [prefix, what] of PARENT_COPIES) if (agent.startsWith(prefix)) return { agent, what };
  return null;
}

/** Line types of a Claude Code workflow journal. */
const JOURNAL_LINES = new Set(['started', 'result']);

/**
 * Whether line `v` is a line of a workflow journal: Claude Code 2.1.16x runs a workflow's agents side by
 * side and writes `subagents/workflows/wf_<id>/journal.jsonl` beside their transcripts, a line
 * `{type: "started" | "result", key, agentId, result?}` each time one starts or answers. The agents' calls are
 * in their own `agent-*.jsonl`; the journal holds none.
 */
export function isWorkflowJournalLine(v: Readonly<Record<string, unknown>>): boolean {
  return typeof v.type === 'string' && JOURNAL_LINES.has(v.type) && typeof v.key === 'string' && typeof v.agentId === 'string' && v.sessionId === undefined;
}

/** The prompt Claude Code opens a warmup agent with. */
export const WARMUP_PROMPT = 'Warmup';

/**
 * Whether line `v` opens a warmup agent. Claude Code (2.0.x, 2.1.x) starts a subagent with the prompt
 * "Warmup" to fill the prompt cache before it is needed; the model's calls there are never run (each is
 * answered `is_error` "Warmup") and no person sees them. No work: read as a subagent, a model asking for
 * the same `Glob` hundreds of times against that answer reads as a loop. The opening line is the
 * sidechain's root (no `parentUuid`), a user line whose content is the prompt alone (a string, or one text
 * block).
 */
export function opensWarmup(v: Readonly<Record<string, unknown>>): boolean {
  if (v.isSidechain !== true || v.type !== 'user' || (v.parentUuid !== null && v.parentUuid !== undefined)) return false;
  const message = v.message;
  if (typeof message !== 'object' || message === null) return false;
  const content = (message as { content?: unknown }).content;
  if (content === WARMUP_PROMPT) return true;
  if (!Array.isArray(content) || content.length !== 1) return false;
  const block: unknown = content[0];
  return typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'text' && (block as { text?: unknown }).text === WARMUP_PROMPT;
}

/** Sidechain lines whose root is remembered at most. */
export const MAX_SIDECHAIN_LINES = 65_536;

/** Resolves the sessions of one transcript's lines, remembering the roots of its sidechain lines. */
export class ClaudeCodeSessions {
  /** uuid of a sidechain line without agentId -> uuid of its root. */
  private readonly roots: CappedMap<string, string>;

  constructor(
    /** Session id of lines without `sessionId` (the input's name). */
    private readonly fallback: string,
    max: number = MAX_SIDECHAIN_LINES,
  ) {
    this.roots = new CappedMap(max);
  }

  /**
   * The session of line `v` (any line type: a sidechain's system or progress lines carry its chain too),
   * or why it names none that can be used.
   */
  of(v: Record<string, unknown>): string | { readonly bad: string } {
    const id = v.sessionId ?? this.fallback;
    if (typeof id !== 'string' || id === '') return { bad: `"sessionId" must be a non-empty string, received ${describe(id)}` };
    if (v.isSidechain !== true) return id;
    if (typeof v.agentId === 'string' && v.agentId !== '') return `${id}/agent-${v.agentId}`;
    const uuid = v.uuid;
    const parent = typeof v.parentUuid === 'string' ? this.roots.get(v.parentUuid) : undefined;
    if (typeof uuid !== 'string' || uuid === '') return parent === undefined ? `${id}/sidechain` : `${id}/sidechain-${parent}`;
    const root = parent ?? uuid;
    if (!this.roots.has(uuid)) {
      this.roots.set(uuid, root);
    }
    return `${id}/sidechain-${root}`;
  }
}
