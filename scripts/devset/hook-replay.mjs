#!/usr/bin/env node
/**
 * Replays recorded sessions through the built `loopwatch hook` itself, one process per event, as the agents
 * run it: each call a PreToolUse / BeforeTool payload, then PostToolUse (PostToolUseFailure for a Claude
 * Code call that failed) / AfterTool with its result, each prompt the person typed a UserPromptSubmit /
 * BeforeAgent, payloads shaped as test/fixtures/hooks/ (its text as recorded: the hook itself decides which
 * prompts give no fresh start, an answer to the agent's question or a background task's `<task-notification>`,
 * src/text/prompt-origin.ts). The prompts' places among the calls are read as prompt-replay.mjs reads them
 * (session-marks.mjs: a call id once, a Claude Code subagent's lines apart); where they do not fit the reader's
 * calls, the session is sent without prompts ("no prompts"). A file's session is its first one that is not a
 * Claude Code subagent's. State in a temporary folder, removed at the end.
 * Codex hooks only Bash (its shell tools, the command as one string), apply_patch and MCP tools: its other
 * calls are not sent. A call the hook denies or stops is counted and, as the recording goes on, still
 * recorded (the session is replayed whole). A measuring tool of the sets, not part of loopwatch.
 *
 *   npm run build && node scripts/devset/hook-replay.mjs [--no-prompts] [--in-process] [--decisions] [--codex-as-hooked] [--agent-version V] FILE...
 *
 * `--agent-version V` is handed to the hook (as `hook install` writes it); without it the hook cannot tell
 * the agent's version (the transcript written carries none) and warns after the call where old versions need it.
 *
 * `--in-process` runs each event through the built hook's command in this process (dist/src/cli/hook-command.js,
 * the same flags, state files and payload on its input: what test/helpers/hook-in-process.ts does), not one
 * process per event: ~3 ms a call against ~0.1 CPU-s, so that whole sets can be replayed; the process entry (the
 * bundle, its code cache, the exit code) is what it leaves out.
 *
 * The hook reads a call's model turn from the transcript's end (src/hooks/transcript-turn.ts), so the replay
 * writes the transcript as the agent does, growing as the session goes: Claude Code's (the session's, or a
 * subagent's under `<session>/subagents/`, `agent_id` in the payloads) one `assistant` line per tool_use,
 * the turn's calls sharing a `message.id` (the recording's round), a `tool_result` line after each
 * PostToolUse; Codex's rollout a `function_call` item per call, the turn's outputs before the next turn.
 * A turn's lines are written after its first call's PreToolUse, as Claude Code writes the message only
 * once its PreToolUse hooks are done (anthropics/claude-code issues 72018, 82413): the first call of each
 * turn is decided without its turn, the others with it. Codex writes a call's item into the rollout before it
 * runs the tool (codex-rs stream_events_utils.rs `handle_output_item_done`), so a Codex turn's lines are
 * written before its first call's PreToolUse, a shell call's as the rollout recorded it (`function_call`
 * with the reader's arguments, `local_shell_call` with its action: the hook reads them there,
 * src/hooks/codex-recorded-call.ts); `--codex-as-hooked` writes them as before quiet41 (after the first
 * PreToolUse, each call's line holding the hook's `{command}`). `--no-transcript` names a path that does not
 * exist instead (the hook then knows no turns).
 *
 * Prints one line per session: calls sent, the first warn / deny / stop (the call's index among those sent
 * and the tool), how many of each the hook said (`said: 3 warn, 1 deny`), and anything the hook printed on
 * stderr. `--decisions` prints before it a `DEC <call> <0 before | 1 after> <decision> <tool> <reply's head>`
 * line for each decision the hook said (`DEC prompt ...` for a prompt's).
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { readInputs } = await import(pathToFileURL(join(root, 'dist', 'src', 'index.js')).href);
const { CALL, CLAUDE_SUBAGENT, marksOf, marksReader } = await import(pathToFileURL(join(root, 'scripts', 'devset', 'session-marks.mjs')).href);
const marks = await marksReader(root);
const hook = join(root, 'dist', 'hook', 'hook-main.cjs');
// the hook's environment as the installed line leaves it (`env -u NODE_OPTIONS ...`): a replay run with, say,
// NODE_EXTRA_CA_CERTS set would otherwise get the hook's notice about it on each session's first call
const { installedLineEnvironment } = await import(pathToFileURL(join(root, 'dist', 'src', 'hooks', 'start-environment.js')).href);
const hookEnv = installedLineEnvironment(process.env);
const args = process.argv.slice(2);
const noPrompts = args.includes('--no-prompts');
const noTranscript = args.includes('--no-transcript');
const inProcess = args.includes('--in-process');
const decisions = args.includes('--decisions');
const codexAsHooked = args.includes('--codex-as-hooked');
const hookCommand = inProcess ? (await import(pathToFileURL(join(root, 'dist', 'src', 'cli', 'hook-command.js')).href)).hookCommand : null;
const versionAt = args.indexOf('--agent-version');
const version = versionAt < 0 ? [] : ['--agent-version', args[versionAt + 1]];
// without --agent-version (versionAt -1) no argument is its value: the first file is a file
const FLAGS = new Set(['--no-prompts', '--no-transcript', '--in-process', '--decisions', '--codex-as-hooked']);
const files = args.filter((a, i) => !FLAGS.has(a) && (versionAt < 0 || (i !== versionAt && i !== versionAt + 1)));
const SHELLS = new Set(['shell', 'shell_command', 'exec_command', 'local_shell', 'container.exec']);

const text = (r) => (typeof r === 'string' ? r : r === undefined ? '' : JSON.stringify(r));
const command = (a) => (typeof a?.cmd === 'string' ? a.cmd : Array.isArray(a?.command) ? a.command.join(' ') : typeof a?.command === 'string' ? a.command : JSON.stringify(a));

/** The hook payloads of one call (before, after) for `agent`, or null when the agent hooks no such tool. */
function payloads(agent, base, e, failed, n) {
  if (agent === 'claude-code') {
    const id = `toolu_replay_${n}`;
    const before = { ...base, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: e.tool, tool_input: e.args ?? {}, tool_use_id: id };
    const after = failed
      ? { ...base, permission_mode: 'default', hook_event_name: 'PostToolUseFailure', tool_name: e.tool, tool_input: e.args ?? {}, tool_use_id: id, error: text(e.result ?? e.error), is_interrupt: false }
      : { ...base, permission_mode: 'default', hook_event_name: 'PostToolUse', tool_name: e.tool, tool_input: e.args ?? {}, tool_use_id: id, tool_response: e.tool === 'Bash' ? { stdout: text(e.result), stderr: '', interrupted: false, isImage: false } : e.result ?? '' };
    return [before, after];
  }
  if (agent === 'codex') {
    const shell = SHELLS.has(e.tool);
    if (!shell && e.tool !== 'apply_patch' && !e.tool.startsWith('mcp__')) return null;
    const tool = shell ? 'Bash' : e.tool;
    const input = shell ? { command: command(e.args) } : e.args ?? {};
    const more = { turn_id: `turn-${n}`, model: 'gpt-5-codex', permission_mode: 'default', tool_name: tool, tool_input: input, tool_use_id: `call_replay_${n}` };
    const response = shell ? `Exit code: ${failed ? 1 : 0}\nWall time: 0.1 seconds\nOutput:\n${text(e.result)}` : text(e.result);
    return [{ ...base, hook_event_name: 'PreToolUse', ...more }, { ...base, hook_event_name: 'PostToolUse', ...more, tool_response: response }];
  }
  const input = e.args ?? {};
  const response = failed ? { llmContent: text(e.result), returnDisplay: text(e.result), error: { message: text(e.result), type: 'tool_error' } } : { llmContent: text(e.result), returnDisplay: text(e.result) };
  return [{ ...base, hook_event_name: 'BeforeTool', timestamp: 't', tool_name: e.tool, tool_input: input }, { ...base, hook_event_name: 'AfterTool', timestamp: 't', tool_name: e.tool, tool_input: input, tool_response: response }];
}

