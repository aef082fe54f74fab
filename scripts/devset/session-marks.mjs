/**
 * The order of a session file's prompts and tool calls, as the agent's hook meets them, for the sets'
 * replays (prompt-replay.mjs, hook-replay.mjs): each prompt a person typed (where Claude Code, Codex CLI
 * and Gemini CLI call the hook's UserPromptSubmit / BeforeAgent) and each call (PreToolUse / BeforeTool),
 * read from the file itself, beside the reader's calls. A measuring tool of the sets, not part of loopwatch.
 *
 * - Claude Code: a `user` line holding typed text (not a tool result, a meta or compaction line, a slash
 *   command's output, an interruption marker) and an `assistant` line's call blocks (`tool_use`, and
 *   `server_tool_use` / `mcp_tool_use` as the reader reads them). A subagent's lines
 *   (`isSidechain`) are left out: they are a session of their own, and a prompt is its parent's (the hook
 *   gives the fresh start to the session the prompt names, src/hooks/hook-run.ts). Main-chain lines are
 *   grouped by their `sessionId`.
 * - Codex: `event_msg` `user_message` and the `response_item` calls, the history a forked subagent copies
 *   from its parent left out (it ends at the fork's "You are the newly spawned agent." output).
 * - Gemini CLI: a chat's `user` messages and `toolCalls`; in a JSON Lines chat each message and call once,
 *   however often it is written again.
 *
 * A call id met before in the file (Claude Code's `tool_use` id, Codex's `call_id`) is not a call again, as
 * the reader reads it (src/formats/call-ids.ts) and the hook meets it: a resumed Claude Code session writes
 * its history into the transcript again (new line uuids, the same ids; devset f84b640b, holdout2
 * 0b223d21), and those calls never ran again. Counted twice, they made the file's calls outnumber the
 * reader's, and the session was replayed without its prompts.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

/** A call's mark; a prompt's is `{ text, fresh }`: its text as the hook payload carries it, and whether it gives a fresh start (src/text/prompt-origin.ts). */
export const CALL = 'C';

/** The calls Codex writes as `response_item`s. */
const CODEX_CALLS = /^(function_call|custom_tool_call|local_shell_call|web_search_call|tool_search_call)$/;

/** The content blocks of a Claude Code assistant line the reader reads as calls (src/formats/claude-code.ts). */
const CLAUDE_CALLS = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);

/** A Claude Code subagent's session as the reader names it (src/formats/claude-code-sessions.ts). */
export const CLAUDE_SUBAGENT = /\/(?:agent-[^/]+|sidechain(?:-[^/]+)?)$/;

/**
 * Reads the marks of `file` with `root`'s built prompt rule: a Map from a session key (a Claude Code
 * main-chain line's `sessionId`, '' for every other line) to its marks in order, each CALL or a prompt
 * `{ text, fresh }`; null when the file (a JSON chat) cannot be parsed.
 */
export async function marksReader(root) {
  const { startsAfresh } = await import(pathToFileURL(join(root, 'dist', 'src', 'text', 'prompt-origin.js')).href);
  return (file) => sessionMarks(readFileSync(file, 'utf8'), file.endsWith('.json'), startsAfresh);
}

/** The marks of a file's text (see marksReader); `chat`: a Gemini CLI JSON chat (one object). */
export function sessionMarks(raw, chat, startsAfresh) {
  const bySession = new Map();
  const of = (key) => {
    if (!bySession.has(key)) bySession.set(key, []);
    return bySession.get(key);
  };
  const prompt = (content, origin) => ({ text: promptText(content), fresh: startsAfresh(content, origin) });
  if (chat) {
    let value;
    try {
      value = JSON.parse(raw);
    } catch {
      return null;
    }
    const out = of('');
    for (const m of value?.messages ?? []) {
      if (m.type === 'user') out.push(prompt(m.content));
      for (const _ of m.toolCalls ?? []) out.push(CALL);
    }
    return bySession;
  }
  const seen = new Set(); // Gemini CLI JSON Lines chats: a message or tool call again is the same one
  const gemini = (m) => {
    const out = of('');
    if (m?.type === 'user' && !seen.has(`m:${m.id}`)) out.push(prompt(m.content));
    seen.add(`m:${m?.id}`);
    for (const t of m?.type === 'gemini' ? (m.toolCalls ?? []) : []) if (!seen.has(`t:${t.id}`)) seen.add(`t:${t.id}`) && out.push(CALL);
  };
  const callIds = new Set();
  /** Whether a call of `id` is met for the first time (a call without an id always is). */
  const first = (id) => {
    if (typeof id !== 'string' || id === '') return true;
    if (callIds.has(id)) return false;
    callIds.add(id);
    return true;
  };
  let forked = null;
  for (const line of raw.split('\n')) {
    let o;
    try {
      o = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof o !== 'object' || o === null) continue;
    const p = o.payload ?? {};
    // a Codex subagent forked with its parent's context: the parent's copied history ends at the fork's output
    if (o.type === 'session_meta') forked ??= typeof p.forked_from_id === 'string';
    if (forked && o.type === 'response_item' && p.type === 'function_call_output' && String(p.output).startsWith('You are the newly spawned agent.')) of('').length = 0;
    if (o.message === undefined && (o.type === 'user' || o.type === 'gemini') && 'content' in o) gemini(o);
    for (const m of o.$set?.messages ?? []) gemini(m);
    if (o.type === 'event_msg' && p.type === 'user_message') of('').push(prompt(p.message));
    else if (o.type === 'response_item' && CODEX_CALLS.test(p.type) && first(p.call_id)) of('').push(CALL);
    if (o.isSidechain === true || (o.type !== 'user' && o.type !== 'assistant') || o.message === undefined) continue;
    const c = o.message?.content;
    const key = typeof o.sessionId === 'string' ? o.sessionId : '';
    if (o.type === 'user' && !o.isMeta && !o.isCompactSummary && typed(c)) of(key).push(prompt(c, o.origin));
    if (o.type === 'assistant' && Array.isArray(c)) for (const x of c) if (CLAUDE_CALLS.has(x?.type) && first(x.id)) of(key).push(CALL);
  }
  return bySession;
}

/**
 * The marks of `session` (read by the reader with `calls` calls) among a file's marks, or why there are
 * none that fit: `{ marks }` or `{ why }`. A file of one session whose lines name none (or another) gives
 * its marks to the file's one session.
 */
export function marksOf(bySession, session, calls, sessionsInFile) {
  if (bySession === null) return { why: 'the chat is not JSON' };
  let m = bySession.get(session);
  if (m === undefined && bySession.size === 1 && sessionsInFile === 1) [m] = bySession.values();
  if (m === undefined) return { why: 'none of its calls in a form these scripts read' };
  const n = m.filter((x) => x === CALL).length;
  return n === calls ? { marks: m } : { why: `${n} calls in the file, ${calls} read` };
}

/** A prompt's text as its hook payload carries it (a message's text parts joined; an image as `[Image]`). */
export function promptText(c) {
  if (typeof c === 'string') return c;
  return Array.isArray(c) ? c.map((x) => (typeof x?.text === 'string' ? x.text : '[Image]')).join('\n') : '';
}

/** Whether a Claude Code user line's content is text a person typed. */
function typed(c) {
  if (typeof c === 'string') return !/^\s*<(?:local-command|command-name|command-message|bash-)/.test(c) && !c.startsWith('[Request interrupted');
  return Array.isArray(c) && !c.some((x) => x?.type === 'tool_result') && c.some((x) => x?.type === 'text' && !String(x.text).startsWith('[Request interrupted'));
}
