#!/usr/bin/env node
/**
 * The two-phase replay of `loopwatch eval` (each call proposed, then recorded, a run ending at its first
 * block), with what a hook gets and eval does not: the person's prompts. Claude Code, Codex CLI and Gemini
 * CLI call loopwatch's hook on each new prompt (UserPromptSubmit, BeforeAgent), which gives the session a
 * fresh start (LoopDetector.freshStart); the readers pass prompts over, so `eval` replays a long
 * interactive session as one run of calls. This replays each labelled session of a set both ways, in this
 * process (LoopEngine, default policy), and prints the shares warned and broken of each.
 *
 *   npm run build && node scripts/devset/prompt-replay.mjs holdout2/     (devset/, holdout/ likewise)
 *
 * Prompts are read from each session file itself: a Claude Code `user` line holding typed text (not a tool
 * result, not a meta or compaction line, not a slash command's output), a Codex rollout's `user_message`
 * event (after the parent's history a forked Codex subagent copies), a Gemini CLI chat's `user` message (in a
 * JSON Lines chat each message and tool call once, however often it is written again), but not one that only
 * answers the agent's own question ("2", "yes") nor a background task's notification (Claude Code's
 * `<task-notification>…`, origin.kind "task-notification"): src/text/prompt-origin.ts, as the readers and hooks
 * decide. A file whose calls the reader gives to more than one session,
 * or whose tool calls do not count as the reader's, is replayed without prompts (counted as such). A
 * measuring tool of the sets, not part of loopwatch.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const lib = (p) => import(pathToFileURL(join(root, 'dist', 'src', p)).href);
const { readInputs } = await lib('index.js');
const { LoopEngine } = await lib('engine/loop-engine.js');
const { detectionOptions } = await lib('cli/detection-options.js');
const { startsAfresh } = await lib('text/prompt-origin.js');

const dir = resolve(process.argv[2] ?? 'holdout2');
const labels = new Map(readFileSync(join(dir, 'sessions.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).map((l) => [l.session, l]));
const walk = (d) => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : f === 'sessions.jsonl' ? [] : [join(d, f)]));

/** The order of prompts (P) and tool calls (C) in a session file, or null when it cannot be read. */
function marks(file) {
  const raw = readFileSync(file, 'utf8');
  const out = [];
  if (file.endsWith('.json')) {
    let chat;
    try {
      chat = JSON.parse(raw);
    } catch {
      return null;
    }
    for (const m of chat.messages ?? []) {
      if (m.type === 'user' && startsAfresh(m.content)) out.push('P');
      for (const _ of m.toolCalls ?? []) out.push('C');
    }
    return out;
  }
  const seen = new Set(); // Gemini CLI JSON Lines chats: a message or tool call again is the same one
  const gemini = (m) => {
    if (m?.type === 'user' && !seen.has(`m:${m.id}`) && startsAfresh(m.content)) out.push('P');
    seen.add(`m:${m?.id}`);
    for (const t of m?.type === 'gemini' ? (m.toolCalls ?? []) : []) if (!seen.has(`t:${t.id}`)) seen.add(`t:${t.id}`) && out.push('C');
  };
  let forked = null;
  for (const line of raw.split('\n')) {
    let o;
    try {
      o = JSON.parse(line);
    } catch {
      continue;
    }
    const p = o.payload ?? {};
    // a Codex subagent forked with its parent's context: the parent's copied history ends at the fork's output
    if (o.type === 'session_meta') forked ??= typeof p.forked_from_id === 'string';
    if (forked && o.type === 'response_item' && p.type === 'function_call_output' && String(p.output).startsWith('You are the newly spawned agent.')) out.length = 0;
    if (o.message === undefined && (o.type === 'user' || o.type === 'gemini') && 'content' in o) gemini(o);
    for (const m of o.$set?.messages ?? []) gemini(m);
    if (o.type === 'event_msg' && p.type === 'user_message') out.push(...(startsAfresh(p.message) ? ['P'] : []));
    else if (o.type === 'response_item' && /^(function_call|custom_tool_call|local_shell_call|web_search_call|tool_search_call)$/.test(p.type)) out.push('C');
    const c = o.message?.content;
    if (o.type === 'user' && !o.isMeta && !o.isCompactSummary && typed(c) && startsAfresh(c, o.origin)) out.push('P');
    if (o.type === 'assistant' && Array.isArray(c)) for (const x of c) if (x.type === 'tool_use') out.push('C');
  }
  return out;
}