const prompt = (agent, ids, n, text) => {
  const base = { ...ids, prompt: text ?? `prompt ${n}` };
  return agent === 'gemini' ? { ...base, hook_event_name: 'BeforeAgent', timestamp: 't' } : agent === 'codex' ? { ...base, hook_event_name: 'UserPromptSubmit', turn_id: `p-${n}`, model: 'gpt-5-codex', permission_mode: 'default' } : { ...base, hook_event_name: 'UserPromptSubmit', permission_mode: 'default' };
};

/**
 * The transcript the agent would write (see the header), and the payloads' common fields naming it: for
 * Claude Code a subagent's session (`<session>/agent-<id>`) is the session's `session_id` and its `agent_id`.
 */
function transcriptOf(agent, session, state) {
  const sub = agent === 'claude-code' ? /^(.+)\/agent-([A-Za-z0-9_-]+)$/.exec(session) : null;
  const root = join(state, 'transcripts');
  const id = sub === null ? session : sub[1];
  const name = id.replace(/[^A-Za-z0-9_.-]/g, '_');
  const path = noTranscript || agent === 'gemini' ? '/nonexistent/transcript.jsonl' : join(root, `${name}.jsonl`);
  const own = sub === null ? path : join(root, name, 'subagents', `agent-${sub[2]}.jsonl`);
  const ids = { session_id: id, ...(sub === null ? {} : { agent_id: sub[2] }), transcript_path: path, cwd: '/nonexistent/project' };
  const write = (o) => {
    if (path.startsWith('/nonexistent/')) return;
    mkdirSync(dirname(own), { recursive: true });
    appendFileSync(own, `${JSON.stringify(o)}\n`);
  };
  let held = [];
  return {
    ids,
    prompt() {
      for (const o of held) write(o);
      held = [];
      if (agent === 'codex') write({ type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'prompt' }] } });
    },
    /** The lines of one model turn's calls (`payloads`: their PreToolUse payloads), the previous turn's outputs first (Codex). */
    message(turn, payloads, events) {
      for (const o of held) write(o);
      held = [];
      for (const [k, payload] of payloads.entries()) {
        const e = events[k];
        if (agent === 'codex' && !codexAsHooked && SHELLS.has(e.tool)) {
          // the shell call as the rollout records it (its arguments as the reader read them)
          write({ type: 'response_item', payload: e.tool === 'local_shell' ? { type: 'local_shell_call', call_id: payload.tool_use_id, action: e.args } : { type: 'function_call', name: e.tool, arguments: JSON.stringify(e.args ?? {}), call_id: payload.tool_use_id } });
          continue;
        }
        if (agent === 'claude-code') write({ type: 'assistant', message: { id: `msg_replay_${turn}`, role: 'assistant', content: [{ type: 'tool_use', id: payload.tool_use_id, name: payload.tool_name, input: payload.tool_input }] } });
        else if (agent === 'codex') write({ type: 'response_item', payload: { type: 'function_call', name: payload.tool_name, arguments: JSON.stringify(payload.tool_input), call_id: payload.tool_use_id } });
      }
    },
    result(payload) {
      const out = text(payload.tool_response ?? payload.error);
      if (agent === 'claude-code') write({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: payload.tool_use_id, content: out }] } });
      else if (agent === 'codex') held.push({ type: 'response_item', payload: { type: 'function_call_output', call_id: payload.tool_use_id, output: out } });
    },
  };
}

