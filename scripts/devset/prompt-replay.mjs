#!/usr/bin/env node
/**
 * The two-phase replay of `loopwatch eval` (each call proposed, then recorded, a run ending at its first
 * block), with what a hook gets and eval does not: the person's prompts. Claude Code, Codex CLI and Gemini
 * CLI call loopwatch's hook on each new prompt (UserPromptSubmit, BeforeAgent), which gives the session a
 * fresh start (LoopDetector.freshStart). `eval`'s replays take the prompts from the readers
 * (TraceCall.prompted); this reads them from each file itself, so that the two check each other, and
 * replays each labelled session of a set both ways, with and without its prompts, in this process
 * (LoopEngine, default policy), and prints the shares warned and broken of each.
 *
 *   npm run build && node scripts/devset/prompt-replay.mjs holdout2/     (devset/, holdout/ likewise)
 *
 * Prompts are read from each session file itself (scripts/devset/session-marks.mjs): a Claude Code `user`
 * line holding typed text (not a tool result, not a meta or compaction line, not a slash command's output),
 * a Codex rollout's `user_message` event (after the parent's history a forked Codex subagent copies), a
 * Gemini CLI chat's `user` message (in a JSON Lines chat each message and tool call once, however often it
 * is written again), but not one that only answers the agent's own question ("2", "yes") nor a background
 * task's notification (Claude Code's `<task-notification>…`, origin.kind "task-notification"):
 * src/text/prompt-origin.ts, as the readers and hooks decide. A call is counted once per call id, as the
 * reader counts it and the hook meets it (a resumed Claude Code session's history written again never ran
 * again). A Claude Code subagent (`isSidechain` lines, its own session) has no prompts of its own: the hook
 * gives the fresh start to the session a prompt names, never to its subagents (src/hooks/hook-run.ts), and
 * the reader alike. A session whose calls in the file do not count as the reader's is replayed without
 * prompts, and is listed with why ("replayed without prompts: SESSION (N calls in the file, M read)"). A
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
const { CALL, CLAUDE_SUBAGENT, marksOf, marksReader } = await import(pathToFileURL(join(root, 'scripts', 'devset', 'session-marks.mjs')).href);
const marks = await marksReader(root);

const dir = resolve(process.argv[2] ?? 'holdout2');
const labels = new Map(readFileSync(join(dir, 'sessions.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).map((l) => [l.session, l]));
const walk = (d) => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : f === 'sessions.jsonl' ? [] : [join(d, f)]));

const options = detectionOptions('default', undefined);
const result = { without: new Map(), with: new Map() };
let withPrompts = 0;
let subagents = 0;
/** Sessions whose prompts cannot be placed among the reader's calls, each with why: replayed without prompts. */
const unread = [];
// read as `eval DIR` run from the working folder reads it: sessions named after their file (FILE:1) match
for (const file of walk(dir).sort().map((f) => relative(process.cwd(), f))) {
  const bySession = new Map();
  for await (const it of readInputs([file])) {
    if (it.kind !== 'call' || !labels.has(it.session)) continue;
    if (!bySession.has(it.session)) bySession.set(it.session, []);
    bySession.get(it.session).push(it.event);
  }
  if (bySession.size === 0) continue;
  const perSession = marks(file);
  for (const [session, events] of bySession) {
    const m = marksOf(perSession, session, events.length, bySession.size);
    const fresh = new Set();
    if (m.marks !== undefined) {
      let c = 0;
      for (const x of m.marks) if (x === CALL) c++; else if (x.fresh) fresh.add(c);
      withPrompts++;
    } else if (CLAUDE_SUBAGENT.test(session)) subagents++;
    else unread.push(`${session} (${m.why})`);
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
console.log(`${dir}: ${ordinary.length} interactive sessions without a loop label; prompts read for ${withPrompts} sessions, ${subagents} subagents (no prompts of their own), ${unread.length} replayed without`);
for (const u of unread) console.log(`  replayed without prompts: ${u}`);
for (const mode of ['without', 'with']) {
  const runs = ordinary.map((s) => result[mode].get(s)).filter(Boolean);
  // shares of the sessions replayed: a session with no calls is not replayed (eval counts it, quiet), so
  // eval's share of the same count can be smaller (holdout7: 4 of 89 here, 4 of 92 in eval)
  const out = ordinary.length - runs.length;
  console.log(`two-phase, ${mode} prompts: warned ${pct(runs.filter((r) => r.warned).length, runs.length)}, broken ${pct(runs.filter((r) => r.broken).length, runs.length)}; of ${runs.length} sessions replayed${out > 0 ? ` (${out} with no calls not replayed)` : ''}`);
}
const loops = [...labels.values()].filter((l) => l.loop).map((l) => l.session);
if (loops.length > 0) for (const mode of ['without', 'with']) console.log(`genuine loops, ${mode} prompts: warned ${loops.filter((s) => result[mode].get(s)?.warned).length} of ${loops.length}, broken ${loops.filter((s) => result[mode].get(s)?.broken).length}`);
for (const s of [...loops, ...ordinary]) {
  const a = result.without.get(s);
  const b = result.with.get(s);
  if (a === undefined || (!a.warned && !b.warned)) continue;
  console.log(`  ${loops.includes(s) ? 'loop ' : ''}${s.padEnd(60)} without: ${a.broken ? `broken ${a.broken}` : `warned ${a.warned}`}   with: ${b.broken ? `broken ${b.broken}` : b.warned ? `warned ${b.warned}` : 'quiet'}`);
}
