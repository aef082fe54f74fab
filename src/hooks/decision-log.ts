/**
 * The hooks' optional decision log: one JSON line per decision, redacted, appended to a file the user
 * names (`loopwatch hook --log FILE`, or `LOOPWATCH_DECISION_LOG=FILE` in the agent's environment). Off
 * unless asked for.
 *
 * Each line is the hook payload as Claude Code sends it, whatever the agent (`hook_event_name` PreToolUse,
 * PostToolUse or PostToolUseFailure; `session_id`, `tool_name`, `tool_input`, `tool_use_id`, and after the
 * call `tool_response` or `error`, as the hook read them: capped, volatile fields left out), with the time,
 * the agent and loopwatch's decision beside it:
 *
 * ```
 * {"time":"2026-12-04T14:40:09.120Z","agent":"codex","hook_event_name":"PreToolUse","session_id":"s1","tool_name":"Bash",
 *  "tool_input":{"command":"npm test"},"tool_use_id":"call_7","loopwatch":{"action":"warn","kind":"exact_repeat","message":"..."}}
 * ```
 *
 * So `loopwatch scan LOG` and `loopwatch explain SESSION LOG` read the log as a hook payload log: every
 * call of the session with its outcome, paired as the hooks paired them (a call denied before it ran has
 * none). A call the hooks could not check is logged too, `"unchecked"` saying why. Calls Claude Code says did
 * not run are logged as its payload named them, `"notRun": true` beside: a `PermissionDenied` line, and a
 * `PostToolBatch` line holding only the batch's calls that were still waiting (did not run), each with the
 * text the model read as `tool_response` (so `scan` forgets them as the hook did:
 * src/formats/hook-payloads.ts); none for a batch whose calls all ran. The file is opened
 * O_APPEND (one write per line: hooks of a session in parallel do not interleave lines), created 0600, and
 * written only when it is a regular file of the user's that others cannot write (not a symbolic link), empty or
 * begun by a decision line ({@link LOG_LINE_START}: never another file of the user's, `~/.bashrc`). One
 * that others can read (made earlier with the umask's 0644, `touch`) is made 0600 before the line is
 * written, said once: it holds the session's commands. A log that a line would take past
 * {@link decisionLogCap} (64 MiB, or `LOOPWATCH_DECISION_LOG_MAX_BYTES`, at least 1 MiB) is renamed to `FILE.1` (replacing the one before: the name itself, never
 * what a link planted there points to) and a new one begun, said on stderr: a looping agent's log holds at
 * most two files' worth.
 */
import { BYTE_SIZE_SPELLING, parseByteSize } from '../text/byte-size.js';
import { closeSync, constants, existsSync, fchmodSync, fstatSync, lstatSync, openSync, readSync, renameSync, type Stats, writeSync } from 'node:fs';
import type { LiveAction, LiveDecision } from '../live/live-call.js';
import type { Verdict } from '../types.js';
import { fileFailure } from '../text/file-failure.js';
import { redactSecrets } from '../text/redact.js';
import { cutText } from '../text/shown-text.js';
import { jsonSafe } from '../text/terminal-text.js';
import { type HookCall, declinedCalls } from './hook-agent.js';
import { O_NOFOLLOW, modeText, notPrivate, userId } from './private-path.js';

/** The environment variable naming the decision log (when `--log` is not given). */
export const DECISION_LOG_ENV = 'LOOPWATCH_DECISION_LOG';
/** Largest decision log by default, in bytes (64 MiB): a line that would take it past this moves it to `FILE.1` first. */
export const MAX_DECISION_LOG_BYTES = 64 * 1024 * 1024;
/** The environment variable that sets the largest decision log: bytes, or with `K`, `M` or `G` (KiB, MiB, GiB). */
export const DECISION_LOG_MAX_ENV = 'LOOPWATCH_DECISION_LOG_MAX_BYTES';
/** Least largest decision log (1 MiB): a smaller setting is taken as this, so a line of {@link MAX_LOG_LINE} always fits. */
export const MIN_DECISION_LOG_BYTES = 1024 * 1024;