/** One hook call through the built command in this process: its status, stdout and stderr, as spawnSync gives them. */
async function inProcessRun(hookArgs, payload) {
  const input = Buffer.from(JSON.stringify(payload), 'utf8');
  let stdout = '';
  let stderr = '';
  const status = await hookCommand(hookArgs, {
    env: hookEnv,
    cwd: process.cwd(),
    script: join(root, 'dist', 'src', 'bin', 'loopwatch.js'),
    stdout: { write: (t) => (stdout += t) },
    stderr: { write: (t) => (stderr += t) },
    readInput: async (max) => (input.length > max ? null : input),
    inputIsTTY: false,
  });
  return { status, stdout, stderr };
}

function decisionOf(out) {
  if (out.trim() === '') return 'allow';
  const o = JSON.parse(out);
  const h = o.hookSpecificOutput ?? {};
  if (o.continue === false) return 'stop';
  if (h.permissionDecision === 'deny' || o.decision === 'deny' || o.decision === 'block') return 'deny';
  if (h.permissionDecision === 'ask' || o.decision === 'ask') return 'ask';
  return h.additionalContext !== undefined || o.systemMessage !== undefined ? 'warn' : 'allow';
}

for (const file of files) {
  const agent = file.includes('/codex/') ? 'codex' : file.includes('/gemini-cli/') ? 'gemini' : 'claude-code';
  // the file's session: its first one not a Claude Code subagent's (a 1.0 transcript holds its subagents' lines
  // too, and one may come first), else its first
  const bySession = new Map();
  for await (const it of readInputs([file])) if (it.kind === 'call') {
    if (!bySession.has(it.session)) bySession.set(it.session, []);
    bySession.get(it.session).push(it);
  }
  const sessions = new Set(bySession.keys());
  const session = [...sessions].find((s) => !CLAUDE_SUBAGENT.test(s)) ?? [...sessions][0];
  const calls = bySession.get(session) ?? [];
  if (session === undefined) {
    // a chat without a tool call (or a file of no session loopwatch reads): nothing to send
    console.log(`${file} ${agent} no calls`);
    continue;
  }
  // the prompts as session-marks.mjs reads them (each call id once, a subagent's lines apart), when they fit
  const m = noPrompts ? {} : marksOf(marks(file), session, calls.length, sessions.size);
  const fits = m.marks !== undefined;
  const order = fits ? m.marks : calls.map(() => CALL);
  const state = mkdtempSync(join(tmpdir(), 'loopwatch-hook-replay-'));
  const log = transcriptOf(agent, session, state);
  const first = {};
  const said = {};
  const stderr = [];
  let sent = 0;
  let c = 0;
  let p = 0;
  let written;
  const turnOf = (k) => (calls[k].event.round === undefined ? `solo-${k}` : `r${calls[k].event.round}`);
  /** The PreToolUse payloads of the calls of call k's turn, from k on (consecutive calls of its round). */
  const turnPayloads = (k) => {
    const out = [];
    const events = [];
    for (let j = k; j < calls.length && turnOf(j) === turnOf(k); j++) {
      const pl = payloads(agent, log.ids, calls[j].event, calls[j].errorInfo === 'known', j + 1);
      if (pl !== null) {
        out.push(pl[0]);
        events.push(calls[j].event);
      }
    }
    return [out, events];
  };
  const hookArgs = ['--agent', agent, '--state-dir', state, ...version];
  const run = async (payload) => {
    const r = inProcess ? await inProcessRun(hookArgs, payload) : spawnSync(process.execPath, [hook, ...hookArgs], { input: JSON.stringify(payload), encoding: 'utf8', env: hookEnv });
    if (r.stderr.trim() !== '') stderr.push(r.stderr.trim().split('\n')[0]);
    if (r.status !== 0) stderr.push(`exit ${r.status}`);
    return { decision: decisionOf(r.stdout), stdout: r.stdout };
  };
  try {
    for (const x of order) {
      if (x !== CALL) {
        log.prompt();
        const r = await run(prompt(agent, log.ids, p++, x.text));
        if (decisions && r.decision !== 'allow') console.log(`DEC prompt ${r.decision} ${JSON.stringify(r.stdout.trim().slice(0, 300))}`);
        continue;
      }
      const it = calls[c++];
      const pl = payloads(agent, log.ids, it.event, it.errorInfo === 'known', c);
      if (pl === null) continue;
      sent++;
      // Codex writes a call's item into the rollout before it runs the tool (so before PreToolUse)
      const early = agent === 'codex' && !codexAsHooked;
      for (const [i, payload] of pl.entries()) {
        if (early && i === 0 && turnOf(c - 1) !== written) {
          written = turnOf(c - 1);
          log.message(written, ...turnPayloads(c - 1));
        }
        const r = await run(payload);
        const d = r.decision;
        // the turn's lines land after its first call's PreToolUse (Claude Code writes the message then)
        if (i === 0 && turnOf(c - 1) !== written) {
          written = turnOf(c - 1);
          log.message(written, ...turnPayloads(c - 1));
        }
        if (i === 1) log.result(payload);
        if (d !== 'allow') said[d] = (said[d] ?? 0) + 1;
        if (decisions && d !== 'allow') console.log(`DEC ${sent} ${i} ${d} ${it.event.tool} ${JSON.stringify(r.stdout.trim().slice(0, 300))}`);
        if (d !== 'allow' && first[d] === undefined) first[d] = `#${sent}${i === 1 ? ' (after)' : ''} ${it.event.tool}`;
      }
    }
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
  const firsts = Object.entries(first).map(([d, at]) => `${d} ${at}`).join(', ') || 'quiet';
  const counts = Object.keys(said).length === 0 ? '' : ` (said: ${Object.entries(said).map(([d, n]) => `${n} ${d}`).join(', ')})`;
  console.log(`${session} ${agent} ${fits ? `${p} prompts` : 'no prompts'}, ${sent} of ${calls.length} calls sent: ${firsts}${counts}${stderr.length ? `; stderr: ${[...new Set(stderr)].slice(0, 3).join(' | ')}` : ''}`);
}