/** Whether a Claude Code user line's content is text a person typed. */
function typed(c) {
  if (typeof c === 'string') return !/^\s*<(?:local-command|command-name|command-message|bash-)/.test(c) && !c.startsWith('[Request interrupted');
  return Array.isArray(c) && !c.some((x) => x.type === 'tool_result') && c.some((x) => x.type === 'text' && !String(x.text).startsWith('[Request interrupted'));
}

const options = detectionOptions('default', undefined);
const result = { without: new Map(), with: new Map() };
let withPrompts = 0;
let withoutPrompts = 0;
// read as `eval DIR` run from the working folder reads it: sessions named after their file (FILE:1) match
for (const file of walk(dir).sort().map((f) => relative(process.cwd(), f))) {
  const bySession = new Map();
  for await (const it of readInputs([file])) {
    if (it.kind !== 'call' || !labels.has(it.session)) continue;
    if (!bySession.has(it.session)) bySession.set(it.session, []);
    bySession.get(it.session).push(it.event);
  }
  if (bySession.size === 0) continue;
  const m = bySession.size === 1 ? marks(file) : null;
  const [only] = bySession.values();
  const fits = m !== null && m.filter((x) => x === 'C').length === only.length;
  for (const [session, events] of bySession) {
    const fresh = new Set();
    if (fits) {
      let c = 0;
      for (const x of m) if (x === 'P') fresh.add(c); else c++;
      withPrompts++;
    } else withoutPrompts++;
    for (const mode of ['without', 'with']) result[mode].set(session, replay(events, mode === 'with' ? fresh : new Set()));
  }
}

/** The two-phase replay of one session's calls, a fresh start before each call in `fresh` (not the first). */
function replay(events, fresh) {
  const engine = new LoopEngine({ ...options, maxSessions: 10, idleTtlMs: 0 });
  const key = 's';
  let warned = null;
  let broken = null;
  try {
    for (const [i, e] of events.entries()) {
      if (i > 0 && fresh.has(i)) engine.freshStart(key);
      const id = `call-${i}`;
      const p = engine.propose(key, { ...e, id });
      if (p.action !== 'allow') warned ??= `${p.verdict?.kind ?? 'blocked'} #${i}`;
      if (p.action === 'deny' || p.action === 'stop') {
        broken = `${p.verdict?.kind ?? 'blocked'} #${i}`;
        break;
      }
      const r = engine.record(key, { ...e, id });
      if (r.action !== 'allow') warned ??= `${r.verdict?.kind ?? 'warn'} #${i}`;
    }
  } finally {
    engine.close();
  }
  return { warned, broken };
}

const pct = (n, d) => `${((100 * n) / Math.max(d, 1)).toFixed(1)}% (${n})`;
const ordinary = [...labels.values()].filter((l) => !l.loop).map((l) => l.session);
console.log(`${dir}: ${ordinary.length} interactive sessions without a loop label; prompts read for ${withPrompts} sessions, ${withoutPrompts} replayed without`);
for (const mode of ['without', 'with']) {
  const runs = ordinary.map((s) => result[mode].get(s)).filter(Boolean);
  console.log(`two-phase, ${mode} prompts: warned ${pct(runs.filter((r) => r.warned).length, runs.length)}, broken ${pct(runs.filter((r) => r.broken).length, runs.length)}`);
}
const loops = [...labels.values()].filter((l) => l.loop).map((l) => l.session);
if (loops.length > 0) for (const mode of ['without', 'with']) console.log(`genuine loops, ${mode} prompts: warned ${loops.filter((s) => result[mode].get(s)?.warned).length} of ${loops.length}, broken ${loops.filter((s) => result[mode].get(s)?.broken).length}`);
for (const s of [...loops, ...ordinary]) {
  const a = result.without.get(s);
  const b = result.with.get(s);
  if (a === undefined || (!a.warned && !b.warned)) continue;
  console.log(`  ${loops.includes(s) ? 'loop ' : ''}${s.padEnd(60)} without: ${a.broken ? `broken ${a.broken}` : `warned ${a.warned}`}   with: ${b.broken ? `broken ${b.broken}` : b.warned ? `warned ${b.warned}` : 'quiet'}`);
}