/**
 * The largest decision log in force: `LOOPWATCH_DECISION_LOG_MAX_BYTES` (`50000000`, `16M`, `2G`: read as
 * every byte flag is, src/text/byte-size.ts), at least {@link MIN_DECISION_LOG_BYTES};
 * {@link MAX_DECISION_LOG_BYTES} when unset or not such a size.
 */
export function decisionLogCap(env: NodeJS.ProcessEnv = process.env): number {
  const n = parseByteSize(env[DECISION_LOG_MAX_ENV] ?? '');
  return n === null ? MAX_DECISION_LOG_BYTES : Math.max(MIN_DECISION_LOG_BYTES, n);
}
/** Characters of a bad {@link DECISION_LOG_MAX_ENV} value quoted in its problem. */
const SHOWN_VALUE = 40;

/**
 * What is wrong with `LOOPWATCH_DECISION_LOG_MAX_BYTES` in `env`: a value that is not a size (it is then
 * taken as 64 MiB, {@link decisionLogCap}); null when it is unset, blank or a size.
 */
export function decisionLogCapProblem(env: NodeJS.ProcessEnv = process.env): string | null {
  const value = env[DECISION_LOG_MAX_ENV] ?? '';
  if (value.trim() === '' || parseByteSize(value) !== null) return null;
  return `${DECISION_LOG_MAX_ENV}=${JSON.stringify(cutText(value, SHOWN_VALUE))} is not a size (${BYTE_SIZE_SPELLING}); the decision log is kept under 64 MiB`;
}
/** A line longer than this (characters) logs its call's input and outcome as a note of their size instead. */
export const MAX_LOG_LINE = 256 * 1024;

/** What the hook answered, as logged. */
export interface LoggedDecision {
  readonly action: LiveAction;
  readonly message?: string;
  /** The kind of loop behind it, when there was one. */
  readonly kind?: string;
  /** Why the call was not checked, when it was not. */
  readonly unchecked?: string;
  /** The calls the line names did not run (Claude Code's PermissionDenied, a batch's declined calls). */
  readonly notRun?: true;
  /** The verdict (its `kind`) repeated what the hook last said to the session, and was not said again (said-once.ts). */
  readonly repeat?: true;
}

/** `value` with every string redacted (keys too): used when the line's JSON text could not be redacted whole. */
function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (typeof value !== 'object' || value === null || depth > 64) return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[redactSecrets(k)] = redactValue(v, depth + 1);
  return out;
}

/**
 * One JSON text, redacted: as a whole (the rules see `"password": "..."` pairs), else value by value; what
 * JSON leaves raw that a terminal acts on (C1, DEL, bidirectional controls: a `tail -f` of the log) as
 * `\uXXXX`, which `scan` reads back as the same characters.
 */
function redactedJson(line: Record<string, unknown>): string {
  const text = JSON.stringify(line);
  const redacted = redactSecrets(text);
  if (redacted === text) return jsonSafe(text);
  try {
    JSON.parse(redacted);
    return jsonSafe(redacted);
  } catch {
    return jsonSafe(JSON.stringify(redactValue(line)));
  }
}

/** Characters of a declined call's text kept when its line would be too long (Claude Code's wording is shorter). */
const DECLINED_TEXT_KEPT = 512;

/**
 * The log line of a `decline` (ends with a newline): Claude Code's PermissionDenied with its call, or its
 * PostToolBatch with its calls that did not run, each with its text (past {@link MAX_LOG_LINE}: inputs left out,
 * texts cut to {@link DECLINED_TEXT_KEPT} characters).
 */
function declineLine(call: HookCall, decision: LoggedDecision, now: number): string {
  const calls = declinedCalls(call);
  const input = (c: (typeof calls)[number], full: boolean): unknown => (full ? c.args : { '[loopwatch]': `an input of ${JSON.stringify(c.args ?? null).length} characters left out` });
  const build = (full: boolean): Record<string, unknown> => {
    const head = { time: new Date(now).toISOString(), agent: call.agent, hook_event_name: call.eventName, session_id: call.session };
    if (call.declined === undefined) {
      const c = call.call;
      return { ...head, tool_name: c.tool, tool_input: input(c, full), ...(c.id === undefined ? {} : { tool_use_id: c.id }), loopwatch: decision };
    }
    const text = (r: unknown): unknown => (full || typeof r !== 'string' ? r : cutText(r, DECLINED_TEXT_KEPT));
    return { ...head, tool_calls: calls.map((c) => ({ tool_name: c.tool, tool_input: input(c, full), ...(c.id === undefined ? {} : { tool_use_id: c.id }), tool_response: text(c.result) })), loopwatch: decision };
  };
  const line = redactedJson(build(true));
  return `${line.length <= MAX_LOG_LINE ? line : redactedJson(build(false))}\n`;
}

/** The log line of `decision` on `call` (ends with a newline). */
export function decisionLine(call: HookCall, decision: LoggedDecision, now = Date.now()): string {
  if (call.phase === 'decline') return declineLine(call, decision, now);
  const c = call.call;
  const event = call.phase === 'propose' ? 'PreToolUse' : c.error !== undefined && c.error !== null && c.error !== false && c.error !== '' ? 'PostToolUseFailure' : 'PostToolUse';
  const outcome = (full: boolean): Record<string, unknown> => {
    if (call.phase !== 'record') return {};
    if (event === 'PostToolUseFailure') return { error: full ? c.error : `[loopwatch: an error of ${JSON.stringify(c.error).length} characters left out]` };
    return c.result === undefined ? {} : { tool_response: full ? c.result : `[loopwatch: a result of ${JSON.stringify(c.result).length} characters left out]` };
  };
  const build = (full: boolean): Record<string, unknown> => ({
    time: new Date(now).toISOString(),
    agent: call.agent,
    hook_event_name: event,
    session_id: call.session,
    tool_name: c.tool,
    tool_input: full ? c.args : { '[loopwatch]': `an input of ${JSON.stringify(c.args ?? null).length} characters left out` },
    ...(c.id === undefined ? {} : { tool_use_id: c.id }),
    ...outcome(full),
    loopwatch: decision,
  });
  const line = redactedJson(build(true));
  return `${line.length <= MAX_LOG_LINE ? line : redactedJson(build(false))}\n`;
}

/**
 * How every decision log begins: each line is a JSON object whose first member is its time, and a log is
 * only ever begun by one of its lines (made empty, or moved aside and begun again).
 */
export const LOG_LINE_START = '{"time":"';

/**
 * Why the file open on `fd` (`size` bytes) is not a decision log to append to, or null: an empty file is one
 * (`touch`ed for it), a file of loopwatch's lines too; any other file of the user's (`~/.bashrc`,
 * `~/.ssh/authorized_keys`) is not, whatever named it. The log is named by a flag or by the agent's
 * environment, which a project can set (Gemini CLI loads a project's `.env`): a line appended to a shell's
 * start-up file would be run by the next shell (`$(...)` in a command the agent proposed).
 */
function notALog(fd: number, size: number): string | null {
  if (size === 0) return null;
  const head = Buffer.alloc(LOG_LINE_START.length);
  const n = readSync(fd, head, 0, head.length, 0);
  if (n === head.length && head.toString('latin1') === LOG_LINE_START) return null;
  return `it holds ${size} bytes that are not a decision log (its lines begin ${JSON.stringify(LOG_LINE_START)}): a file of the user's is never appended to; name a new or empty file`;
}

/** Opens the log at `path` to append (read too: how it begins is looked at; made 0600, never through a link, never blocking); the descriptor, or why not. */
function openLog(path: string): number | string {
  try {
    return openSync(path, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | O_NOFOLLOW | (constants.O_NONBLOCK ?? 0), 0o600);
  } catch (e) {
    return `the decision log ${path} cannot be written (${inWords(e, existsSync(path) ? 'file' : 'folder')}`;
  }
}

/**
 * Why the log could not be written, in words (text/file-failure.ts), closing the parenthesis it is said in,
 * then what to do when a person can act on it (`permission denied); make the folder writable by you (...)`),
 * in place of a bare `EACCES)`.
 */
function inWords(e: unknown, of: 'folder' | 'file'): string {
  const f = fileFailure(e, of);
  return f.fix === null ? `${f.why})` : `${f.why}); ${f.fix}`;
}

/** Whether `path` still names the file `st` is of (another hook may have moved it aside meanwhile). */
function stillNames(path: string, st: Stats): boolean {
  try {
    const now = lstatSync(path);
    return now.ino === st.ino && now.dev === st.dev;
  } catch {
    return false;
  }
}

/**
 * Appends `line` to the log at `path`, first moving a log it would take past `maxBytes` to `path.1`; returns
 * why it could not, or that the file was made private or moved aside (for one line on stderr), or null.
 */
export function appendDecisionLine(path: string, line: string, maxBytes: number = decisionLogCap()): string | null {
  let fd = openLog(path);
  if (typeof fd === 'string') return fd;
  const said: string[] = [];
  try {
    let st = fstatSync(fd);
    const why = st.isFile() ? (notPrivate(st) ?? notALog(fd, st.size)) : 'it is not a regular file';
    if (why !== null) return `the decision log ${path} is not written: ${why}`;
    const bytes = Buffer.byteLength(line);
    if (st.size > 0 && st.size + bytes > maxBytes) {
      // the name moved, not the file's bytes copied; a hook that moved it first is followed, not moved again
      if (stillNames(path, st)) {
        try {
          renameSync(path, `${path}.1`);
          said.push(`the decision log ${path} reached ${st.size} bytes: moved to ${path}.1 (replacing the one before), a new log begun`);
        } catch (e) {
          const f = fileFailure(e);
          return `the decision log ${path} is full (${st.size} bytes) and cannot be moved to ${path}.1 (${f.why}): no more lines are written to it${f.fix === null ? '' : `; ${f.fix}`}`;
        }
      }
      closeSync(fd);
      fd = openLog(path);
      if (typeof fd === 'string') return fd;
      st = fstatSync(fd);
      const again = st.isFile() ? (notPrivate(st) ?? notALog(fd, st.size)) : 'it is not a regular file';
      if (again !== null) return `the decision log ${path} is not written: ${again}`;
    }
    const open = userId() !== null && (st.mode & 0o077) !== 0;
    if (open) fchmodSync(fd, st.mode & 0o700); // others read nothing more from here on (mode bits 0600 as made)
    writeSync(fd, line);
    if (open) said.push(`the decision log ${path} could be read by others (mode ${modeText(st)}): made ${modeText({ mode: st.mode & 0o700 })}`);
    return said.length === 0 ? null : said.join('; ');
  } catch (e) {
    return `the decision log ${path} cannot be written (${inWords(e, 'folder')}`;
  } finally {
    if (typeof fd === 'number') closeSync(fd);
  }
}

/** A decision as the decision log writes it: its action, and its message and kind when it has them. */
export function loggedDecision(d: LiveDecision): LoggedDecision {
  return { action: d.action, ...(d.message === undefined ? {} : { message: d.message }), ...(d.verdict === null ? {} : { kind: d.verdict.kind }) };
}

/**
 * A decision as logged once the hook said it or kept it quiet (said-once.ts): `repeat`, the verdict kept quiet,
 * logs as `allow` with its kind and `repeat: true`; else loggedDecision.
 */
export function loggedSpoken(d: LiveDecision, repeat: Verdict | undefined): LoggedDecision {
  return repeat === undefined ? loggedDecision(d) : { action: d.action, kind: repeat.kind, repeat: true };
}
